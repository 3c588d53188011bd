// Configurations the GPU kernel does not cover are errors that say why.
// RUN: vnm-opt %s --vnm-lower-to-gpu --split-input-file -verify-diagnostics
// RUN: vnm-opt %s --vnm-lower-to-gpu --split-input-file -verify-diagnostics | FileCheck %s

func.func @v16(%v: memref<64x2xf16>, %c: memref<4x1x4xi8>, %m: memref<64x2xi8>,
               %x: memref<8x32xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel needs v to be a multiple of its 64-row block tile unless m = 4 (v = 16 and 32 run on the CPU path for now)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<4x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
  return
}

// -----

func.func @int8(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                %x: memref<8x32xi8>, %y: memref<64x32xi32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the i8 kernels read rhs token-major (K contiguous, e.g. memref<KxN, strided<[1, ?]>>, the transpose of an x[N][K]): sm_80 and sm_90 have no byte-transposing ldmatrix}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      outs(%y : memref<64x32xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @dynamic_k(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                     %x: memref<?x32xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the sparse operand's R and K must be static (the kernel is specialized on them)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<?x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @tensors(%v: tensor<64x2xf16>, %c: tensor<1x1x4xi8>, %m: tensor<64x2xi8>,
                   %x: tensor<8x32xf16>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{vnm-lower-to-gpu: needs vnm.storage.spmm on memrefs; run --vnm-expand-storage and bufferization first}}
  %r = vnm.storage.spmm ins(%v, %c, %m, %x : tensor<64x2xf16>, tensor<1x1x4xi8>, tensor<64x2xi8>, tensor<8x32xf16>)
      outs(%y : tensor<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

// A rejected op rewrites nothing: the accepted op before it gets no kernel
// either, and the module has no gpu.module.
// CHECK-NOT: gpu.module
// CHECK-NOT: vnm.gpu_kernel
func.func @one_bad(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                   %x: memref<8x32xf16>, %y: memref<64x32xf32>,
                   %v16: memref<64x2xf16>, %c16: memref<4x1x4xi8>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel needs v to be a multiple of its 64-row block tile}}
  vnm.storage.spmm ins(%v16, %c16, %m, %x : memref<64x2xf16>, memref<4x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
  return
}

// -----

// R = K = 2^40: R * K overflows int64_t; the kernel is refused, not
// built with wrapped 32-bit offsets.
func.func @huge(%v: memref<1099511627776x?xf16>, %c: memref<?x?x4xi8>,
                %m: memref<1099511627776x?xi8>, %x: memref<1099511627776x32xf16>,
                %y: memref<1099511627776x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel indexes A with 32-bit offsets}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1099511627776x?xf16>, memref<?x?x4xi8>, memref<1099511627776x?xi8>, memref<1099511627776x32xf16>)
      outs(%y : memref<1099511627776x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// The i8 kernels select the kept bytes of token-major activations from
// 8-byte groups: M = 4 and M = 8 run on the GPU, M = 16 does not.
func.func @gathered_int8(%v: memref<128x8xi8>, %c: memref<2x4x4xi8>,
                         %m: memref<128x8xi8>, %x: memref<64x32xi8, strided<[1, 64]>>,
                         %s: memref<128xf32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU i8 spmm kernel selects the kept bytes of token-major activations from 8-byte groups: m = 4 and m = 8 run on the GPU, other M on the CPU path}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x8xi8>, memref<2x4x4xi8>, memref<128x8xi8>, memref<64x32xi8, strided<[1, 64]>>)
      weight_scales(%s : memref<128xf32>)
      outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 16>}
  return
}

// -----

func.func @group_scales(%v: memref<128x32xi8>, %c: memref<2x16x4xi8>,
                        %m: memref<128x32xi8>, %x: memref<64x32xi8, strided<[1, 64]>>,
                        %s: memref<128x2xf32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: no GPU kernel for per-group weight scales with i8 activations yet (W8A16 and W4A16 take them); the CPU pipeline (vnm-lower-to-cpu-pipeline) runs it}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x32xi8>, memref<2x16x4xi8>, memref<128x32xi8>, memref<64x32xi8, strided<[1, 64]>>)
      weight_scales(%s : memref<128x2xf32>)
      outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>, group_size = 32}
  return
}

// -----

func.func @tensor_scale(%v: memref<128x32xi8>, %c: memref<2x16x4xi8>,
                        %m: memref<128x32xi8>, %x: memref<64x32xi8, strided<[1, 64]>>,
                        %s: memref<128xf32>, %sx: memref<f32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: no GPU kernel for a per-tensor input scale yet (per-token input scales run on the GPU)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x32xi8>, memref<2x16x4xi8>, memref<128x32xi8>, memref<64x32xi8, strided<[1, 64]>>)
      weight_scales(%s : memref<128xf32>) input_scales(%sx : memref<f32>)
      outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// -----

