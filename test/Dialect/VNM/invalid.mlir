// One negative case per constraint of docs/spec.md.
// RUN: vnm-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #vnm.encoding
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#vnm.encoding (C1): v must be one of 16, 32, 64, 128, 256, got 48}}
func.func private @enc_c1(tensor<48x8xf16, #vnm.encoding<v = 48, n = 2, m = 8>>)

// -----

// expected-error @+1 {{#vnm.encoding (C2): n must be 1 or 2, got 3}}
func.func private @enc_c2(tensor<64x8xf16, #vnm.encoding<v = 64, n = 3, m = 8>>)

// -----

// expected-error @+1 {{#vnm.encoding (C3): m must be in [4, 32], got 2}}
func.func private @enc_c3_small(tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 2>>)

// -----

// expected-error @+1 {{#vnm.encoding (C3): m must be in [4, 32], got 64}}
func.func private @enc_c3_large(tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 64>>)

// -----

// expected-error @+1 {{#vnm.encoding (C4): the encoded tensor must have rank 2 (rows x columns), got rank 3}}
func.func private @enc_c4(tensor<2x64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

// expected-error @+1 {{#vnm.encoding (C5): the encoded tensor must have a static shape, got Rx?}}
func.func private @enc_c5(tensor<64x?xf16, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

// expected-error @+1 {{#vnm.encoding (C6): element type must be f16, bf16, f32, i8 or i4, got 'f64'}}
func.func private @enc_c6(tensor<64x8xf64, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

// expected-error @+1 {{#vnm.encoding (C6): element type must be f16, bf16, f32, i8 or i4, got 'ui8'}}
func.func private @enc_c6_unsigned(tensor<64x8xui8, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

//===----------------------------------------------------------------------===//
// Storage rules S1-S6, checked through vnm.assemble (C3).
//===----------------------------------------------------------------------===//

func.func @s1(%v: tensor<128x16xf32>, %c: tensor<2x8x4xi8>, %m: tensor<128x16xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C3/S1) values must be a rank-2 array of 'f16', got 'tensor<128x16xf32>'}}
  %s = vnm.assemble %v, %c, %m : tensor<128x16xf32>, tensor<2x8x4xi8>, tensor<128x16xi8>
      -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @s2(%v: tensor<128x14xf16>, %c: tensor<2x8x4xi8>, %m: tensor<128x16xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C3/S2) values must have shape 128x16 (R x 2*ceil(K/M)), got 128x14}}
  %s = vnm.assemble %v, %c, %m : tensor<128x14xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
      -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @s3(%v: tensor<128x16xf16>, %c: tensor<2x8x4xi32>, %m: tensor<128x16xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C3/S3) colidx must be a rank-3 array of 'i8', got 'tensor<2x8x4xi32>'}}
  %s = vnm.assemble %v, %c, %m : tensor<128x16xf16>, tensor<2x8x4xi32>, tensor<128x16xi8>
      -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

// 100 rows are 2 blocks of 64, not 1.
func.func @s4(%v: tensor<100x16xf16>, %c: tensor<1x8x4xi8>, %m: tensor<100x16xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C3/S4) colidx must have shape 2x8x4 (ceil(R/V) x ceil(K/M) x 4), got 1x8x4}}
  %s = vnm.assemble %v, %c, %m : tensor<100x16xf16>, tensor<1x8x4xi8>, tensor<100x16xi8>
      -> tensor<100x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @s5(%v: tensor<128x16xf16>, %c: tensor<2x8x4xi8>, %m: tensor<128x16x1xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C3/S5) meta must be a rank-2 array of 'i8', got 'tensor<128x16x1xi8>'}}
  %s = vnm.assemble %v, %c, %m : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16x1xi8>
      -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

// 60 columns are 8 groups of 8 (the last one ragged): 16 kept per row.
func.func @s6(%v: tensor<128x16xf16>, %c: tensor<2x8x4xi8>, %m: tensor<128x15xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C3/S6) meta must have shape 128x16 (R x 2*ceil(K/M)), got 128x15}}
  %s = vnm.assemble %v, %c, %m : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x15xi8>
      -> tensor<128x60xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// vnm.prune
