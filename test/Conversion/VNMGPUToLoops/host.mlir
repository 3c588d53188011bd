// The host function: the kernel's arguments plus the grid, loops over grid x
// and y (y inner: the K splits of a tile, consecutive along y, run one after
// another) standing for gpu.block_id x and y, the kernel body inside, the tile
// buffers allocated once around the grid loops; the kernel and its emptied
// gpu.module are gone, and so is the host op's link to the kernel.
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops | FileCheck %s
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops=keep-kernels | FileCheck %s --check-prefix=KEEP

!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// CHECK-NOT: gpu.module
// CHECK-LABEL: func.func @host
// CHECK-NOT: vnm.gpu_kernel
// CHECK-LABEL: func.func @plain_cpu(
// CHECK-SAME: %[[OUT:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: i32, %[[GX:[^:]*]]: index, %[[GY:[^:]*]]: index)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64x128xf32>
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %[[GX]]
// CHECK: scf.for %[[BY:.*]] = %{{.*}} to %[[GY]]
// CHECK: arith.index_cast %[[BY]] : index to i32
// CHECK: arith.index_cast %[[BX]] : index to i32
// gpu.grid_dim y is the grid's height; gpu.barrier does nothing.
// CHECK: arith.index_cast %[[GY]] : index to i32
// CHECK-NOT: gpu.
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: memref.dealloc %[[ACC]]
// CHECK-NEXT: return

// KEEP: func.func @host
// KEEP-SAME: vnm.gpu_kernel = @kernels::@plain
// KEEP: gpu.module @kernels
// KEEP: gpu.func @plain
// KEEP: func.func @plain_cpu
module attributes {gpu.container_module} {
  func.func @host() attributes {vnm.gpu_kernel = @kernels::@plain} {
    return
  }
  gpu.module @kernels {
    gpu.func @plain(%out: memref<?xf32>, %n: i32) kernel {
      %by = gpu.block_id y
      %bx = gpu.block_id x
      %gy = gpu.grid_dim y
      %r = arith.index_cast %by : index to i32
      %c = arith.index_cast %bx : index to i32
      %h = arith.index_cast %gy : index to i32
      gpu.barrier
      %zero = vnm_gpu.zero : !acc
      vnm_gpu.epilogue %zero into %out[%r, %c] bounds(100, %n) ld(%h) : !acc, memref<?xf32>
      gpu.return
    }
  }
}
