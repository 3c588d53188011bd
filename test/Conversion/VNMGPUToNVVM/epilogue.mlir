// convert-vnm-gpu-to-nvvm: the epilogue, per thread: rows g and g + 8 of
// each m16 tile, column pairs 2t, 2t + 1 of each n8 tile, predicated on R
// and N; math in f32, one rounding.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm,canonicalize))" | FileCheck %s
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s --check-prefix=IACC

#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>

// Accumulate, bias and gelu into f16: the row's bias once, then per column
// pair one 4-byte load of the previous output, adds in f32, tanh from ex2
// and div.full, one truncation, one 4-byte store; a lone last column (col
// + 1 == n) alone.
// CHECK-LABEL: gpu.func @bias_gelu
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %{{.*}}, %c1000_i32
// CHECK: scf.if %[[ROWOK]]
// CHECK: %[[BIAS:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: arith.extf %[[BIAS]] : f16 to f32
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xf16>
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: nvvm.inline_ptx "ex2.approx.f32 $0, $1;"
// CHECK: "div.full.f32 $0, 0f40000000, $1;"
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
gpu.module @bias_gelu {
  gpu.func @bias_gelu(%out: memref<?xf16>, %bias: memref<?xf16>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %z into %out[%i, %i] bounds(1000, %i) ld(%i)
        bias(%bias : memref<?xf16>) {accumulate, activation = #vnm.activation<gelu>}
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf16>
    gpu.return
  }
}

// Row and column scales: f32 loads, multiplied in before the relu.
// CHECK-LABEL: gpu.func @scales
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: arith.mulf
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: arith.mulf
// CHECK: arith.maximumf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
gpu.module @scales {
  gpu.func @scales(%out: memref<?xbf16>, %rs: memref<?xf32>, %cs: memref<?xf32>,
                   %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %z into %out[%i, %i] bounds(64, %i) ld(%i)
        row_scales(%rs : memref<?xf32>) col_scales(%cs : memref<?xf32>)
        {activation = #vnm.activation<relu>} : !vnm_gpu.acc<64x128xf32, #L>, memref<?xbf16>
    gpu.return
  }
}

// i32 accumulators to an i32 output are stored as they are, or added to
// the previous output (accumulate) in i32.
// CHECK-LABEL: gpu.func @integer
// CHECK-NOT: arith.sitofp
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<1>
// (Checked without canonicalize, which would fold the zero accumulator.)
// IACC-LABEL: gpu.func @integer_accumulate
// IACC: %[[PAIR:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
// IACC: %[[PREV:.*]] = vector.extract %[[PAIR]][0] : i32 from vector<2xi32>
// IACC-NOT: arith.sitofp
// IACC: arith.addi %{{.*}}, %[[PREV]] : i32
// IACC: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<1>
gpu.module @integer {
  gpu.func @integer(%out: memref<?xi32>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L8>
    vnm_gpu.epilogue %z into %out[%i, %i] bounds(64, %i) ld(%i)
        : !vnm_gpu.acc<64x128xi32, #L8>, memref<?xi32>
    gpu.return
  }
}

gpu.module @integer_accumulate {
  gpu.func @integer_accumulate(%out: memref<?xi32>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L8>
    vnm_gpu.epilogue %z into %out[%i, %i] bounds(64, %i) ld(%i) {accumulate}
        : !vnm_gpu.acc<64x128xi32, #L8>, memref<?xi32>
    gpu.return
  }
}

// Transposed (y[N][R]): each element alone, column c at c * ld + row, in
// 2-byte stores; accumulating reads each previous value alone too. No
// vector (pair) access remains.
// CHECK-LABEL: gpu.func @transposed
// CHECK-NOT: vector<2xf16>
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
// CHECK-NOT: vector<2xf16>
// CHECK: gpu.return
gpu.module @transposed {
  gpu.func @transposed(%out: memref<?xf16>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %z into %out[%i, %i] bounds(1000, %i) ld(%i)
        {accumulate, transposed} : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf16>
    gpu.return
  }
}