//===----------------------------------------------------------------------===//

func.func @prune_c1(%w: tensor<4x64x8xf16>) {
  // expected-error @+1 {{'vnm.prune' op (C1) input must be a rank-2 tensor without encoding of f16, bf16, f32, i8 or i4, got 'tensor<4x64x8xf16>'}}
  %0 = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<4x64x8xf16> -> tensor<4x64x8xf16>
  return
}

// -----

func.func @prune_c1_element(%w: tensor<64x8xf64>) {
  // expected-error @+1 {{'vnm.prune' op (C1) input must be a rank-2 tensor without encoding}}
  %0 = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<64x8xf64> -> tensor<64x8xf64>
  return
}

// -----

func.func @prune_c2(%w: tensor<64x8xf16>) {
  // expected-error @+1 {{'vnm.prune' op (C2) result type must equal the input type 'tensor<64x8xf16>', got 'tensor<64x8xf32>'}}
  %0 = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<64x8xf16> -> tensor<64x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// vnm.compress
//===----------------------------------------------------------------------===//

func.func @compress_c1(%w: memref<64x8xf16>) {
  // expected-error @+1 {{'vnm.compress' op (C1) input must be a rank-2 tensor without encoding of f16, bf16, f32, i8 or i4, got 'memref<64x8xf16>'}}
  %s = vnm.compress %w : memref<64x8xf16>
      -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @compress_c2(%w: tensor<64x8xf16>) {
  // expected-error @+1 {{'vnm.compress' op (C2) result must be a tensor with a #vnm.encoding, got 'tensor<64x8xf16>'}}
  %s = vnm.compress %w : tensor<64x8xf16> -> tensor<64x8xf16>
  return
}

// -----

func.func @compress_c3(%w: tensor<64x16xf16>) {
  // expected-error @+1 {{'vnm.compress' op (C3) input and result must have the same shape}}
  %s = vnm.compress %w : tensor<64x16xf16>
      -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @compress_c4(%w: tensor<64x8xf32>) {
  // expected-error @+1 {{'vnm.compress' op (C4) input and result must have the same element type}}
  %s = vnm.compress %w : tensor<64x8xf32>
      -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// vnm.decompress
//===----------------------------------------------------------------------===//

func.func @decompress_c1(%s: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.decompress' op (C1) result must be a rank-2 tensor without encoding of f16, bf16, f32, i8 or i4, got 'tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>'}}
  %d = vnm.decompress %s : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @decompress_c2(%s: tensor<64x8xf16>) {
  // expected-error @+1 {{'vnm.decompress' op (C2) input must be a tensor with a #vnm.encoding, got 'tensor<64x8xf16>'}}
  %d = vnm.decompress %s : tensor<64x8xf16> -> tensor<64x8xf16>
  return
}

// -----

func.func @decompress_c3(%s: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.decompress' op (C3) result and input must have the same shape}}
  %d = vnm.decompress %s : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<32x8xf16>
  return
}

// -----

func.func @decompress_c4(%s: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.decompress' op (C4) result and input must have the same element type}}
  %d = vnm.decompress %s : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<64x8xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// vnm.assemble / vnm.disassemble
//===----------------------------------------------------------------------===//

func.func @assemble_c1(%v: tensor<64x2xf16>, %c: tensor<1x1x4xi8>, %m: tensor<64x2xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C1) result must be a tensor with a #vnm.encoding, got 'tensor<64x8xf16>'}}
  %s = vnm.assemble %v, %c, %m : tensor<64x2xf16>, tensor<1x1x4xi8>, tensor<64x2xi8>
      -> tensor<64x8xf16>
  return
}

// -----

func.func @assemble_c2(%v: memref<64x2xf16>, %c: tensor<1x1x4xi8>, %m: tensor<64x2xi8>) {
  // expected-error @+1 {{'vnm.assemble' op (C2) storage arrays must be ranked tensors, got 'memref<64x2xf16>'}}
  %s = vnm.assemble %v, %c, %m : memref<64x2xf16>, tensor<1x1x4xi8>, tensor<64x2xi8>
      -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @disassemble_c1(%s: tensor<64x8xf16>) {
  // expected-error @+1 {{'vnm.disassemble' op (C1) input must be a tensor with a #vnm.encoding, got 'tensor<64x8xf16>'}}
  %v, %c, %m = vnm.disassemble %s : tensor<64x8xf16>
      -> tensor<64x2xf16>, tensor<1x1x4xi8>, tensor<64x2xi8>
  return
}

// -----

func.func @disassemble_c2(%s: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.disassemble' op (C2) storage arrays must be ranked tensors, got 'tensor<*xi8>'}}
  %v, %c, %m = vnm.disassemble %s : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<64x2xf16>, tensor<*xi8>, tensor<64x2xi8>
  return
}

// -----

func.func @disassemble_c3(%s: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.disassemble' op (C3/S4) colidx must have shape 1x1x4 (ceil(R/V) x ceil(K/M) x 4), got 1x2x4}}
  %v, %c, %m = vnm.disassemble %s : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<64x2xf16>, tensor<1x2x4xi8>, tensor<64x2xi8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// vnm.spmm
//===----------------------------------------------------------------------===//

func.func @spmm_c1(%w: tensor<128x64xf16>, %x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C1) lhs must be a tensor with a #vnm.encoding, got 'tensor<128x64xf16>'}}
  %y = vnm.spmm %w, %x : tensor<128x64xf16>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_c2(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<48x32xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C2) rhs must be a rank-2 tensor without encoding of f16, bf16, f32, i8 or i4 with 64 (K) rows, got 'tensor<48x32xf16>'}}
  %y = vnm.spmm %w, %x : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<48x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_c3(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xbf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C3) lhs and rhs must have the same element type, or lhs i8/i4 with an i8 rhs, or lhs i8/i4 with weight scales and an f16, bf16 or f32 rhs; got 'f16' and 'bf16'}}
  %y = vnm.spmm %w, %x : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xbf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_c4(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C4) result must be a rank-2 tensor without encoding of shape R x N = 128x32, got 'tensor<32x128xf32>'}}
  %y = vnm.spmm %w, %x : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<32x128xf32>
  return
}

