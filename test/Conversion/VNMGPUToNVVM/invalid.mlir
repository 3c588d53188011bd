// convert-vnm-gpu-to-nvvm reports the tile ops it has no lowering for: the
// copies and ldmatrix address 16-byte chunks, so a ring swizzled in other
// chunks is refused.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" -verify-diagnostics

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
