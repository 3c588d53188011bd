// W8A8 at 64:2:8: token-major activations cannot be gathered by rows (a
// group's kept columns are bytes inside each token's row), so each k-tile
// pair's 16 groups are copied whole (16 x 8 = 128 K bytes per token, rows
// bounded by N, columns by K) and load_b selects the kept bytes through
// the column-locs, which are spread as the B fragments and read one stage
// ahead (with the A fragments).
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu --vnm-pipeline-kernels | FileCheck %s --check-prefix=PIPE
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: rhs_layout = "token_major"
// CHECK-SAME: static_shared_bytes = 49152
// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>
// CHECK: gpu.func @spmm_0
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x128x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: scf.for
// CHECK: %[[K:.*]] = arith.muli %{{.*}}, %c128_i32
// CHECK: vnm_gpu.copy_tile %{{.*}}[%{{.*}}, %[[K]]] bounds(%{{.*}}, %c259_i32) ld(%{{.*}}) into %{{.*}}[%{{.*}}] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
// CHECK: %[[CL:.*]] = vnm_gpu.load_colloc {{.*}} -> !vnm_gpu.colloc<16, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
// CHECK-NOT: vnm_gpu.gather
// CHECK: vnm_gpu.load_sparse_a
// CHECK: vnm_gpu.load_b %{{.*}} offset(0) k_contiguous via %[[CL]]
// CHECK: vnm_gpu.mma_sp %{{.*}}[0]
// CHECK: vnm_gpu.epilogue {{.*}} row_scales(%{{.*}} : memref<?xf32>) col_scales(%{{.*}} : memref<?xf32>)

// The pipelined loop carries the next pair's column-locs and A fragments.
// PIPE: scf.for {{.*}} -> (!vnm_gpu.acc<64x128xi32, {{.*}}>, !vnm_gpu.colloc<16, {{.*}}>, !vnm_gpu.sparse_a<64x64xi8, {{.*}}>)
// PIPE: vnm_gpu.load_colloc
// PIPE: vnm_gpu.load_sparse_a
// PIPE: vnm_gpu.wait
// PIPE: vnm_gpu.copy_tile
// PIPE: vnm_gpu.load_b

// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32
// PTX: prmt.b32
// PTX: ld.shared.v2.b32
// PTX-NOT: ldmatrix
func.func @spmm(%v: memref<1000x66xi8>, %c: memref<16x33x4xi8>,
                %m: memref<1000x66xi8>, %xt: memref<?x272xi8>,
                %sw: memref<1000xf32>, %sx: memref<?xf32>,
                %y: memref<1000x?xf16>) {
  %x = memref.transpose %xt (d0, d1) -> (d1, d0) : memref<?x272xi8> to memref<272x?xi8, strided<[1, 272]>>
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<272x?xi8, strided<[1, 272]>>
  %xk = memref.subview %x[0, 0] [259, %n] [1, 1] : memref<272x?xi8, strided<[1, 272]>> to memref<259x?xi8, strided<[1, 272]>>
  vnm.storage.spmm ins(%v, %c, %m, %xk : memref<1000x66xi8>,
                       memref<16x33x4xi8>, memref<1000x66xi8>,
                       memref<259x?xi8, strided<[1, 272]>>)
      weight_scales(%sw : memref<1000xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<1000x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
