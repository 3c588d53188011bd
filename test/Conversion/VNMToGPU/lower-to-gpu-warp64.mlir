// 64 x 64 warp tiles (#vnm_gpu.mma_sp_tiling warps = [1, 2] on a 64 x 128 block): 64
// threads, each copying 16 rows (four groups) of a pair, and a layout whose
// warps hold four m16 tiles each.
// RUN: vnm-opt %s --vnm-lower-to-gpu | FileCheck %s

// CHECK: block = [64, 1, 1]
// CHECK-SAME: warps = [1, 2]
// CHECK: gpu.func @spmm_0
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>, nvvm.minctasm = 4 : i32
// CHECK: vnm_gpu.load_colloc {{.*}} -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 64, rows_per_thread = 16>>
// CHECK: vnm_gpu.load_sparse_a {{.*}} -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [1, 2]>>
// CHECK: vnm_gpu.mma_sp {{.*}} !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [1, 2]>>
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
       vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [1, 2], stages = 3, blocks_per_sm = 4>}
  return
}
