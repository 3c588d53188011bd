// vnm-pipeline-kernels turns the plain K loop of a tile program into a
// software pipeline whose stages come from the op kinds: column-locs 3 pairs
// ahead, gathers 2 pairs ahead, A fragments 1 pair ahead of the MMAs (a
// 3-stage ring; the ops' tilings keep A in registers, whose schedule with A
// through the ring is staged-a.mlir's).
// RUN: vnm-opt %s --vnm-lower-to-gpu --vnm-pipeline-kernels --split-input-file | FileCheck %s
// The same schedule lowered to NVVM (convert-vnm-gpu-to-nvvm).
// RUN: vnm-opt %s --split-input-file --pass-pipeline="builtin.module(vnm-lower-to-gpu,vnm-pipeline-kernels,gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s --check-prefix=NVVM

// 4096 x 4096, 64:2:8: 512 groups = 32 k-tile pairs.
// CHECK-LABEL: gpu.func @spmm_0
// Prologue: column-locs of pairs 0 and 1, gather of pair 0, column-locs of
// pair 2, fragments of pair 0, gather of pair 1.
// CHECK: %[[CL0:.*]] = vnm_gpu.load_colloc
// CHECK: %[[CL1:.*]] = vnm_gpu.load_colloc
// CHECK-NOT: vnm_gpu.wait
// CHECK: vnm_gpu.gather %{{.*}} via %[[CL0]]
// CHECK: vnm_gpu.load_colloc
// CHECK: vnm_gpu.load_sparse_a
// CHECK: vnm_gpu.gather %{{.*}} via %[[CL1]]
// The loop runs 29 times; it carries the accumulators, the column-locs of
// the pair it gathers next and the next pair's fragments.
// CHECK: %[[TRIPS:.*]] = arith.subi %c32, %{{.*}} : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[TRIPS]] {{.*}} -> (!vnm_gpu.acc<{{.*}}>, !vnm_gpu.colloc<{{.*}}>, !vnm_gpu.sparse_a<{{.*}}>)
// Iteration i: column-locs of pair i + 3, fragments of pair i + 1, a wait
// that leaves the newest gather (pair i + 1) in flight, the gather of pair
// i + 2 into the slot pair i - 1 used, the MMAs of pair i. Each stage
// computes its own pair index and slot.
// CHECK: vnm_gpu.load_colloc
// CHECK: vnm_gpu.load_sparse_a
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[GPAIR:.*]] = arith.index_cast %[[AHEAD]]
// CHECK: %[[GSLOT:.*]] = arith.remui %[[GPAIR]], %c3_i32
// CHECK: vnm_gpu.gather %{{.*}}[%[[GPAIR]], %{{.*}}] via %{{.*}} into %{{.*}}[%[[GSLOT]]]
// CHECK: %[[CPAIR:.*]] = arith.index_cast
// CHECK: %[[CSLOT:.*]] = arith.remui %[[CPAIR]], %c3_i32
// CHECK: vnm_gpu.load_b %{{.*}}[%[[CSLOT]]] offset(0)
// CHECK: vnm_gpu.mma_sp
// CHECK: vnm_gpu.load_b %{{.*}}[%[[CSLOT]]] offset(32)
// CHECK: vnm_gpu.mma_sp
// CHECK: scf.yield
// Epilogue: the last three pairs, each waiting for every gather.
// CHECK: vnm_gpu.wait %{{.*}} pending(0)
// CHECK: vnm_gpu.gather
// CHECK-COUNT-2: vnm_gpu.mma_sp
// CHECK: vnm_gpu.wait %{{.*}} pending(0)
// CHECK-COUNT-2: vnm_gpu.mma_sp
// CHECK: vnm_gpu.wait %{{.*}} pending(0)
// CHECK-COUNT-2: vnm_gpu.mma_sp
// CHECK-NOT: vnm_gpu.mma_sp
// CHECK: vnm_gpu.epilogue

// Lowered to NVVM, the loop carries 64 accumulators, 2 column-loc words and 18
// fragment registers; its wait is cp.async.wait_group 1 and a barrier; each
// B fragment's ldmatrix sits just before the two MMAs that use it.
// NVVM-LABEL: gpu.func @spmm_0
// NVVM: %{{.*}}:84 = scf.for
// NVVM-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// NVVM-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// NVVM-COUNT-4: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// NVVM: nvvm.cp.async.wait.group 1
// NVVM-NEXT: gpu.barrier
// NVVM-COUNT-8: nvvm.cp.async.shared.global
// NVVM-NEXT: nvvm.cp.async.commit.group
// NVVM: nvvm.ldmatrix
// NVVM-NOT: nvvm.ldmatrix
// NVVM-COUNT-2: nvvm.mma.sp.sync
// NVVM-NEXT: llvm.extractvalue
// NVVM: nvvm.ldmatrix
// NVVM: scf.yield
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
       vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4>}
  return
}

// -----

// K = 64, M = 8: 8 groups, one k-tile pair, fewer than the pipeline's
// stages: the plain loop stays, waiting for every gather.
// CHECK-LABEL: gpu.func @spmm_0
// CHECK: scf.for
// CHECK: vnm_gpu.gather
// CHECK: vnm_gpu.wait %{{.*}} pending(0)
// CHECK: scf.yield
// CHECK-NOT: vnm_gpu.wait
// NVVM-LABEL: gpu.func @spmm_0
// NVVM: %{{.*}}:64 = scf.for
// NVVM-COUNT-8: nvvm.cp.async.shared.global
// NVVM: nvvm.cp.async.wait.group 0
// NVVM-NEXT: gpu.barrier
func.func @short(%v: memref<64x16xf16>, %c: memref<1x8x4xi8>,
                 %m: memref<64x16xi8>, %x: memref<64x?xf16>,
                 %y: memref<64x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x16xf16>, memref<1x8x4xi8>,
                       memref<64x16xi8>, memref<64x?xf16>)
      outs(%y : memref<64x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
       vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4>}
  return
}

// -----

// Rings beyond 48 KiB (stages = 4 here: 64 KiB): the contract has
// dynamic_shared_bytes for the host, and the pipeline keeps three gathers
// in flight (waits pending(2) in the loop).
// CHECK: dynamic_shared_bytes = 65536
// CHECK-SAME: static_shared_bytes = 0
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<4x64x128xf16
// CHECK-COUNT-3: vnm_gpu.gather
// CHECK: scf.for
// CHECK: vnm_gpu.wait %{{.*}} pending(2)
// CHECK: scf.yield
// CHECK-COUNT-4: vnm_gpu.wait %{{.*}} pending(0)
// CHECK-NOT: vnm_gpu.wait
// NVVM: llvm.mlir.global external @spmm_0_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// NVVM: nvvm.cp.async.wait.group 2
func.func @deep(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
       vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 4, blocks_per_sm = 0>}
  return
}
