// convert-vnm-gpu-to-nvvm: rings become shared arrays of the gpu.module,
// waits cp.async.wait_group plus a block barrier; memref arguments become
// global pointers.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s

// CHECK-LABEL: gpu.module @static_ring
// Rings that fit 48 KiB together are static shared arrays; a second ring
// gets its own name.
// CHECK: llvm.mlir.global internal @k_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<32768 x i8>
// CHECK: llvm.mlir.global internal @k_ring_1() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16384 x i8>
// CHECK: gpu.func @k(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32) kernel
// CHECK: llvm.mlir.addressof @k_ring : !llvm.ptr<3>
// CHECK: llvm.mlir.addressof @k_ring_1 : !llvm.ptr<3>
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: vnm_gpu.
gpu.module @static_ring {
  gpu.func @k(%x: memref<?xf16>, %i: i32) kernel {
    %ring = vnm_gpu.alloc_ring
        : !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %small = vnm_gpu.alloc_ring
        : !vnm_gpu.ring<1x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    vnm_gpu.wait %ring pending(1)
        : !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    vnm_gpu.wait %small pending(0)
        : !vnm_gpu.ring<1x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// Rings that do not fit 48 KiB together: the first moves to the block's
// dynamic shared memory (a static array may not take more than 48 KiB in
// all), the others stay static.
// CHECK-LABEL: gpu.module @mixed_rings
// CHECK: llvm.mlir.global external @k_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @k_ring_1() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16384 x i8>
gpu.module @mixed_rings {
  gpu.func @k() kernel {
    %ring = vnm_gpu.alloc_ring
        : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %small = vnm_gpu.alloc_ring
        : !vnm_gpu.ring<1x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// Beyond 48 KiB the ring is the block's dynamic shared memory: an external
// array of unknown size.
// CHECK-LABEL: gpu.module @dynamic_ring
// CHECK: llvm.mlir.global external @k_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
gpu.module @dynamic_ring {
  gpu.func @k() kernel {
    %ring = vnm_gpu.alloc_ring
        : !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}
