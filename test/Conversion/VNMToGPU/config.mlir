// vnm-lower-to-gpu follows the op's #vnm.config, carried through storage
// expansion and bufferization.
// RUN: vnm-opt %s --vnm-expand-storage --one-shot-bufferize="bufferize-function-boundaries" --vnm-lower-to-gpu --vnm-pipeline-kernels | FileCheck %s

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: block = [256, 1, 1]
// CHECK-SAME: block_tile = [128, 128]
// CHECK-SAME: grid_y = 8
// CHECK-SAME: stages = 2
// CHECK-SAME: static_shared_bytes = 32768
// CHECK-SAME: warps = [4, 2]
// CHECK: vnm.storage.spmm ins({{.*}}vnm.config = #vnm.config<block = [128, 128], warps = [4, 2], stages = 2, blocks_per_sm = 0>, vnm.gpu_kernel = @vnm_kernels::@spmm_0
// CHECK: llvm.mlir.global internal @spmm_0_ring() {{.*}} : !llvm.array<32768 x i8>
// CHECK: gpu.func @spmm_0({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// Two stages: the prologue gathers one pair (4 rows of 16-byte copies per
// thread with 256 threads), and every iteration waits for all groups before
// gathering the next pair into the other slot.
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.mma.sp.sync
!w = tensor<1024x512xf16, #vnm.encoding<v = 128, n = 2, m = 8>>
func.func @spmm(%w: !w, %x: tensor<512x?xf16>) -> tensor<1024x?xf32> {
  %y = vnm.spmm %w, %x {vnm.config = #vnm.config<block = [128, 128], warps = [4, 2], stages = 2, blocks_per_sm = 0>}
      : !w, tensor<512x?xf16> -> tensor<1024x?xf32>
  return %y : tensor<1024x?xf32>
}
