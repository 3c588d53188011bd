// convert-vnm-gpu-to-nvvm: the sm_90a wgmma.sp steps (docs/hopper.md).
// RUN: vnm-opt %s --pass-pipeline="builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))" | FileCheck %s

!wring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wab = !vnm_gpu.sparse_a<64x64xbf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wringb = !vnm_gpu.ring<2x64x64xbf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!waccb = !vnm_gpu.acc<64x64xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>

// A 64 KiB ring is dynamic shared memory: 1024 more bytes reserved and
// the base rounded up to 1024 at run time. The copy puts chunk c of row r
// in column block c / 8 (8192 bytes = 64 rows x 128 bytes apart), rows 128
// bytes apart, chunks XOR-swizzled by r mod 8. The wait fences the copies
// for the async proxy before the barrier. Each wgmma.sp: fence, the MMA
// (A's four words of its k-tile, the descriptor, the pair's metadata word,
// selector = step, trans-b 1), commit, wait for `pending` groups. The
// descriptor: LBO 8192 >> 4 at bit 16, SBO 1024 >> 4 at bit 32, 128-byte
// swizzle (1 << 62); the second step starts 32 rows (4096 bytes) in.
// CHECK-LABEL: llvm.mlir.global external @f16_ring() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @f16
// CHECK: %[[RAW:.*]] = llvm.mlir.addressof @f16_ring
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[RAW]] : !llvm.ptr<3> to i32
// CHECK: %[[UP:.*]] = arith.addi %[[ADDR]], %c1023_i32
// CHECK: arith.andi %[[UP]], %c-1024_i32
// CHECK: arith.divui %{{.*}}, %c8_i32
// CHECK: arith.remui %{{.*}}, %c8_i32
// CHECK: arith.muli %{{.*}}, %c8192_i32
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.wait.group 2
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $134, 0;\0Awgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, $133, 0, p, 1, 1, 1;\0A}", "=f,{{.*}},=f,0,1,{{.*}},63,r,r,r,r,l,r,r"
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: arith.constant 4096 : i32
// CHECK: arith.constant 4611686293338849280 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: llvm.inline_asm {{.*}} $133, 1, p, 1, 1, 1;
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
gpu.module @f16 {
  gpu.func @f16(%v: memref<?xf16>, %meta: memref<?xi32>, %x: memref<?xf16>, %i: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    vnm_gpu.copy_tile %x[%i, %i] bounds(%i, %i) ld(%i) into %r[%i]
        {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
        : memref<?xf16>, !wring
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32> -> !wa
    vnm_gpu.wait %r pending(2) async_proxy : !wring
    %z = vnm_gpu.zero : !wacc
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0), %z pending(1) : !wa, !wring, !wacc
    %s1 = vnm_gpu.wgmma_sp %a[1], %r[%i] offset(32), %s0 pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// bf16 at N = 64: one column block (a plain 128-byte-row ring), a static
// ring aligned to 1024 with no run-time rounding, LBO = 64 rows x 128.
// CHECK-LABEL: llvm.mlir.global internal @bf16_ring() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @bf16
// CHECK-NOT: arith.constant -1024 : i32
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.bf16.bf16 {$0, {{.*}}, $31}
gpu.module @bf16 {
  gpu.func @bf16(%v: memref<?xbf16>, %meta: memref<?xi32>, %i: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wringb
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xbf16>, memref<?xi32> -> !wab
    %z = vnm_gpu.zero : !waccb
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0), %z pending(0) : !wab, !wringb, !waccb
    gpu.return
  }
}

// A transposed slot (k_contiguous): 128 tokens of 64 K values each, one
// 128-byte row per token. B is K-major (trans-b 0); the descriptor keeps
// LBO 128 rows x 128 bytes and SBO 1024, and the second step starts 32
// values (64 bytes) into the atoms' rows.
// CHECK-LABEL: gpu.func @token_major
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16 {{.*}}, $133, 0, p, 1, 1, 0;
// CHECK: arith.constant 64 : i32
// CHECK: arith.constant 4611686293372403712 : i64
// CHECK: llvm.inline_asm {{.*}}, $133, 1, p, 1, 1, 0;
!tring = !vnm_gpu.ring<2x128x64xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @token_major {
  gpu.func @token_major(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 4>>}
        : memref<?xf16>, memref<?xi32> -> !wa
    %z = vnm_gpu.zero : !wacc
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0) k_contiguous, %z pending(1) : !wa, !tring, !wacc
    %s1 = vnm_gpu.wgmma_sp %a[1], %r[%i] offset(32) k_contiguous, %s0 pending(0) : !wa, !tring, !wacc
    gpu.return
  }
}

// s8 (wgmma_sp_m64nNk64): 128 tokens of 64 K bytes in the 64-byte swizzle.
// One m64n128k64 step with i32 accumulators ("=r"), selector 0 and no
// negation or transpose immediates; the descriptor: LBO 128 rows x 64
// bytes = 8192 (>> 4 at bit 16), SBO 8 x 64 = 512 (>> 4 at bit 32), swizzle
// mode 2 (64 bytes) at bit 62: 0x8000002002000000.
// CHECK-LABEL: gpu.func @s8
// CHECK: arith.constant -9223371899382267904 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $134, 0;\0Awgmma.mma_async.sp.sync.aligned.m64n128k64.s32.s8.s8 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, $133, 0, p;\0A}", "=r,{{.*}},=r,0,1,{{.*}},63,r,r,r,r,l,r,r"
!sring = !vnm_gpu.ring<2x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
!sa = !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!sacc = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
gpu.module @s8 {
  gpu.func @s8(%v: memref<?xi8>, %meta: memref<?xi32>, %i: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 4>>}
        : memref<?xi8>, memref<?xi32> -> !sa
    %z = vnm_gpu.zero : !sacc
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0) k_contiguous, %z pending(0) : !sa, !sring, !sacc
    gpu.return
  }
}

// A K x N slot of 32 f16 columns: 64-byte rows in the 64-byte swizzle
// (MN-major). The second step starts 32 rows of 64 bytes (2048 bytes) in;
// the descriptor: LBO 64 rows x 64 bytes = 4096, SBO 512, mode 2.
// CHECK-LABEL: gpu.func @narrow
// CHECK: arith.constant -9223371899399045120 : i64
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async.sp.sync.aligned.m64n32k32.f32.f16.f16 {{.*}}, $37, 0, p, 1, 1, 1;
// CHECK: arith.constant 2048 : i32
// CHECK: llvm.inline_asm {{.*}}, $37, 1, p, 1, 1, 1;
!nring = !vnm_gpu.ring<2x64x32xf16, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
!nacc = !vnm_gpu.acc<64x32xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @narrow {
  gpu.func @narrow(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !nring
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32> -> !wa
    %z = vnm_gpu.zero : !nacc
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0), %z pending(1) : !wa, !nring, !nacc
    %s1 = vnm_gpu.wgmma_sp %a[1], %r[%i] offset(32), %s0 pending(0) : !wa, !nring, !nacc
    gpu.return
  }
}
