// Every vnm_gpu op, type and attribute round-trips in custom and generic form.
// RUN: vnm-opt %s | vnm-opt | FileCheck %s
// RUN: vnm-opt %s --mlir-print-op-generic | vnm-opt | FileCheck %s

!w = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 8>>
!ring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!colloc = !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 256, rows_per_thread = 4>>
!a = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
!b = !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
!acc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>

// CHECK-LABEL: gpu.func @spmm
// CHECK: %[[RING:.*]] = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: %[[ZERO:.*]] = vnm_gpu.zero : !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
// CHECK: scf.for
// CHECK: %[[CL:.*]] = vnm_gpu.load_colloc %{{.*}}[%{{.*}}, %{{.*}}] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 256, rows_per_thread = 4>>
// CHECK: vnm_gpu.gather %{{.*}}[%{{.*}}, %{{.*}}] via %[[CL]] bounds(%{{.*}}) ld(%{{.*}}) into %[[RING]][%{{.*}}] {matrix = {{.*}}} : memref<?xf16>, !vnm_gpu.colloc<{{.*}}>, !vnm_gpu.ring<{{.*}}>
// CHECK: %[[A:.*]] = vnm_gpu.load_sparse_a %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {matrix = {{.*}}} : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
// CHECK: vnm_gpu.wait %[[RING]] pending(0) : !vnm_gpu.ring<{{.*}}>
// CHECK: %[[B0:.*]] = vnm_gpu.load_b %[[RING]][%{{.*}}] offset(0) : !vnm_gpu.ring<{{.*}}> -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
// CHECK: %[[ACC0:.*]] = vnm_gpu.mma_sp %[[A]][0], %[[B0]], %{{.*}} : !vnm_gpu.sparse_a<{{.*}}>, !vnm_gpu.b_frag<{{.*}}>, !vnm_gpu.acc<{{.*}}>
// CHECK: vnm_gpu.load_b %[[RING]][%{{.*}}] offset(32)
// CHECK: vnm_gpu.mma_sp %[[A]][1]
// CHECK: vnm_gpu.epilogue %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] bounds(4096, %{{.*}}) ld(%{{.*}}) bias(%{{.*}} : memref<?xf16>) {accumulate, activation = #vnm.activation<gelu>} : !vnm_gpu.acc<{{.*}}>, memref<?xf16>
gpu.module @kernels {
  gpu.func @spmm(%values: memref<?xf16>, %meta: memref<?xi32>,
                 %colidx: memref<?xi32>, %rhs: memref<?xf16>,
                 %out: memref<?xf16>, %bias: memref<?xf16>, %n: i32,
                 %ldb: i32, %ldc: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c3 = arith.constant 3 : i32
    %c128 = arith.constant 128 : i32
    %by = gpu.block_id y
    %bx = gpu.block_id x
    %by32 = arith.index_cast %by : index to i32
    %bx32 = arith.index_cast %bx : index to i32
    %row = arith.muli %by32, %c128 : i32
    %col = arith.muli %bx32, %c128 : i32
    %ring = vnm_gpu.alloc_ring : !ring
    %zero = vnm_gpu.zero : !acc
    %res = scf.for %p = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (!acc) {
      %pair = arith.index_cast %p : index to i32
      %slot = arith.remui %pair, %c3 : i32
      %cl = vnm_gpu.load_colloc %colidx[%row, %pair] {matrix = !w}
          : memref<?xi32> -> !colloc
      vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ldb)
          into %ring[%slot] {matrix = !w} : memref<?xf16>, !colloc, !ring
      %a = vnm_gpu.load_sparse_a %values, %meta[%row, %pair] {matrix = !w}
          : memref<?xf16>, memref<?xi32> -> !a
      vnm_gpu.wait %ring pending(0) : !ring
      %b0 = vnm_gpu.load_b %ring[%slot] offset(0) : !ring -> !b
      %acc0 = vnm_gpu.mma_sp %a[0], %b0, %acc : !a, !b, !acc
      %b1 = vnm_gpu.load_b %ring[%slot] offset(32) : !ring -> !b
      %acc1 = vnm_gpu.mma_sp %a[1], %b1, %acc0 : !a, !b, !acc
      scf.yield %acc1 : !acc
    }
    vnm_gpu.epilogue %res into %out[%row, %col] bounds(4096, %n) ld(%ldc)
        bias(%bias : memref<?xf16>)
        {accumulate, activation = #vnm.activation<gelu>} : !acc, memref<?xf16>
    gpu.return
  }
}

