// Epilogue variants: accumulate into the output, bias, gelu, bf16 operands
// and an f16 result.
// RUN: vnm-opt %s --vnm-lower-to-gpu | FileCheck %s

// CHECK: accumulate = true, activation = "gelu", bias = true
// CHECK-SAME: element_type = "bf16"
// CHECK-SAME: result_type = "f16"
// CHECK: gpu.func @spmm_0
// bf16 operands go to mma.sp as i32 words with explicit PTX types.
// CHECK: nvvm.mma.sp.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] sparseMetadata[{{.*}}] selector[{{%c0_i32(_[0-9]+)?}}] {multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 32>, vnm.pipeline_order = 4 : i64, vnm.pipeline_stage = 3 : i64} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// The epilogue loads the bias of the row once, then for each column pair
// reads the previous output, adds, applies gelu (tanh from the hardware's ex2
// and a div.full) and converts.
// CHECK: scf.if
// CHECK: %[[B:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: arith.extf %[[B]] : f16 to f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xf16>
// CHECK: nvvm.inline_ptx "ex2.approx.f32 $0, $1;"
// CHECK: nvvm.inline_ptx "div.full.f32 $0, 0f40000000, $1;"
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
func.func @spmm(%v: memref<256x256xbf16>, %c: memref<2x128x4xi8>,
                %m: memref<256x256xi8>, %x: memref<2048x?xbf16>,
                %b: memref<256xf16>, %y: memref<256x?xf16>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<256x256xbf16>,
                       memref<2x128x4xi8>, memref<256x256xi8>,
                       memref<2048x?xbf16>)
      bias(%b : memref<256xf16>) outs(%y : memref<256x?xf16>)
      {encoding = #vnm.encoding<v = 128, n = 2, m = 16>, accumulate,
       activation = #vnm.activation<gelu>}
  return
}
