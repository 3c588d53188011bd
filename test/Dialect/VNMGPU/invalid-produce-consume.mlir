// One negative case per constraint of vnm_gpu.produce_consume, the A ring
// and the ops that fill and read it (docs/spec.md section 5). Most cases
// change one thing in the same producer/consumer kernel.
// RUN: vnm-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// expected-error @+1 {{!vnm_gpu.a_ring (C1): stages must be in [1, 8], got 9}}
func.func private @f() -> !vnm_gpu.a_ring<9, !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>>

// -----

// expected-error @+1 {{!vnm_gpu.a_ring (C2): a slot holds one k-tile pair (64 columns) of a sparse A tile, got '!vnm_gpu.sparse_a<64x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>'}}
func.func private @f() -> !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<64x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>>

// -----

// Packed nibbles widen to the s8 MMA's bytes only.
// expected-error @+1 {{!vnm_gpu.a_ring (C3): value_bits = 4 stages the packed nibbles of an i4 weight for an i8 tile; got value_bits = 4 for 'f16'}}
func.func private @f() -> !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>, value_bits = 4>

// -----

gpu.module @two_dynamic {
  gpu.func @two_dynamic() kernel {
    %a = vnm_gpu.alloc_ring : !vnm_gpu.ring<4x64x256xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.alloc_ring' op (C2): a kernel holds at most one ring in dynamic shared memory (above 48 KiB) and static rings of at most that much together}}
    %b = vnm_gpu.alloc_ring : !vnm_gpu.ring<4x64x256xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

!xa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @outside {
  gpu.func @outside(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel {
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !xa>
    // expected-error @+1 {{'vnm_gpu.stage_sparse_a' op (C6): without a copy layout only the produce region of a vnm_gpu.produce_consume stages A fragments (its protocol lands them before they are read)}}
    vnm_gpu.stage_sparse_a %v, %meta[%i, %i] into %aring[%i]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32>, !vnm_gpu.a_ring<4, !xa>
    gpu.return
  }
}

// -----

!xa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @outside {
  gpu.func @outside(%i: i32) kernel {
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !xa>
    // expected-error @+1 {{'vnm_gpu.load_staged_a' op (C2): staged A fragments are read in the consume region of a vnm_gpu.produce_consume, or outside one from a ring that the block's threads stage (a vnm_gpu.stage_sparse_a with a copy layout)}}
    %a = vnm_gpu.load_staged_a %aring[%i] : !vnm_gpu.a_ring<4, !xa> -> !xa
    gpu.return
  }
}

// -----

// An i4 matrix (W4A8) staged into an i8 A ring without value_bits = 4:
// load_staged_a would hand its packed nibbles to the MMA unwidened.
!ia = !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!iacc = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
gpu.module @packed {
  gpu.func @packed(%v: memref<?xi8>, %meta: memref<?xi32>, %i: i32) kernel {
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !ia>
    %zero = vnm_gpu.zero : !iacc
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !iacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.stage_sparse_a' op (C2): stages f16, bf16 or i8 fragments of the tile's own element type, or an i4 matrix's packed nibbles into a ring of value_bits = 4; got 'i4' for 'i8' operands}}
        vnm_gpu.stage_sparse_a %v, %meta[%i, %pair] into %aring[%slot]
            {matrix = tensor<4096x4096xi4, #vnm.encoding<v = 64, n = 2, m = 4>>}
            : memref<?xi8>, memref<?xi32>, !vnm_gpu.a_ring<4, !ia>
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !iacc):
        vnm_gpu.yield %sum : !iacc
      } -> !iacc
    gpu.return
  }
}

// -----

// A bf16 matrix staged into an f16 A ring.
!xa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!xacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @types {
  gpu.func @types(%v: memref<?xbf16>, %meta: memref<?xi32>, %i: i32) kernel {
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !xa>
    %zero = vnm_gpu.zero : !xacc
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !xacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.stage_sparse_a' op (C2): the result has element type 'f16', expected 'bf16'}}
        vnm_gpu.stage_sparse_a %v, %meta[%i, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<4096x4096xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
            : memref<?xbf16>, memref<?xi32>, !vnm_gpu.a_ring<4, !xa>
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !xacc):
        vnm_gpu.yield %sum : !xacc
      } -> !xacc
    gpu.return
  }
}

// -----

!xacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @signature {
  gpu.func @signature(%i: i32) kernel {
    %zero = vnm_gpu.zero : !xacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C4): the consume region takes (pair: i32, slot: i32, iter_args...) and yields the iter_args' types, which are the results'}}
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !xacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !xacc):
        vnm_gpu.yield
      } -> !xacc
    gpu.return
  }
}

// -----

!xacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @nested {
  gpu.func @nested(%i: i32, %t: i1) kernel {
    %zero = vnm_gpu.zero : !xacc
    scf.if %t {
      // expected-error @+1 {{'vnm_gpu.produce_consume' op (C5): sits in the body block of a gpu.func (after it only the consumers run)}}
      %acc = vnm_gpu.produce_consume %i to %i stages(4)
          producers(128, registers = 40) consumer_registers(232)
          iter_args(%zero : !xacc)
        produce {
        ^bb0(%pair: i32, %slot: i32):
          vnm_gpu.yield
        } consume {
        ^bb0(%pair: i32, %slot: i32, %sum: !xacc):
          vnm_gpu.yield %sum : !xacc
        } -> !xacc
    }
    gpu.return
  }
}