// M = 4: a dense tile copy instead of the gather; row and column scales,
// an s8 layout, and i32 results.
!ring8 = !vnm_gpu.ring<2x64x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 1>>
!acc8 = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
!accf = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// CHECK-LABEL: gpu.func @copies
// CHECK: vnm_gpu.copy_tile %{{.*}}[%{{.*}}, %{{.*}}] bounds(%{{.*}}, %{{.*}}) ld(%{{.*}}) into %{{.*}}[%{{.*}}] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 4>} : memref<?xi8>, !vnm_gpu.ring<2x64x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 1>>
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: vnm_gpu.epilogue %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] bounds(1000, %{{.*}}) ld(%{{.*}}) : !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>, memref<?xi32>
// CHECK: vnm_gpu.epilogue %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] bounds(1000, %{{.*}}) ld(%{{.*}}) row_scales(%{{.*}} : memref<?xf32>) col_scales(%{{.*}} : memref<?xf32>) {activation = #vnm.activation<relu>} : !vnm_gpu.acc<64x128xf32, {{.*}}>, memref<?xbf16>
gpu.module @more {
  gpu.func @copies(%src: memref<?xi8>, %out: memref<?xi32>,
                   %outf: memref<?xbf16>, %rs: memref<?xf32>,
                   %cs: memref<?xf32>, %i: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ring8
    vnm_gpu.copy_tile %src[%i, %i] bounds(%i, %i) ld(%i) into %ring[%i]
        {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 4>}
        : memref<?xi8>, !ring8
    vnm_gpu.wait %ring pending(1) : !ring8
    %acc = vnm_gpu.zero : !acc8
    vnm_gpu.epilogue %acc into %out[%i, %i] bounds(1000, %i) ld(%i)
        : !acc8, memref<?xi32>
    %accf = vnm_gpu.zero : !accf
    vnm_gpu.epilogue %accf into %outf[%i, %i] bounds(1000, %i) ld(%i)
        row_scales(%rs : memref<?xf32>) col_scales(%cs : memref<?xf32>)
        {activation = #vnm.activation<relu>} : !accf, memref<?xbf16>
    gpu.return
  }
}

// The SDDMM store of a V:N:M pattern's entries.
// CHECK-LABEL: gpu.func @sampled
// CHECK: vnm_gpu.sampled_store %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] meta(%{{.*}}) {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xi8>, memref<?xbf16>
gpu.module @sddmm {
  gpu.func @sampled(%values: memref<?xbf16>, %meta: memref<?xi8>, %i: i32) kernel {
    %acc = vnm_gpu.zero : !accf
    vnm_gpu.sampled_store %acc into %values[%i, %i] meta(%meta)
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : !accf, memref<?xi8>, memref<?xbf16>
    gpu.return
  }
}

// A token-major i8 slot: the swizzle's XOR term changes every two rows,
// and B is read k_contiguous.
!ringt = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
// CHECK-LABEL: gpu.func @token_major
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
// CHECK: vnm_gpu.load_b %{{.*}}[%{{.*}}] offset(0) k_contiguous : {{.*}} -> !vnm_gpu.b_frag<64x128xi8, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
gpu.module @token {
  gpu.func @token_major(%i: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ringt
    %b = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous : !ringt -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// The token-major gather: column-locs spread as 8-bit B fragments, and a
// load_b that selects through them from a slot of whole groups.
!ringg = !vnm_gpu.ring<3x128x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!clm = !vnm_gpu.colloc<16, #L8>
// CHECK-LABEL: gpu.func @gathered
// CHECK: vnm_gpu.load_colloc %{{.*}}[%{{.*}}, %{{.*}}] {matrix = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
// CHECK: vnm_gpu.load_b %{{.*}}[%{{.*}}] offset(0) k_contiguous via %{{.*}} : !vnm_gpu.ring<3x128x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>, !vnm_gpu.colloc<16, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>> -> !vnm_gpu.b_frag<64x128xi8, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
gpu.module @gathered {
  gpu.func @gathered(%colidx: memref<?xi32>, %i: i32) kernel {
    %ring = vnm_gpu.alloc_ring : !ringg
    %cl = vnm_gpu.load_colloc %colidx[%i, %i]
        {matrix = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xi32> -> !clm
    %b = vnm_gpu.load_b %ring[%i] offset(0) k_contiguous via %cl
        : !ringg, !clm -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// Per-group weight scales.
// CHECK-LABEL: gpu.func @groups
// CHECK: %{{.*}}, %{{.*}} = vnm_gpu.group_scale %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {groups = 32 : i64, last_pair = 31 : i64, pairs_per_group = 1 : i64, rows = 4096 : i64} : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xf32>
gpu.module @groups {
  gpu.func @groups(%s: memref<?xf32>, %i: i32) kernel {
    %z = vnm_gpu.zero : !accf
    %a, %p = vnm_gpu.group_scale %z, %z, %s[%i, %i]
        {rows = 4096 : i64, groups = 32 : i64, pairs_per_group = 1 : i64,
         last_pair = 31 : i64} : !accf, memref<?xf32>
    gpu.return
  }
}

// The sm_90a wgmma.sp steps: a 1024-byte-aligned ring in the canonical
// layout (column blocks), a wait that fences for the async proxy, and a
// pair's two MMAs, the first still running when the second is issued.
// CHECK-LABEL: gpu.func @wgmma
// CHECK: vnm_gpu.alloc_ring {alignment = 1024 : i64} : !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
// CHECK: vnm_gpu.wait %{{.*}} pending(2) async_proxy : !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
// CHECK: %[[S0:.*]] = vnm_gpu.wgmma_sp %{{.*}}[0], %{{.*}}[%{{.*}}] offset(0), %{{.*}} pending(1) : !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>, !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>, !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
// CHECK: vnm_gpu.wgmma_sp %{{.*}}[1], %{{.*}}[%{{.*}}] offset(32), %[[S0]] pending(0)
// B transposed in the slot (token-major): N rows of 64 K values.
// CHECK: %[[T0:.*]] = vnm_gpu.wgmma_sp %{{.*}}[0], %{{.*}}[%{{.*}}] offset(0) k_contiguous, %{{.*}} pending(1) : {{.*}}, !vnm_gpu.ring<2x128x64xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: vnm_gpu.wgmma_sp %{{.*}}[1], %{{.*}}[%{{.*}}] offset(32) k_contiguous, %[[T0]] pending(0)
// CHECK: func.func private @tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4>, u = #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2, column_blocks = 2>}
// CHECK: func.func private @ws_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1>}
// CHECK: func.func private @cluster_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>}
// CHECK: func.func private @as_2_4_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>}
// The default cluster_rows (1) is not printed.
// CHECK: func.func private @no_cluster_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>}
!wring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!tring = !vnm_gpu.ring<2x128x64xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @wgmma {
  gpu.func @wgmma(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32> -> !wa
    vnm_gpu.wait %r pending(2) async_proxy : !wring
    %z = vnm_gpu.zero : !wacc
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0), %z pending(1) : !wa, !wring, !wacc
    %s1 = vnm_gpu.wgmma_sp %a[1], %r[%i] offset(32), %s0 pending(0) : !wa, !wring, !wacc
    %t = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %t0 = vnm_gpu.wgmma_sp %a[0], %t[%i] offset(0) k_contiguous, %z pending(1) : !wa, !tring, !wacc
    %t1 = vnm_gpu.wgmma_sp %a[1], %t[%i] offset(32) k_contiguous, %t0 pending(0) : !wa, !tring, !wacc
    gpu.return
  }
}
func.func private @tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 128], warpgroups = 2, stages = 4>, u = #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2, column_blocks = 2>}
func.func private @ws_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1>}
func.func private @cluster_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>}
func.func private @as_2_4_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>}
func.func private @no_cluster_tiling() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4, cluster_rows = 1>}

