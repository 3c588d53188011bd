// stage_sparse_a whose fragment arrays are not kernel parameters (here
// reached through memref.cast), so no tensor map describes them: the
// producer thread copies each of the slot's 8 row tiles by two 1-D bulk
// copies (1 KiB of values, 128 bytes of metadata) onto the slot's full
// barrier, instead of one 2-D box per array (produce-consume.mlir). Only
// rhs, which tma_copy_tile reads, becomes a tensor map.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s

// CHECK: gpu.func @spmm_0(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[MAP:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel
// CHECK-SAME: vnm_gpu.tensor_map_params = array<i64: 2>
// CHECK: "setmaxnreg.dec.sync.aligned.u32 40;"
// CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r,~{memory}" %{{.*}}, %[[MAP]],
// CHECK-NOT: cp.async.bulk.tensor
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c1024_i32
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r,~{memory}" %{{.*}}, %{{.*}}, %c128_i32
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
  gpu.func @spmm_0(%vparam: memref<?xf16>, %mparam: memref<?xi32>, %rhs: memref<?xf16>, %out: memref<?xf16>, %n: i32, %ldb: i32, %ldc: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %values = memref.cast %vparam : memref<?xf16> to memref<?xf16>
    %meta = memref.cast %mparam : memref<?xi32> to memref<?xi32>
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
