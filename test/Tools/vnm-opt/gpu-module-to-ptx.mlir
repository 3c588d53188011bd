// The GPU-to-LLVM-IR translations are registered: a GPU module becomes PTX
// for sm_90 without CUDA being installed (format=isa).
// RUN: vnm-opt %s --gpu-module-to-binary=format=isa | FileCheck %s

// CHECK: gpu.binary @kernels
// CHECK-SAME: .target sm_90
// CHECK-SAME: .entry scale
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @scale(%p: !llvm.ptr<1>, %s: f32) attributes {nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %gep = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %v = llvm.load %gep : !llvm.ptr<1> -> f32
      %r = llvm.fmul %v, %s : f32
      llvm.store %r, %gep : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}
