// staged-a=1: the mma.sp kernels copy each pair's A fragments and metadata
// with B (vnm_gpu.stage_sparse_a with a copy layout, cp.async by the block's
// threads) into an A ring, and read them from there after the wait, instead
// of loading them from global memory one pair ahead into registers.
// A gather in 64-row blocks takes it by default, with two stages (three
// cost a block per multiprocessor); staged-a=0 keeps A in registers and
// three stages. The schedule below is that of three stages, asked for.
// RUN: vnm-opt %s --vnm-choose-config="staged-a=1" | FileCheck %s --check-prefix=CHOOSE
// RUN: vnm-opt %s --vnm-choose-config | FileCheck %s --check-prefix=CHOOSE
// RUN: vnm-opt %s --vnm-choose-config="staged-a=1 stages=3" | FileCheck %s --check-prefix=CHOOSE3
// RUN: vnm-opt %s --vnm-choose-config="staged-a=0" | FileCheck %s --check-prefix=UNSTAGED
// RUN: vnm-opt %s --vnm-choose-config="staged-a=1 stages=3" --vnm-lower-to-gpu --vnm-pipeline-kernels | FileCheck %s
// RUN: vnm-opt %s --pass-pipeline="builtin.module(vnm-choose-config{staged-a=1 stages=3},vnm-lower-to-gpu,vnm-pipeline-kernels,gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s --check-prefix=NVVM
// RUN: rm -rf %t && vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 staged-a=1 stages=3 dump-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/vnm_kernels.ptx
// RUN: FileCheck %s --check-prefix=NO-A-LOADS < %t/vnm_kernels.ptx

// CHOOSE: block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>
// CHOOSE3: block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4, staged_a = true>
// UNSTAGED: block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4>

// 1024 x 4096, 64:2:8 (32 pairs), 64-row blocks of 4 warps, 3 stages.
// CHECK-LABEL: gpu.func @spmm_0
// CHECK: %[[RING:[^ ]+]] = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16
// CHECK: %[[ARING:[^ ]+]] = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<3, !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>>
// Prologue: pairs 0 and 1 copied, B and A each.
// CHECK-COUNT-2: vnm_gpu.stage_sparse_a {{.*}} into %[[ARING]][{{.*}}] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>
// CHECK-NOT: vnm_gpu.load_sparse_a
// The loop carries no A fragments; its wait leaves pair i + 1's two copies
// in flight (B's and A's).
// CHECK: scf.for {{.*}} -> (!vnm_gpu.acc<{{.*}}>, !vnm_gpu.colloc<{{.*}}>) {
// CHECK: vnm_gpu.wait %[[RING]] pending(2)
// CHECK: vnm_gpu.gather
// CHECK: vnm_gpu.stage_sparse_a {{.*}} into %[[ARING]][%[[NEXT:[0-9]+]]]
// CHECK: %[[A:.*]] = vnm_gpu.load_staged_a %[[ARING]][%[[SLOT:[0-9]+]]]
// CHECK: vnm_gpu.load_b %[[RING]][%[[SLOT]]] offset(0)
// CHECK: vnm_gpu.mma_sp %[[A]][0]
// CHECK: vnm_gpu.mma_sp %[[A]][1]
// CHECK: scf.yield
// The epilogue's waits take every copy.
// CHECK: vnm_gpu.wait %[[RING]] pending(0)
// CHECK-NOT: vnm_gpu.load_sparse_a
// CHECK: vnm_gpu.epilogue

// NVVM: scf.for
// NVVM: nvvm.cp.async.wait.group 2
// NVVM-NEXT: gpu.barrier
// B's gather: 8 chunks per thread, one commit group.
// NVVM-COUNT-8: nvvm.cp.async.shared.global
// NVVM: nvvm.cp.async.commit.group
// A's values: 4 row tiles of 64 chunks, two per thread; the metadata's 32
// chunks copied by threads 0-31 only, the others copy nothing.
// NVVM-COUNT-2: nvvm.cp.async.shared.global
// NVVM-NEXT: scf.if %{{.*}} {
// NVVM: nvvm.cp.async.shared.global
// NVVM: }
// NVVM-NEXT: nvvm.cp.async.commit.group
// Each warp's metadata words, then its A registers, from shared memory.
// NVVM-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// NVVM-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// NVVM: nvvm.mma.sp.sync

// The K loop's wait leaves two groups pending; A's words come from shared
// memory.
// PTX-DAG: cp.async.wait_group {{[[:space:]]*}}2;
// PTX-DAG: ld.shared.v4.b32
// PTX-DAG: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
// No A fragment is loaded from global memory by the threads.
// NO-A-LOADS-NOT: ld.global.nc.v4
func.func @spmm(%v: memref<1024x1024xf16>, %c: memref<16x512x4xi8>, %m: memref<1024x1024xi8>,
                %x: memref<4096x?xf16>, %y: memref<1024x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1024x1024xf16>, memref<16x512x4xi8>, memref<1024x1024xi8>, memref<4096x?xf16>)
      outs(%y : memref<1024x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
