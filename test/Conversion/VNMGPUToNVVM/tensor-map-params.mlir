// vnm-mark-tensor-map-params: the parameters a kernel lists in
// vnm_gpu.tensor_map_params become 128-byte, 64-byte aligned byval grid
// constants (a CUtensorMap passed by value), and the list is dropped; other
// kernels and parameters are left alone.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(vnm-mark-tensor-map-params))" | FileCheck %s

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>,
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{.*}}: i32)
// CHECK-NOT: vnm_gpu.tensor_map_params
// CHECK-LABEL: llvm.func @plain(
// CHECK-SAME: %{{.*}}: !llvm.ptr)
gpu.module @m {
  llvm.func @k(%a: !llvm.ptr<1>, %map: !llvm.ptr, %n: i32)
      attributes {nvvm.kernel, vnm_gpu.tensor_map_params = array<i64: 1>} {
    llvm.return
  }
  llvm.func @plain(%p: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}
