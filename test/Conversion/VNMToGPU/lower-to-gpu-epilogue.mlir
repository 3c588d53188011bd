// Epilogue variants reach the tile program's epilogue: accumulate into the
// output, bias, gelu, bf16 operands and an f16 result.
// RUN: vnm-opt %s --vnm-lower-to-gpu | FileCheck %s

// CHECK: gpu.func @spmm_0(%{{.*}}: memref<?xbf16> {vnm_gpu.param = "frag_values"}, {{.*}}, %[[OUT:.*]]: memref<?xf16> {vnm_gpu.param = "out"}, %[[BIAS:.*]]: memref<?xf16> {vnm_gpu.param = "bias"}
// CHECK: vnm_gpu.epilogue %{{.*}} into %[[OUT]][%{{.*}}, %{{.*}}] bounds(256, %{{.*}}) ld(%{{.*}}) bias(%[[BIAS]] : memref<?xf16>) {accumulate, activation = #vnm.activation<gelu>} : !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>, memref<?xf16>
func.func @spmm(%v: memref<256x256xbf16>, %c: memref<2x128x4xi8>,
                %m: memref<256x256xi8>, %x: memref<2048x?xbf16>,
                %b: memref<256xf16>, %y: memref<256x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x256xbf16>,
                       memref<2x128x4xi8>, memref<256x256xi8>,
                       memref<2048x?xbf16>)
      bias(%b : memref<256xf16>) outs(%y : memref<256x?xf16>)
      {encoding = #vnm.encoding<v = 128, n = 2, m = 16>, accumulate,
       activation = #vnm.activation<gelu>}
  return
}
