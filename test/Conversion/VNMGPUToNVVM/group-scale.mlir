// convert-vnm-gpu-to-nvvm: vnm_gpu.group_scale is one uniform branch on
// "the pair ends its group" ((pair + 1) % pairs_per_group == 0 or the last
// pair); inside it, per m16 tile and half, one scale load (row clamped to
// R - 1, at row * groups + pair / pairs_per_group) and a multiply-add per
// accumulator register; the partial sums restart at zero.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm,canonicalize))" | FileCheck %s

#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
// CHECK-LABEL: gpu.func @fold
// CHECK-DAG: %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %c9_i32
// CHECK-DAG: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1_i32
// CHECK-DAG: %[[REM:.*]] = arith.remui %[[NEXT]], %c2_i32
// CHECK-DAG: %[[ENDS:.*]] = arith.cmpi eq, %[[REM]], %c0_i32
// CHECK: %[[COND:.*]] = arith.ori %[[ENDS]], %[[LAST]]
// CHECK: scf.if %[[COND]]
// CHECK: arith.minui %{{.*}}, %c999_i32
// CHECK: arith.muli %{{.*}}, %c5_i32
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK-COUNT-16: arith.mulf
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK: scf.yield
// CHECK: } else {
gpu.module @fold {
  gpu.func @fold(%s: memref<?xf32>, %i: i32, %out: memref<?xf32>) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %a, %p = vnm_gpu.group_scale %z, %z, %s[%i, %i] {rows = 1000 : i64, groups = 5 : i64, pairs_per_group = 2 : i64, last_pair = 9 : i64} : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    vnm_gpu.epilogue %a into %out[%i, %i] bounds(1000, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    vnm_gpu.epilogue %p into %out[%i, %i] bounds(1000, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}
