// convert-vnm-gpu-to-nvvm reports the tile ops it has no lowering for: the
// copies and ldmatrix address 16-byte chunks, so a ring swizzled in other
// chunks is refused, and the producer/consumer split is not lowered yet.
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

// The producer/consumer split runs on the CPU execution only so far.
!xa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!xacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @split {
  gpu.func @split(%i: i32) kernel {
    %zero = vnm_gpu.zero : !xacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op has no NVVM lowering yet: the producer/consumer split of a block runs on the CPU execution of tile programs only (docs/hopper.md section 6)}}
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
