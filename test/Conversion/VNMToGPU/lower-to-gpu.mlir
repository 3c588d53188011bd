// vnm-lower-to-gpu: one kernel per vnm.storage.spmm, linked to the op, with
// its launch contract on the module.
// RUN: vnm-opt %s --vnm-lower-to-gpu | FileCheck %s

// CHECK: module attributes {gpu.container_module, vnm.launch_contracts = [{
// CHECK-SAME: block = [128, 1, 1]
// CHECK-SAME: cols = 4096
// CHECK-SAME: element_type = "f16"
// CHECK-SAME: grid_x_divisor = 128
// CHECK-SAME: grid_y = 64
// CHECK-SAME: kernel = "spmm_0"
// CHECK-SAME: m = 8
// CHECK-SAME: params = ["frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "n", "ldb", "ldc"]
// CHECK-SAME: result_type = "f32"
// CHECK-SAME: static_shared_bytes = 49152
// CHECK-SAME: v = 64
// CHECK: vnm.storage.spmm {{.*}} {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.gpu_kernel = @vnm_kernels::@spmm_0}
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// The kernel: a 3 x 16 KiB shared ring, 128 threads, 4 blocks (16 warps)
// per multiprocessor.
// CHECK: gpu.module @vnm_kernels
// CHECK: llvm.mlir.global internal @spmm_0_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<49152 x i8>
// CHECK: gpu.func @spmm_0(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}

// The K loop as vnm-lower-to-gpu emits it: per k-tile pair (512 groups =
// 64 k-tiles = 32 pairs), in plain order, carrying only the 64
// accumulators; every op is tagged with its pipeline stage and its place in
// the pipelined body (vnm-pipeline-kernels, pipeline-kernels.mlir).
// CHECK: %[[PAIRS:.*]] = arith.constant 32 : index
// CHECK: %{{.*}}:64 = scf.for %{{.*}} = %{{.*}} to %[[PAIRS]] {{.*}} -> ({{(f32, )+}}f32)
// Stage 0: the colidx words of the thread's two groups (loads that stay
// where they are issued).
// CHECK-COUNT-2: llvm.inline_asm has_side_effects {vnm.pipeline_order = 0 : i64, vnm.pipeline_stage = 0 : i64} "ld.global.nc.b32 $0, [$1];", "=r,l" %{{.*}} : (!llvm.ptr<1>) -> i32
// Stage 1: 8 gathered rows of 16-byte cp.async per thread into ring slot
// p % 3, zero-filled past K and N, as one commit group.
// CHECK-COUNT-8: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} {vnm.pipeline_order = 3 : i64, vnm.pipeline_stage = 1 : i64} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group {vnm.pipeline_order = 3 : i64, vnm.pipeline_stage = 1 : i64}
// Stage 2: the metadata words (one per m16 tile) and A fragments (16 bytes
// per lane for each k-tile and m16 tile).
// CHECK-COUNT-2: llvm.inline_asm has_side_effects {vnm.pipeline_order = 1 : i64, vnm.pipeline_stage = 2 : i64} "ld.global.nc.b32 $0, [$1];"
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {vnm.pipeline_order = 1 : i64, vnm.pipeline_stage = 2 : i64} "ld.global.nc.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %{{.*}} : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// Stage 3: wait for all copies, synchronize, then the MMAs.
// CHECK: nvvm.cp.async.wait.group 0 {vnm.pipeline_order = 2 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: gpu.barrier {vnm.pipeline_order = 2 : i64, vnm.pipeline_stage = 3 : i64}
// Per k-tile: each B fragment (ldmatrix.x4.trans) feeds the two m16 tiles'
// ordered mma.sp right away; selector 0 for the first k-tile of the pair,
// 1 for the second.
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64}
// CHECK: scf.yield
// Epilogue: stores predicated on R, and on N for each column pair.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: %[[INR:.*]] = arith.cmpi ult, %{{.*}}, {{%c4096_i32(_[0-9]+)?}}
// CHECK: scf.if %[[INR]]
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
