// The warp-specialized kernel's tile width on sm_90a: 128 columns where N
// is static and at most 1024 (float weights, rhs K x N), else 256; a
// block-cols option wins.
// RUN: vnm-opt %s --vnm-choose-config=chip=sm_90a | FileCheck %s
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws block-cols=256" | FileCheck %s --check-prefix=GIVEN
// The integer (s8) kernel, asked for by name, keeps 256 at a small N too.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws" | FileCheck %s --check-prefix=S8

!w = tensor<1024x256xf16, #vnm.encoding<v = 64, n = 2, m = 4>>

// CHECK-LABEL: func @by_n
// At N = 1024: 128 columns.
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// Above it, and where N is dynamic: 256.
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
// GIVEN-LABEL: func @by_n
// GIVEN-COUNT-3: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @by_n(%a: !w, %x1024: tensor<256x1024xf16>, %x1025: tensor<256x1025xf16>,
                %x: tensor<256x?xf16>)
    -> (tensor<1024x1024xf32>, tensor<1024x1025xf32>, tensor<1024x?xf32>) {
  %0 = vnm.spmm %a, %x1024 : !w, tensor<256x1024xf16> -> tensor<1024x1024xf32>
  %1 = vnm.spmm %a, %x1025 : !w, tensor<256x1025xf16> -> tensor<1024x1025xf32>
  %2 = vnm.spmm %a, %x : !w, tensor<256x?xf16> -> tensor<1024x?xf32>
  return %0, %1, %2 : tensor<1024x1024xf32>, tensor<1024x1025xf32>, tensor<1024x?xf32>
}

// A linear layer's x (token-major, K contiguous) keeps 256 columns: the
// narrow tiles were measured on a K x N rhs only.
// CHECK-LABEL: func @token_major
// CHECK: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @token_major(%v: memref<1024x128xf16>, %c: memref<16x64x4xi8>, %m: memref<1024x128xi8>,
                       %x: memref<256x512xf16, strided<[1, 256]>>, %y: memref<1024x512xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1024x128xf16>, memref<16x64x4xi8>, memref<1024x128xi8>, memref<256x512xf16, strided<[1, 256]>>)
      outs(%y : memref<1024x512xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}

// S8-LABEL: func @w8a8
// S8: vnm.config = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
func.func @w8a8(%v: memref<1024x128xi8>, %c: memref<16x64x4xi8>, %m: memref<1024x128xi8>,
                %x: memref<256x512xi8, strided<[1, 256]>>, %y: memref<1024x512xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1024x128xi8>, memref<16x64x4xi8>, memref<1024x128xi8>, memref<256x512xi8, strided<[1, 256]>>)
      outs(%y : memref<1024x512xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 4>}
  return
}
