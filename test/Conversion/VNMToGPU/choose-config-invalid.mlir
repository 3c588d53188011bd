// vnm-choose-config rejects option values the kernel has no tiling for, and
// chips with no kernel recipe.
// RUN: not vnm-opt %s --vnm-choose-config="block-rows=96" 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not vnm-opt %s --vnm-choose-config="warp-rows=48" 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: not vnm-opt %s --vnm-choose-config="warps-n=3" 2>&1 | FileCheck %s --check-prefix=COLS
// RUN: not vnm-opt %s --vnm-choose-config="stages=7" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not vnm-opt %s --vnm-choose-config="blocks-per-sm=-2" 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not vnm-opt %s --vnm-choose-config="recipe=fastest" 2>&1 | FileCheck %s --check-prefix=RECIPE
// RUN: not vnm-opt %s --vnm-choose-config="block-cols=96" 2>&1 | FileCheck %s --check-prefix=BLOCK-COLS
// RUN: not vnm-opt %s --vnm-choose-config="block-cols=256" 2>&1 | FileCheck %s --check-prefix=COLS-MMA
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90 recipe=wgmma-sp" 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: not vnm-opt %s --vnm-choose-config="blocks-per-sm=33" 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not vnm-opt %s --vnm-choose-config="unroll=13" 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not vnm-opt %s --vnm-choose-config="unroll=-1" 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp cluster-rows=3" 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a cluster-rows=2" 2>&1 | FileCheck %s --check-prefix=CLUSTER-MMA
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a as-2-4=2" 2>&1 | FileCheck %s --check-prefix=AS24
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp as-2-4=1" 2>&1 | FileCheck %s --check-prefix=AS24-RECIPE
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90 as-2-4=1" 2>&1 | FileCheck %s --check-prefix=AS24-RECIPE
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a stages=3 as-2-4=1" 2>&1 | FileCheck %s --check-prefix=AS24-RECIPE
// RUN: not vnm-opt %s --vnm-choose-config="k-splits=9" 2>&1 | FileCheck %s --check-prefix=SPLITS
// RUN: not vnm-opt %s --vnm-choose-config="k-splits=-1" 2>&1 | FileCheck %s --check-prefix=SPLITS
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_80 k-splits=2" 2>&1 | FileCheck %s --check-prefix=SPLITS-CHIP
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp k-splits=2" 2>&1 | FileCheck %s --check-prefix=SPLITS-RECIPE
// RUN: not vnm-opt %s --vnm-choose-config="staged-a=2" 2>&1 | FileCheck %s --check-prefix=STAGED
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws staged-a=1" 2>&1 | FileCheck %s --check-prefix=STAGED-RECIPE

// ROWS: error: vnm-choose-config: block-rows must be 0, 64 or 128
// WARP: error: vnm-choose-config: warp-rows must be 0, 32 or 64
// COLS: error: vnm-choose-config: warps-n must be 0, 2 or 4
// STAGES: error: vnm-choose-config: stages must be 0 or in [2, 6]
// BLOCKS: error: vnm-choose-config: blocks-per-sm must be -1 (choose), 0 (ptxas's choice) or in [1, 32]
// UNROLL: error: vnm-choose-config: unroll must be 0 or in [1, 12]
// BLOCK-COLS: error: vnm-choose-config: block-cols must be 0, 128 or 256
// COLS-MMA: error: vnm-choose-config: block-cols=256 needs recipe=wgmma-sp or wgmma-sp-ws (the mma.sp kernels have 128-column block tiles)
// RECIPE: error: vnm-choose-config: recipe 'fastest' must be auto, mma-sp, wgmma-sp or wgmma-sp-ws
// WGMMA: error: vnm-choose-config: recipe wgmma-sp needs chip sm_90a (wgmma.sp is an sm_90a instruction), got chip 'sm_90'
// CLUSTER: error: vnm-choose-config: cluster-rows must be 0, 1, 2, 4 or 8
// CLUSTER-MMA: error: vnm-choose-config: cluster-rows needs recipe=wgmma-sp or wgmma-sp-ws (the mma.sp kernels launch no clusters)
// AS24: error: vnm-choose-config: as-2-4 must be -1 (choose), 0 or 1
// AS24-RECIPE: error: vnm-choose-config: as-2-4=1 runs on the warp-specialized kernel: it needs recipe=wgmma-sp-ws, or recipe=auto with chip=sm_90a and no mma.sp tiling options
// CHIP: error: vnm-choose-config: no spmm kernel recipe for chip 'sm_75' (sm_80, sm_90, sm_90a)
// SPLITS: error: vnm-choose-config: k-splits must be 0 or in [1, 8] (8: the portable cluster size)
// SPLITS-CHIP: error: vnm-choose-config: k-splits needs chip sm_90 or sm_90a (the splits of a tile run as one cluster)
// STAGED: error: vnm-choose-config: staged-a must be -1 (choose), 0 or 1
// STAGED-RECIPE: error: vnm-choose-config: staged-a stages the mma.sp kernels' A fragments: it needs recipe=mma-sp or auto
// SPLITS-RECIPE: error: vnm-choose-config: k-splits splits the mma.sp kernels' K loop: it needs recipe=mma-sp or auto
!w = tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>
func.func @spmm(%w: !w, %x: tensor<256x64xf16>) -> tensor<1024x64xf32> {
  %y = vnm.spmm %w, %x : !w, tensor<256x64xf16> -> tensor<1024x64xf32>
  return %y : tensor<1024x64xf32>
}