func.func @int_bias(%v: memref<128x32xi8>, %c: memref<2x16x4xi8>,
                    %m: memref<128x32xi8>, %x: memref<64x32xi8, strided<[1, 64]>>,
                    %b: memref<128xi32>, %y: memref<128x32xi32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: no GPU kernel for an i32 result with a bias or an activation}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x32xi8>, memref<2x16x4xi8>, memref<128x32xi8>, memref<64x32xi8, strided<[1, 64]>>)
      bias(%b : memref<128xi32>)
      outs(%y : memref<128x32xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// -----

// An f16 rhs known to be neither K x N with contiguous rows nor
// token-major.
func.func @f16_columns(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                       %x: memref<8x32xf16, strided<[64, 2]>>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the f16/bf16 kernels read rhs as K x N with contiguous rows (memref<KxN> or strided<[?, 1]>) or token-major (strided<[1, ?]>)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16, strided<[64, 2]>>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// A token-major f16 rhs at M = 16: a slot would hold the pair's groups
// whole, 64 KiB per stage.
func.func @f16_token_major_m16(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                               %x: memref<16x32xf16, strided<[1, 16]>>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU f16/bf16 spmm kernel reads token-major rhs for m = 4 and m = 8 (a slot holds each token's groups whole: 64 KiB of shared memory per stage at m = 16); give it rhs as K x N}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<16x32xf16, strided<[1, 16]>>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 16>}
  return
}

// -----

// A token-major f16 rhs whose K is not a whole number of 16-byte chunks.
func.func @f16_token_major_ragged_k(%v: memref<64x4xf16>, %c: memref<1x2x4xi8>, %m: memref<64x4xi8>,
                                    %x: memref<12x32xf16, strided<[1, 16]>>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU f16/bf16 spmm kernel reads token-major rhs in 16-byte chunks of each token's K values: K must be a multiple of 8, got 12; give it rhs as K x N}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x4xf16>, memref<1x2x4xi8>, memref<64x4xi8>, memref<12x32xf16, strided<[1, 16]>>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// The multistage wgmma.sp kernels read rhs through a descriptor of a K x N
// slot (the warp-specialized one reads it token-major too).
func.func @wgmma_token_major(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                             %x: memref<8x32xf16, strided<[1, 8]>>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the multistage sm_90a wgmma.sp spmm kernel reads rhs as K x N (the warp-specialized one and the mma.sp kernels read it token-major)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16, strided<[1, 8]>>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
                                    vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>}
  return
}

// -----

// as_2_4 runs groups of a multiple of four columns, at most two nonzeros
// each, as 2:4: an M = 4 weight already is one, and a 1:4-grouped M = 6 not.
func.func @as_2_4_m4(%v: memref<128x32xf16>, %c: memref<1x16x4xi8>, %m: memref<128x32xi8>,
                     %x: memref<64x32xf16>, %y: memref<128x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: as_2_4 runs a V:N:M weight of N <= 2 and M a multiple of 4 above 4 as 2:4 over its original columns, got 128:2:4}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x32xf16>, memref<1x16x4xi8>, memref<128x32xi8>, memref<64x32xf16>)
      outs(%y : memref<128x32xf32>) {encoding = #vnm.encoding<v = 128, n = 2, m = 4>,
                                     vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, as_2_4 = true>}
  return
}

// -----

func.func @as_2_4_m6(%v: memref<128x22xf16>, %c: memref<1x11x4xi8>, %m: memref<128x22xi8>,
                     %x: memref<66x32xf16>, %y: memref<128x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: as_2_4 runs a V:N:M weight of N <= 2 and M a multiple of 4 above 4 as 2:4 over its original columns, got 128:2:6}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x22xf16>, memref<1x11x4xi8>, memref<128x22xi8>, memref<66x32xf16>)
      outs(%y : memref<128x32xf32>) {encoding = #vnm.encoding<v = 128, n = 2, m = 6>,
                                     vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, as_2_4 = true>}
  return
}

// -----

func.func @mixed(%v: memref<128x16xi8>, %c: memref<2x8x4xi8>,
                 %m: memref<128x16xi8>, %x: memref<64x32xf32>,
                 %s: memref<128xf32>, %y: memref<128x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: no GPU kernel for an i8 weight times f32 rhs (i8 rhs: W8A8/W4A8; f16 or bf16 rhs: W8A16/W4A16)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x16xi8>, memref<2x8x4xi8>, memref<128x16xi8>, memref<64x32xf32>)
      weight_scales(%s : memref<128xf32>) outs(%y : memref<128x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// Weight-only quantization folds per-group scales once per k-tile pair
// (16 M = 128 K columns at M = 8): smaller groups are refused.
func.func @weight_only_groups(%v: memref<128x16xi4>, %c: memref<2x8x4xi8>,
                              %m: memref<128x16xi8>, %x: memref<64x32xf16>,
                              %s: memref<128x2xf32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel folds per-group scales once per k-tile pair: the group size must be a multiple of 16 M = 128 columns, got 32}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x16xi4>, memref<2x8x4xi8>, memref<128x16xi8>, memref<64x32xf16>)
      weight_scales(%s : memref<128x2xf32>) outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 32}
  return
}

