// recipe=wgmma-sp-ws on the quantized forms: W8A8 and W4A8 2:4 get the
// warp-specialized s8 wgmma.sp kernel; W8A8 at M = 8 (a gather of bytes)
// and W8A16 (a dequantized weight) keep their mma.sp kernels.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws" | FileCheck %s
// recipe=auto gives W8A8 and W4A8 2:4 the s8 wgmma.sp kernel only where N
// is static and at least 2048; the others keep mma.sp.
// RUN: vnm-opt %s --vnm-choose-config=chip=sm_90a | FileCheck %s --check-prefix=AUTO
// AUTO-LABEL: func.func @w8a8_m4(
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling
// AUTO-LABEL: func.func @w8a8_m8(
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling
// AUTO-LABEL: func.func @w4a8_m4(
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling
// AUTO-LABEL: func.func @w8a16_m4(
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling
// AUTO-LABEL: func.func @w8a8_m4_n2048(
// AUTO: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// AUTO-LABEL: func.func @w4a8_m4_n2047(
// AUTO: vnm.config = #vnm_gpu.mma_sp_tiling

// CHECK-LABEL: func.func @w8a8_m4(
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @w8a8_m4(%v: memref<256x64xi8>, %c: memref<4x32x4xi8>, %m: memref<256x64xi8>,
                   %x: memref<128x?xi8, strided<[1, 128]>>, %y: memref<256x?xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x64xi8>, memref<4x32x4xi8>, memref<256x64xi8>, memref<128x?xi8, strided<[1, 128]>>)
      outs(%y : memref<256x?xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// CHECK-LABEL: func.func @w8a8_m8(
// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling
func.func @w8a8_m8(%v: memref<256x32xi8>, %c: memref<4x16x4xi8>, %m: memref<256x32xi8>,
                   %x: memref<128x?xi8, strided<[1, 128]>>, %y: memref<256x?xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x32xi8>, memref<4x16x4xi8>, memref<256x32xi8>, memref<128x?xi8, strided<[1, 128]>>)
      outs(%y : memref<256x?xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// CHECK-LABEL: func.func @w4a8_m4(
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @w4a8_m4(%v: memref<256x64xi4>, %c: memref<4x32x4xi8>, %m: memref<256x64xi8>,
                   %x: memref<128x?xi8, strided<[1, 128]>>, %y: memref<256x?xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x64xi4>, memref<4x32x4xi8>, memref<256x64xi8>, memref<128x?xi8, strided<[1, 128]>>)
      outs(%y : memref<256x?xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// CHECK-LABEL: func.func @w8a16_m4(
// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling
func.func @w8a16_m4(%v: memref<256x64xi8>, %c: memref<4x32x4xi8>, %m: memref<256x64xi8>,
                    %x: memref<128x?xf16>, %sw: memref<256xf32>, %y: memref<256x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x64xi8>, memref<4x32x4xi8>, memref<256x64xi8>, memref<128x?xf16>)
      weight_scales(%sw : memref<256xf32>)
      outs(%y : memref<256x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// CHECK-LABEL: func.func @w8a8_m4_n2048(
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @w8a8_m4_n2048(%v: memref<256x64xi8>, %c: memref<4x32x4xi8>, %m: memref<256x64xi8>,
                         %x: memref<128x2048xi8, strided<[1, 128]>>, %y: memref<256x2048xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x64xi8>, memref<4x32x4xi8>, memref<256x64xi8>, memref<128x2048xi8, strided<[1, 128]>>)
      outs(%y : memref<256x2048xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// CHECK-LABEL: func.func @w4a8_m4_n2047(
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @w4a8_m4_n2047(%v: memref<256x64xi4>, %c: memref<4x32x4xi8>, %m: memref<256x64xi8>,
                         %x: memref<128x2047xi8, strided<[1, 128]>>, %y: memref<256x2047xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x64xi4>, memref<4x32x4xi8>, memref<256x64xi8>, memref<128x2047xi8, strided<[1, 128]>>)
      outs(%y : memref<256x2047xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}
