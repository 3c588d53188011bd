// vnm-pipeline-kernels turns the plain K loop vnm-lower-to-gpu emits into a
// software pipeline: colidx words 3 pairs ahead, gathers 2 pairs ahead,
// fragments 1 pair ahead of the MMAs.
// RUN: vnm-opt %s --vnm-lower-to-gpu --vnm-pipeline-kernels --split-input-file | FileCheck %s

// 4096 x 4096, 64:2:8: 512 groups = 32 k-tile pairs.
// CHECK-LABEL: gpu.func @spmm_0
// Prologue: colidx words of pairs 0 and 1, gather of pair 0, colidx words of
// pair 2, fragments of pair 0, gather of pair 1.
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
// The loop runs 29 times; it carries the accumulators, the next pair's
// fragments (18) and the colidx words of the pair it gathers next (2).
// CHECK: %{{.*}}:84 = scf.for
// Iteration i: colidx words of pair i + 3, fragments of pair i + 1, wait
// until only the newest gather (pair i + 1) is in flight, barrier, gather
// pair i + 2 into the slot pair i - 1 used, MMAs of pair i.
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-COUNT-32: nvvm.mma.sp.sync
// CHECK: scf.yield
// Epilogue: the last three pairs, each waiting for every gather.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK-COUNT-32: nvvm.mma.sp.sync
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-32: nvvm.mma.sp.sync
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-32: nvvm.mma.sp.sync
// CHECK-NOT: nvvm.mma.sp.sync
// The schedule's tags are gone.
// CHECK-NOT: vnm.pipeline
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// K = 64, M = 8: 8 groups, one k-tile pair, fewer than the pipeline's
// stages: the plain loop stays (it waits for every gather), untagged.
// CHECK-LABEL: gpu.func @spmm_0
// CHECK: %{{.*}}:64 = scf.for
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: vnm.pipeline
func.func @short(%v: memref<64x16xf16>, %c: memref<1x8x4xi8>,
                 %m: memref<64x16xi8>, %x: memref<64x?xf16>,
                 %y: memref<64x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x16xf16>, memref<1x8x4xi8>,
                       memref<64x16xi8>, memref<64x?xf16>)
      outs(%y : memref<64x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
