// vnm-lower-to-gpu: one tile-program kernel per vnm.storage.spmm, linked to
// the op, with its launch contract on the module. The op's tiling keeps A
// in registers (the default for this gather takes it through the ring:
// staged-a.mlir).
// RUN: vnm-opt %s --vnm-lower-to-gpu | FileCheck %s

// The contract's parameters come from the kernel's signature.
// CHECK: module attributes {gpu.container_module, vnm.launch_contracts = [{
// CHECK-SAME: block = [128, 1, 1]
// CHECK-SAME: cols = 4096
// CHECK-SAME: dynamic_shared_bytes = 0
// CHECK-SAME: element_type = "f16"
// CHECK-SAME: grid_x_divisor = 128
// CHECK-SAME: grid_y = 64
// CHECK-SAME: kernel = "spmm_0"
// CHECK-SAME: m = 8
// CHECK-SAME: op = "vnm.storage.spmm"
// CHECK-SAME: param_types = ["ptr", "ptr", "ptr", "ptr", "ptr", "ptr", "i32", "i32", "i32"]
// CHECK-SAME: params = ["frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "n", "ldb", "ldc"]
// CHECK-SAME: result_type = "f32"
// CHECK-SAME: static_shared_bytes = 49152
// CHECK-SAME: v = 64
// CHECK: vnm.storage.spmm {{.*}} {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.config = {{.*}}, vnm.gpu_kernel = @vnm_kernels::@spmm_0}
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>,
       vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 4>}
  return
}

// The kernel: 128 threads, 4 blocks (16 warps) per multiprocessor, flat
// buffers named for the contract.
// CHECK: gpu.module @vnm_kernels
// CHECK: gpu.func @spmm_0(%[[VALUES:.*]]: memref<?xf16> {vnm_gpu.param = "frag_values"}, %[[META:.*]]: memref<?xi32> {vnm_gpu.param = "frag_meta"}, %[[COLIDX:.*]]: memref<?xi32> {vnm_gpu.param = "colidx"}, %[[RHS:.*]]: memref<?xf16> {vnm_gpu.param = "rhs"}, %[[OUT:.*]]: memref<?xf32> {vnm_gpu.param = "out"}, %{{.*}}: memref<?xf32> {vnm_gpu.param = "bias"}, %[[N:.*]]: i32 {vnm_gpu.param = "n"}, %[[LDB:.*]]: i32 {vnm_gpu.param = "ldb"}, %[[LDC:.*]]: i32 {vnm_gpu.param = "ldc"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// The block's tile: rows 64 by, columns 128 bx.
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[BY32:.*]] = arith.index_cast %[[BY]]
// CHECK: %[[ROW:.*]] = arith.muli %[[BY32]], %c64_i32
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BX32:.*]] = arith.index_cast %[[BX]]
// CHECK: %[[COL:.*]] = arith.muli %[[BX32]], %c128_i32
// A 3 x 16 KiB ring of 64 gathered rows by 128 columns.
// CHECK: %[[RING:.*]] = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: %[[ZERO:.*]] = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
// The K loop, plain: 512 groups = 32 k-tile pairs; pair p goes to slot p % 3.
// CHECK: %[[PAIRS:.*]] = arith.constant 32 : index
// CHECK: %[[RES:.*]] = scf.for %[[P:.*]] = %{{.*}} to %[[PAIRS]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]])
// CHECK: %[[PAIR:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK: %[[SLOT:.*]] = arith.remui %[[PAIR]], %c3_i32
// CHECK: %[[CL:.*]] = vnm_gpu.load_colloc %[[COLIDX]][%[[ROW]], %[[PAIR]]] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
// CHECK: vnm_gpu.gather %[[RHS]][%[[PAIR]], %[[COL]]] via %[[CL]] bounds(%[[N]]) ld(%[[LDB]]) into %[[RING]][%[[SLOT]]]
// CHECK: %[[A:.*]] = vnm_gpu.load_sparse_a %[[VALUES]], %[[META]][%[[ROW]], %[[PAIR]]] {{.*}} -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
// CHECK: vnm_gpu.wait %[[RING]] pending(0)
// CHECK: %[[B0:.*]] = vnm_gpu.load_b %[[RING]][%[[SLOT]]] offset(0) {{.*}} -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
// CHECK: %[[ACC0:.*]] = vnm_gpu.mma_sp %[[A]][0], %[[B0]], %[[ACC]]
// CHECK: %[[B1:.*]] = vnm_gpu.load_b %[[RING]][%[[SLOT]]] offset(32)
// CHECK: %[[ACC1:.*]] = vnm_gpu.mma_sp %[[A]][1], %[[B1]], %[[ACC0]]
// CHECK: scf.yield %[[ACC1]]
// The epilogue stores inside R x N.
// CHECK: vnm_gpu.epilogue %[[RES]] into %[[OUT]][%[[ROW]], %[[COL]]] bounds(4096, %[[N]]) ld(%[[LDC]]) : {{.*}}, memref<?xf32>
// CHECK-NEXT: gpu.return
