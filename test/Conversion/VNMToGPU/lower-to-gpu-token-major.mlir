// A linear layer y = x W^T with f16/bf16 activations x[N][K]: vnm-sparsify
// writes W times the transpose of x, bufferization makes it a copy, and
// vnm-fold-transposed-rhs hands the kernel x itself. At M = 8 each k-tile
// pair's 16 groups of every token are copied whole (128 values, 256 bytes
// per token: 32 KiB per slot, a 96 KiB dynamic ring) and load_b selects
// the kept values through the column-locs, spread as the 16-bit B
// fragments and read one stage ahead; at M = 4 the pair's 64 K values of
// every token are copied and read with ldmatrix without .trans.
// The M = 8 kernel's B loads select in registers (about three times the
// K loop instructions of the K x N kernel): it gets x only with
// register-gather; by default the copy stays for it.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa register-gather=true dump-dir=%t" | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --input-file=%t/vnm_kernels.ptx --check-prefix=PTX
// RUN: vnm-opt %s --canonicalize --vnm-expand-storage --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --vnm-choose-config=register-gather=true --vnm-fold-transposed-rhs=register-gather=true --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=DEFAULT

// DEFAULT: kernel = "spmm_0"
// DEFAULT-SAME: rhs_layout = "k_by_n"
// DEFAULT-SAME: kernel = "spmm_1"
// DEFAULT-SAME: rhs_layout = "token_major"
// DEFAULT: linalg.transpose ins(%{{.*}} : memref<?x512xf16>)
// DEFAULT-NOT: linalg.transpose

// No copy of x is left: the kernels read it through a transposed view.
// HOST-NOT: linalg.transpose
// HOST: dynamic_shared_bytes = 98304
// HOST-SAME: kernel = "spmm_0"
// HOST-SAME: rhs_layout = "token_major"
// HOST-SAME: kernel = "spmm_1"
// HOST-SAME: rhs_layout = "token_major"
// HOST-SAME: static_shared_bytes = 49152
// HOST: memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<?x512xf16> to memref<512x?xf16, strided<[1, 512]>>
// HOST: memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<?x512xbf16> to memref<512x?xbf16, strided<[1, 512]>>

// CHECK-LABEL: gpu.func @spmm_0
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x128x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: scf.for
// CHECK: %[[K:.*]] = arith.muli %{{.*}}, %c128_i32
// CHECK: vnm_gpu.copy_tile %{{.*}}[%{{.*}}, %[[K]]] bounds(%{{.*}}, %c512_i32) ld(%{{.*}}) into
// CHECK: %[[CL:.*]] = vnm_gpu.load_colloc {{.*}} -> !vnm_gpu.colloc<16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
// CHECK: vnm_gpu.load_b %{{.*}} offset(0) k_contiguous via %[[CL]]
// CHECK: vnm_gpu.load_b %{{.*}} offset(32) k_contiguous via %[[CL]]
// CHECK-LABEL: gpu.func @spmm_1
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x128x64xbf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK-NOT: load_colloc
// CHECK: vnm_gpu.copy_tile
// CHECK: vnm_gpu.load_b %{{.*}} offset(0) k_contiguous :
// CHECK: vnm_gpu.load_b %{{.*}} offset(32) k_contiguous :

// PTX-LABEL: .entry spmm_0
// PTX-NOT: ldmatrix
// PTX: ld.shared.b16
// PTX: prmt.b32
// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry spmm_1
// PTX-NOT: ld.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: .trans
// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32
!w8 = tensor<256x512xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!w4 = tensor<200x512xbf16, #vnm.encoding<v = 16, n = 2, m = 4>>
func.func @linear(%w: !w8, %x: tensor<?x512xf16>, %v: !w4, %z: tensor<?x512xbf16>)
    -> (tensor<256x?xf16>, tensor<200x?xbf16>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x512xf16>
  %e = tensor.empty(%n) : tensor<512x?xf16>
  %xt = linalg.transpose ins(%x : tensor<?x512xf16>) outs(%e : tensor<512x?xf16>) permutation = [1, 0]
  %y = vnm.spmm %w, %xt : !w8, tensor<512x?xf16> -> tensor<256x?xf16>
  %m = tensor.dim %z, %c0 : tensor<?x512xbf16>
  %f = tensor.empty(%m) : tensor<512x?xbf16>
  %zt = linalg.transpose ins(%z : tensor<?x512xbf16>) outs(%f : tensor<512x?xbf16>) permutation = [1, 0]
  %u = vnm.spmm %v, %zt : !w4, tensor<512x?xbf16> -> tensor<200x?xbf16>
  return %y, %u : tensor<256x?xf16>, tensor<200x?xbf16>
}
