// The SDDMM store on the CPU: for each row below R, group below G and kept
// entry, the entry's metadata picks one of the group's four tile columns;
// a metadata entry above 3 fails with a message; one rounding to f16.
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops | FileCheck %s

!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// CHECK-LABEL: func.func @sampled_cpu
// CHECK: scf.for %[[A:.*]] = %{{.*}} to %c64
// CHECK: scf.for %[[Q:.*]] = %{{.*}} to %c32
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %c2
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %[[A]] : index
// CHECK: %[[G:.*]] = arith.addi %{{.*}}, %[[Q]] : index
// CHECK-DAG: %[[INR:.*]] = arith.cmpi ult, %[[R]], %c1000{{(_[0-9]+)?}} : index
// CHECK-DAG: %[[ING:.*]] = arith.cmpi ult, %[[G]], %c500{{(_[0-9]+)?}} : index
// CHECK: %[[IN:.*]] = arith.andi %[[INR]], %[[ING]] : i1
// CHECK: scf.if %[[IN]] {
// CHECK: %[[RG:.*]] = arith.muli %[[R]], %c500{{(_[0-9]+)?}} : index
// CHECK: %[[CELL:.*]] = arith.addi %[[RG]], %[[G]] : index
// CHECK: %[[CELL2:.*]] = arith.muli %[[CELL]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[E:.*]] = arith.addi %[[CELL2]], %[[S]] : index
// CHECK: %[[SEL8:.*]] = memref.load %{{.*}}[%[[E]]] : memref<?xi8>
// CHECK: %[[SEL32:.*]] = arith.extui %[[SEL8]] : i8 to i32
// CHECK: %[[SEL:.*]] = arith.index_cast{{(ui)?}} %[[SEL32]]
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[SEL]], %c4{{(_[0-9]+)?}} : index
// CHECK: cf.assert %[[OK]], "{{.*}}reads a metadata entry above 3"
// CHECK: %[[Q4:.*]] = arith.muli %[[Q]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[COL:.*]] = arith.addi %[[Q4]], %[[SEL]] : index
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[A]], %[[COL]]] : memref<64x128xf32>
// CHECK: %[[Y:.*]] = arith.truncf %[[X]] : f32 to f16
// CHECK: memref.store %[[Y]], %{{.*}}[%[[E]]] : memref<?xf16>
module {
  gpu.module @kernels {
    gpu.func @sampled(%values: memref<?xf16>, %meta: memref<?xi8>, %row: i32,
                      %group: i32) kernel {
      %zero = vnm_gpu.zero : !acc
      vnm_gpu.sampled_store %zero into %values[%row, %group] meta(%meta)
          {matrix = tensor<1000x4000xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
          : !acc, memref<?xi8>, memref<?xf16>
      gpu.return
    }
  }
}
