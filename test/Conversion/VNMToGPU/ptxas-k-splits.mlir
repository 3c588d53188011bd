// ptxas assembles the split kernels of k-splits.mlir (f16, the W4A16 and
// i8 kernels, and a K loop of 86 pairs) for sm_90 without spills: the
// cluster's sum goes through the ring in rounds of the registers the ring
// holds.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %S/k-splits.mlir --vnm-lower-to-nvvm-pipeline="chip=sm_90 k-splits=4 dump-dir=%t/four" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/four/vnm_kernels.ptx -o %t/four.cubin 2>&1 | FileCheck %s
// RUN: vnm-opt %S/k-splits.mlir --vnm-lower-to-nvvm-pipeline="chip=sm_90a k-splits=8 dump-dir=%t/eight" -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t/eight/vnm_kernels.ptx -o %t/eight.cubin 2>&1 | FileCheck %s

// CHECK-COUNT-4: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: spill stores
