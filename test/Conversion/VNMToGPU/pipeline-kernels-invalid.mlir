// vnm-pipeline-kernels rejects K loops it cannot pipeline.
// RUN: vnm-opt %s --vnm-pipeline-kernels --split-input-file -verify-diagnostics -allow-unregistered-dialect

!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!ring2 = !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// An op with side effects that is not a tile op has no stage.
gpu.module @kernels {
  gpu.func @store(%x: memref<?xf16>, %buf: memref<8xi32>, %i: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ring = vnm_gpu.alloc_ring : !ring
    scf.for %k = %c0 to %c8 step %c1 {
      vnm_gpu.copy_tile %x[%i, %i] bounds(%i, %i) ld(%i) into %ring[%i]
          {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
          : memref<?xf16>, !ring
      // expected-error @+1 {{'memref.store' op in a kernel K loop is neither a vnm_gpu tile op nor free of side effects, so it cannot be pipelined}}
      memref.store %i, %buf[%k] : memref<8xi32>
      vnm_gpu.wait %ring pending(0) : !ring
    }
    gpu.return
  }
}

// -----

!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!ring2 = !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// The loop's carried values must come from tile ops.
gpu.module @kernels {
  gpu.func @carried_index(%x: memref<?xf16>, %i: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ring = vnm_gpu.alloc_ring : !ring
    %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%j = %i) -> (i32) {
      vnm_gpu.copy_tile %x[%j, %i] bounds(%i, %i) ld(%i) into %ring[%i]
          {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
          : memref<?xf16>, !ring
      vnm_gpu.wait %ring pending(0) : !ring
      // expected-error @+1 {{'arith.addi' op in a kernel K loop feeds the loop's yield or a value outside it; only tile ops may}}
      %next = arith.addi %j, %i : i32
      scf.yield %next : i32
    }
    gpu.return
  }
}

// -----

!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!ring2 = !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// A value read by an earlier stage than the one that computes it.
gpu.module @kernels {
  gpu.func @backwards(%x: memref<?xf16>, %i: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ring = vnm_gpu.alloc_ring : !ring
    %zero = vnm_gpu.zero : !acc
    %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (!acc) {
      vnm_gpu.wait %ring pending(0) : !ring
      %b = vnm_gpu.load_b %ring[%i] offset(0) : !ring -> !b
      // The cast goes with its user (stage 1) and reads the stage 3 load.
      // expected-error @+1 {{'builtin.unrealized_conversion_cast' op in pipeline stage 1 reads a value of an op in stage 3}}
      %slot = builtin.unrealized_conversion_cast %b : !b to i32
      vnm_gpu.copy_tile %x[%i, %i] bounds(%i, %i) ld(%i) into %ring[%slot]
          {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
          : memref<?xf16>, !ring
      scf.yield %acc : !acc
    }
    gpu.return
  }
}

// -----

!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!ring2 = !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// Waits without copies into the ring in an earlier stage.
gpu.module @kernels {
  gpu.func @no_copies() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ring = vnm_gpu.alloc_ring : !ring
    // expected-error @+1 {{'scf.for' op kernel K loop needs its ring copies in an earlier stage than its waits}}
    scf.for %k = %c0 to %c8 step %c1 {
      vnm_gpu.wait %ring pending(0) : !ring
    }
    gpu.return
  }
}

// -----

!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!ring2 = !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// One ring depth per loop: the stages follow from it.
gpu.module @kernels {
  gpu.func @two_depths() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ring = vnm_gpu.alloc_ring : !ring
    %ring2 = vnm_gpu.alloc_ring : !ring2
    // expected-error @+1 {{'scf.for' op kernel K loop waits for rings of different depths}}
    scf.for %k = %c0 to %c8 step %c1 {
      vnm_gpu.wait %ring pending(0) : !ring
      vnm_gpu.wait %ring2 pending(0) : !ring2
    }
    gpu.return
  }
}
