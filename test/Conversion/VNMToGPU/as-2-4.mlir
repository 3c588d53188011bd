// A V:N:M weight of N <= 2 and M a multiple of 4 holds at most two nonzeros
// in every group of four of its original columns, so it is also a 2:4
// matrix: the warp-specialized sm_90a kernel runs it so (B a dense TMA tile,
// no gather, M / 4 times the MMAs). vnm-choose-config chooses it at M = 8
// (auto on sm_90a, or recipe=wgmma-sp-ws), or for every such M with
// as-2-4=1, whether the kernel reads B as K x N or token-major (x[N][K] as
// K-major TMA tiles); the launch contract tells the host to pack the weight
// as v:n:4.
// RUN: vnm-opt %s --vnm-choose-config=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a as-2-4=1" 2>/dev/null | FileCheck %s --check-prefix=ALWAYS
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a as-2-4=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws" 2>&1 | FileCheck %s --check-prefix=WS
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a dump-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t/spmm_0.json
// RUN: FileCheck %s --check-prefix=PTX < %t/vnm_kernels.ptx

// AUTO-LABEL: func @m8
// AUTO: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>
// AUTO-LABEL: func @m16
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3, staged_a = true>
// AUTO-NOT: warning
// AUTO-LABEL: func @m8_token_major
// AUTO: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>
// AUTO-LABEL: func @m6
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling
// A static N below 2048 keeps the gather's kernel (as 2:4 measured slower
// at N = 512 and 1000); as-2-4=1 runs it as 2:4 all the same.
// AUTO-LABEL: func @m8_small_n
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling
// AUTO-LABEL: func @m8_large_n
// AUTO: as_2_4 = true

// Where it cannot run as 2:4, a warning says why (next to the function),
// and nowhere else.
// WARN-NOT: warning
// ALWAYS-LABEL: func @m8
// ALWAYS: as_2_4 = true
// ALWAYS-LABEL: func @m16
// ALWAYS: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>
// ALWAYS-LABEL: func @m8_token_major
// ALWAYS: as_2_4 = true
// ALWAYS-LABEL: func @m6
// ALWAYS: vnm.config = #vnm_gpu.mma_sp_tiling
// ALWAYS-LABEL: func @m8_small_n
// ALWAYS: as_2_4 = true

// recipe=wgmma-sp-ws chooses as auto does for these functions, and runs
// the M = 6 weight on the multistage wgmma.sp kernel.
// WS-NOT: warning
// WS-LABEL: func @m8_token_major
// WS: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>
// WS-LABEL: func @m6
// WS: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>}

// JSON: "m": 4,
// JSON: "op_m": 8,
// JSON: "requirements": "frag_values/frag_meta in the format library's fragment layout; the weight (m = 8) packed as v:n:4, with the colidx of that packing;
// JSON: "tensor_maps"
// PTX-DAG: cp.async.bulk.tensor.2d
// PTX-DAG: wgmma.mma_async.sp.sync.aligned.m64n256k32.f32.f16.f16

!m8 = tensor<256x512xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @m8(%w: !m8, %x: tensor<512x?xf16>) -> tensor<256x?xf16> {
  %y = vnm.spmm %w, %x : !m8, tensor<512x?xf16> -> tensor<256x?xf16>
  return %y : tensor<256x?xf16>
}

!m16 = tensor<256x512xf16, #vnm.encoding<v = 128, n = 2, m = 16>>
func.func @m16(%w: !m16, %x: tensor<512x?xf16>) -> tensor<256x?xf16> {
  %y = vnm.spmm %w, %x : !m16, tensor<512x?xf16> -> tensor<256x?xf16>
  return %y : tensor<256x?xf16>
}

// rhs K-contiguous: the transpose of x[N][K], read token-major.
func.func @m8_token_major(%v: memref<256x128xf16>, %c: memref<4x64x4xi8>,
                          %m: memref<256x128xi8>,
                          %x: memref<512x?xf16, strided<[1, ?]>>,
                          %y: memref<256x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x128xf16>,
                       memref<4x64x4xi8>, memref<256x128xi8>,
                       memref<512x?xf16, strided<[1, ?]>>)
      outs(%y : memref<256x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

!m6 = tensor<256x516xf16, #vnm.encoding<v = 64, n = 2, m = 6>>
func.func @m6(%w: !m6, %x: tensor<516x?xf16>) -> tensor<256x?xf16> {
  // WARN: as-2-4.mlir:[[@LINE+1]]:8: warning: vnm-choose-config: as-2-4=1 is not applied: only N <= 2 and M a multiple of 4 make 2:4 groups
  %y = vnm.spmm %w, %x : !m6, tensor<516x?xf16> -> tensor<256x?xf16>
  return %y : tensor<256x?xf16>
}
// WARN-NOT: warning

func.func @m8_small_n(%w: !m8, %x: tensor<512x1024xf16>) -> tensor<256x1024xf16> {
  %y = vnm.spmm %w, %x : !m8, tensor<512x1024xf16> -> tensor<256x1024xf16>
  return %y : tensor<256x1024xf16>
}

func.func @m8_large_n(%w: !m8, %x: tensor<512x2048xf16>) -> tensor<256x2048xf16> {
  %y = vnm.spmm %w, %x : !m8, tensor<512x2048xf16> -> tensor<256x2048xf16>
  return %y : tensor<256x2048xf16>
}
