// sm_90a: the wgmma.sp tile program of an f16 64:2:8 spmm. The ring holds
// the canonical 128-byte-swizzled layout (two 64-column blocks), aligned
// to 1024 bytes; its 4 stages of 16 KiB are dynamic shared memory, with
// 1024 bytes more for the run-time alignment. A pair's two MMAs read the
// slot at rows 0 and 32, the first left running until the second is
// issued; the wait fences the copies for the async proxy.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp" --vnm-lower-to-gpu | FileCheck %s
// Pipelined: the steady-state wait leaves S - 2 = 2 copies pending.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp" --vnm-lower-to-gpu --vnm-pipeline-kernels | FileCheck %s --check-prefix=PIPE
// And down to PTX for sm_90a.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [128, 1, 1]
// CHECK-SAME: block_tile = [64, 128]
// CHECK-SAME: dynamic_shared_bytes = 66560
// CHECK-SAME: warps = [4, 1]
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>
// CHECK: gpu.func @spmm_0
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: %[[RING:.*]] = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
// CHECK: scf.for
// CHECK: vnm_gpu.gather {{.*}} into %[[RING]][%[[SLOT:.*]]]
// CHECK: %[[A:.*]] = vnm_gpu.load_sparse_a {{.*}} -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
// CHECK: vnm_gpu.wait %[[RING]] pending(0) async_proxy
// CHECK: %[[S0:.*]] = vnm_gpu.wgmma_sp %[[A]][0], %[[RING]][%[[SLOT]]] offset(0), %{{.*}} pending(1)
// CHECK: %[[S1:.*]] = vnm_gpu.wgmma_sp %[[A]][1], %[[RING]][%[[SLOT]]] offset(32), %[[S0]] pending(0)
// CHECK: scf.yield %[[S1]]
// CHECK: vnm_gpu.epilogue

// PIPE: scf.for
// PIPE: vnm_gpu.wait %{{.*}} pending(2) async_proxy
// PIPE: vnm_gpu.gather
// PIPE: vnm_gpu.wgmma_sp {{.*}} pending(1)
// PIPE: vnm_gpu.wgmma_sp {{.*}} pending(0)

// PTX: .target sm_90a
// PTX: .extern .shared .align 1024 .b8 spmm_0_ring[];
// PTX: cp.async.wait_group {{.*}}2;{{.*}}fence.proxy.async.shared::cta;{{.*}}bar.sync
// PTX-SAME: wgmma.fence.sync.aligned;
// PTX-SAME: wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16
// PTX-SAME: wgmma.commit_group.sync.aligned;
// PTX-SAME: wgmma.wait_group.sync.aligned {{.*}}1;
func.func @spmm(%v: memref<256x256xf16>, %c: memref<4x128x4xi8>,
                %m: memref<256x256xi8>, %x: memref<1024x?xf16>,
                %y: memref<256x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x256xf16>,
                       memref<4x128x4xi8>, memref<256x256xi8>,
                       memref<1024x?xf16>)
      outs(%y : memref<256x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
