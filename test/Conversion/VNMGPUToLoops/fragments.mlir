// Column-locs, sparse A fragments and the MMA.
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops | FileCheck %s

// R = 200, K = 1000, M = 8: G = 125 groups, 128 padded groups, 16 k-tiles
// (8 pairs) of the 16-bit class; 208 padded rows, 13 row tiles.
!w = tensor<200x1000xf16, #vnm.encoding<v = 16, n = 2, m = 8>>
#mma = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [1, 2]>
!colloc = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 64, rows_per_thread = 16>>
!a = !vnm_gpu.sparse_a<16x64xf16, #mma>
!b = !vnm_gpu.b_frag<32x128xf16, #mma>
!acc = !vnm_gpu.acc<16x128xf32, #mma>

// CHECK-LABEL: func.func @fragments_cpu
// CHECK: %[[CL:.*]] = memref.alloc() : memref<16x4xi32>
// CHECK: %[[A:.*]] = memref.alloc() : memref<16x64xf16>
// CHECK: %[[ZERO:.*]] = memref.alloc() : memref<16x128xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<32x128xf16>
// CHECK: %[[RES:.*]] = memref.alloc() : memref<16x128xf32>

// load_colloc: word vb G + min(16 pair + j, G - 1), byte i of it.
// CHECK: %[[VB:.*]] = arith.divui %{{.*}}, %c16{{(_[0-9]+)?}} : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[VB]], %c125{{(_[0-9]+)?}} : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c16
// CHECK: %[[G:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[G]], %c124{{(_[0-9]+)?}} : index
// CHECK: %[[W:.*]] = arith.addi %[[FIRST]], %[[CLAMPED]] : index
// CHECK: cf.assert %{{.*}}, "{{.*}}reads colidx out of bounds"
// CHECK: %[[WORD:.*]] = memref.load %{{.*}}[%[[W]]] : memref<?xi32>
// CHECK: %[[B1:.*]] = arith.shrui %[[WORD]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.andi %[[B1]], %c255_i32{{.*}} : i32

// load_sparse_a: rows past the 13 row tiles read the last one; metadata
// word (rt * 8 + pair) * 32 + 4 g + 2 s + h.
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c16
// CHECK: scf.for %[[GJ:.*]] = %{{.*}} to %c16
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK: %[[RT0:.*]] = arith.divui %[[ROW]], %c16
// CHECK: %[[RT:.*]] = arith.minui %[[RT0]], %c12
// CHECK: arith.muli %[[RT]], %c8
// Values: tile rt * 16 + 2 pair + s.
// CHECK: arith.muli %[[RT]], %c16
// CHECK: cf.assert %{{.*}}, "{{.*}}reads meta out of bounds"
// CHECK: memref.load %{{.*}} : memref<?xi32>
// CHECK: cf.assert %{{.*}}, "{{.*}}reads values out of bounds"
// CHECK: memref.load %{{.*}} : memref<?xf16>
// CHECK: memref.load %{{.*}} : memref<?xf16>
// Position q of group j gets the kept value placed there, else zero.
// CHECK-COUNT-4: memref.store %{{.*}}, %[[A]][%[[R]], %{{.*}}] : memref<16x64xf16>

// mma_sp step 1: acc + A[:, 32 .. 63] * b, f32 products of widened operands.
// CHECK: scf.for %[[MR:.*]] = %{{.*}} to %c16
// CHECK: scf.for %[[MC:.*]] = %{{.*}} to %c128
// CHECK: %[[INIT:.*]] = memref.load %[[ZERO]][%[[MR]], %[[MC]]]
// CHECK: %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %c32{{.*}} iter_args(%[[P:.*]] = %[[INIT]]) -> (f32)
// CHECK: %[[AK:.*]] = arith.addi %c32{{.*}}, %[[K]] : index
// CHECK: %[[AV:.*]] = memref.load %[[A]][%[[MR]], %[[AK]]]
// CHECK: %[[AX:.*]] = arith.extf %[[AV]] : f16 to f32
// CHECK: %[[BV:.*]] = memref.load %[[B]][%[[K]], %[[MC]]]
// CHECK: %[[BX:.*]] = arith.extf %[[BV]] : f16 to f32
// CHECK: %[[PR:.*]] = arith.mulf %[[AX]], %[[BX]] : f32
// CHECK: %[[NEXT:.*]] = arith.addf %[[P]], %[[PR]] : f32
// CHECK: scf.yield %[[NEXT]] : f32
// CHECK: memref.store %[[SUM]], %[[RES]][%[[MR]], %[[MC]]]
module {
  gpu.module @kernels {
    gpu.func @fragments(%colidx: memref<?xi32>, %values: memref<?xf16>,
                        %meta: memref<?xi32>, %out: memref<?xf32>,
                        %row: i32, %pair: i32, %n: i32) kernel {
      %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !w}
          : memref<?xi32> -> !colloc
      %a = vnm_gpu.load_sparse_a %values, %meta[%row, %pair] {matrix = !w}
          : memref<?xf16>, memref<?xi32> -> !a
      %zero = vnm_gpu.zero : !acc
      %ring = vnm_gpu.alloc_ring : !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
      %b = vnm_gpu.load_b %ring[%pair] offset(0) : !vnm_gpu.ring<2x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>> -> !b
      %acc = vnm_gpu.mma_sp %a[1], %b, %zero : !a, !b, !acc
      vnm_gpu.epilogue %acc into %out[%row, %row] bounds(200, %n) ld(%n) : !acc, memref<?xf32>
      gpu.return
    }
  }
}
