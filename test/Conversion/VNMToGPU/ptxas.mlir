// ptxas assembles the generated kernels for sm_80 and sm_90, for each
// epilogue and element type: by default (16 warps per multiprocessor; K
// loops unrolled by the ring depth in blocks of 8 warps, rolled in blocks
// of 4) in 128 registers; with the registers ptxas chooses (rolled or unrolled) and with
// 64-row warp tiles (8 warps per multiprocessor) without spills; with the
// rolled loops at 16 warps per multiprocessor in 128 registers too (some
// configurations then spill a few bytes per thread, which measured faster
// than the lower occupancy: bench/results/ANALYSIS.md).
// Skipped (UNSUPPORTED) without ptxas.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 dump-dir=%t/sm90" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sm90/vnm_kernels.ptx -o %t/sm90.cubin > %t/sm90.txt 2>&1
// RUN: FileCheck %s --check-prefix=CAPPED < %t/sm90.txt
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80 dump-dir=%t/sm80" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sm80/vnm_kernels.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s --check-prefix=CAPPED
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 blocks-per-sm=0 dump-dir=%t/sm90-free" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sm90-free/vnm_kernels.ptx -o %t/sm90-free.cubin 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80 blocks-per-sm=0 dump-dir=%t/sm80-free" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sm80-free/vnm_kernels.ptx -o %t/sm80-free.cubin 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 unroll=1 blocks-per-sm=0 dump-dir=%t/sm90-rolled" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sm90-rolled/vnm_kernels.ptx -o %t/sm90-rolled.cubin 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 warp-rows=64 dump-dir=%t/sm90-warp64" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sm90-warp64/vnm_kernels.ptx -o %t/sm90-warp64.cubin 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 unroll=1 dump-dir=%t/sm90-capped" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sm90-capped/vnm_kernels.ptx -o %t/sm90-capped.cubin 2>&1 | FileCheck %s --check-prefix=CAPPED

// FREE-COUNT-4: 0 bytes spill stores, 0 bytes spill loads
// FREE-NOT: spill stores
// CAPPED-COUNT-4: Used 128 registers

!w16 = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!wbf = tensor<1000x3000xbf16, #vnm.encoding<v = 128, n = 2, m = 32>>
func.func @kernels(%a: !w16, %x: tensor<4096x?xf16>, %c: tensor<4096x?xf32>,
                   %b: tensor<4096xf32>, %d: !wbf, %z: tensor<3000x?xbf16>,
                   %bb: tensor<1000xbf16>)
    -> (tensor<4096x?xf16>, tensor<4096x?xf32>, tensor<1000x?xbf16>,
        tensor<1000x?xbf16>) {
  %0 = vnm.spmm %a, %x : !w16, tensor<4096x?xf16> -> tensor<4096x?xf16>
  %1 = vnm.spmm %a, %x acc(%c : tensor<4096x?xf32>) bias(%b : tensor<4096xf32>)
      {activation = #vnm.activation<gelu>}
      : !w16, tensor<4096x?xf16> -> tensor<4096x?xf32>
  %2 = vnm.spmm %d, %z : !wbf, tensor<3000x?xbf16> -> tensor<1000x?xbf16>
  %3 = vnm.spmm %d, %z bias(%bb : tensor<1000xbf16>)
      {activation = #vnm.activation<relu>}
      : !wbf, tensor<3000x?xbf16> -> tensor<1000x?xbf16>
  return %0, %1, %2, %3 : tensor<4096x?xf16>, tensor<4096x?xf32>,
      tensor<1000x?xbf16>, tensor<1000x?xbf16>
}
