// The ring and its copies: NaN at allocation; a gather reads row
// (16 pair + j) M + colloc[j][i] of rhs into row 4 j + i of the slot's
// shadow (zero past K, NaN at or past n) and records its sequence number;
// a wait lands the recorded copies but the `pending` most recent; load_b
// refuses a slot whose copy has not landed.
// RUN: vnm-opt %s --convert-vnm-gpu-to-loops | FileCheck %s

!w = tensor<256x1000xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!colloc = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// CHECK-LABEL: func.func @ring_cpu
// The copy count, shared by the block's rings.
// CHECK: %[[COPIES:.*]] = memref.alloc() : memref<1xi64>
// CHECK: %[[SLOTS:.*]] = memref.alloc() : memref<3x64x128xf16>
// CHECK: %[[SHADOW:.*]] = memref.alloc() : memref<3x64x128xf16>
// CHECK: %[[STATE:.*]] = memref.alloc() : memref<6xi64>
// CHECK: %[[CL:.*]] = memref.alloc() : memref<16x4xi32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<32x128xf16>
// alloc_ring: NaN in the slots and their shadows.
// CHECK: %[[NAN:.*]] = arith.constant 0x7E00 : f16
// CHECK: memref.store %[[NAN]], %[[SLOTS]]
// CHECK: memref.store %[[NAN]], %[[SHADOW]]

// gather: the slot must have no copy in flight and no read since the wait.
// CHECK: cf.assert %{{.*}}, "{{.*}}vnm_gpu.gather{{.*}}ring slot out of range"
// CHECK: cf.assert %{{.*}}, "{{.*}}copies into a ring slot that a copy is still in flight into"
// CHECK: cf.assert %{{.*}}, "{{.*}}overwrites a ring slot read since the last vnm_gpu.wait"
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c16
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c4
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c128
// CHECK: %[[OFF32:.*]] = memref.load %[[CL]][%[[J]], %[[I]]]
// CHECK: %[[OFF:.*]] = arith.index_cast %[[OFF32]] : i32 to index
// CHECK: %[[G:.*]] = arith.addi %[[FIRSTG:.*]], %[[J]] : index
// CHECK: %[[GM:.*]] = arith.muli %[[G]], %c8{{(_[0-9]+)?}} : index
// CHECK: %[[K:.*]] = arith.addi %[[GM]], %[[OFF]] : index
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[C]] : index
// CHECK: %[[INN:.*]] = arith.cmpi ult, %[[COL]], %[[NB:.*]] : index
// CHECK: %[[INK:.*]] = arith.cmpi ult, %[[K]], %c1000{{(_[0-9]+)?}} : index
// CHECK: %[[IN:.*]] = arith.andi %[[INN]], %[[INK]] : i1
// CHECK: %[[V:.*]] = scf.if %[[IN]] -> (f16) {
// CHECK: %[[ROWSTART:.*]] = arith.muli %[[K]], %[[LD:.*]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[ROWSTART]], %[[COL]] : index
// CHECK: cf.assert %{{.*}}, "{{.*}}reads rhs out of bounds"
// CHECK: memref.load %{{.*}}[%[[AT]]] : memref<?xf16>
// CHECK: } else {
// CHECK: arith.select %[[INN]], %{{.*}}, %{{.*}} : f16
// CHECK: %[[J4:.*]] = arith.muli %[[J]], %c4
// CHECK: %[[ROW:.*]] = arith.addi %[[J4]], %[[I]]
// CHECK: memref.store %[[V]], %[[SHADOW]][%[[SLOT:.*]], %[[ROW]], %[[C]]]
// Its sequence number is the copy count, which goes up.
// CHECK: %[[SEQ:.*]] = memref.load %[[COPIES]][%c0
// CHECK: memref.store %[[SEQ]], %[[STATE]][%[[SLOT]]]

// wait pending(1): copies numbered below count - 1 land.
// CHECK: %[[COUNT:.*]] = memref.load %[[COPIES]][%c0
// CHECK: %[[LIMIT:.*]] = arith.subi %[[COUNT]], %c1_i64
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %c3
// CHECK: %[[Q:.*]] = memref.load %[[STATE]][%[[S]]]
// CHECK-DAG: arith.cmpi sge, %[[Q]], %c0_i64
// CHECK-DAG: arith.cmpi slt, %[[Q]], %[[LIMIT]]
// CHECK: scf.if
// CHECK: memref.load %[[SHADOW]][%[[S]],
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%[[S]],
// CHECK: memref.store %c-1_i64{{.*}}, %[[STATE]][%[[S]]]

// load_b offset(32): rows 32 .. 63 of a slot whose copy has landed.
// CHECK: cf.assert %{{.*}}, "{{.*}}vnm_gpu.load_b{{.*}}reads a ring slot whose copy has not landed
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c32
// CHECK: scf.for %[[BC:.*]] = %{{.*}} to %c128
// CHECK: %[[SR:.*]] = arith.addi %[[R]], %c32
// CHECK: memref.load %[[SLOTS]][%{{.*}}, %[[SR]], %[[BC]]]
// CHECK: memref.store %{{.*}}, %[[B]][%[[R]], %[[BC]]]
module {
  gpu.module @kernels {
    gpu.func @ring(%colidx: memref<?xi32>, %rhs: memref<?xf16>, %n: i32,
                   %ld: i32, %pair: i32, %slot: i32) kernel {
      %row = arith.constant 64 : i32
      %ring = vnm_gpu.alloc_ring : !ring
      %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !w}
          : memref<?xi32> -> !colloc
      vnm_gpu.gather %rhs[%pair, %row] via %cl bounds(%n) ld(%ld)
          into %ring[%slot] {matrix = !w} : memref<?xf16>, !colloc, !ring
      vnm_gpu.wait %ring pending(1) : !ring
      %b = vnm_gpu.load_b %ring[%slot] offset(32) : !ring -> !b
      gpu.return
    }
  }
}
