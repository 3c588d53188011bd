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

// The kernel: a 3 x 16 KiB shared ring, 128 threads.
// CHECK: gpu.module @vnm_kernels
// CHECK: llvm.mlir.global internal @spmm_0_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<49152 x i8>
// CHECK: gpu.func @spmm_0(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>}

// Prologue: two stages of the gather. Each thread reads the colidx words of
// its two groups (loads that stay where they are issued), then copies 8
// gathered rows with 16-byte cp.async, zero-filled past K and N.
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];", "=r,l" %{{.*}} : (!llvm.ptr<1>) -> i32
// CHECK-COUNT-8: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group

// A fragments and metadata words of pair 0: one 4-byte word per m16 tile,
// 16 bytes per lane for each (k-tile, m16 tile); then the colidx words of
// pair 2, the first one the loop gathers.
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %{{.*}} : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32

// Main loop over k-tile pairs (512 groups = 64 k-tiles = 32 pairs), carrying
// 64 accumulators, 18 fragment registers, 2 colidx words and the offset of
// the stage it reads.
// CHECK: %[[PAIRS:.*]] = arith.constant 32 : index
// CHECK: %{{.*}}:85 = scf.for %{{.*}} = %{{.*}} to %[[PAIRS]] {{.*}} -> ({{(f32, )+}}{{(i32, )+}}i32)
// The next iteration's fragments and colidx words are issued first.
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: } else {
// CHECK: nvvm.cp.async.commit.group
// Per k-tile: each B fragment (ldmatrix.x4.trans) feeds the two m16 tiles'
// ordered mma.sp right away; selector 0 for the first k-tile of the pair,
// 1 for the second.
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c0_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sp.sync {{.*}} selector[{{%c1_i32(_[0-9]+)?}}] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK: scf.yield
// Epilogue: stores predicated on R, and on N for each column pair.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: %[[INR:.*]] = arith.cmpi ult, %{{.*}}, {{%c4096_i32(_[0-9]+)?}}
// CHECK: scf.if %[[INR]]
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
