// Every vnm op and attribute round-trips in custom and in generic form.
// RUN: vnm-opt %s | vnm-opt | FileCheck %s
// RUN: vnm-opt %s --mlir-print-op-generic | vnm-opt | FileCheck %s
// RUN: vnm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!values = tensor<128x16xf16>
!colidx = tensor<2x8x4xi8>
!meta = tensor<128x16xi8>

// CHECK-LABEL: func @encodings
// CHECK-SAME: #vnm.encoding<v = 16, n = 1, m = 4>
// CHECK-SAME: #vnm.encoding<v = 256, n = 2, m = 32>
// CHECK-SAME: #vnm.encoding<v = 32, n = 2, m = 5>
// CHECK-SAME: tensor<100x30xbf16, #vnm.encoding<v = 128, n = 2, m = 16>>
// CHECK-SAME: tensor<64x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK-SAME: tensor<64x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK-SAME: tensor<64x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @encodings(
    %a: tensor<16x4xf16, #vnm.encoding<v = 16, n = 1, m = 4>>,
    %b: tensor<256x32xf16, #vnm.encoding<v = 256, n = 2, m = 32>>,
    %c: tensor<33x7xf16, #vnm.encoding<v = 32, n = 2, m = 5>>,
    %d: tensor<100x30xbf16, #vnm.encoding<v = 128, n = 2, m = 16>>,
    %e: tensor<64x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>,
    %f: tensor<64x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>,
    %g: tensor<64x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  return
}

