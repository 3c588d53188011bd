// vnm-lower-to-gpu follows the op's tiling (vnm.config), carried through storage
// expansion and bufferization.
// RUN: vnm-opt %s --vnm-expand-storage --one-shot-bufferize="bufferize-function-boundaries" --vnm-lower-to-gpu | FileCheck %s

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [256, 1, 1]
// CHECK-SAME: block_tile = [128, 128]
// CHECK-SAME: grid_y = 8
// CHECK-SAME: stages = 2
// CHECK-SAME: static_shared_bytes = 32768
// CHECK-SAME: warps = [4, 2]
// CHECK: vnm.storage.spmm ins({{.*}}vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 2, blocks_per_sm = 0>, vnm.gpu_kernel = @vnm_kernels::@spmm_0
// CHECK: gpu.func @spmm_0({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: arith.remui %{{.*}}, %c2_i32
// CHECK: vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 256, rows_per_thread = 4>>
// CHECK: !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
!w = tensor<1024x512xf16, #vnm.encoding<v = 128, n = 2, m = 8>>
func.func @spmm(%w: !w, %x: tensor<512x?xf16>) -> tensor<1024x?xf32> {
  %y = vnm.spmm %w, %x {vnm.config = #vnm_gpu.mma_sp_tiling<block = [128, 128], warps = [4, 2], stages = 2, blocks_per_sm = 0>}
      : !w, tensor<512x?xf16> -> tensor<1024x?xf32>
  return %y : tensor<1024x?xf32>
}
