// k-splits: each tile's K loop split over consecutive blocks along grid y,
// launched as one cluster; every split runs its share of the k-tile pairs
// and the last sums the partial tiles (vnm_gpu.reduce_k_splits) and runs the
// epilogue. vnm-choose-config takes the largest count up to k-splits that
// divides the pairs into parts of whole scale groups.
// RUN: vnm-opt %s --vnm-choose-config="k-splits=4" | FileCheck %s --check-prefix=CHOOSE
// Split kernels keep A in registers (A through the ring was measured over
// all of K only); without k-splits the f16 gathers stage it.
// RUN: vnm-opt %s --vnm-choose-config="k-splits=4" | FileCheck %s --check-prefix=UNSTAGED
// RUN: vnm-opt %s --vnm-choose-config | FileCheck %s --check-prefix=STAGED
// RUN: vnm-opt %s --vnm-choose-config="k-splits=4" --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-choose-config="k-splits=8 chip=sm_90a" | FileCheck %s --check-prefix=EIGHT
// RUN: vnm-opt %s --vnm-choose-config | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t && vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 k-splits=4 format=isa dump-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/vnm_kernels.ptx

// 1024 columns at M = 8: 8 pairs, four splits of two; 11008 columns: 86
// pairs, which four do not divide, two do; groups of 256 columns (two
// pairs) and 6 pairs: three splits of two pairs.
// UNSTAGED-LABEL: func.func @f16
// UNSTAGED-NOT: staged_a
// STAGED-LABEL: func.func @f16
// STAGED: staged_a = true>
// CHOOSE: func.func @f16
// CHOOSE: k_splits = 4>
// CHOOSE: func.func @down
// CHOOSE: k_splits = 2>
// CHOOSE: func.func @w4a16
// CHOOSE: k_splits = 3>
// CHOOSE: func.func @w8a8
// CHOOSE: k_splits = 4>
// Eight splits of one pair; mma.sp on sm_90a (k-splits is an mma.sp
// option); 86 pairs take two; groups of two pairs three.
// EIGHT: func.func @f16
// EIGHT: #vnm_gpu.mma_sp_tiling<{{.*}}k_splits = 8>
// EIGHT: k_splits = 2>
// EIGHT: k_splits = 3>
// EIGHT: k_splits = 8>
// NONE-NOT: k_splits

// The f16 kernel: block y = row block * 4 + split, grid_y four times the
// row blocks, one cluster per tile.
// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: cluster = [1, 4, 1]
// CHECK-SAME: grid_y = 16 : i64
// CHECK-SAME: k_splits = 4 : i64
// CHECK: gpu.func @spmm_0
// CHECK-SAME: nvvm.cluster_dim = array<i32: 1, 4, 1>
// CHECK: %[[Y:.*]] = arith.index_cast %block_id_y : index to i32
// CHECK: %[[SPLIT:.*]] = arith.remui %[[Y]], %[[C4:.*]] : i32
// CHECK: %[[ROWBLOCK:.*]] = arith.divui %[[Y]], %{{.*}} : i32
// CHECK: %[[ROW:.*]] = arith.muli %[[ROWBLOCK]], %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[SPLIT]], %[[C2:.*]] : i32
// CHECK: %[[ACC:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %[[TWO:.*]] step
// CHECK: %[[I:.*]] = arith.index_cast %[[IV]] : index to i32
// CHECK: arith.remui %[[I]], %{{.*}} : i32
// CHECK: %[[PAIR:.*]] = arith.addi %[[FIRST]], %[[I]] : i32
// CHECK: vnm_gpu.load_colloc %{{.*}}[%[[ROW]], %[[PAIR]]]
// CHECK: vnm_gpu.load_sparse_a %{{.*}}, %{{.*}}[%[[ROW]], %[[PAIR]]]
// CHECK: %[[SUM:.*]] = vnm_gpu.reduce_k_splits %[[ACC]] rank(%[[SPLIT]]) splits(4) through
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[SPLIT]], %{{.*}} : i32
// CHECK: scf.if %[[LAST]] {
// CHECK-NEXT: vnm_gpu.epilogue %[[SUM]] into %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return

// Each rank stores its tile into its ring, the cluster synchronizes, the
// last rank reads the other three rings through the cluster's shared window
// and adds, the cluster synchronizes again.
// PTX: .reqnctapercluster 1, 4, 1
// PTX: barrier.cluster.arrive.release.aligned;
// PTX-NEXT: barrier.cluster.wait.acquire.aligned;
// PTX: mapa.shared::cluster.u32
// PTX: ld.shared::cluster.f32
// PTX: add.rn.f32
// PTX: barrier.cluster.arrive.release.aligned;
// The i8 kernel's i32 sums are read and added as integers.
// PTX: ld.shared::cluster.u32
// PTX: add.s32
func.func @f16(%v: memref<256x256xf16>, %c: memref<4x128x4xi8>,
               %m: memref<256x256xi8>, %x: memref<1024x?xf16>,
               %y: memref<256x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x256xf16>,
                       memref<4x128x4xi8>, memref<256x256xi8>,
                       memref<1024x?xf16>)
      outs(%y : memref<256x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
func.func @down(%v: memref<128x2752xf16>, %c: memref<2x1376x4xi8>,
                %m: memref<128x2752xi8>, %x: memref<11008x?xf16>,
                %y: memref<128x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x2752xf16>,
                       memref<2x1376x4xi8>, memref<128x2752xi8>,
                       memref<11008x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
func.func @w4a16(%v: memref<200x192xi4>, %c: memref<4x96x4xi8>,
                 %m: memref<200x192xi8>, %x: memref<768x?xf16>,
                 %sw: memref<200x3xf32>, %y: memref<200x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<200x192xi4>,
                       memref<4x96x4xi8>, memref<200x192xi8>,
                       memref<768x?xf16>)
      weight_scales(%sw : memref<200x3xf32>)
      outs(%y : memref<200x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, group_size = 256}
  return
}
func.func @w8a8(%v: memref<128x256xi8>, %c: memref<2x128x4xi8>,
                %m: memref<128x256xi8>,
                %x: memref<1024x?xi8, strided<[1, ?]>>,
                %y: memref<128x?xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x256xi8>,
                       memref<2x128x4xi8>, memref<128x256xi8>,
                       memref<1024x?xi8, strided<[1, ?]>>)
      outs(%y : memref<128x?xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
