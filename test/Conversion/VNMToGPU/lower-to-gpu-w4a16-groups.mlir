// W4A16 with per-group scales (groups of 128 K columns = one k-tile pair at
// M = 8): the MMAs sum each group into a second accumulator, which
// vnm_gpu.group_scale folds into the first at the group's last pair with
// the rows' scales of the group; the epilogue applies no row scales.
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: element_type = "i4"
// CHECK-SAME: fragment_class = "16bit"
// CHECK-SAME: group_size = 128
// CHECK: gpu.func @spmm_0
// CHECK: %[[Z0:.*]] = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32
// CHECK: %[[Z1:.*]] = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[Z0]], %[[PART:.*]] = %[[Z1]])
// CHECK: %[[M0:.*]] = vnm_gpu.mma_sp %{{.*}}[0], %{{.*}}, %[[PART]]
// CHECK: %[[M1:.*]] = vnm_gpu.mma_sp %{{.*}}[1], %{{.*}}, %[[M0]]
// CHECK: %[[FA:.*]], %[[FP:.*]] = vnm_gpu.group_scale %[[ACC]], %[[M1]], %{{.*}}[%{{.*}}, %{{.*}}] {groups = 3 : i64, last_pair = 2 : i64, pairs_per_group = 1 : i64, rows = 200 : i64}
// CHECK: scf.yield %[[FA]], %[[FP]]
// CHECK: vnm_gpu.epilogue
// CHECK-NOT: row_scales
// CHECK-SAME: : !vnm_gpu.acc<64x128xf32

// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
func.func @spmm(%v: memref<200x66xi4>, %c: memref<4x33x4xi8>,
                %m: memref<200x66xi8>, %x: memref<259x?xf16>,
                %sw: memref<200x3xf32>, %y: memref<200x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<200x66xi4>,
                       memref<4x33x4xi8>, memref<200x66xi8>,
                       memref<259x?xf16>)
      weight_scales(%sw : memref<200x3xf32>)
      outs(%y : memref<200x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 128}
  return
}
