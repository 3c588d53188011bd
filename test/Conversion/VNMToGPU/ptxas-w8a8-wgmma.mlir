// ptxas assembles the s8 wgmma.sp kernels of W8A8 and W4A8 2:4
// (recipe=wgmma-sp-ws) for sm_90a without spills: two computing warpgroups
// of 128 x 256 (the default) and one of 64 x 128, f16 and i32 results.
// Skipped (UNSUPPORTED) without ptxas.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws dump-dir=%t/ws" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/ws/vnm_kernels.ptx
// RUN: %ptxas -arch=sm_90a -v %t/ws/vnm_kernels.ptx -o %t/ws.cubin 2>&1 | FileCheck %s

// PTX-DAG: wgmma.mma_async.sp.sync.aligned.m64n256k64.s32.s8.s8
// PTX-DAG: wgmma.mma_async.sp.sync.aligned.m64n128k64.s32.s8.s8
// CHECK-COUNT-3: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: spill stores
func.func @spmm(%v: memref<4096x2048xi8>, %c: memref<64x1024x4xi8>,
                %m: memref<4096x2048xi8>, %x: memref<4096x?xi8, strided<[1, 4096]>>,
                %sw: memref<4096xf32>, %sx: memref<?xf32>,
                %y: memref<4096x?xf16>, %z: memref<4096x?xi32>,
                %v4: memref<4096x2048xi4>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x2048xi8>,
                       memref<64x1024x4xi8>, memref<4096x2048xi8>,
                       memref<4096x?xi8, strided<[1, 4096]>>)
      weight_scales(%sw : memref<4096xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<4096x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x2048xi8>,
                       memref<64x1024x4xi8>, memref<4096x2048xi8>,
                       memref<4096x?xi8, strided<[1, 4096]>>)
      outs(%z : memref<4096x?xi32>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 4>,
       vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 3, producers = 1>}
  vnm.storage.spmm ins(%v4, %c, %m, %x : memref<4096x2048xi4>,
                       memref<64x1024x4xi8>, memref<4096x2048xi8>,
                       memref<4096x?xi8, strided<[1, 4096]>>)
      weight_scales(%sw : memref<4096xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<4096x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}
