// convert-vnm-gpu-to-nvvm reports the tile ops it has no lowering for: the
// copies and ldmatrix address 16-byte chunks, so a ring swizzled in other
// chunks is refused, and so is what the sm_90a producer/consumer protocol
// cannot issue.
// RUN: vnm-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" -verify-diagnostics

#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
!ring32 = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 32, period = 8>>

gpu.module @chunks {
  gpu.func @chunks(%i: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ring32
    // expected-error @+1 {{failed to legalize operation 'vnm_gpu.load_b'}}
    %b = vnm_gpu.load_b %ring[%i] offset(0) : !ring32 -> !vnm_gpu.b_frag<32x128xf16, #L>
    gpu.return
  }
}

// -----

// The sm_90a protocol splits the block by thread index: it needs the
// kernel's block size.
!xa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!xacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @split {
  gpu.func @split(%i: i32) kernel {
    %zero = vnm_gpu.zero : !xacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op needs the kernel's known block size on sm_90a (it splits the block by thread index)}}
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !xacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !xacc):
        vnm_gpu.yield %sum : !xacc
      } -> !xacc
    gpu.return
  }
}

// -----

// One producer thread issues the copies: cp.async by the producer
// warpgroup (a copy layout) has no sm_90a lowering.
#W = #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>
!wa = !vnm_gpu.sparse_a<64x64xf16, #W>
!wacc = !vnm_gpu.acc<64x128xf32, #W>
!wring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @threads_copy {
  gpu.func @threads_copy(%values: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>, %i: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !wa>
    %zero = vnm_gpu.zero : !wacc
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !wacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.copy_tile' op has no sm_90a lowering in the produce region of vnm_gpu.produce_consume: one producer thread issues vnm_gpu.tma_copy_tile and vnm_gpu.stage_sparse_a (bulk) copies}}
        vnm_gpu.copy_tile %rhs[%i, %i] bounds(%i, %i) ld(%i) into %ring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>} : memref<?xf16>, !wring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !wacc):
        vnm_gpu.yield %sum : !wacc
      } -> !wacc
    gpu.return
  }
}

// -----

#W = #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>
!wa = !vnm_gpu.sparse_a<64x64xf16, #W>
!wacc = !vnm_gpu.acc<64x128xf32, #W>
gpu.module @threads_stage {
  gpu.func @threads_stage(%values: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !wa>
    %zero = vnm_gpu.zero : !wacc
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !wacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.stage_sparse_a' op with a copy layout (cp.async by the producer threads) has no sm_90a lowering: without one it is bulk-copied by one thread}}
        vnm_gpu.stage_sparse_a %values, %meta[%i, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<256x256xf16, #vnm.encoding<v = 64, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !vnm_gpu.a_ring<4, !wa>
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !wacc):
        vnm_gpu.yield %sum : !wacc
      } -> !wacc
    gpu.return
  }
}
