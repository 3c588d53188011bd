// convert-vnm-gpu-to-nvvm: the sparse MMA of the mma_sp_m16n8k32 layout.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s

#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!ringb = !vnm_gpu.ring<3x64x128xbf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!w = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!wb = tensor<4096x4096xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// Per warp, 2 m16 tiles x 8 n8 tiles = 16 mma.sp::ordered_metadata per
// step; step 0 uses selector 0, step 1 selector 1, the same metadata word
// per m16 tile; f16 operands are vectors of two halves. The accumulators
// start as 64 zeros.
// CHECK-LABEL: gpu.func @f16
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: nvvm.mma.sp.sync A[{{.*}}] B[{{.*}}] C[%[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]]] sparseMetadata[%[[META0:.*]]] selector[%[[SEL0:.*]]] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: llvm.extractvalue
// CHECK-COUNT-15: nvvm.mma.sp.sync {{.*}} selector[%[[SEL0]]]
// CHECK: nvvm.mma.sp.sync {{.*}} sparseMetadata[%[[META0]]] selector[%[[SEL1:.*]]]
// CHECK-COUNT-15: nvvm.mma.sp.sync {{.*}} selector[%[[SEL1]]]
// CHECK-NOT: nvvm.mma.sp.sync
gpu.module @f16 {
  gpu.func @f16(%values: memref<?xf16>, %meta: memref<?xi32>, %i: i32,
                %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b0 = vnm_gpu.load_b %ring[%i] offset(0) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L>
    %b1 = vnm_gpu.load_b %ring[%i] offset(32) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc0 = vnm_gpu.mma_sp %a[0], %b0, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    %acc1 = vnm_gpu.mma_sp %a[1], %b1, %acc0 : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc1 into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// bf16 operands stay i32 words, with the PTX types given explicitly.
// CHECK-LABEL: gpu.func @bf16
// CHECK-NOT: llvm.bitcast
// CHECK: nvvm.mma.sp.sync {{.*}} {multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32)
gpu.module @bf16 {
  gpu.func @bf16(%values: memref<?xbf16>, %meta: memref<?xi32>, %i: i32,
                 %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ringb
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !wb}
        : memref<?xbf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xbf16, #L>
    %b0 = vnm_gpu.load_b %ring[%i] offset(0) : !ringb -> !vnm_gpu.b_frag<32x128xbf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc0 = vnm_gpu.mma_sp %a[0], %b0, %z : !vnm_gpu.sparse_a<64x64xbf16, #L>,
        !vnm_gpu.b_frag<32x128xbf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc0 into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// The mma_sp_m16n8k64 layout: s8 operands as i32 words, i32 accumulators
// that wrap, selector 0 for every MMA (all lanes carry metadata).
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
!ring8 = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
!w8 = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 4>>
// CHECK-LABEL: gpu.func @s8
// CHECK-NOT: llvm.bitcast
// CHECK: nvvm.mma.sp.sync A[{{.*}}] B[{{.*}}] C[%[[ZERO:[^,]+]], %[[ZERO]], %[[ZERO]], %[[ZERO]]] sparseMetadata[%{{.*}}] selector[%[[SEL:.*]]] {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-15: nvvm.mma.sp.sync {{.*}} selector[%[[SEL]]] {{.*}}k = 64
// CHECK-NOT: nvvm.mma.sp.sync
gpu.module @s8 {
  gpu.func @s8(%values: memref<?xi8>, %meta: memref<?xi32>, %i: i32,
               %out: memref<?xi32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring8
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w8}
        : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8, #L8>
    %b = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous : !ring8 -> !vnm_gpu.b_frag<64x128xi8, #L8>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L8>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xi8, #L8>,
        !vnm_gpu.b_frag<64x128xi8, #L8>, !vnm_gpu.acc<64x128xi32, #L8>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xi32, #L8>, memref<?xi32>
    gpu.return
  }
}
