// convert-vnm-gpu-to-nvvm: column-locs, the gather and the dense tile copy.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm,canonicalize))" | FileCheck %s

!w = tensor<4096x4000xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!cl8 = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
!cl2 = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 512, rows_per_thread = 2>>

// 128 threads, 8 rows each: two whole groups, so two colidx words per
// thread (K = 4000 has 500 groups: groups past 499 read group 499's word),
// and 8 16-byte copies, each zero-filled (source size 0) past K or N, as one
// commit group.
// CHECK-LABEL: gpu.func @gather8
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: arith.minui %{{.*}}, %c499_i32
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];", "=r,l"
// CHECK: arith.minui %{{.*}}, %c499_i32
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];", "=r,l"
// CHECK-NOT: llvm.inline_asm
// CHECK: %[[LIMIT:.*]] = arith.select %{{.*}}, %c4000_i32, %c0_i32
// CHECK: nvvm.prmt <default> %c17472_i32, %{{.*}}, %c0_i32
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %[[LIMIT]]
// CHECK: %[[SIZE:.*]] = arith.select %[[VALID]], %c16_i32, %c0_i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]]
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

// K = 4096 is whole pairs of 16 groups of 8: every row a group's word can
// name lies below K once its bytes are masked to the group (M - 1 = 7 in
// each byte), so no row is checked, only the thread's column against N
// (one source size for all 8 copies). A row's address is its group's
// first row's plus the prmt-extracted byte (selectors 0x4440 + i) times
// the pitch. A constant slot (2: 32768 bytes) is an offset of the ring
// apart from the rows' swizzled offsets.
// CHECK-LABEL: gpu.func @gather_whole_pairs
// CHECK: %[[SIZE:.*]] = arith.select %{{.*}}, %c16_i32, %c0_i32
// CHECK: %[[WORD0:.*]] = arith.andi %{{.*}}, %c117901063_i32
// CHECK: %[[WORD1:.*]] = arith.andi %{{.*}}, %c117901063_i32
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[32768]
// CHECK-NOT: arith.cmpi
// CHECK: nvvm.prmt <default> %c17472_i32, %[[WORD0]], %c0_i32
// CHECK: %[[TO:.*]] = llvm.getelementptr %[[SLOT]][%{{.*}}]
// CHECK: nvvm.cp.async.shared.global %[[TO]], %{{.*}}, 16, cache = cg, %[[SIZE]]
// CHECK: nvvm.prmt <default> %c17473_i32, %[[WORD0]], %c0_i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]]
// CHECK: nvvm.prmt <default> %c17474_i32, %[[WORD0]], %c0_i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]]
// CHECK: nvvm.prmt <default> %c17475_i32, %[[WORD0]], %c0_i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]]
// CHECK: nvvm.prmt <default> %c17472_i32, %[[WORD1]], %c0_i32
// CHECK-NOT: arith.cmpi
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]]
// CHECK-NEXT: nvvm.cp.async.commit.group
!wfull = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
gpu.module @whole {
  gpu.func @gather_whole_pairs(%colidx: memref<?xi32>, %rhs: memref<?xf16>,
                               %row: i32, %pair: i32, %col: i32, %n: i32,
                               %ld: i32) kernel {
    %slot = arith.constant 2 : i32
    %ring = vnm_gpu.alloc_ring : !ring
    %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !wfull}
        : memref<?xi32> -> !cl8
    vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ld)
        into %ring[%slot] {matrix = !wfull} : memref<?xf16>, !cl8, !ring
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
    %k = arith.constant 256 : i32
    vnm_gpu.copy_tile %src[%row, %col] bounds(%k, %n) ld(%ld) into %ring[%slot]
        {layout = #vnm_gpu.copy<threads = 256, rows_per_thread = 4>}
        : memref<?xf16>, !ring
    gpu.return
  }
}
