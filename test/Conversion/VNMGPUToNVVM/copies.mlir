// convert-vnm-gpu-to-nvvm: column-locs, the gather and the dense tile copy.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm,canonicalize))" | FileCheck %s

!w = tensor<4096x4000xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!wp = tensor<4096x4001xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!pring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 1, pad = 16>>
!cl8 = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
!cl2 = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 512, rows_per_thread = 2>>

// 128 threads, 8 rows each: two whole groups, so two colidx words per
// thread (K = 4000 has 500 groups: groups past 499 read group 499's word),
// and 8 16-byte copies as one commit group. K is whole groups of M = 8, so
// a copy reads when its chunk is inside N, its group inside the 500, and
// every byte of its group's word below 8 (word & 0xf8f8f8f8 == 0, which
// keeps other storage from reading outside B); each row is the group's
// first row plus its column-loc, so one check per group serves its four rows.
// CHECK-LABEL: gpu.func @gather8
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: arith.minui %{{.*}}, %c499_i32
// CHECK: %[[W0:.*]] = llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];", "=r,l"
// CHECK: arith.minui %{{.*}}, %c499_i32
// CHECK: %[[W1:.*]] = llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];", "=r,l"
// CHECK-NOT: llvm.inline_asm
// CHECK: %[[LIMIT:.*]] = arith.select %{{.*}}, %c4000_i32, %c0_i32
// CHECK: %[[INSIDE_N:.*]] = arith.cmpi ugt, %[[LIMIT]], %c0_i32
// CHECK: %[[BAD0:.*]] = arith.andi %[[W0]], %c-117901064_i32
// CHECK: %[[BELOW_M0:.*]] = arith.cmpi eq, %[[BAD0]], %c0_i32
// CHECK: %[[OK0:.*]] = arith.andi %[[INSIDE_N]], %[[BELOW_M0]]
// CHECK: %[[GROUP_OK0:.*]] = arith.cmpi ult, %{{.*}}, %c500_i32
// CHECK: %[[VALID0:.*]] = arith.andi %[[OK0]], %[[GROUP_OK0]]
// CHECK: %[[G0:.*]] = llvm.getelementptr
// CHECK: arith.andi %[[W1]], %c-117901064_i32
// CHECK: %[[LOC:.*]] = arith.andi %[[W0]], %c255_i32
// CHECK: %[[LOC64:.*]] = arith.extui %[[LOC]]
// CHECK: %[[OFF:.*]] = arith.muli %[[LOC64]]
// CHECK: %[[ROW:.*]] = llvm.getelementptr %[[G0]][%[[OFF]]]
// CHECK: %[[SIZE:.*]] = arith.select %[[VALID0]], %c16_i32, %c0_i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %[[ROW]], 16, cache = cg, %[[SIZE]]
// CHECK-COUNT-7: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.shared.global
gpu.module @m8 {
  gpu.func @gather8(%colidx: memref<?xi32>, %rhs: memref<?xf16>, %row: i32,
                    %pair: i32, %col: i32, %n: i32, %ld: i32, %slot: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !w}
        : memref<?xi32> -> !cl8
    vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ld)
        into %ring[%slot] {matrix = !w} : memref<?xf16>, !cl8, !ring
    gpu.return
  }
}

// K = 4001 ends in a partial group: each row (group row + column-loc) is
// checked against K.
// CHECK-LABEL: gpu.func @partial
// CHECK: %[[LIMIT:.*]] = arith.select %{{.*}}, %c4001_i32, %c0_i32
// CHECK-NOT: arith.cmpi eq
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %[[LIMIT]]
// CHECK: %[[SIZE:.*]] = arith.select %[[VALID]], %c16_i32, %c0_i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]]
// CHECK-COUNT-7: arith.cmpi ult, %{{.*}}, %[[LIMIT]]
gpu.module @partial {
  gpu.func @partial(%colidx: memref<?xi32>, %rhs: memref<?xf16>, %row: i32,
                    %pair: i32, %col: i32, %n: i32, %ld: i32, %slot: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !wp}
        : memref<?xi32> -> !cl8
    vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ld)
        into %ring[%slot] {matrix = !wp} : memref<?xf16>, !cl8, !ring
    gpu.return
  }
}

// In a ring padded by 16 bytes per row (272-byte rows), the thread's rows
// are 272 bytes apart: the slot's address plus constant offsets.
// CHECK-LABEL: gpu.func @padded
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32)
// CHECK: %[[TO0:.*]] = llvm.getelementptr %[[SLOT]][%[[BASE:.*]]] : (!llvm.ptr<3>, i32)
// CHECK: nvvm.cp.async.shared.global %[[TO0]]
// CHECK: %[[OFF1:.*]] = arith.addi %[[BASE]], %c272_i32
// CHECK: llvm.getelementptr %{{.*}}[%[[OFF1]]]
// CHECK: nvvm.cp.async.shared.global
// CHECK: %[[OFF2:.*]] = arith.addi %[[BASE]], %c544_i32
// CHECK: llvm.getelementptr %{{.*}}[%[[OFF2]]]
// CHECK-COUNT-6: nvvm.cp.async.shared.global
// CHECK-NOT: arith.xori
gpu.module @padded {
  gpu.func @padded(%colidx: memref<?xi32>, %rhs: memref<?xf16>, %row: i32,
                   %pair: i32, %col: i32, %n: i32, %ld: i32, %slot: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !pring
    %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !w}
        : memref<?xi32> -> !cl8
    vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ld)
        into %ring[%slot] {matrix = !w} : memref<?xf16>, !cl8, !pring
    gpu.return
  }
}

// 512 threads, 2 rows each (half a group): one word, shifted to the
// thread's bytes by 8 (first row & 3).
// CHECK-LABEL: gpu.func @gather2
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32
// CHECK-NOT: llvm.inline_asm
// CHECK: arith.shrui
// CHECK-COUNT-2: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
gpu.module @m2 {
  gpu.func @gather2(%colidx: memref<?xi32>, %rhs: memref<?xf16>, %row: i32,
                    %pair: i32, %col: i32, %n: i32, %ld: i32, %slot: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !w}
        : memref<?xi32> -> !cl2
    vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ld)
        into %ring[%slot] {matrix = !w} : memref<?xf16>, !cl2, !ring
    gpu.return
  }
}

// A dense copy reads no column-locs: rows row + first row + q, bounded by
// the row bound.
// CHECK-LABEL: gpu.func @dense
// CHECK-NOT: llvm.inline_asm
// CHECK: arith.select %{{.*}}, %c256_i32, %c0_i32
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK-NEXT: nvvm.cp.async.commit.group
gpu.module @dense {
  gpu.func @dense(%src: memref<?xf16>, %row: i32, %col: i32, %n: i32,
                  %ld: i32, %slot: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    vnm_gpu.copy_tile %src[%row, %col] bounds(256, %n) ld(%ld) into %ring[%slot]
        {layout = #vnm_gpu.copy<threads = 256, rows_per_thread = 4>}
        : memref<?xf16>, !ring
    gpu.return
  }
}
