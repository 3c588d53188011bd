// ptxas assembles the split kernels of k-splits.mlir (f16, a K loop of 86
// pairs, W4A16 and i8) for sm_90 and sm_90a. None spills in the sum over the
// cluster; the 86-pair f16 kernel (spmm_1, 64-row tiles of 4 warps capped
// at 128 registers) spills 8 bytes before its K loop, as the unsplit 4-warp
// kernels of the case matrix spill 16 (docs/gpu.md).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %S/k-splits.mlir --vnm-lower-to-nvvm-pipeline="chip=sm_90 k-splits=4 dump-dir=%t/four" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/four/vnm_kernels.ptx -o %t/four.cubin 2>&1 | FileCheck %s
// RUN: vnm-opt %S/k-splits.mlir --vnm-lower-to-nvvm-pipeline="chip=sm_90a k-splits=8 dump-dir=%t/eight" -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t/eight/vnm_kernels.ptx -o %t/eight.cubin 2>&1 | FileCheck %s

// CHECK: Function properties for spmm_3
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Function properties for spmm_2
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Function properties for spmm_1
// CHECK-NEXT: 8 bytes spill stores, 8 bytes spill loads
// CHECK: Function properties for spmm_0
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
