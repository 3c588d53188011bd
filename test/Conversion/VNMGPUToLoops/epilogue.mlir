// The epilogue: inside rows x n only; acc times the row and column scales,
// plus the previous output, plus the bias, gelu, one rounding to bf16.
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops | FileCheck %s

!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!acci = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>

// CHECK-LABEL: func.func @epilogue_cpu
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c64
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c128
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK: %[[C:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-DAG: %[[INR:.*]] = arith.cmpi ult, %[[R]], %c1000{{(_[0-9]+)?}} : index
// CHECK-DAG: %[[INC:.*]] = arith.cmpi ult, %[[C]], %[[N:.*]] : index
// CHECK: %[[IN:.*]] = arith.andi %[[INR]], %[[INC]] : i1
// CHECK: scf.if %[[IN]] {
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<64x128xf32>
// CHECK: %[[RS:.*]] = memref.load %{{.*}}[%[[R]]] : memref<?xf32>
// CHECK: %[[X1:.*]] = arith.mulf %[[X]], %[[RS]] : f32
// CHECK: %[[CS:.*]] = memref.load %{{.*}}[%[[C]]] : memref<?xf32>
// CHECK: %[[X2:.*]] = arith.mulf %[[X1]], %[[CS]] : f32
// CHECK: %[[RL:.*]] = arith.muli %[[R]], %{{.*}} : index
// CHECK: %[[AT:.*]] = arith.addi %[[RL]], %[[C]] : index
// CHECK: %[[OLD:.*]] = memref.load %[[OUT:.*]][%[[AT]]] : memref<?xbf16>
// CHECK: %[[OLDF:.*]] = arith.extf %[[OLD]] : bf16 to f32
// CHECK: %[[X3:.*]] = arith.addf %[[X2]], %[[OLDF]] : f32
// CHECK: %[[BIAS:.*]] = memref.load %{{.*}}[%[[R]]] : memref<?xbf16>
// CHECK: %[[BIASF:.*]] = arith.extf %[[BIAS]] : bf16 to f32
// CHECK: %[[X4:.*]] = arith.addf %[[X3]], %[[BIASF]] : f32
// CHECK: math.tanh
// CHECK: %[[Y:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK: cf.assert %{{.*}}, "{{.*}}accesses out out of bounds"
// CHECK: memref.store %[[Y]], %[[OUT]][%[[AT]]] : memref<?xbf16>

// i32 results stay integers.
// CHECK-LABEL: func.func @integer_cpu
// CHECK: scf.if
// CHECK-NOT: sitofp
// CHECK: memref.store %{{.*}} : memref<?xi32>
module {
  gpu.module @kernels {
    gpu.func @epilogue(%out: memref<?xbf16>, %bias: memref<?xbf16>,
                       %rs: memref<?xf32>, %cs: memref<?xf32>, %row: i32,
                       %col: i32, %n: i32, %ld: i32) kernel {
      %zero = vnm_gpu.zero : !acc
      vnm_gpu.epilogue %zero into %out[%row, %col] bounds(1000, %n) ld(%ld)
          bias(%bias : memref<?xbf16>) row_scales(%rs : memref<?xf32>)
          col_scales(%cs : memref<?xf32>)
          {accumulate, activation = #vnm.activation<gelu>} : !acc, memref<?xbf16>
      gpu.return
    }
    gpu.func @integer(%out: memref<?xi32>, %i: i32) kernel {
      %zero = vnm_gpu.zero : !acci
      vnm_gpu.epilogue %zero into %out[%i, %i] bounds(100, %i) ld(%i)
          {accumulate} : !acci, memref<?xi32>
      gpu.return
    }
  }
}
