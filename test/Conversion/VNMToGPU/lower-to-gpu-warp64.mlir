// 64 x 64 warp tiles (#vnm.config warps = [1, 2] on a 64 x 128 block): 64
// threads, each gathering 16 rows (four groups, four colidx words) per
// k-tile pair, and four m16 tiles per warp sharing each B fragment.
// RUN: vnm-opt %s --vnm-lower-to-gpu | FileCheck %s

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [64, 1, 1]
// CHECK-SAME: warps = [1, 2]
// CHECK: gpu.func @spmm_0
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME: nvvm.minctasm = 4 : i32
// The loop carries 4 x 8 x 4 = 128 accumulators.
// CHECK: %{{.*}}:128 = scf.for
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {vnm.pipeline_order = 0 : i64, vnm.pipeline_stage = 0 : i64} "ld.global.nc.b32
// CHECK-COUNT-16: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
// Metadata: one word per m16 tile; A: one 16-byte load per (k-tile, m16 tile).
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {vnm.pipeline_order = 1 : i64, vnm.pipeline_stage = 2 : i64} "ld.global.nc.b32
// CHECK-COUNT-8: llvm.inline_asm has_side_effects {vnm.pipeline_order = 1 : i64, vnm.pipeline_stage = 2 : i64} "ld.global.nc.v4.b32
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-4: nvvm.mma.sp.sync
// CHECK-NOT: nvvm.mma.sp.sync
// CHECK: nvvm.ldmatrix
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
       vnm.config = #vnm.config<block = [64, 128], warps = [1, 2], stages = 3, blocks_per_sm = 4>}
  return
}