// CHECK-LABEL: func @prune
// CHECK: vnm.prune %{{.*}} {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} : tensor<128x64xf16> -> tensor<128x64xf16>
// CHECK: vnm.prune %{{.*}} {encoding = #vnm.encoding<v = 16, n = 1, m = 7>} : tensor<?x?xf32> -> tensor<?x?xf32>
// GENERIC-LABEL: sym_name = "prune"
// GENERIC: "vnm.prune"(%{{.*}}) <{encoding = #vnm.encoding<v = 64, n = 2, m = 8>}> : (tensor<128x64xf16>) -> tensor<128x64xf16>
func.func @prune(%w: tensor<128x64xf16>, %x: tensor<?x?xf32>)
    -> (tensor<128x64xf16>, tensor<?x?xf32>) {
  %0 = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<128x64xf16> -> tensor<128x64xf16>
  %1 = vnm.prune %x {encoding = #vnm.encoding<v = 16, n = 1, m = 7>}
      : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0, %1 : tensor<128x64xf16>, tensor<?x?xf32>
}

// CHECK-LABEL: func @compress_decompress
// CHECK: %[[S:.*]] = vnm.compress %{{.*}} : tensor<128x64xf16> -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK: vnm.decompress %[[S]] : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>> -> tensor<128x64xf16>
// GENERIC-LABEL: sym_name = "compress_decompress"
// GENERIC: "vnm.compress"
// GENERIC: "vnm.decompress"
func.func @compress_decompress(%w: tensor<128x64xf16>) -> tensor<128x64xf16> {
  %s = vnm.compress %w : tensor<128x64xf16> -> !enc
  %d = vnm.decompress %s : !enc -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}

// Ragged rows and columns: 100 rows are 2 blocks of 64, 30 columns are
// 2 groups of 16.
// CHECK-LABEL: func @assemble_disassemble
// CHECK: %[[S:.*]] = vnm.assemble %{{.*}}, %{{.*}}, %{{.*}} : tensor<100x4xbf16>, tensor<2x2x4xi8>, tensor<100x4xi8> -> tensor<100x30xbf16, #vnm.encoding<v = 64, n = 2, m = 16>>
// CHECK: vnm.disassemble %[[S]] : tensor<100x30xbf16, #vnm.encoding<v = 64, n = 2, m = 16>> -> tensor<100x4xbf16>, tensor<2x2x4xi8>, tensor<100x4xi8>
// GENERIC-LABEL: sym_name = "assemble_disassemble"
// GENERIC: "vnm.assemble"
// GENERIC: "vnm.disassemble"
func.func @assemble_disassemble(%v: tensor<100x4xbf16>, %c: tensor<2x2x4xi8>,
                                %m: tensor<100x4xi8>)
    -> (tensor<100x4xbf16>, tensor<2x2x4xi8>, tensor<100x4xi8>) {
  %s = vnm.assemble %v, %c, %m
      : tensor<100x4xbf16>, tensor<2x2x4xi8>, tensor<100x4xi8>
      -> tensor<100x30xbf16, #vnm.encoding<v = 64, n = 2, m = 16>>
  %v2, %c2, %m2 = vnm.disassemble %s
      : tensor<100x30xbf16, #vnm.encoding<v = 64, n = 2, m = 16>>
      -> tensor<100x4xbf16>, tensor<2x2x4xi8>, tensor<100x4xi8>
  return %v2, %c2, %m2 : tensor<100x4xbf16>, tensor<2x2x4xi8>, tensor<100x4xi8>
}

// CHECK-LABEL: func @spmm
// CHECK: vnm.spmm %{{.*}}, %{{.*}} : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf16>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} acc(%{{.*}} : tensor<128x?xf32>) bias(%{{.*}} : tensor<128xf32>) {activation = #vnm.activation<relu>} : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xf16> -> tensor<128x?xf32>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<128xbf16>) {activation = #vnm.activation<gelu>} : tensor<128x64xbf16, #vnm.encoding<v = 128, n = 1, m = 32>>, tensor<64x8xbf16> -> tensor<128x8xbf16>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} acc(%{{.*}} : tensor<64x16xi32>) {activation = #vnm.activation<relu>} : tensor<64x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x16xi8> -> tensor<64x16xi32>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} : tensor<64x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x16xi4> -> tensor<64x16xi32>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 2, blocks_per_sm = 0>} : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf16>
// GENERIC-LABEL: sym_name = "spmm"
// GENERIC: "vnm.spmm"(%{{.*}}, %{{.*}}) <{activation = #vnm.activation<none>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}>
func.func @spmm(%w: !enc, %x: tensor<64x32xf16>, %xd: tensor<64x?xf16>,
                %acc: tensor<128x?xf32>, %bias: tensor<128xf32>,
                %wb: tensor<128x64xbf16, #vnm.encoding<v = 128, n = 1, m = 32>>,
                %xb: tensor<64x8xbf16>, %bb: tensor<128xbf16>,
                %wi: tensor<64x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>,
                %xi: tensor<64x16xi8>, %ai: tensor<64x16xi32>,
                %w4: tensor<64x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>,
                %x4: tensor<64x16xi4>) {
  %0 = vnm.spmm %w, %x : !enc, tensor<64x32xf16> -> tensor<128x32xf16>
  %1 = vnm.spmm %w, %xd acc(%acc : tensor<128x?xf32>)
      bias(%bias : tensor<128xf32>) {activation = #vnm.activation<relu>}
      : !enc, tensor<64x?xf16> -> tensor<128x?xf32>
  %2 = vnm.spmm %wb, %xb bias(%bb : tensor<128xbf16>)
      {activation = #vnm.activation<gelu>}
      : tensor<128x64xbf16, #vnm.encoding<v = 128, n = 1, m = 32>>,
        tensor<64x8xbf16> -> tensor<128x8xbf16>
  %3 = vnm.spmm %wi, %xi acc(%ai : tensor<64x16xi32>)
      {activation = #vnm.activation<relu>}
      : tensor<64x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>,
        tensor<64x16xi8> -> tensor<64x16xi32>
  %4 = vnm.spmm %w4, %x4
      : tensor<64x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>,
        tensor<64x16xi4> -> tensor<64x16xi32>
  %5 = vnm.spmm %w, %x {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128],
      warps = [4, 2], stages = 2, blocks_per_sm = 0>}
      : !enc, tensor<64x32xf16> -> tensor<128x32xf16>
  return
}

// CHECK-LABEL: func @sddmm
// CHECK: vnm.sddmm %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>> -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
// GENERIC-LABEL: sym_name = "sddmm"
// GENERIC: "vnm.sddmm"
func.func @sddmm(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %p: !enc)
    -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>> {
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>, !enc
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
}

// CHECK-LABEL: func @storage_tensors
// CHECK: vnm.storage.prune ins(%{{.*}} : tensor<128x64xf16>) outs(%{{.*}} : tensor<128x64xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x64xf16>
// CHECK: vnm.storage.compress ins(%{{.*}} : tensor<128x64xf16>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
// CHECK: vnm.storage.decompress ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>) outs(%{{.*}} : tensor<128x64xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x64xf16>
// CHECK: vnm.storage.spmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>, tensor<64x32xf16>) bias(%{{.*}} : tensor<128xf32>) outs(%{{.*}} : tensor<128x32xf32>) {accumulate, activation = #vnm.activation<gelu>, encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x32xf32>
// CHECK: vnm.storage.sddmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf16>, tensor<32x64xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>) outs(%{{.*}} : tensor<128x16xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x16xf32>
// GENERIC-LABEL: sym_name = "storage_tensors"
// GENERIC: "vnm.storage.prune"
// GENERIC: "vnm.storage.compress"
// GENERIC: "vnm.storage.decompress"
// GENERIC: "vnm.storage.spmm"
// GENERIC: "vnm.storage.sddmm"
func.func @storage_tensors(%w: tensor<128x64xf16>, %v: !values, %c: !colidx,
                           %m: !meta, %x: tensor<64x32xf16>,
                           %y: tensor<128x32xf32>, %bias: tensor<128xf32>,
                           %a: tensor<128x32xf16>, %b: tensor<32x64xf16>,
                           %sv: tensor<128x16xf32>) {
  %0 = vnm.storage.prune ins(%w : tensor<128x64xf16>)
      outs(%w : tensor<128x64xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x64xf16>
  %1:3 = vnm.storage.compress ins(%w : tensor<128x64xf16>)
      outs(%v, %c, %m : !values, !colidx, !meta)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      -> !values, !colidx, !meta
  %2 = vnm.storage.decompress ins(%v, %c, %m : !values, !colidx, !meta)
      outs(%w : tensor<128x64xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x64xf16>
  %3 = vnm.storage.spmm
      ins(%v, %c, %m, %x : !values, !colidx, !meta, tensor<64x32xf16>)
      bias(%bias : tensor<128xf32>) outs(%y : tensor<128x32xf32>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, accumulate,
       activation = #vnm.activation<gelu>} -> tensor<128x32xf32>
  %4 = vnm.storage.sddmm
      ins(%a, %b, %c, %m : tensor<128x32xf16>, tensor<32x64xf16>, !colidx,
          !meta)
      outs(%sv : tensor<128x16xf32>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x16xf32>
  return
}

// Memref forms have no results; dynamic sizes are accepted.
// CHECK-LABEL: func @storage_memrefs
// CHECK: vnm.storage.prune ins(%{{.*}} : memref<?x?xf16>) outs(%{{.*}} : memref<?x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
// CHECK-NOT: ->
// CHECK: vnm.storage.compress ins(%{{.*}} : memref<?x64xf16>) outs(%{{.*}}, %{{.*}}, %{{.*}} : memref<?x16xf16>, memref<?x8x4xi8>, memref<?x16xi8>)
// CHECK: vnm.storage.decompress ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<?x16xf16>, memref<?x8x4xi8>, memref<?x16xi8>) outs(%{{.*}} : memref<?x64xf16>)
// CHECK: vnm.storage.spmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?x16xf16>, memref<?x8x4xi8>, memref<?x16xi8>, memref<64x?xf16>) outs(%{{.*}} : memref<?x?xf16>)
// CHECK: vnm.storage.sddmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?x32xbf16>, memref<32x64xbf16>, memref<?x8x4xi8>, memref<?x16xi8>) outs(%{{.*}} : memref<?x16xbf16>)
// GENERIC-LABEL: sym_name = "storage_memrefs"
// GENERIC: "vnm.storage.spmm"({{.*}}) <{activation = #vnm.activation<none>, encoding = #vnm.encoding<v = 64, n = 2, m = 8>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 1>}> : (memref<?x16xf16>, memref<?x8x4xi8>, memref<?x16xi8>, memref<64x?xf16>, memref<?x?xf16>) -> ()
func.func @storage_memrefs(%w: memref<?x?xf16>, %p: memref<?x?xf16>,
                           %d: memref<?x64xf16>, %v: memref<?x16xf16>,
                           %c: memref<?x8x4xi8>, %m: memref<?x16xi8>,
                           %x: memref<64x?xf16>, %y: memref<?x?xf16>,
                           %a: memref<?x32xbf16>, %b: memref<32x64xbf16>,
                           %sv: memref<?x16xbf16>) {
  vnm.storage.prune ins(%w : memref<?x?xf16>) outs(%p : memref<?x?xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  vnm.storage.compress ins(%d : memref<?x64xf16>)
      outs(%v, %c, %m : memref<?x16xf16>, memref<?x8x4xi8>, memref<?x16xi8>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  vnm.storage.decompress
      ins(%v, %c, %m : memref<?x16xf16>, memref<?x8x4xi8>, memref<?x16xi8>)
      outs(%d : memref<?x64xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  vnm.storage.spmm
      ins(%v, %c, %m, %x : memref<?x16xf16>, memref<?x8x4xi8>,
          memref<?x16xi8>, memref<64x?xf16>)
      outs(%y : memref<?x?xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  vnm.storage.sddmm
      ins(%a, %b, %c, %m : memref<?x32xbf16>, memref<32x64xbf16>,
          memref<?x8x4xi8>, memref<?x16xi8>)
      outs(%sv : memref<?x16xbf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// Quantized spmm forms and vnm.quantize (docs/spec.md, "Quantized spmm").
// CHECK-LABEL: func @quantized
// CHECK: vnm.quantize %{{.*}} {axis = 1 : i64} : tensor<64x?xf16> -> tensor<64x?xi8>, tensor<?xf32>
// CHECK: vnm.quantize %{{.*}} : tensor<64x?xf16> -> tensor<64x?xi8>, tensor<f32>
// CHECK: vnm.quantize %{{.*}} {axis = 0 : i64, group_size = 16 : i64} : tensor<128x64xf32> -> tensor<128x64xi4>, tensor<128x4xf32>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} weight_scales(%{{.*}} : tensor<128xf32>) input_scales(%{{.*}} : tensor<?xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xi8> -> tensor<128x?xf16>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<128xbf16>) weight_scales(%{{.*}} : tensor<128x4xf32>) {activation = #vnm.activation<relu>, group_size = 16 : i64} : tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xbf16> -> tensor<128x?xbf16>
// CHECK: vnm.spmm %{{.*}}, %{{.*}} : tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xi8> -> tensor<128x?xi32>
// CHECK: vnm.storage.quantize ins(%{{.*}} : memref<64x?xf16>) outs(%{{.*}}, %{{.*}} : memref<64x?xi8>, memref<?xf32>) {axis = 1 : i64}
// CHECK: vnm.storage.spmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<128x16xi8>, memref<2x8x4xi8>, memref<128x16xi8>, memref<64x?xi8>) weight_scales(%{{.*}} : memref<128x4xf32>) input_scales(%{{.*}} : memref<f32>) outs(%{{.*}} : memref<128x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 16 : i64}
// GENERIC-LABEL: sym_name = "quantized"
// GENERIC: "vnm.spmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{activation = #vnm.activation<none>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 1, 1>}>
func.func @quantized(%x: tensor<64x?xf16>, %w: tensor<128x64xf32>,
                     %wq: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>,
                     %w4: tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>,
                     %sw: tensor<128xf32>, %sg: tensor<128x4xf32>,
                     %xb: tensor<64x?xbf16>, %bias: tensor<128xbf16>,
                     %xm: memref<64x?xf16>, %qm: memref<64x?xi8>,
                     %sm: memref<?xf32>, %v: memref<128x16xi8>,
                     %c: memref<2x8x4xi8>, %m: memref<128x16xi8>,
                     %sgm: memref<128x4xf32>, %sxm: memref<f32>,
                     %y: memref<128x?xf32>) {
  %q, %s = vnm.quantize %x {axis = 1} : tensor<64x?xf16> -> tensor<64x?xi8>, tensor<?xf32>
  %qt, %st = vnm.quantize %x : tensor<64x?xf16> -> tensor<64x?xi8>, tensor<f32>
  %qg, %sgr = vnm.quantize %w {axis = 0, group_size = 16} : tensor<128x64xf32> -> tensor<128x64xi4>, tensor<128x4xf32>
  %y0 = vnm.spmm %wq, %q weight_scales(%sw : tensor<128xf32>) input_scales(%s : tensor<?xf32>)
      : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xi8> -> tensor<128x?xf16>
  %y1 = vnm.spmm %w4, %xb bias(%bias : tensor<128xbf16>) weight_scales(%sg : tensor<128x4xf32>)
      {activation = #vnm.activation<relu>, group_size = 16}
      : tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xbf16> -> tensor<128x?xbf16>
  %y2 = vnm.spmm %w4, %q : tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xi8> -> tensor<128x?xi32>
  vnm.storage.quantize ins(%xm : memref<64x?xf16>) outs(%qm, %sm : memref<64x?xi8>, memref<?xf32>) {axis = 1}
  vnm.storage.spmm ins(%v, %c, %m, %qm : memref<128x16xi8>, memref<2x8x4xi8>, memref<128x16xi8>, memref<64x?xi8>)
      weight_scales(%sgm : memref<128x4xf32>) input_scales(%sxm : memref<f32>)
      outs(%y : memref<128x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 16}
  return
}
