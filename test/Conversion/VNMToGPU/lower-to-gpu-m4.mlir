// M = 4: every group keeps its four columns, so B is copied as a dense tile
// (no column-locs), block tiles span V blocks (v = 16 here), and two blocks
// run per multiprocessor by default.
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu | FileCheck %s
// R = 1000: the fragment arrays hold 1008 rows (63 V blocks of 16), so the
// last 128-row tile reads its row tiles past 62 from tile 62 (those rows are
// never stored).
// RUN: vnm-opt %s --pass-pipeline="builtin.module(vnm-choose-config,vnm-lower-to-gpu,gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s --check-prefix=NVVM

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [256, 1, 1]
// CHECK-SAME: grid_y = 8
// CHECK-SAME: m = 4
// CHECK-SAME: v = 16
// CHECK: gpu.func @spmm_0
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME: vnm_gpu.unroll = 3 : i64
// CHECK: scf.for
// CHECK-NOT: vnm_gpu.load_colloc
// CHECK: %[[PAIR:.*]] = arith.index_cast
// CHECK: %[[FIRST:.*]] = arith.muli %[[PAIR]], %c64_i32
// CHECK: vnm_gpu.copy_tile %{{.*}}[%[[FIRST]], %{{.*}}] bounds(%c256_i32, %{{.*}}) ld(%{{.*}}) into %{{.*}}[%{{.*}}] {layout = #vnm_gpu.copy<threads = 256, rows_per_thread = 4>}
// CHECK: vnm_gpu.load_sparse_a {{.*}} -> !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>

// NVVM: arith.minui %{{.*}}, %c62_i32
// NVVM-NOT: vnm_gpu.
func.func @spmm(%v: memref<1000x128xf16>, %c: memref<63x64x4xi8>,
                %m: memref<1000x128xi8>, %x: memref<256x?xf16>,
                %y: memref<1000x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1000x128xf16>,
                       memref<63x64x4xi8>, memref<1000x128xi8>,
                       memref<256x?xf16>)
      outs(%y : memref<1000x?xf32>) {encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
  return
}
