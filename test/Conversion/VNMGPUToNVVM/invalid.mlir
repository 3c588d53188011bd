// convert-vnm-gpu-to-nvvm reports the tile ops it has no lowering for (the
// s8 m16n8k64 fragments and MMA belong to the quantized kernels).
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" -verify-diagnostics

#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
!w8 = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>

gpu.module @s8 {
  gpu.func @s8(%values: memref<?xi8>, %meta: memref<?xi32>, %i: i32) kernel {
    // expected-error @+1 {{failed to legalize operation 'vnm_gpu.load_sparse_a'}}
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w8}
        : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8, #L8>
    gpu.return
  }
}
