// W8A8: an i8 weight (M = 4) times i8 token-major activations (the K x N
// view of an x[N][K]) with per-row weight and per-token input scales.
// The kernel copies each k-tile pair's 64 K bytes of the block's tokens
// into a slot (rows bounded by N, columns by K), reads B k_contiguous and
// runs one m16n8k64 step per pair with i32 accumulators; the epilogue
// scales them.
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: element_type = "i8"
// CHECK-SAME: params = ["frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "weight_scales", "input_scales", "n", "ldb", "ldc"]
// CHECK-SAME: requirements = "{{.*}}rhs token-major: x[n][K] with row pitch ldb (in elements), 16-byte rows (ldb a multiple of 16 for i8, of 8 for f16/bf16) and >= K
// CHECK-SAME: rhs_layout = "token_major"
// CHECK-SAME: static_shared_bytes = 24576
// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>
// CHECK: gpu.func @spmm_0
// CHECK-NOT: nvvm.minctasm
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
// CHECK: vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
// CHECK: scf.for
// CHECK: %[[K:.*]] = arith.muli %{{.*}}, %c64_i32
// CHECK: vnm_gpu.copy_tile %{{.*}}[%{{.*}}, %[[K]]] bounds(%{{.*}}, %c259_i32) ld(%{{.*}}) into %{{.*}}[%{{.*}}] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 4>}
// CHECK: vnm_gpu.load_sparse_a {{.*}} -> !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
// CHECK: vnm_gpu.load_b %{{.*}} offset(0) k_contiguous
// CHECK-NOT: vnm_gpu.load_b
// CHECK: vnm_gpu.mma_sp %{{.*}}[0]
// CHECK-NOT: vnm_gpu.mma_sp
// CHECK: vnm_gpu.epilogue {{.*}} row_scales(%{{.*}} : memref<?xf32>) col_scales(%{{.*}} : memref<?xf32>)

// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: ldmatrix.sync.aligned.m8n8.x4.trans
func.func @spmm(%v: memref<1000x130xi8>, %c: memref<16x65x4xi8>,
                %m: memref<1000x130xi8>, %xt: memref<?x272xi8>,
                %sw: memref<1000xf32>, %sx: memref<?xf32>,
                %y: memref<1000x?xf16>) {
  %x = memref.transpose %xt (d0, d1) -> (d1, d0) : memref<?x272xi8> to memref<272x?xi8, strided<[1, 272]>>
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<272x?xi8, strided<[1, 272]>>
  %xk = memref.subview %x[0, 0] [259, %n] [1, 1] : memref<272x?xi8, strided<[1, 272]>> to memref<259x?xi8, strided<[1, 272]>>
  vnm.storage.spmm ins(%v, %c, %m, %xk : memref<1000x130xi8>,
                       memref<16x65x4xi8>, memref<1000x130xi8>,
                       memref<259x?xi8, strided<[1, 272]>>)
      weight_scales(%sw : memref<1000xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<1000x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}
