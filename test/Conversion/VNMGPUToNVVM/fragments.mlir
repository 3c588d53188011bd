// convert-vnm-gpu-to-nvvm: sparse A fragments from global memory and B
// fragments from a ring slot (in a minimal kernel that consumes them).
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm,canonicalize))" | FileCheck %s

!w = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!w4 = tensor<1000x256xf16, #vnm.encoding<v = 16, n = 2, m = 4>>
#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
#L4 = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// 64 rows over 2 warp rows: 2 m16 tiles per warp, so 2 metadata words and
// 2 x 2 16-byte value loads per lane, that stay where they are issued. The
// fragment arrays of 4096 x 4096 (64:2:8) have 64 k-tiles: metadata word
// row tile * 1024 + lane + pair * 32, values row tile * 16384 + lane * 8 +
// pair * 512 + k-tile of the pair * 256. The thread's part, the pair's and
// the constant are separate byte offsets (a loop's strength reduction
// makes one pointer of them); the warp's second m16 tile is the next row
// tile, a constant 4096 (metadata) or 32768 (values) bytes on. B: one
// ldmatrix.x4.trans per n8 tile of the warp (128 columns over 2 warp
// columns: 8), lane l at row l of the k-tile; offset(32) starts 32 rows
// (8192 bytes) into the slot, whose variable offset (slot * 16384) joins
// the lane's swizzled one.
// CHECK-LABEL: gpu.func @fragments
// CHECK-DAG: %[[PAIRWORD:.*]] = arith.muli %arg2, %c32_i32
// CHECK-DAG: arith.muli %{{.*}}, %c1024_i32
// CHECK: %[[PAIRWORD64:.*]] = arith.extui %[[PAIRWORD]]
// CHECK: %[[PAIRBYTES:.*]] = arith.muli %[[PAIRWORD64]], %c4_i64
// CHECK: %[[META0:.*]] = llvm.getelementptr %{{.*}}[%[[PAIRBYTES]]]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];", "=r,l" %[[META0]]
// CHECK: llvm.getelementptr %{{.*}}[4096]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];"
// CHECK-DAG: arith.muli %arg2, %c512_i32
// CHECK-DAG: arith.muli %{{.*}}, %c16384_i32
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"
// CHECK: llvm.getelementptr %{{.*}}[32768]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK: %[[K1:.*]] = llvm.getelementptr %{{.*}}[512]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32 {{.*}} %[[K1]]
// CHECK: llvm.getelementptr %{{.*}}[32768]
// CHECK: llvm.getelementptr %{{.*}}[512]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK-NOT: arith.minui
// CHECK: %[[SLOT:.*]] = arith.muli %arg2, %c16384_i32
// CHECK: %[[LANE:.*]] = arith.addi %[[SLOT]], %{{.*}}
// CHECK: arith.addi %[[LANE]], %c8192_i32
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-7: nvvm.ldmatrix
// CHECK-NOT: nvvm.ldmatrix
gpu.module @m {
  gpu.func @fragments(%values: memref<?xf16>, %meta: memref<?xi32>, %i: i32,
                      %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b = vnm_gpu.load_b %ring[%i] offset(32) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc = vnm_gpu.mma_sp %a[1], %b, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// A constant slot (a K loop unrolled by the ring depth) is a byte offset
// of the ring apart from the lane's swizzled offset, which stays the same
// for every slot: slot 2 is 32768 bytes on.
// CHECK-LABEL: gpu.func @constant_slot
// CHECK: %[[RING:.*]] = llvm.mlir.addressof @constant_slot_ring
// CHECK: %[[SLOT2:.*]] = llvm.getelementptr %[[RING]][32768]
// CHECK-NOT: arith.muli %{{.*}}, %c16384_i32
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[SLOT2]][%{{.*}}]
// CHECK: nvvm.ldmatrix %[[AT]]
// CHECK-COUNT-7: nvvm.ldmatrix
// CHECK-NOT: nvvm.ldmatrix
gpu.module @constant_slot {
  gpu.func @constant_slot(%values: memref<?xf16>, %meta: memref<?xi32>, %i: i32,
                          %out: memref<?xf32>) kernel {
    %c2 = arith.constant 2 : i32
    %ring = vnm_gpu.alloc_ring : !ring
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b = vnm_gpu.load_b %ring[%c2] offset(0) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// A 128-row tile over V = 16 blocks (M = 4) reads row tiles past the
// fragment arrays' 63 (1008 rows) from the last one.
// CHECK-LABEL: gpu.func @clamped
// CHECK: arith.minui %{{.*}}, %c62_i32
gpu.module @clamped {
  gpu.func @clamped(%values: memref<?xf16>, %meta: memref<?xi32>, %i: i32,
                    %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w4}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<128x64xf16, #L4>
    %b = vnm_gpu.load_b %ring[%i] offset(0) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L4>
    %z = vnm_gpu.zero : !vnm_gpu.acc<128x128xf32, #L4>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<128x64xf16, #L4>,
        !vnm_gpu.b_frag<32x128xf16, #L4>, !vnm_gpu.acc<128x128xf32, #L4>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(1000, %i) ld(%i)
        : !vnm_gpu.acc<128x128xf32, #L4>, memref<?xf32>
    gpu.return
  }
}

// The 8-bit class (i8, m16n8k64): one metadata word per lane per m16 tile
// and k-tile (4096 x 4096 at 64:2:4 has 64 k-tiles of 16 groups: word
// row tile * 2048 + lane + k-tile * 32) and 16 bytes of values (row tile *
// 32768 + lane * 16 + k-tile * 512), the second m16 tile a constant 8192
// (metadata) or 32768 (values) bytes on. B from a token-major slot (128 tokens x 64 bytes of K,
// k_contiguous): one ldmatrix.x4 without .trans per n8 tile; lane l
// addresses token 8 nt + (l & 7) at chunk l >> 3, and the next n8 tile is
// 8 rows (512 bytes) on, with the same swizzle phase.
!w8 = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 4>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
!ring8 = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
// CHECK-LABEL: gpu.func @int8
// CHECK-DAG: arith.muli %arg2, %c32_i32
// CHECK-DAG: arith.muli %{{.*}}, %c2048_i32
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];"
// CHECK: llvm.getelementptr %{{.*}}[8192]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];"
// CHECK-DAG: arith.muli %arg2, %c512_i32
// CHECK-DAG: arith.muli %{{.*}}, %c16_i32
// CHECK-DAG: arith.muli %{{.*}}, %c32768_i32
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK: llvm.getelementptr %{{.*}}[32768]
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v4.b32
// CHECK-NOT: ld.global.nc
// CHECK: arith.shrui %{{.*}}, %c3_i32
// CHECK: arith.shrui %{{.*}}, %c1_i32
// CHECK: arith.andi %{{.*}}, %c3_i32
// CHECK: arith.xori
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: arith.addi %[[BASE:[0-9]+]], %c512_i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-5: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK: arith.addi %[[BASE]], %c3584_i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-NOT: nvvm.ldmatrix
gpu.module @int8 {
  gpu.func @int8(%values: memref<?xi8>, %meta: memref<?xi32>, %i: i32,
                 %out: memref<?xi32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring8
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w8}
        : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8, #L8>
    %b = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous : !ring8 -> !vnm_gpu.b_frag<64x128xi8, #L8>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L8>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xi8, #L8>,
        !vnm_gpu.b_frag<64x128xi8, #L8>, !vnm_gpu.acc<64x128xi32, #L8>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xi32, #L8>, memref<?xi32>
    gpu.return
  }
}

