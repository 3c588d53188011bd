// vnm-choose-config gives each spmm a #vnm_gpu.mma_sp_tiling (vnm.config) unless it has one.
// RUN: vnm-opt %s --vnm-choose-config | FileCheck %s --check-prefix=DEFAULT
// The mma.sp recipe serves sm_80 as it does sm_90.
// RUN: vnm-opt %s --vnm-choose-config=chip=sm_80 | FileCheck %s --check-prefix=DEFAULT
// RUN: vnm-opt %s --vnm-choose-config="block-rows=64 warps-n=4 blocks-per-sm=2" | FileCheck %s --check-prefix=OPTIONS
// RUN: vnm-opt %s --vnm-choose-config="block-rows=64" | FileCheck %s --check-prefix=ROWS64
// RUN: vnm-opt %s --vnm-choose-config="staged-a=0" | FileCheck %s --check-prefix=UNSTAGED
// RUN: vnm-opt %s --vnm-choose-config="stages=6" | FileCheck %s --check-prefix=STAGES6
// RUN: vnm-opt %s --vnm-choose-config="blocks-per-sm=0" | FileCheck %s --check-prefix=PTXAS
// RUN: vnm-opt %s --vnm-choose-config="warp-rows=64" | FileCheck %s --check-prefix=WARP64
// RUN: vnm-opt %s --vnm-choose-config="unroll=1" | FileCheck %s --check-prefix=ROLLED
// RUN: vnm-opt %s --vnm-choose-config="unroll=6 blocks-per-sm=2" | FileCheck %s --check-prefix=UNROLL6
// sm_90a: mma.sp by default (recipe=auto, measured faster), the wgmma.sp
// recipe for these f16 weights when asked for.
// RUN: vnm-opt %s --vnm-choose-config=chip=sm_90a | FileCheck %s --check-prefix=AUTO-HOPPER
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a as-2-4=0" | FileCheck %s --check-prefix=AUTO-HOPPER
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a block-rows=64 warps-n=4 blocks-per-sm=2" | FileCheck %s --check-prefix=OPTIONS
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a as-2-4=1" | FileCheck %s --check-prefix=AUTO-HOPPER-24
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=mma-sp" | FileCheck %s --check-prefix=DEFAULT
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp" | FileCheck %s --check-prefix=HOPPER
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp block-rows=64 stages=3" | FileCheck %s --check-prefix=HOPPER-OPTIONS
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp block-cols=256" | FileCheck %s --check-prefix=HOPPER-256
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws" | FileCheck %s --check-prefix=HOPPER-WS
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws cluster-rows=2" | FileCheck %s --check-prefix=HOPPER-WS-CLUSTER
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws cluster-rows=1" | FileCheck %s --check-prefix=HOPPER-WS-NOCLUSTER
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp cluster-rows=4" | FileCheck %s --check-prefix=HOPPER-CLUSTER4

!big = tensor<4096x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>
!small = tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>
!v64 = tensor<1024x256xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!m4 = tensor<1024x256xf16, #vnm.encoding<v = 16, n = 2, m = 4>>
!m4odd = tensor<1152x256xf16, #vnm.encoding<v = 16, n = 2, m = 4>>

// DEFAULT-LABEL: func @spmms
// V a multiple of 128: 128-row tiles, whatever R, and 16 warps per
// multiprocessor (two blocks of 8 warps); the K loop unrolled by the ring's
// 3 stages; the gathers at M = 8 and 16 take A through the ring.
// DEFAULT: vnm.spmm {{.*}} {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3, staged_a = true>}
// DEFAULT: vnm.spmm {{.*}} {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3, staged_a = true>}
// V = 64: 64-row tiles, four blocks of 4 warps; their K loop stays rolled,
// A goes through the ring, two stages.
// DEFAULT: vnm.spmm {{.*}} {vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>}
// A config on the op is kept.
// DEFAULT: vnm.spmm {{.*}} {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>}
// M = 4: 128-row tiles even for V = 16.
// DEFAULT: vnm.spmm {{.*}} {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3>}
// Storage ops on memrefs too.
// DEFAULT: vnm.storage.spmm {{.*}} vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3, staged_a = true>