// s8 wgmma.sp (m64nNk64): i8 A staged one k64 tile per pair, B K-major in
// 64-byte rows of the 64-byte swizzle, i32 accumulators.
// CHECK-LABEL: gpu.func @wgmma_s8
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.a_ring<2, !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>>
// CHECK: vnm_gpu.produce_consume
// CHECK: vnm_gpu.tma_copy_tile %{{.*}} : memref<?xi8>, !vnm_gpu.ring<2x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
// CHECK: vnm_gpu.stage_sparse_a {{.*}} {matrix = tensor<256x256xi8, #vnm.encoding<v = 64, n = 2, m = 4>>}
// CHECK: vnm_gpu.wgmma_sp %{{.*}}[0], %{{.*}}[%{{.*}}] offset(0) k_contiguous, %{{.*}} pending(1) : !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>, !vnm_gpu.ring<2x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>, !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!bring = !vnm_gpu.ring<2x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
!ia = !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!iacc = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
gpu.module @wgmma_s8 {
  gpu.func @wgmma_s8(%v: memref<?xi8>, %meta: memref<?xi32>, %x: memref<?xi8>,
                     %row: i32, %col: i32, %n: i32)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %c64 = arith.constant 64 : i32
    %c256 = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !bring
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<2, !ia>
    %zero = vnm_gpu.zero : !iacc
    %acc = vnm_gpu.produce_consume %c0 to %c4 stages(2)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !iacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        %first = arith.muli %pair, %c64 : i32
        vnm_gpu.tma_copy_tile %x[%col, %first] bounds(%n, %c256) ld(%c256)
            into %ring[%slot] : memref<?xi8>, !bring
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {matrix = tensor<256x256xi8, #vnm.encoding<v = 64, n = 2, m = 4>>}
            : memref<?xi8>, memref<?xi32>, !vnm_gpu.a_ring<2, !ia>
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !iacc):
        %a = vnm_gpu.load_staged_a %aring[%slot] : !vnm_gpu.a_ring<2, !ia> -> !ia
        %s = vnm_gpu.wgmma_sp %a[0], %ring[%slot] offset(0) k_contiguous, %sum pending(1) : !ia, !bring, !iacc
        vnm_gpu.yield %s : !iacc
      } -> !iacc
    gpu.return
  }
}

