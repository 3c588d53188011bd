// W4A8: an i4 weight (64:2:8) times i8 token-major activations. The
// kernel is the W8A8 one: its fragment values are bytes of two packed
// nibbles (8 bytes per lane and tile), which load_sparse_a widens to the
// i8 registers of the s8 MMA.
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: element_type = "i4"
// CHECK-SAME: rhs_layout = "token_major"
// CHECK-SAME: rhs_type = "i8"
// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>
// CHECK: gpu.func @spmm_0(%{{.*}}: memref<?xi8> {vnm_gpu.param = "frag_values"}, %{{.*}}: memref<?xi32> {vnm_gpu.param = "frag_meta"}, %{{.*}}: memref<?xi32> {vnm_gpu.param = "colidx"}, %{{.*}}: memref<?xi8> {vnm_gpu.param = "rhs"}
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x128x128xi8
// CHECK: vnm_gpu.load_sparse_a {{.*}} {matrix = tensor<1000x259xi4, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8,
// CHECK: vnm_gpu.load_b %{{.*}} offset(0) k_contiguous via
// CHECK: vnm_gpu.mma_sp {{.*}}, !vnm_gpu.acc<64x128xi32

// PTX: ld.global.nc.v2.b32
// PTX: prmt.b32 {{.*}}0x5140U
// PTX: prmt.b32 {{.*}}0x7362U
// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32
func.func @spmm(%v: memref<1000x66xi4>, %c: memref<16x33x4xi8>,
                %m: memref<1000x66xi8>, %xt: memref<?x272xi8>,
                %sw: memref<1000xf32>, %sx: memref<?xf32>,
                %y: memref<1000x?xf16>) {
  %x = memref.transpose %xt (d0, d1) -> (d1, d0) : memref<?x272xi8> to memref<272x?xi8, strided<[1, 272]>>
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<272x?xi8, strided<[1, 272]>>
  %xk = memref.subview %x[0, 0] [259, %n] [1, 1] : memref<272x?xi8, strided<[1, 272]>> to memref<259x?xi8, strided<[1, 272]>>
  vnm.storage.spmm ins(%v, %c, %m, %xk : memref<1000x66xi4>,
                       memref<16x33x4xi8>, memref<1000x66xi8>,
                       memref<259x?xi8, strided<[1, 272]>>)
      weight_scales(%sw : memref<1000xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<1000x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
