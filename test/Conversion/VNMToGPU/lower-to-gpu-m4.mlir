// M = 4: every group keeps its four columns, so the gather is B's rows in
// order: no colidx loads, block tiles that span V blocks (v = 16 here), and
// two blocks per multiprocessor by default.
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu --vnm-pipeline-kernels | FileCheck %s

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [256, 1, 1]
// CHECK-SAME: grid_y = 8
// CHECK-SAME: m = 4
// CHECK-SAME: v = 16
// CHECK: gpu.func @spmm_0
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME: nvvm.minctasm = 2 : i32
// R = 1000: the fragment arrays hold 1008 rows (63 V blocks of 16), so the
// last 128-row tile reads its row tiles past 62 from tile 62 (those rows are
// never stored).
// CHECK: arith.minui %{{.*}}, %c62_i32
// The prologue gathers pair 0, loads pair 0's metadata and A fragments,
// gathers pair 1: 4 rows per thread with 256 threads, no colidx loads.
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NOT: llvm.inline_asm
// The loop carries 64 accumulators and 18 fragment registers, no colidx.
// CHECK: %{{.*}}:82 = scf.for
func.func @spmm(%v: memref<1000x128xf16>, %c: memref<63x64x4xi8>,
                %m: memref<1000x128xi8>, %x: memref<256x?xf16>,
                %y: memref<1000x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1000x128xf16>,
                       memref<63x64x4xi8>, memref<1000x128xi8>,
                       memref<256x?xf16>)
      outs(%y : memref<1000x?xf32>) {encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
  return
}