// An i4 weight's packed nibbles staged for the s8 MMA (W4A8).
// CHECK-LABEL: func.func private @packed_a_ring
// CHECK-SAME: !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>, value_bits = 4>
func.func private @packed_a_ring() -> !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>, value_bits = 4>

// A block split into a producer warpgroup and two consumer warpgroups: the
// producer copies B and stages A into slot %slot, the consumers read them
// there; the pair's first MMA joins the group its second closes.
// CHECK-LABEL: gpu.func @split
// CHECK: vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>>
// CHECK: %{{.*}} = vnm_gpu.produce_consume %{{.*}} to %{{.*}} stages(4) producers(128, registers = 40) consumer_registers(232) iter_args(%{{.*}} : !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>) produce {
// CHECK: vnm_gpu.copy_tile
// CHECK: vnm_gpu.stage_sparse_a %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>, matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
// CHECK: vnm_gpu.yield
// CHECK: } consume {
// CHECK: vnm_gpu.load_staged_a %{{.*}}[%{{.*}}] : !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>> -> !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
// CHECK: %[[G:.*]] = vnm_gpu.wgmma_sp %{{.*}}[0], %{{.*}}[%{{.*}}] offset(0), %{{.*}} :
// CHECK: vnm_gpu.wgmma_sp %{{.*}}[1], %{{.*}}[%{{.*}}] offset(32), %[[G]] pending(1) :
// CHECK: vnm_gpu.yield %{{.*}} : !vnm_gpu.acc
// CHECK: } -> !vnm_gpu.acc
!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        %first = arith.muli %pair, %c64 : i32
        vnm_gpu.copy_tile %rhs[%first, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
            : memref<?xf16>, !sring
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !saring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !sacc):
        %a = vnm_gpu.load_staged_a %aring[%slot] : !saring -> !sa
        %s0 = vnm_gpu.wgmma_sp %a[0], %ring[%slot] offset(0), %sum : !sa, !sring, !sacc
        %s1 = vnm_gpu.wgmma_sp %a[1], %ring[%slot] offset(32), %s0 pending(1) : !sa, !sring, !sacc
        vnm_gpu.yield %s1 : !sacc
      } -> !sacc
    vnm_gpu.epilogue %acc into %out[%row, %col] bounds(4096, %n) ld(%n)
        : !sacc, memref<?xf16>
    gpu.return
  }
}

