// Tiles carried by scf.for and scf.if: each carried position has a buffer
// of its own; the init and every yield copy into it, so no buffer is
// allocated inside the loop. A yield that passes an iter_arg of its own
// loop to another position goes through a temporary first.
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops | FileCheck %s

!w = tensor<256x1024xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#mma = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
!a = !vnm_gpu.sparse_a<64x64xf16, #mma>
!acc = !vnm_gpu.acc<64x128xf32, #mma>

// CHECK-LABEL: func.func @loop_cpu
// CHECK: %[[ZERO:.*]] = memref.alloc() : memref<64x128xf32>
// CHECK: %[[A0:.*]] = memref.alloc() : memref<64x64xf16>
// CHECK: %[[X:.*]] = memref.alloc() : memref<64x64xf16>
// CHECK: %[[Y:.*]] = memref.alloc() : memref<64x64xf16>
// CHECK: %[[PICK:.*]] = memref.alloc() : memref<64x64xf16>
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<64x64xf16>
// CHECK-NOT: memref.alloc
// The inits.
// CHECK: memref.load %[[A0]]
// CHECK-NEXT: memref.store %{{.*}}, %[[X]]
// CHECK: memref.load %[[A0]]
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]]
// The loop and the scf.if carry no tiles any more.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.if %{{.*}} {
// CHECK: memref.load %[[X]]
// CHECK-NEXT: memref.store %{{.*}}, %[[PICK]]
// CHECK: } else {
// CHECK: memref.load %[[Y]]
// CHECK-NEXT: memref.store %{{.*}}, %[[PICK]]
// yield %pick, %x: x to the temporary, pick into x, the temporary into y.
// CHECK: memref.load %[[X]]
// CHECK-NEXT: memref.store %{{.*}}, %[[TMP]]
// CHECK: memref.load %[[PICK]]
// CHECK-NEXT: memref.store %{{.*}}, %[[X]]
// CHECK: memref.load %[[TMP]]
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: iter_args
// CHECK: memref.dealloc %[[ZERO]]
module {
  gpu.module @kernels {
    gpu.func @loop(%values: memref<?xf16>, %meta: memref<?xi32>,
                   %out: memref<?xf32>, %n: i32, %flag: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %p0 = arith.constant 0 : i32
      %zero = vnm_gpu.zero : !acc
      %a0 = vnm_gpu.load_sparse_a %values, %meta[%p0, %p0] {matrix = !w}
          : memref<?xf16>, memref<?xi32> -> !a
      %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a0, %y = %a0) -> (!a, !a) {
        %pick = scf.if %flag -> (!a) {
          scf.yield %x : !a
        } else {
          scf.yield %y : !a
        }
        scf.yield %pick, %x : !a, !a
      }
      vnm_gpu.epilogue %zero into %out[%p0, %p0] bounds(64, %n) ld(%n) : !acc, memref<?xf32>
      gpu.return
    }
  }
}
