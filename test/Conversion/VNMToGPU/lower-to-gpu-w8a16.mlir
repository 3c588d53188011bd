// W8A16: an i8 weight (64:2:8) with per-row scales times f16 activations
// (K x N, as the f16 kernels read them). The weight's fragments are in the
// 16-bit class; load_sparse_a converts them to the f16 operands of the
// m16n8k32 MMA, whose f32 sums the epilogue scales per row.
// RUN: vnm-opt %s --vnm-choose-config --vnm-lower-to-gpu | FileCheck %s
// The quantized kernels keep the mma.sp recipe when wgmma.sp is asked for.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp" --vnm-lower-to-gpu | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: element_type = "i8"
// CHECK-SAME: fragment_class = "16bit"
// CHECK-SAME: params = ["frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "weight_scales", "n", "ldb", "ldc"]
// CHECK-SAME: rhs_layout = "k_by_n"
// CHECK-SAME: rhs_type = "f16"
// CHECK: vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 3>
// CHECK: gpu.func @spmm_0(%{{.*}}: memref<?xi8> {vnm_gpu.param = "frag_values"}
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16
// CHECK: vnm_gpu.gather %{{.*}} {matrix = tensor<1000x259xi8, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>
// CHECK: vnm_gpu.load_sparse_a {{.*}} : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32
// CHECK: vnm_gpu.epilogue {{.*}} row_scales(%{{.*}} : memref<?xf32>) : !vnm_gpu.acc<64x128xf32

// PTX: cvt.rn.f16.s16
// PTX: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
func.func @spmm(%v: memref<1000x66xi8>, %c: memref<16x33x4xi8>,
                %m: memref<1000x66xi8>, %x: memref<259x?xf16>,
                %sw: memref<1000xf32>, %y: memref<1000x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1000x66xi8>,
                       memref<16x33x4xi8>, memref<1000x66xi8>,
                       memref<259x?xf16>)
      weight_scales(%sw : memref<1000xf32>)
      outs(%y : memref<1000x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