// OPTIONS-LABEL: func @spmms
// OPTIONS-COUNT-3: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 4], stages = 3, blocks_per_sm = 2, unroll = 3>
// OPTIONS: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// OPTIONS-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 4], stages = 3, blocks_per_sm = 2, unroll = 3>
// block-rows=64: blocks of 4 warps, whose K loops stay rolled where they
// gather (M > 4), with A through a ring of two stages, and are unrolled at
// M = 4.
// ROWS64-LABEL: func @spmms
// ROWS64-COUNT-3: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>}
// ROWS64: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// ROWS64-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4, unroll = 3>
// ROWS64: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>
// Other stages than those measured with A through the ring (two in 64-row
// blocks, three in 128-row ones) keep A in registers.
// STAGES6-LABEL: func @spmms
// STAGES6-NOT: staged_a
// staged-a=0: the gathers keep A in registers, with three stages.
// UNSTAGED-LABEL: func @spmms
// UNSTAGED-NOT: staged_a
// UNSTAGED-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3>
// UNSTAGED: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4>
// warp-rows=64: 64 x 64 warp tiles, 8 warps per multiprocessor, and A
// through the ring (staged_a; the op with a tiling of its own keeps it).
// WARP64-LABEL: func @spmms
// WARP64-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [2, 2], stages = 3, blocks_per_sm = 2, staged_a = true>
// WARP64: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [1, 2], stages = 3, blocks_per_sm = 4, staged_a = true>
// WARP64: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// WARP64-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [2, 2], stages = 3, blocks_per_sm = 2, staged_a = true>

// unroll=1: the rolled K loop.
// ROLLED-LABEL: func @spmms
// ROLLED-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, staged_a = true>
// ROLLED: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>
// An unroll factor asked for is kept, as are the blocks per SM asked for.
// UNROLL6-LABEL: func @spmms
// UNROLL6-COUNT-2: stages = 3, blocks_per_sm = 2, unroll = 6, staged_a = true>
// UNROLL6: stages = 2, blocks_per_sm = 2, unroll = 6, staged_a = true>
// UNROLL6: blocks_per_sm = 1>

// auto on sm_90a: the warp-specialized kernel for 2:4, in 128-column tiles
// as N (64) is static and small (choose-config-narrow-n.mlir); the V:2:8
// weights keep mma.sp for the same reason (as-2-4.mlir); a config on the
// op is kept.
// AUTO-HOPPER-LABEL: func @spmms
// AUTO-HOPPER-COUNT-2: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3, staged_a = true>
// AUTO-HOPPER: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>
// AUTO-HOPPER: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// AUTO-HOPPER: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// AUTO-HOPPER: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1>
// AUTO-HOPPER: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 3, blocks_per_sm = 2, unroll = 3, staged_a = true>
// as-2-4=1: the V:2:8 weights run as 2:4 whatever N.
// AUTO-HOPPER-24-LABEL: func @spmms
// AUTO-HOPPER-24-COUNT-3: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>
// AUTO-HOPPER-24: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// AUTO-HOPPER-24: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// AUTO-HOPPER-24: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1>
// AUTO-HOPPER-24: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>

