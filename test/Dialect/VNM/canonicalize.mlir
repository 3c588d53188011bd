// Folds that hold for every input, and the ones that must not happen.
// RUN: vnm-opt %s --canonicalize | FileCheck %s

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// CHECK-LABEL: func @compress_of_decompress
// CHECK-SAME: (%[[S:.*]]: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>)
// CHECK-NEXT: return %[[S]]
func.func @compress_of_decompress(%s: !enc) -> !enc {
  %d = vnm.decompress %s : !enc -> tensor<128x64xf16>
  %c = vnm.compress %d : tensor<128x64xf16> -> !enc
  return %c : !enc
}


// decompress(compress(x)) is prune(x), not x: it must stay.
// CHECK-LABEL: func @decompress_of_compress
// CHECK: %[[C:.*]] = vnm.compress
// CHECK: %[[D:.*]] = vnm.decompress %[[C]]
// CHECK: return %[[D]]
func.func @decompress_of_compress(%w: tensor<128x64xf16>) -> tensor<128x64xf16> {
  %c = vnm.compress %w : tensor<128x64xf16> -> !enc
  %d = vnm.decompress %c : !enc -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}


// A different encoding is a different pruning: no fold.
// CHECK-LABEL: func @compress_of_decompress_other_encoding
// CHECK: vnm.decompress
// CHECK: vnm.compress
func.func @compress_of_decompress_other_encoding(%s: !enc)
    -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 16>> {
  %d = vnm.decompress %s : !enc -> tensor<128x64xf16>
  %c = vnm.compress %d : tensor<128x64xf16>
      -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 16>>
  return %c : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 16>>
}


// CHECK-LABEL: func @prune_of_prune
// CHECK: %[[P:.*]] = vnm.prune
// CHECK-NOT: vnm.prune
// CHECK: return %[[P]]
func.func @prune_of_prune(%w: tensor<128x64xf16>) -> tensor<128x64xf16> {
  %p = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<128x64xf16> -> tensor<128x64xf16>
  %q = vnm.prune %p {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<128x64xf16> -> tensor<128x64xf16>
  return %q : tensor<128x64xf16>
}


// CHECK-LABEL: func @prune_of_prune_other_encoding
// CHECK: vnm.prune
// CHECK: vnm.prune
func.func @prune_of_prune_other_encoding(%w: tensor<128x64xf16>)
    -> tensor<128x64xf16> {
  %p = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<128x64xf16> -> tensor<128x64xf16>
  %q = vnm.prune %p {encoding = #vnm.encoding<v = 64, n = 2, m = 16>}
      : tensor<128x64xf16> -> tensor<128x64xf16>
  return %q : tensor<128x64xf16>
}


// CHECK-LABEL: func @disassemble_of_assemble
// CHECK-SAME: (%[[V:[^:]*]]: {{[^,]*}}, %[[C:[^:]*]]: {{[^,]*}}, %[[M:[^:]*]]: {{[^)]*}})
// CHECK-NEXT: return %[[V]], %[[C]], %[[M]]
func.func @disassemble_of_assemble(%v: tensor<128x16xf16>,
    %c: tensor<2x8x4xi8>, %m: tensor<128x16xi8>)
    -> (tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>) {
  %s = vnm.assemble %v, %c, %m
      : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8> -> !enc
  %v2, %c2, %m2 = vnm.disassemble %s
      : !enc -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
  return %v2, %c2, %m2 : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
}


// Types differ (static vs dynamic): the fold would change them, so it stays.
// CHECK-LABEL: func @disassemble_of_assemble_type_change
// CHECK: vnm.assemble
// CHECK: vnm.disassemble
func.func @disassemble_of_assemble_type_change(%v: tensor<?x16xf16>,
    %c: tensor<2x8x4xi8>, %m: tensor<128x16xi8>)
    -> (tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>) {
  %s = vnm.assemble %v, %c, %m
      : tensor<?x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8> -> !enc
  %v2, %c2, %m2 = vnm.disassemble %s
      : !enc -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
  return %v2, %c2, %m2 : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
}


// CHECK-LABEL: func @assemble_of_disassemble
// CHECK-SAME: (%[[S:.*]]: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>)
// CHECK-NEXT: return %[[S]]
func.func @assemble_of_disassemble(%s: !enc) -> !enc {
  %v, %c, %m = vnm.disassemble %s
      : !enc -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
  %t = vnm.assemble %v, %c, %m
      : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8> -> !enc
  return %t : !enc
}


// Arrays from two different matrices: no fold.
// CHECK-LABEL: func @assemble_of_mixed_disassembles
// CHECK: vnm.assemble
func.func @assemble_of_mixed_disassembles(%s: !enc, %r: !enc) -> !enc {
  %v, %c, %m = vnm.disassemble %s
      : !enc -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
  %v2, %c2, %m2 = vnm.disassemble %r
      : !enc -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
  %t = vnm.assemble %v, %c2, %m
      : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8> -> !enc
  return %t : !enc
}


// Unused pure ops are erased.
// CHECK-LABEL: func @dead_spmm
// CHECK-NEXT: return
func.func @dead_spmm(%w: !enc, %x: tensor<64x8xf16>) {
  %y = vnm.spmm %w, %x : !enc, tensor<64x8xf16> -> tensor<128x8xf32>
  return
}