// -----

func.func @spmm_c5(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>) {
  // expected-error @+1 {{'vnm.spmm' op (C5) result element type must be i32 for integer operands, got 'f32'}}
  %y = vnm.spmm %w, %x : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_c5_float(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C5) result element type must be f16, bf16 or f32 for floating-point operands, got 'i32'}}
  %y = vnm.spmm %w, %x : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xi32>
  return
}

// -----

func.func @spmm_c6(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %c: tensor<128x32xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C6) accumulator must have the result type 'tensor<128x32xf32>', got 'tensor<128x32xf16>'}}
  %y = vnm.spmm %w, %x acc(%c : tensor<128x32xf16>) : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_c7(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %b: tensor<32xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C7) bias must be a rank-1 tensor of 128 (R) elements of 'f32', got 'tensor<32xf32>'}}
  %y = vnm.spmm %w, %x bias(%b : tensor<32xf32>) : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_c8(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>) {
  // expected-error @+1 {{'vnm.spmm' op (C8) the gelu activation needs a floating-point result, got 'i32'}}
  %y = vnm.spmm %w, %x {activation = #vnm.activation<gelu>} : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// vnm.sddmm
//===----------------------------------------------------------------------===//

func.func @sddmm_c1(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %p: tensor<128x64xf16>) {
  // expected-error @+1 {{'vnm.sddmm' op (C1) pattern must be a tensor with a #vnm.encoding, got 'tensor<128x64xf16>'}}
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf16>
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @sddmm_c2(%a: tensor<128x32xf16>, %b: tensor<16x64xf16>, %p: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.sddmm' op (C2) lhs and rhs must share one element type and be shaped R x D and D x K (R x K = 128x64), got 'tensor<128x32xf16>' and 'tensor<16x64xf16>'}}
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<16x64xf16>, tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @sddmm_c2_integer(%a: tensor<128x32xi8>, %b: tensor<32x64xi8>, %p: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.sddmm' op (C2) lhs and rhs must be rank-2 arrays without encoding of f16, bf16 or f32}}
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xi8>, tensor<32x64xi8>, tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @sddmm_c3(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %p: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.sddmm' op (C3) result must be a tensor with the pattern's shape and encoding, got 'tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 16>>'}}
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 16>>
  return
}

// -----

func.func @sddmm_c4(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %p: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  // expected-error @+1 {{'vnm.sddmm' op (C4) result element type must be f16, bf16 or f32, got 'i8'}}
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
      -> tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
  return
}

// -----

func.func @sddmm_c5(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %p: tensor<128x64xf16, #vnm.encoding<v = 64, n = 1, m = 8>>) {
  // expected-error @+1 {{'vnm.sddmm' op (C5) the pattern's encoding must have n = 2 (an n = 1 pattern does not say which of its two stored positions is kept), got n = 1}}
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf16, #vnm.encoding<v = 64, n = 1, m = 8>>
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 1, m = 8>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Storage ops: C1 and C2 are common to all five.
//===----------------------------------------------------------------------===//

func.func @storage_c1(%w: tensor<64x8xf16>, %p: memref<64x8xf16>) {
  // expected-error @+1 {{'vnm.storage.prune' op (C1) operands must be all ranked tensors or all memrefs, got 'memref<64x8xf16>' next to 'tensor<64x8xf16>'}}
  "vnm.storage.prune"(%w, %p) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : (tensor<64x8xf16>, memref<64x8xf16>) -> ()
  return
}

// -----

func.func @storage_c2_tensor(%w: tensor<64x8xf16>, %p: tensor<64x8xf16>) {
  // expected-error @+1 {{'vnm.storage.prune' op (C2) on tensors the op must have one result per `outs` operand, of the same type ('tensor<64x8xf16>'), got ()}}
  "vnm.storage.prune"(%w, %p) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : (tensor<64x8xf16>, tensor<64x8xf16>) -> ()
  return
}

// -----

func.func @storage_c2_memref(%w: memref<64x8xf16>, %p: memref<64x8xf16>) {
  // expected-error @+1 {{'vnm.storage.prune' op (C2) on memrefs the op must have no results, got 1}}
  %r = "vnm.storage.prune"(%w, %p) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : (memref<64x8xf16>, memref<64x8xf16>) -> tensor<64x8xf16>
  return
}

// -----

func.func @storage_prune_c3(%w: memref<64xf16>, %p: memref<64xf16>) {
  // expected-error @+1 {{'vnm.storage.prune' op (C3) input must be a rank-2 array without encoding of f16, bf16, f32, i8 or i4, got 'memref<64xf16>'}}
  vnm.storage.prune ins(%w : memref<64xf16>) outs(%p : memref<64xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_prune_c4(%w: memref<64x8xf16>, %p: memref<64x16xf16>) {
  // expected-error @+1 {{'vnm.storage.prune' op (C4) init must have the input's shape and element type, got 'memref<64x16xf16>' for input 'memref<64x8xf16>'}}
  vnm.storage.prune ins(%w : memref<64x8xf16>) outs(%p : memref<64x16xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_compress_c3(%w: memref<64x8xi16>, %v: memref<64x2xi16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>) {
  // expected-error @+1 {{'vnm.storage.compress' op (C3) input must be a rank-2 array without encoding of f16, bf16, f32, i8 or i4, got 'memref<64x8xi16>'}}
  vnm.storage.compress ins(%w : memref<64x8xi16>)
      outs(%v, %c, %m : memref<64x2xi16>, memref<1x1x4xi8>, memref<64x2xi8>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_compress_c4(%w: memref<64x8xf16>, %v: memref<64x4xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>) {
  // expected-error @+1 {{'vnm.storage.compress' op (C4/S2) values must have shape 64x2 (R x 2*ceil(K/M)), got 64x4}}
  vnm.storage.compress ins(%w : memref<64x8xf16>)
      outs(%v, %c, %m : memref<64x4xf16>, memref<1x1x4xi8>, memref<64x2xi8>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_decompress_c3(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %d: memref<64x8xf64>) {
  // expected-error @+1 {{'vnm.storage.decompress' op (C3) init must be a rank-2 array without encoding of f16, bf16, f32, i8 or i4, got 'memref<64x8xf64>'}}
  vnm.storage.decompress ins(%v, %c, %m : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>)
      outs(%d : memref<64x8xf64>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_decompress_c4(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %d: memref<64x8xbf16>) {
  // expected-error @+1 {{'vnm.storage.decompress' op (C4/S1) values must be a rank-2 array of 'bf16', got 'memref<64x2xf16>'}}
  vnm.storage.decompress ins(%v, %c, %m : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>)
      outs(%d : memref<64x8xbf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c3(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C3) rhs must be a rank-2 array without encoding of f16, bf16, f32, i8 or i4, got 'memref<8xf16>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c4(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xf16>, %y: memref<64x16xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C4) init must be rank 2 with 32 (N) columns, got 'memref<64x16xf32>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x16xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c5(%v: memref<64x2xf16>, %c: memref<2x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C5/S4) colidx must have shape 1x1x4 (ceil(R/V) x ceil(K/M) x 4), got 2x1x4}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<2x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c6(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xf16>, %y: memref<64x32xi8>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C6) result element type must be f16, bf16 or f32 for floating-point operands, got 'i8'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xi8>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c1_bias(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xf16>, %b: tensor<64xf32>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C1) operands must be all ranked tensors or all memrefs, got 'tensor<64xf32>' next to 'memref<64x2xf16>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      bias(%b : tensor<64xf32>) outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c7(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xf16>, %b: memref<64xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C7) bias must be a rank-1 memref of 64 (R) elements of 'f32', got 'memref<64xf16>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      bias(%b : memref<64xf16>) outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_c8(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xi8>, %y: memref<64x32xi32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C8) the gelu activation needs a floating-point result, got 'i32'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      outs(%y : memref<64x32xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, activation = #vnm.activation<gelu>}
  return
}

// -----

func.func @storage_sddmm_c3(%a: memref<64x16xf16>, %b: memref<16x8xf32>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %v: memref<64x2xf32>) {
  // expected-error @+1 {{'vnm.storage.sddmm' op (C3) lhs and rhs must share one element type and be shaped R x D and D x K (R x K = ?x?), got 'memref<64x16xf16>' and 'memref<16x8xf32>'}}
  vnm.storage.sddmm ins(%a, %b, %c, %m : memref<64x16xf16>, memref<16x8xf32>, memref<1x1x4xi8>, memref<64x2xi8>)
      outs(%v : memref<64x2xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_sddmm_c4(%a: memref<64x16xf16>, %b: memref<16x8xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %v: memref<64x4xf32>) {
  // expected-error @+1 {{'vnm.storage.sddmm' op (C4/S2) values must have shape 64x2 (R x 2*ceil(K/M)), got 64x4}}
  vnm.storage.sddmm ins(%a, %b, %c, %m : memref<64x16xf16>, memref<16x8xf16>, memref<1x1x4xi8>, memref<64x2xi8>)
      outs(%v : memref<64x4xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_sddmm_c5(%a: memref<64x16xf16>, %b: memref<16x8xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %v: memref<64x2xi32>) {
  // expected-error @+1 {{'vnm.storage.sddmm' op (C5) init (values) element type must be f16, bf16 or f32, got 'i32'}}
  vnm.storage.sddmm ins(%a, %b, %c, %m : memref<64x16xf16>, memref<16x8xf16>, memref<1x1x4xi8>, memref<64x2xi8>)
      outs(%v : memref<64x2xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_sddmm_c6(%a: memref<64x16xf16>, %b: memref<16x8xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %v: memref<64x2xf32>) {
  // expected-error @+1 {{'vnm.storage.sddmm' op (C6) the pattern's encoding must have n = 2}}
  vnm.storage.sddmm ins(%a, %b, %c, %m : memref<64x16xf16>, memref<16x8xf16>, memref<1x1x4xi8>, memref<64x2xi8>)
      outs(%v : memref<64x2xf32>) {encoding = #vnm.encoding<v = 64, n = 1, m = 8>}
  return
}

// -----

// A missing element type (found by the robustness run) is an error, not a
// crash in the encoding's verifier.
// expected-error @+2 {{#vnm.encoding (C6): the encoded tensor has no element type}}
// expected-error @+1 {{expected non-function type}}
func.func private @enc_no_element(tensor<128x64x, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

// R or K above the format's limit (2^32 x 2^32 would make R * K wrap to 0).
// expected-error @+1 {{#vnm.encoding (C7): R = 4294967296 exceeds the format's limit of 2147483647 (2^31 - 1)}}
func.func private @enc_rows_c7(tensor<4294967296x4294967296xf16, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

// expected-error @+1 {{#vnm.encoding (C7): K = 2147483648 exceeds the format's limit of 2147483647 (2^31 - 1)}}
func.func private @enc_cols_c7(tensor<64x2147483648xf16, #vnm.encoding<v = 64, n = 2, m = 8>>)

// -----

//===----------------------------------------------------------------------===//
// Quantized spmm, vnm.quantize
//===----------------------------------------------------------------------===//

func.func @spmm_q_c3(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C3) lhs and rhs must have the same element type, or lhs i8/i4 with an i8 rhs, or lhs i8/i4 with weight scales and an f16, bf16 or f32 rhs; got 'i8' and 'f16'}}
  %y = vnm.spmm %w, %x : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c5_dequantized(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>, %s: tensor<128xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C5) result element type must be f16, bf16 or f32 when the op dequantizes (weight scales), got 'i32'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xi32>
  return
}

// -----

func.func @spmm_q_c5_integer(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>) {
  // expected-error @+1 {{'vnm.spmm' op (C5) result element type must be i32 for integer operands, got 'f32'}}
  %y = vnm.spmm %w, %x : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c9_float_weight(%w: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C9) weight scales need an i8 or i4 lhs, got 'f16'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128xf32>) : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c9_shape(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<64xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C9) weight scales must be an f32 tensor of shape 128 (R), got 'tensor<64xf32>'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<64xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c9_element(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128xf16>) {
  // expected-error @+1 {{'vnm.spmm' op (C9) weight scales must be an f32 tensor of shape 128 (R), got 'tensor<128xf16>'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128xf16>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c9_groups(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128x2xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C9) weight scales must be an f32 tensor of shape 128x4 (R x ceil(K / group_size)), got 'tensor<128x2xf32>'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128x2xf32>) {group_size = 16} : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c10_missing(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128x4xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C10) group_size must be given exactly when the weight scales are rank 2 (per row and group), got 'tensor<128x4xf32>' without a group_size}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128x4xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c10_extra(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C10) group_size must be given exactly when the weight scales are rank 2 (per row and group), got 'tensor<128xf32>' with a group_size}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128xf32>) {group_size = 16} : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c10_multiple(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128x6xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C10) group_size must be a positive multiple of M = 8, got 12}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128x6xf32>) {group_size = 12} : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c10_no_scales(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>) {
  // expected-error @+1 {{'vnm.spmm' op (C10) group_size needs weight scales}}
  %y = vnm.spmm %w, %x {group_size = 16} : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xi32>
  return
}

// -----

func.func @spmm_q_c11_float_rhs(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xf16>, %s: tensor<128xf32>, %sx: tensor<32xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C11) input scales need an i8 rhs and weight scales, got rhs element type 'f16'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128xf32>) input_scales(%sx : tensor<32xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xf16> -> tensor<128x32xf32>
  return
}

// -----

func.func @spmm_q_c11_no_weight_scales(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>, %sx: tensor<32xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C11) input scales need an i8 rhs and weight scales, got rhs element type 'i8' and no weight scales}}
  %y = vnm.spmm %w, %x input_scales(%sx : tensor<32xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xi32>
  return
}

// -----

func.func @spmm_q_c11_shape(%w: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<64x32xi8>, %s: tensor<128xf32>, %sx: tensor<64xf32>) {
  // expected-error @+1 {{'vnm.spmm' op (C11) input scales must be an f32 tensor of rank 0 (per tensor) or of shape 32 (one per column of rhs), got 'tensor<64xf32>'}}
  %y = vnm.spmm %w, %x weight_scales(%s : tensor<128xf32>) input_scales(%sx : tensor<64xf32>) : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x32xi8> -> tensor<128x32xf32>
  return
}

// -----

func.func @quantize_c1(%x: tensor<64x32xi8>) {
  // expected-error @+1 {{'vnm.quantize' op (C1) input must be a rank-2 tensor without encoding of f16, bf16 or f32, got 'tensor<64x32xi8>'}}
  %q, %s = vnm.quantize %x : tensor<64x32xi8> -> tensor<64x32xi8>, tensor<f32>
  return
}

// -----

func.func @quantize_c2_shape(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C2) quantized must have the input's shape and element type i8 or i4, got 'tensor<64x16xi8>' for input 'tensor<64x32xf16>'}}
  %q, %s = vnm.quantize %x : tensor<64x32xf16> -> tensor<64x16xi8>, tensor<f32>
  return
}

// -----

func.func @quantize_c2_element(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C2) quantized must have the input's shape and element type i8 or i4, got 'tensor<64x32xi16>' for input 'tensor<64x32xf16>'}}
  %q, %s = vnm.quantize %x : tensor<64x32xf16> -> tensor<64x32xi16>, tensor<f32>
  return
}

// -----

func.func @quantize_c3_axis(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C3) axis must be 0 (scales per row) or 1 (per column), got 2}}
  %q, %s = vnm.quantize %x {axis = 2} : tensor<64x32xf16> -> tensor<64x32xi8>, tensor<64xf32>
  return
}

// -----

func.func @quantize_c3_group_without_axis(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C3) group_size must be positive and needs an axis, got 16 without an axis}}
  %q, %s = vnm.quantize %x {group_size = 16} : tensor<64x32xf16> -> tensor<64x32xi8>, tensor<f32>
  return
}

// -----

func.func @quantize_c3_group_zero(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C3) group_size must be positive and needs an axis, got 0}}
  %q, %s = vnm.quantize %x {axis = 0, group_size = 0} : tensor<64x32xf16> -> tensor<64x32xi8>, tensor<64x1xf32>
  return
}

// -----

func.func @quantize_c4_per_tensor(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C4) scales must be an f32 tensor of shape a scalar (rank 0), got 'tensor<1xf32>'}}
  %q, %s = vnm.quantize %x : tensor<64x32xf16> -> tensor<64x32xi8>, tensor<1xf32>
  return
}

// -----

func.func @quantize_c4_axis(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C4) scales must be an f32 tensor of shape 32, got 'tensor<64xf32>'}}
  %q, %s = vnm.quantize %x {axis = 1} : tensor<64x32xf16> -> tensor<64x32xi8>, tensor<64xf32>
  return
}

// -----

func.func @quantize_c4_groups(%x: tensor<64x33xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C4) scales must be an f32 tensor of shape 64x3, got 'tensor<64x2xf32>'}}
  %q, %s = vnm.quantize %x {axis = 0, group_size = 16} : tensor<64x33xf16> -> tensor<64x33xi8>, tensor<64x2xf32>
  return
}