// wgmma-sp: two warpgroups (128 rows) where the format allows, else one; a
// config on the op is kept.
// HOPPER-LABEL: func @spmms
// HOPPER-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4>
// HOPPER: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>
// HOPPER: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// HOPPER-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4>
// 256 columns: 3 stages of 32 KiB by default.
// HOPPER-256-LABEL: func @spmms
// HOPPER-256-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 3>
// HOPPER-256: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 256], warpgroups = 1, stages = 3>
// wgmma-sp-ws: M = 4 gets the warp-specialized kernel (a producer
// warpgroup, 4 stages; 128 x 128 tiles at this small N); the gathers keep
// wgmma-sp's.
// HOPPER-WS-LABEL: func @spmms
// HOPPER-WS-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4>
// HOPPER-WS: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>
// HOPPER-WS: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// Its 1024 rows make 8 row blocks: pairs of them run as clusters; the 1152
// rows of the next weight make 9, which do not pair up.
// HOPPER-WS: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// HOPPER-WS: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1>
// HOPPER-WS-NOCLUSTER-LABEL: func @spmms
// HOPPER-WS-NOCLUSTER-NOT: cluster_rows
// cluster-rows=2 gives every wgmma.sp kernel clusters of two row blocks (the
// 9 row blocks of the 1152-row weight are refused when its kernel is built).
// HOPPER-WS-CLUSTER-LABEL: func @spmms
// HOPPER-WS-CLUSTER-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, cluster_rows = 2>
// HOPPER-WS-CLUSTER: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4, cluster_rows = 2>
// HOPPER-WS-CLUSTER: vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>
// HOPPER-WS-CLUSTER-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// HOPPER-CLUSTER4-LABEL: func @spmms
// HOPPER-CLUSTER4-COUNT-2: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, cluster_rows = 4>
// HOPPER-OPTIONS-LABEL: func @spmms
// HOPPER-OPTIONS-COUNT-3: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 3>

// blocks-per-sm=0 leaves the registers to ptxas.
// PTXAS-LABEL: func @spmms
// PTXAS-COUNT-2: stages = 3, blocks_per_sm = 0, unroll = 3, staged_a = true>
// PTXAS: stages = 2, blocks_per_sm = 0, unroll = 2, staged_a = true>
// PTXAS: blocks_per_sm = 1>
// PTXAS-COUNT-2: stages = 3, blocks_per_sm = 0, unroll = 3>
func.func @spmms(%a: !big, %b: !small, %c: !v64, %x: tensor<256x64xf16>,
                 %d: !m4, %e: !m4odd,
                 %v: memref<4096x64xf16>, %ci: memref<32x32x4xi8>,
                 %m: memref<4096x64xi8>, %xm: memref<256x64xf16>,
                 %y: memref<4096x64xf32>)
    -> (tensor<4096x64xf32>, tensor<1024x64xf32>, tensor<1024x64xf32>,
        tensor<1024x64xf32>, tensor<1024x64xf32>, tensor<1152x64xf32>) {
  %0 = vnm.spmm %a, %x : !big, tensor<256x64xf16> -> tensor<4096x64xf32>
  %1 = vnm.spmm %b, %x : !small, tensor<256x64xf16> -> tensor<1024x64xf32>
  %2 = vnm.spmm %c, %x : !v64, tensor<256x64xf16> -> tensor<1024x64xf32>
  %3 = vnm.spmm %b, %x {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 4], stages = 2, blocks_per_sm = 1>}
      : !small, tensor<256x64xf16> -> tensor<1024x64xf32>
  %4 = vnm.spmm %d, %x : !m4, tensor<256x64xf16> -> tensor<1024x64xf32>
  %5 = vnm.spmm %e, %x : !m4odd, tensor<256x64xf16> -> tensor<1152x64xf32>
  vnm.storage.spmm ins(%v, %ci, %m, %xm : memref<4096x64xf16>, memref<32x32x4xi8>,
                       memref<4096x64xi8>, memref<256x64xf16>)
      outs(%y : memref<4096x64xf32>) {encoding = #vnm.encoding<v = 128, n = 2, m = 8>}
  return %0, %1, %2, %3, %4, %5 : tensor<4096x64xf32>, tensor<1024x64xf32>,
      tensor<1024x64xf32>, tensor<1024x64xf32>, tensor<1024x64xf32>,
      tensor<1152x64xf32>
}
