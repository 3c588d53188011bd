// W8A8 2:4 on the warp-specialized sm_90a kernel (recipe=wgmma-sp-ws):
// s8 wgmma.sp m64nNk64 with i32 accumulators. The TMA copies each pair's
// 64 K bytes of the block's tokens into a slot of 64-byte rows in its
// 64-byte swizzle (K-major, the only B form of 8-bit wgmma), the producer
// stages the pair's one k64 tile of A and its metadata, and the epilogue
// applies the per-row weight and per-token input scales. Untested on a
// GPU: docs/hopper.md records the s8 operand layouts as probed on the
// H200, not this kernel.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws" --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws format=isa" | FileCheck %s --check-prefix=PTX
// recipe=auto keeps the quantized kernels on mma.sp, where they were timed.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a" | FileCheck %s --check-prefix=AUTO

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [384, 1, 1], block_tile = [128, 256], cluster = [1, 2, 1]
// CHECK-SAME: element_type = "i8"
// CHECK-SAME: param_types = ["tensor_map", "tensor_map", "ptr", "tensor_map", "ptr", "ptr", "ptr", "ptr", "i32", "i32", "i32"]
// CHECK-SAME: rhs_layout = "token_major"
// One k64 tile (512 bytes, 128 words) of each row tile per pair; B boxes
// of 256 tokens x 64 bytes in the 64-byte swizzle.
// CHECK-SAME: tensor_maps = {frag_meta = {box_cols = 32 : i64, box_rows = 8 : i64, cols = 160 : i64, element_bytes = 4 : i64, ld = 160 : i64, rows = 64 : i64, swizzle_bytes = 0 : i64}, frag_values = {box_cols = 128 : i64, box_rows = 8 : i64, cols = 640 : i64, element_bytes = 4 : i64, ld = 640 : i64, rows = 64 : i64, swizzle_bytes = 0 : i64}, rhs = {box_cols = 64 : i64, box_rows = 256 : i64, cols = 259 : i64, element_bytes = 1 : i64, ld = "ldb", rows = "n", swizzle_bytes = 64 : i64}}
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// CHECK: vnm_gpu.alloc_ring {alignment = 1024 : i64} : !vnm_gpu.ring<4x256x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
// CHECK: vnm_gpu.zero : !vnm_gpu.acc<128x256xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [8, 1]>>
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<128x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [8, 1]>>>
// CHECK: vnm_gpu.produce_consume
// CHECK: vnm_gpu.tma_copy_tile
// CHECK: vnm_gpu.stage_sparse_a
// CHECK: vnm_gpu.load_staged_a
// CHECK: vnm_gpu.wgmma_sp %{{.*}}[0], %{{.*}}[%{{.*}}] offset(0) k_contiguous, %{{.*}} pending(1)
// CHECK-NOT: vnm_gpu.wgmma_sp
// CHECK: vnm_gpu.epilogue {{.*}} row_scales(%{{.*}} : memref<?xf32>) col_scales(%{{.*}} : memref<?xf32>)

// The descriptor: LBO 256 rows x 64 bytes, SBO 8 x 64 bytes, 64-byte
// swizzle (mode 2): 0x8000002004000000.
// PTX: .reqnctapercluster 1, 2, 1
// PTX: wgmma.fence.sync.aligned;
// PTX: or.b64 {{.*}}, -9223371899348713472;
// PTX: wgmma.mma_async.sp.sync.aligned.m64n256k64.s32.s8.s8 {{{.*}}}, {{{.*}}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0, p;
// PTX: wgmma.commit_group.sync.aligned;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes

// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128]
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
