// vnm-choose-config's diagnostics: it emits none on ops (an op without a
// vnm.config gets the default tiling, one with a config keeps it), only one
// error on the module for each option value the kernel has no tiling for,
// checked before any op is touched.
// RUN: rm -rf %t && split-file %s %t
// RUN: vnm-opt %t/block-rows.mlir --vnm-choose-config="block-rows=96" -verify-diagnostics
// RUN: vnm-opt %t/warp-rows.mlir --vnm-choose-config="warp-rows=48" -verify-diagnostics
// RUN: vnm-opt %t/warps-n.mlir --vnm-choose-config="warps-n=3" -verify-diagnostics
// RUN: vnm-opt %t/stages.mlir --vnm-choose-config="stages=1" -verify-diagnostics
// RUN: vnm-opt %t/stages-high.mlir --vnm-choose-config="stages=7" -verify-diagnostics
// RUN: vnm-opt %t/chip.mlir --vnm-choose-config="chip=sm_75" -verify-diagnostics
// Valid options: no diagnostic at all, and every spmm has a config.
// RUN: vnm-opt %t/valid.mlir --vnm-choose-config="block-rows=64 warps-n=4 stages=4" -verify-diagnostics | FileCheck %s
// CHECK: vnm.spmm {{.*}}vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 4], stages = 4
// CHECK: vnm.spmm {{.*}}vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 2,

//--- block-rows.mlir
// expected-error @below {{vnm-choose-config: block-rows must be 0, 64 or 128}}
module {
  func.func @spmm(%w: tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>,
                  %x: tensor<256x64xf16>) -> tensor<1024x64xf32> {
    %y = vnm.spmm %w, %x : tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>,
        tensor<256x64xf16> -> tensor<1024x64xf32>
    return %y : tensor<1024x64xf32>
  }
}

//--- warp-rows.mlir
// expected-error @+1 {{vnm-choose-config: warp-rows must be 0, 32 or 64}}
module {
}

//--- warps-n.mlir
// expected-error @+1 {{vnm-choose-config: warps-n must be 0, 2 or 4}}
module {
}

//--- stages.mlir
// expected-error @+1 {{vnm-choose-config: stages must be 0 or in [2, 6]}}
module {
}

//--- stages-high.mlir
// expected-error @+1 {{vnm-choose-config: stages must be 0 or in [2, 6]}}
module {
}

//--- chip.mlir
// expected-error @+1 {{vnm-choose-config: no spmm kernel recipe for chip 'sm_75' (sm_80, sm_90, sm_90a)}}
module {
}

//--- valid.mlir
module {
  func.func @spmm(%w: tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>,
                  %x: tensor<256x64xf16>) -> tensor<1024x64xf32> {
    %y = vnm.spmm %w, %x : tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>,
        tensor<256x64xf16> -> tensor<1024x64xf32>
    %z = vnm.spmm %w, %x {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2],
        stages = 2, blocks_per_sm = 2>}
        : tensor<1024x256xf16, #vnm.encoding<v = 128, n = 2, m = 8>>,
        tensor<256x64xf16> -> tensor<1024x64xf32>
    return %y : tensor<1024x64xf32>
  }
}