// -----

func.func @quantize_c4_column_groups(%x: tensor<64x32xf16>) {
  // expected-error @+1 {{'vnm.quantize' op (C4) scales must be an f32 tensor of shape 4x32, got 'tensor<32x4xf32>'}}
  %q, %s = vnm.quantize %x {axis = 1, group_size = 16} : tensor<64x32xf16> -> tensor<64x32xi8>, tensor<32x4xf32>
  return
}

// -----

func.func @storage_quantize_c1(%x: memref<64x32xf16>, %q: tensor<64x32xi8>, %s: memref<f32>) {
  // expected-error @+1 {{'vnm.storage.quantize' op (C1) operands must be all ranked tensors or all memrefs, got 'tensor<64x32xi8>' next to 'memref<64x32xf16>'}}
  vnm.storage.quantize ins(%x : memref<64x32xf16>) outs(%q, %s : tensor<64x32xi8>, memref<f32>)
  return
}

// -----

func.func @storage_quantize_c3(%x: memref<64xf16>, %q: memref<64x32xi8>, %s: memref<f32>) {
  // expected-error @+1 {{'vnm.storage.quantize' op (C3) input must be a rank-2 memref without encoding of f16, bf16 or f32, got 'memref<64xf16>'}}
  vnm.storage.quantize ins(%x : memref<64xf16>) outs(%q, %s : memref<64x32xi8>, memref<f32>)
  return
}

