// A module that names no vnm_gpu attribute: vnm-choose-config loads the
// dialect of the tilings it sets (it crashed here before).
// RUN: vnm-opt %s --vnm-choose-config | FileCheck %s

// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 2, blocks_per_sm = 4, staged_a = true>
func.func @f(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>, %m: memref<128x64xi8>,
             %x: memref<256x?xf16>, %y: memref<128x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