// -----

func.func @out_strided(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                       %x: memref<8x32xf16>, %y: memref<64x32xf32, strided<[64, 2]>>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the kernels store the result as R x N with contiguous rows (memref<RxN> or strided<[?, 1]>) or transposed, y[N][R] (strided<[1, ?]>)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32, strided<[64, 2]>>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// K splits that do not divide the K loop's pairs (1024 columns at M = 8: 8).
func.func @uneven_splits(%v: memref<128x256xf16>, %c: memref<2x128x4xi8>,
                         %m: memref<128x256xi8>, %x: memref<1024x32xf16>,
                         %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel splits its K loop of 8 k-tile pairs into equal parts: k_splits = 3 must divide it}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x256xf16>, memref<2x128x4xi8>, memref<128x256xi8>, memref<1024x32xf16>)
      outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 3>}
  return
}

// -----

// K splits of whole scale groups only (groups of 256 columns: two pairs).
func.func @split_groups(%v: memref<128x256xi4>, %c: memref<2x128x4xi8>,
                        %m: memref<128x256xi8>, %x: memref<1024x32xf16>,
                        %s: memref<128x4xf32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel folds per-group scales inside each K split: a split's 128 columns must be a multiple of the group size 256}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x256xi4>, memref<2x128x4xi8>, memref<128x256xi8>, memref<1024x32xf16>)
      weight_scales(%s : memref<128x4xf32>) outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 256, vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 8>}
  return
}

// -----

// W8A16 dequantizes its weight in registers for the f16 MMA: only the
// mma.sp kernels do.
func.func @w8a16_wgmma(%v: memref<64x8xi8>, %c: memref<1x4x4xi8>, %m: memref<64x8xi8>,
                       %x: memref<16x32xf16>, %sw: memref<64xf32>, %y: memref<64x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the sm_90a wgmma.sp spmm kernels take f16 or bf16 weights, and i8 or i4 weights by i8 rhs (W8A8, W4A8) on the warp-specialized kernel (the weight-only quantized kernels run mma.sp: give them a #vnm_gpu.mma_sp_tiling)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x8xi8>, memref<1x4x4xi8>, memref<64x8xi8>, memref<16x32xf16>)
      weight_scales(%sw : memref<64xf32>)
      outs(%y : memref<64x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>,
                                    vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4, producers = 1>}
  return
}

// -----

// A quantized weight is not repacked as 2:4 (as_2_4 is for f16/bf16).
func.func @w8a8_as_2_4(%v: memref<64x4xi8>, %c: memref<1x2x4xi8>, %m: memref<64x4xi8>,
                       %x: memref<16x32xi8, strided<[1, 16]>>, %y: memref<64x32xi32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: as_2_4 runs f16/bf16 weights as 2:4; the quantized kernels take their weight in its own format}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x4xi8>, memref<1x2x4xi8>, memref<64x4xi8>, memref<16x32xi8, strided<[1, 16]>>)
      outs(%y : memref<64x32xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
                                    vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4, producers = 1, as_2_4 = true>}
  return
}

// -----

// staged_a hands the staged fragments to the MMA as they are: a weight-only
// kernel (W4A16) dequantizes its A in registers.
func.func @staged_w4a16(%v: memref<128x256xi4>, %c: memref<2x128x4xi8>,
                        %m: memref<128x256xi8>, %x: memref<1024x32xf16>,
                        %s: memref<128xf32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: staged_a stages A fragments for the MMA as they are; the weight-only quantized kernels (W8A16, W4A16) dequantize theirs in registers and load them from global memory}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x256xi4>, memref<2x128x4xi8>, memref<128x256xi8>, memref<1024x32xf16>)
      weight_scales(%s : memref<128xf32>) outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, staged_a = true>}
  return
}

// -----

// The A ring stays in static shared memory: six stages of 128 rows (8 row
// tiles of 1152 bytes each) take 55296 bytes.
func.func @staged_too_deep(%v: memref<128x256xf16>, %c: memref<1x128x4xi8>,
                           %m: memref<128x256xi8>, %x: memref<1024x32xf16>,
                           %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: staged_a keeps the A ring in static shared memory (at most 48 KiB): 6 stages of 128 rows take 55296 bytes; take fewer stages or 64-row blocks}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x256xf16>, memref<1x128x4xi8>, memref<128x256xi8>, memref<1024x32xf16>)
      outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 128, n = 2, m = 8>, vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 6, blocks_per_sm = 0, staged_a = true>}
  return
}