// -----

func.func @storage_quantize_c4(%x: memref<64x32xf16>, %q: memref<64x32xf16>, %s: memref<f32>) {
  // expected-error @+1 {{'vnm.storage.quantize' op (C4) quantized must have the input's shape and element type i8 or i4, got 'memref<64x32xf16>' for input 'memref<64x32xf16>'}}
  vnm.storage.quantize ins(%x : memref<64x32xf16>) outs(%q, %s : memref<64x32xf16>, memref<f32>)
  return
}

// -----

func.func @storage_quantize_c5(%x: memref<64x32xf16>, %q: memref<64x32xi8>, %s: memref<f32>) {
  // expected-error @+1 {{'vnm.storage.quantize' op (C5) axis must be 0 (scales per row) or 1 (per column), got -1}}
  vnm.storage.quantize ins(%x : memref<64x32xf16>) outs(%q, %s : memref<64x32xi8>, memref<f32>) {axis = -1}
  return
}

// -----

func.func @storage_quantize_c6(%x: memref<64x?xf16>, %q: memref<64x?xi8>, %s: memref<32x?xf32>) {
  // expected-error @+1 {{'vnm.storage.quantize' op (C6) scales must be an f32 memref of shape 64x?, got 'memref<32x?xf32>'}}
  vnm.storage.quantize ins(%x : memref<64x?xf16>) outs(%q, %s : memref<64x?xi8>, memref<32x?xf32>) {axis = 0, group_size = 8}
  return
}