// -----

!xa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!xacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @staged_type {
  gpu.func @staged_type(%i: i32) kernel {
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<4, !xa>
    %zero = vnm_gpu.zero : !xacc
    %acc = vnm_gpu.produce_consume %i to %i stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !xacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !xacc):
        // expected-error @+1 {{'vnm_gpu.load_staged_a' op (C1): the result must be the ring's tile type '!vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>'}}
        %a = vnm_gpu.load_staged_a %aring[%slot] : !vnm_gpu.a_ring<4, !xa>
            -> !vnm_gpu.sparse_a<64x64xbf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
        vnm_gpu.yield %sum : !xacc
      } -> !xacc
    gpu.return
  }
}

// -----

// An MMA whose group no later wgmma_sp closes.
!wring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
gpu.module @open_group {
  gpu.func @open_group(%v: memref<?xf16>, %meta: memref<?xi32>, %out: memref<?xf16>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32> -> !wa
    %z = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C6): a result still running (no pending: its group is open) may only be the accumulator of one vnm_gpu.wgmma_sp}}
    %s0 = vnm_gpu.wgmma_sp %a[0], %r[%i] offset(0), %z : !wa, !wring, !wacc
    vnm_gpu.epilogue %s0 into %out[%i, %i] bounds(4096, %i) ld(%i) : !wacc, memref<?xf16>
    gpu.return
  }
}

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C1): stages must be in [2, 8], got 1}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(1)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(3)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.copy_tile' op (C1): a ring of vnm_gpu.produce_consume must have 3 stages and be indexed by its region's slot}}
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.copy_tile' op (C1): a ring of vnm_gpu.produce_consume must have 4 stages and be indexed by its region's slot}}
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%c0] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C2): producers must be whole warpgroups (a positive multiple of 128 threads), got 96}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(96, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 320, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C2): the kernel's block leaves 192 consumer threads; they must be whole warpgroups}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C3): registers per thread must be multiples of 8 in [24, 256], got 20}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 20) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C3): 128 x 40 + 256 x 256 registers exceed the multiprocessor's 65536}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(256)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C4): the produce region takes (pair: i32, slot: i32) and yields nothing}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
            : memref<?xf16>, !sring
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !saring
        vnm_gpu.yield %pair : i32
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.wait' op (C6): cannot sit in the produce region of vnm_gpu.produce_consume (the producer copies into slots, the consumers read them; the op's barriers replace vnm_gpu.wait)}}
        vnm_gpu.wait %ring pending(0) : !sring
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
            : memref<?xf16>, !sring
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !saring
        vnm_gpu.yield 
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !sacc):
        // expected-error @+1 {{'vnm_gpu.stage_sparse_a' op (C6): cannot sit in the consume region of vnm_gpu.produce_consume (the producer copies into slots, the consumers read them; the op's barriers replace vnm_gpu.wait)}}
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !saring
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C7): an iter_arg of the consume region may still be written by the previous pair's MMAs; it may only be a vnm_gpu.wgmma_sp accumulator}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
            : memref<?xf16>, !sring
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
             matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 4>>}
            : memref<?xf16>, memref<?xi32>, !saring
        vnm_gpu.yield 
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !sacc):
        "test.use"(%sum) : (!sacc) -> ()
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>}
            : memref<?xf16>, !sring
        // expected-error @+1 {{'vnm_gpu.stage_sparse_a' op (C5): the copy's threads take a slot's 16-byte chunks round-robin (rows_per_thread = 1), got 2}}
        vnm_gpu.stage_sparse_a %v, %meta[%row, %pair] into %aring[%slot]
            {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 2>,
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.copy_tile' op (K2): its layout spreads over 256 threads, but the kernel's block is [384, 1, 1] (its producers)}}
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
            into %ring[%slot] {layout = #vnm_gpu.copy<threads = 256, rows_per_thread = 4>}
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

// -----

!sring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
!sa = !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
!saring = !vnm_gpu.a_ring<4, !sa>
!sacc = !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>
gpu.module @split {
  gpu.func @split(%v: memref<?xf16>, %meta: memref<?xi32>, %rhs: memref<?xf16>,
                  %out: memref<?xf16>, %row: i32, %col: i32, %n: i32, %pairs: i32)
      kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c4096 = arith.constant 4096 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %aring = vnm_gpu.alloc_ring : !saring
    %zero = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.produce_consume' op (C7): the consume region's last vnm_gpu.wgmma_sp must close its group with `pending`}}
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !sacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile %rhs[%pair, %col] bounds(%c4096, %n) ld(%n)
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
        %s1 = vnm_gpu.wgmma_sp %a[1], %ring[%slot] offset(32), %s0  : !sa, !sring, !sacc
        vnm_gpu.yield %s1 : !sacc
      } -> !sacc
    vnm_gpu.epilogue %acc into %out[%row, %col] bounds(4096, %n) ld(%n)
        : !sacc, memref<?xf16>
    gpu.return
  }
}
