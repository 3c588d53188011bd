// A hand-given tiling with K splits needs a chip with clusters: on sm_80
// vnm-choose-config refuses it instead of leaving sm_90 instructions in
// sm_80 code.
// RUN: not vnm-opt %s --vnm-choose-config="chip=sm_80" 2>&1 | FileCheck %s
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90" | FileCheck %s --check-prefix=SM90

// CHECK: error: vnm-choose-config: k_splits = 2 needs chip sm_90 or sm_90a (the splits of a tile run as one cluster), got chip 'sm_80'
// SM90: k_splits = 2>
func.func @given(%v: memref<128x256xf16>, %c: memref<2x128x4xi8>,
                 %m: memref<128x256xi8>, %x: memref<1024x?xf16>,
                 %y: memref<128x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x256xf16>,
                       memref<2x128x4xi8>, memref<128x256xi8>,
                       memref<1024x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 2>}
  return
}