// -----

func.func @storage_spmm_q_c9(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C9) lhs and rhs must have the same element type, or lhs i8/i4 with an i8 rhs, or lhs i8/i4 with weight scales and an f16, bf16 or f32 rhs; got 'i8' and 'f16'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_q_c10(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xi8>, %s: memref<32xf32>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C10) weight scales must be an f32 memref of shape 64 (R), got 'memref<32xf32>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      weight_scales(%s : memref<32xf32>) outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_q_c11(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xi8>, %s: memref<64x1xf32>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C11) group_size must be a positive multiple of M = 8, got 4}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      weight_scales(%s : memref<64x1xf32>) outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 4}
  return
}

// -----

func.func @storage_spmm_q_c12(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xi8>, %s: memref<64xf32>, %sx: tensor<f32>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C1) operands must be all ranked tensors or all memrefs, got 'tensor<f32>' next to 'memref<64x2xi8>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      weight_scales(%s : memref<64xf32>) input_scales(%sx : tensor<f32>) outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @storage_spmm_q_c12_shape(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>, %x: memref<8x32xi8>, %s: memref<64xf32>, %sx: memref<1x32xf32>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{'vnm.storage.spmm' op (C12) input scales must be an f32 memref of rank 0 (per tensor) or of shape 32 (one per column of rhs), got 'memref<1x32xf32>'}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      weight_scales(%s : memref<64xf32>) input_scales(%sx : memref<1x32xf32>) outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