// The TMA form of the producer: B by tma_copy_tile, A staged by bulk
// copies (no copy layout).
// CHECK-LABEL: gpu.func @split_tma
// CHECK: vnm_gpu.tma_copy_tile %{{.*}}[%{{.*}}, %{{.*}}] bounds(%{{.*}}, %{{.*}}) ld(%{{.*}}) into %{{.*}}[%{{.*}}] : memref<?xf16>, !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
// CHECK: vnm_gpu.stage_sparse_a %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
gpu.module @split_tma {
  gpu.func @split_tma(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                      %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        %first = arith.muli %pair, %c64 : i32
        vnm_gpu.tma_copy_tile %rhs[%first, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] : memref<?xf16>, !sring
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !saring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !sacc):
        vnm_gpu.yield %sum : !sacc
      } -> !sacc
    gpu.return
  }
}

// K splits: the partial tiles of a cluster summed through the ring; the
// tiling's optional fields print only where they differ from 1.
// CHECK-LABEL: gpu.func @k_splits
// CHECK: %{{.*}} = vnm_gpu.reduce_k_splits %{{.*}} rank(%{{.*}}) splits(4) through %{{.*}} : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
// CHECK: func.func private @split_tilings() attributes {s = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 4>, u = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 3, k_splits = 2>, w = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>}
gpu.module @k_splits {
  gpu.func @k_splits(%rank: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %s = vnm_gpu.reduce_k_splits %z rank(%rank) splits(4) through %r
        : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>,
          !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}
func.func private @split_tilings() attributes {
  s = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 4>,
  u = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 3, k_splits = 2>,
  w = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 1, k_splits = 1>}

// A staged by the block's threads (staged_a): a copy layout, outside a
// produce_consume; load_staged_a reads the ring after the wait, which counts
// the A copies with B's (pending up to 2 S - 1). staged_a prints only when
// true.
// CHECK-LABEL: gpu.func @staged_a
// CHECK: vnm_gpu.stage_sparse_a %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>, matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
// CHECK: vnm_gpu.wait %{{.*}} pending(5)
// CHECK: vnm_gpu.load_staged_a %{{.*}}[%{{.*}}] : !vnm_gpu.a_ring<3, !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>> -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
// CHECK: func.func private @staged_tilings() attributes {f = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>, t = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 3, staged_a = true>}
!sta = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
gpu.module @staged_a {
  gpu.func @staged_a(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<3, !sta>
    vnm_gpu.stage_sparse_a %v, %meta[%i, %i] into %aring[%i]
        {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
         matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32>, !vnm_gpu.a_ring<3, !sta>
    vnm_gpu.wait %r pending(5) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %a = vnm_gpu.load_staged_a %aring[%i] : !vnm_gpu.a_ring<3, !sta> -> !sta
    gpu.return
  }
}
func.func private @staged_tilings() attributes {
  t = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 3, staged_a = true>,
  f = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, staged_a = false>}
