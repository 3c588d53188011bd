// convert-vnm-gpu-to-nvvm: the SDDMM store. A thread holds columns 2t and
// 2t + 1 of each n8 tile, positions 2 (t & 1) and 2 (t & 1) + 1 of a group;
// per row below R and group below G it reads the N = 2 metadata bytes of
// (row, group) and stores the accumulator an entry names when it is one of
// its two positions, rounded once to bf16.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm,canonicalize,cse))" | FileCheck %s

// 1000 x 4000, 64:2:8: 500 groups.
!w = tensor<1000x4000xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// CHECK-LABEL: gpu.func @sampled
// CHECK: %[[T:.*]] = arith.andi %{{.*}}, %c3_i32{{(_[0-9]+)?}}
// CHECK: %[[ODD:.*]] = arith.andi %[[T]], %c1_i32{{(_[0-9]+)?}}
// CHECK: %[[FIRST:.*]] = arith.muli %[[ODD]], %c2_i32{{(_[0-9]+)?}}
// CHECK: %[[ROW:.*]] = arith.addi %arg2, %{{.*}}
// CHECK: %[[INR:.*]] = arith.cmpi ult, %[[ROW]], %c1000_i32{{(_[0-9]+)?}}
// CHECK: scf.if %[[INR]] {
// CHECK: %[[GROUP:.*]] = arith.addi %arg3, %{{.*}}
// CHECK: %[[ING:.*]] = arith.cmpi ult, %[[GROUP]], %c500_i32{{(_[0-9]+)?}}
// CHECK: scf.if %[[ING]] {
// CHECK: %[[RG:.*]] = arith.muli %[[ROW]], %c500_i32{{(_[0-9]+)?}}
// CHECK: %[[CELL:.*]] = arith.addi %[[RG]], %[[GROUP]]
// CHECK: %[[E0:.*]] = arith.muli %[[CELL]], %c2_i32{{(_[0-9]+)?}}
// CHECK: %[[SELB:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK: %[[SEL:.*]] = arith.extui %[[SELB]] : i8 to i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[SEL]], %[[FIRST]]
// CHECK: %[[SECOND:.*]] = arith.addi %[[FIRST]], %c1_i32{{(_[0-9]+)?}}
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[SEL]], %[[SECOND]]
// CHECK: %[[MINE:.*]] = arith.ori %[[IS0]], %[[IS1]]
// CHECK: scf.if %[[MINE]] {
// CHECK: %[[X:.*]] = arith.select %[[IS0]]
// CHECK: %[[XB:.*]] = arith.truncf %[[X]] : f32 to bf16
// CHECK: llvm.store %[[XB]], %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<1>
// The second entry of (row, group): one byte further.
// CHECK: arith.addi %[[E0]], %c1_i32{{(_[0-9]+)?}}
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// 2 m16 tiles x 2 halves x 8 n8 tiles x 2 entries: 64 stores in all.
// CHECK-COUNT-63: llvm.store
// CHECK-NOT: llvm.store
gpu.module @m {
  gpu.func @sampled(%values: memref<?xbf16>, %meta: memref<?xi8>, %row: i32,
                    %group: i32, %fv: memref<?xf16>, %fm: memref<?xi32>) kernel {
    // Accumulators from an MMA, so that what is stored is not a constant.
    %ring = vnm_gpu.alloc_ring : !ring
    %a = vnm_gpu.load_sparse_a %fv, %fm[%row, %row] {matrix = !w}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b = vnm_gpu.load_b %ring[%row] offset(0) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.sampled_store %acc into %values[%row, %group] meta(%meta)
        {matrix = !w} : !vnm_gpu.acc<64x128xf32, #L>, memref<?xi8>, memref<?xbf16>
    gpu.return
  }
}
