// W4A8 2:4 on the warp-specialized sm_90a kernel (recipe=wgmma-sp-ws): the
// producer stages the i4 weight's packed nibbles (a 256-byte k64 tile per
// 16-row tile and pair: a values box of 64 words), the consumers load 8
// bytes per lane from the A ring (value_bits = 4) and widen them with two
// prmt each to the s8 registers of wgmma.sp m64nNk64. Untested on a GPU.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws" --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: element_type = "i4"
// CHECK-SAME: rhs_type = "i8"
// CHECK-SAME: frag_values = {box_cols = 64 : i64, box_rows = 8 : i64, cols = 320 : i64, element_bytes = 4 : i64, ld = 320 : i64, rows = 64 : i64, swizzle_bytes = 0 : i64}
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<128x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [8, 1]>>, value_bits = 4>
// CHECK: vnm_gpu.stage_sparse_a {{.*}} {matrix = tensor<1000x259xi4, #vnm.encoding<v = 64, n = 2, m = 4>>}
// CHECK: vnm_gpu.wgmma_sp %{{.*}}[0], %{{.*}}[%{{.*}}] offset(0) k_contiguous, %{{.*}} pending(1)

// PTX: ld.shared.v2.b32
// PTX: prmt.b32 {{.*}}0x5140U
// PTX: prmt.b32 {{.*}}0x7362U
// PTX: wgmma.mma_async.sp.sync.aligned.m64n256k64.s32.s8.s8
func.func @spmm(%v: memref<1000x130xi4>, %c: memref<16x65x4xi8>,
                %m: memref<1000x130xi8>, %x: memref<259x?xi8, strided<[1, 272]>>,
                %sw: memref<1000xf32>, %sx: memref<?xf32>,
                %y: memref<1000x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1000x130xi4>,
                       memref<16x65x4xi8>, memref<1000x130xi8>,
                       memref<259x?xi8, strided<[1, 272]>>)
      weight_scales(%sw : memref<1000xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<1000x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}