// A token-major f16 slot (128 tokens x 64 halves of K, 128-byte rows):
// offset(32) is chunk 4 of each row; ldmatrix without .trans.
!ringt = !vnm_gpu.ring<3x128x64xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK-LABEL: gpu.func @token_major_f16
// CHECK: arith.addi %{{.*}}, %c4_i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-7: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
gpu.module @token_major_f16 {
  gpu.func @token_major_f16(%values: memref<?xf16>, %meta: memref<?xi32>,
                            %i: i32, %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ringt
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b = vnm_gpu.load_b %ring[%i] offset(32) k_contiguous : !ringt -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc = vnm_gpu.mma_sp %a[1], %b, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// The token-major gather (i8, M = 8): each slot row is a token's 16 groups
// whole (128 bytes). The column-locs are spread as B fragments: lane l
// reads colidx words of groups 16 pair + 4 j + (l & 3) (4096 / 8 = 512
// groups per V block, clamped to the last) and keeps each as the prmt
// selector of its 4 offsets (w | w >> 4, bytes 0 and 2). B register j of
// n8 tile nt is one 8-byte shared load of group 4 j + (l & 3) of token
// 8 nt + (l >> 2) and one prmt through selector j.
!w88 = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
!ring88 = !vnm_gpu.ring<3x128x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!clf = !vnm_gpu.colloc<16, #L8>
// CHECK-LABEL: gpu.func @gathered
// CHECK: arith.minui %{{.*}}, %c511_i32
// CHECK: %[[W0:.*]] = llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];"
// CHECK: %[[H0:.*]] = arith.shrui %[[W0]], %c4_i32
// CHECK: %[[P0:.*]] = arith.ori %[[W0]], %[[H0]]
// CHECK: %[[S0:.*]] = nvvm.prmt <default> %c32_i32, %[[P0]], %[[P0]]
// CHECK: %[[S1:.*]] = nvvm.prmt <default> %c32_i32
// CHECK-COUNT-2: nvvm.prmt <default> %c32_i32
// CHECK: arith.muli %{{.*}}, %c8_i32
// CHECK: arith.andi %{{.*}}, %c7_i32
// CHECK: arith.xori
// CHECK: %[[B0:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
// CHECK-DAG: %[[LO:.*]] = vector.extract %[[B0]][0]
// CHECK-DAG: %[[HI:.*]] = vector.extract %[[B0]][1]
// CHECK: nvvm.prmt <default> %[[S0]], %[[LO]], %[[HI]]
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
// CHECK: nvvm.prmt <default> %[[S1]],
// CHECK-COUNT-30: nvvm.prmt <default> %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// CHECK-NOT: nvvm.prmt
// CHECK-NOT: nvvm.ldmatrix
gpu.module @gathered {
  gpu.func @gathered(%values: memref<?xi8>, %meta: memref<?xi32>,
                     %colidx: memref<?xi32>, %i: i32, %out: memref<?xi32>)
      kernel {
    %ring = vnm_gpu.alloc_ring : !ring88
    %cl = vnm_gpu.load_colloc %colidx[%i, %i] {matrix = !w88}
        : memref<?xi32> -> !clf
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !w88}
        : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8, #L8>
    %b = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous via %cl
        : !ring88, !clf -> !vnm_gpu.b_frag<64x128xi8, #L8>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L8>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xi8, #L8>,
        !vnm_gpu.b_frag<64x128xi8, #L8>, !vnm_gpu.acc<64x128xi32, #L8>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xi32, #L8>, memref<?xi32>
    gpu.return
  }
}

// The token-major gather of 16-bit values (f16, M = 8): each slot row is a
// token's 16 groups whole (128 values, 256 bytes). Lane l reads the
// colidx words of groups 16 pair + 2 j + (l & 3) / 2, j < 8, and one prmt
// keeps bytes 0, 1 (even lanes: 0x5410 = 21520) or 2, 3 (odd lanes: 0x7632
// = 30258) of two of them per register. B register j of n8 tile nt is two
// 2-byte shared loads (the two kept columns of group 2 j + (l & 3) / 2 of
// token 8 nt + (l >> 2)) and one prmt (0x5410) that packs them.
!wh8 = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!ringh8 = !vnm_gpu.ring<3x128x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!clh = !vnm_gpu.colloc<16, #L>
// CHECK-LABEL: gpu.func @gathered_halves
// CHECK-DAG: %[[EVEN:.*]] = arith.cmpi eq
// CHECK: %[[HALVES:.*]] = arith.select %[[EVEN]], %c21520_i32, %c30258_i32
// CHECK: %[[W0:.*]] = llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];"
// CHECK: %[[W1:.*]] = llvm.inline_asm has_side_effects "ld.global.nc.b32 $0, [$1];"
// CHECK: %[[C0:.*]] = nvvm.prmt <default> %[[HALVES]], %[[W0]], %[[W1]]
// CHECK-COUNT-3: nvvm.prmt <default> %[[HALVES]]
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> i16
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> i16
// CHECK: nvvm.prmt <default> %c21520_i32
// CHECK-COUNT-63: nvvm.prmt <default> %c21520_i32
// CHECK-NOT: nvvm.prmt
// CHECK-NOT: nvvm.ldmatrix
gpu.module @gathered_halves {
  gpu.func @gathered_halves(%values: memref<?xf16>, %meta: memref<?xi32>,
                            %colidx: memref<?xi32>, %i: i32,
                            %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ringh8
    %cl = vnm_gpu.load_colloc %colidx[%i, %i] {matrix = !wh8}
        : memref<?xi32> -> !clh
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !wh8}
        : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b0 = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous via %cl
        : !ringh8, !clh -> !vnm_gpu.b_frag<32x128xf16, #L>
    %b1 = vnm_gpu.load_b %ring[%i] offset(32) k_contiguous via %cl
        : !ringh8, !clh -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc0 = vnm_gpu.mma_sp %a[0], %b0, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    %acc1 = vnm_gpu.mma_sp %a[1], %b1, %acc0 : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc1 into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// i4 (W4A8): the 8-bit class with two values per byte. A lane's 16 values
// of a tile are 8 bytes at (tile * 512 + lane * 16) / 2, one 8-byte load;
// each word's even and odd nibbles are spread to bytes (0x0F0F0F0F),
// interleaved by prmt (0x5140: n0..n3, 0x7362: n4..n7) and sign-extended
// bytewise (((v ^ 8) + 0x78) ^ 0x80): four i8 registers per word pair.
!wi4 = tensor<4096x4096xi4, #vnm.encoding<v = 64, n = 2, m = 4>>
// CHECK-LABEL: gpu.func @int4
// CHECK: arith.shrui %{{.*}}, %c1_i32
// CHECK: llvm.inline_asm has_side_effects "ld.global.nc.v2.b32
// CHECK-DAG: %[[EVEN:.*]] = arith.andi %{{.*}}, %c252645135_i32
// CHECK-DAG: %[[HIGH:.*]] = arith.shrui %{{.*}}, %c4_i32
// CHECK-DAG: %[[ODD:.*]] = arith.andi %[[HIGH]], %c252645135_i32
// CHECK: %[[LOW:.*]] = nvvm.prmt <default> %c20800_i32, %[[EVEN]], %[[ODD]]
// CHECK: %[[X:.*]] = arith.xori %[[LOW]], %c134744072_i32
// CHECK: %[[B:.*]] = arith.addi %[[X]], %c2021161080_i32
// CHECK: arith.xori %[[B]], %c-2139062144_i32
// CHECK: nvvm.prmt <default> %c29538_i32, %[[EVEN]], %[[ODD]]
// CHECK-NOT: ld.global.nc.v4
gpu.module @int4 {
  gpu.func @int4(%values: memref<?xi8>, %meta: memref<?xi32>, %i: i32,
                 %out: memref<?xi32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring8
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !wi4}
        : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8, #L8>
    %b = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous : !ring8 -> !vnm_gpu.b_frag<64x128xi8, #L8>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L8>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xi8, #L8>,
        !vnm_gpu.b_frag<64x128xi8, #L8>, !vnm_gpu.acc<64x128xi32, #L8>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xi32, #L8>, memref<?xi32>
    gpu.return
  }
}

// W8A16: an i8 weight in the 16-bit class under the f16 MMA. A lane's 8
// values of a k-tile are 8 bytes at tile * 256 + lane * 8, one 8-byte load,
// each word converted to four f16 (two registers). The MMA uses k-tile 0:
// its 2 m16 tiles x 2 words are converted, k-tile 1's conversions fold
// away (its loads stay where they are issued).
!wq8 = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK-LABEL: gpu.func @dequantized
// CHECK: arith.muli %{{.*}}, %c256_i32
// CHECK: %[[W:.*]] = llvm.inline_asm has_side_effects "ld.global.nc.v2.b32
// CHECK: %[[LO:.*]] = llvm.extractvalue %[[W]][0]
// CHECK: %[[BYTES:.*]] = llvm.bitcast %[[LO]] : i32 to vector<4xi8>
// CHECK: %[[F:.*]] = arith.sitofp %[[BYTES]] : vector<4xi8> to vector<4xf16>
// CHECK: %[[REGS:.*]] = llvm.bitcast %[[F]] : vector<4xf16> to vector<2xi32>
// CHECK: vector.extract %[[REGS]][0]
// CHECK: vector.extract %[[REGS]][1]
// CHECK-COUNT-3: arith.sitofp %{{.*}} : vector<4xi8> to vector<4xf16>
// CHECK-NOT: arith.sitofp
gpu.module @dequantized {
  gpu.func @dequantized(%values: memref<?xi8>, %meta: memref<?xi32>, %i: i32,
                        %out: memref<?xf32>) kernel {
    %ring = vnm_gpu.alloc_ring : !ring
    %a = vnm_gpu.load_sparse_a %values, %meta[%i, %i] {matrix = !wq8}
        : memref<?xi8>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #L>
    %b = vnm_gpu.load_b %ring[%i] offset(0) : !ring -> !vnm_gpu.b_frag<32x128xf16, #L>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    %acc = vnm_gpu.mma_sp %a[0], %b, %z : !vnm_gpu.sparse_a<64x64xf16, #L>,
        !vnm_gpu.b_frag<32x128xf16, #L>, !vnm_gpu.acc<64x128xf32, #L>
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(4096, %i) ld(%i)
        : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}
