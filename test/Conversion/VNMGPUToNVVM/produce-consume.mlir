// convert-vnm-gpu-to-nvvm on a warp-specialized tile program (sm_90a):
// produce_consume becomes an mbarrier ring and a role split by thread
// index; the consumers' loop runs two pairs per iteration and the epilogue
// moves into their branch; one producer thread announces each slot's
// bytes and issues the TMA boxes of B (through the tensor map the `rhs`
// parameter becomes) and one box each of A's values and metadata (through
// the tensor maps the fragment arrays become) for all 8 row tiles.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s

// CHECK: llvm.mlir.global internal @spmm_0_mbarriers() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i64>
// CHECK: gpu.func @spmm_0(%[[VALUES:.*]]: !llvm.ptr, %[[META:.*]]: !llvm.ptr, %[[MAP:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel
// CHECK-SAME: vnm_gpu.tensor_map_params = array<i64: 0, 1, 2>
// Thread 0 initializes 4 full barriers (one arrival: the producer's) and
// 4 empty ones (the 256 consumer threads).
// CHECK: %[[BYTES:.*]] = arith.constant 25600 : i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c1_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c256_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c1_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c256_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c1_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c256_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c1_i32
// CHECK: "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %{{.*}}, %c256_i32
// CHECK: "fence.mbarrier_init.release.cluster;"
// CHECK-NEXT: gpu.barrier
// Consumers.
// CHECK: scf.if
// CHECK-NEXT: "setmaxnreg.inc.sync.aligned.u32 232;"
// CHECK: scf.for %{{.*}} = %c0_i32 to %c4_i32 step %c2_i32
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16
// CHECK-NOT: nvvm.wgmma
// CHECK: wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: "mbarrier.arrive.shared::cta.b64 _, [$0];"
// CHECK: scf.if %{{.*}} -> (f32
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: "mbarrier.arrive.shared::cta.b64 _, [$0];"
// CHECK: } else {
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.store %{{.*}} : vector<2xf16>, !llvm.ptr<1>
// Producers: only after the epilogue's stores.
// CHECK: "setmaxnreg.dec.sync.aligned.u32 40;"
// CHECK: scf.for %{{.*}} = %c0_i32 to %c4_i32 step %c1_i32
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r,~{memory}" %{{.*}}, %[[BYTES]]
// CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,~{memory}" %{{.*}}, %[[MAP]],
// The values' box at word 256 x pair (1 KiB per pair), row tile row / 16;
// the metadata's at the slot's byte 8192 and word 32 x pair.
// CHECK: %[[VCOL:.*]] = arith.muli %{{.*}}, %c256_i32{{.*}} : i32
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,~{memory}" %{{.*}}, %[[VALUES]], %[[VCOL]], %[[TILE:.*]], %{{.*}} :
// CHECK-NEXT: arith.addi %{{.*}}, %c8192_i32
// CHECK-NEXT: %[[MCOL:.*]] = arith.muli %{{.*}}, %c32_i32 : i32
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,~{memory}" %{{.*}}, %[[META]], %[[MCOL]], %[[TILE]], %{{.*}} :
// CHECK-NOT: cp.async.bulk
// CHECK-NOT: vnm_gpu.
// CHECK: gpu.return
!w = tensor<256x256xf16, #vnm.encoding<v = 128, n = 2, m = 4>>
#mma = #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>
!ring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!a = !vnm_gpu.sparse_a<128x64xf16, #mma>
!aring = !vnm_gpu.a_ring<4, !a>
!acc = !vnm_gpu.acc<128x128xf32, #mma>
module attributes {gpu.container_module} {
gpu.module @vnm_kernels {
  gpu.func @spmm_0(%values: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>, %out: memref<?xf16>, %n: i32, %ldb: i32, %ldc: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %by = gpu.block_id y
    %bx = gpu.block_id x
    %by32 = arith.index_cast %by : index to i32
    %bx32 = arith.index_cast %bx : index to i32
    %c128 = arith.constant 128 : i32
    %c64 = arith.constant 64 : i32
    %k = arith.constant 256 : i32
    %row = arith.muli %by32, %c128 : i32
    %col = arith.muli %bx32, %c128 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !ring
    %aring = vnm_gpu.alloc_ring : !aring
    %zero = vnm_gpu.zero : !acc
    %c0 = arith.constant 0 : i32
    %npairs = arith.constant 4 : i32
    %res = vnm_gpu.produce_consume %c0 to %npairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !acc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        %first = arith.muli %pair, %c64 : i32
        vnm_gpu.tma_copy_tile %rhs[%first, %col] bounds(%k, %n) ld(%ldb)
            into %ring[%slot] : memref<?xf16>, !ring
        vnm_gpu.stage_sparse_a %values, %meta[%row, %pair] into %aring[%slot]
            {matrix = !w} : memref<?xf16>, memref<?xi32>, !aring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair2: i32, %slot2: i32, %sum: !acc):
        %a = vnm_gpu.load_staged_a %aring[%slot2] : !aring -> !a
        %s0 = vnm_gpu.wgmma_sp %a[0], %ring[%slot2] offset(0), %sum : !a, !ring, !acc
        %s1 = vnm_gpu.wgmma_sp %a[1], %ring[%slot2] offset(32), %s0 pending(1) : !a, !ring, !acc
        vnm_gpu.yield %s1 : !acc
      } -> !acc
    vnm_gpu.epilogue %res into %out[%row, %col] bounds(256, %n) ld(%ldc) : !acc, memref<?xf16>
    gpu.return
  }
}
}
