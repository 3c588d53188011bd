// One negative case per constraint of vnm_gpu.tma_copy_tile
// (docs/spec.md section 5), each in the producer of a warp-specialized
// kernel that is otherwise valid.
// RUN: vnm-opt %s -split-input-file -verify-diagnostics


// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c1 {
  gpu.func @c1(%rhs: memref<?xf16>, %n: i32, %ld: i32, %b: memref<?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C1): `src` has element type 'bf16', expected 'f16'}}
        vnm_gpu.tma_copy_tile %b[%pair, %c0] bounds(%k, %n) ld(%ld) into %ring[%slot] : memref<?xbf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @c2 {
  gpu.func @c2(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C2): the ring must hold 128-byte column blocks in the TMA's 128-byte swizzle (#vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = row bytes / 128>) or 64-byte rows in its 64-byte swizzle (#vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>), aligned to 1024 bytes}}
        vnm_gpu.tma_copy_tile %rhs[%pair, %c0] bounds(%k, %n) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c2_alignment {
  gpu.func @c2_alignment(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring : !tring
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C2): the ring must hold 128-byte column blocks in the TMA's 128-byte swizzle (#vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = row bytes / 128>) or 64-byte rows in its 64-byte swizzle (#vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>), aligned to 1024 bytes}}
        vnm_gpu.tma_copy_tile %rhs[%pair, %c0] bounds(%k, %n) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c3_param {
  gpu.func @c3_param(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %kx = arith.constant 256 : index
    %local = memref.alloc(%kx) : memref<?xf16>
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C3): `src` must be a parameter of the kernel (the host passes it as a tensor map)}}
        vnm_gpu.tma_copy_tile %local[%pair, %c0] bounds(%k, %n) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c3_use {
  gpu.func @c3_use(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %i0 = arith.constant 0 : index
    %d = memref.dim %rhs, %i0 : memref<?xf16>
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C3): the kernel parameter `src` is passed as a tensor map: it may only be read by vnm_gpu.tma_copy_tile, not by memref.dim}}
        vnm_gpu.tma_copy_tile %rhs[%pair, %c0] bounds(%k, %n) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c4_known {
  gpu.func @c4_known(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        %twice = arith.muli %n, %n : i32
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C4): bounds and pitch are encoded in the tensor map by the host: each must be a constant or a scalar parameter of the kernel}}
        vnm_gpu.tma_copy_tile %rhs[%pair, %c0] bounds(%k, %twice) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c4_same {
  gpu.func @c4_same(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C4): the copies of one tensor map must use the same bounds and pitch}}
        vnm_gpu.tma_copy_tile %rhs[%pair, %c0] bounds(%k, %n) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.tma_copy_tile %rhs[%pair, %c0] bounds(%k, %n) ld(%n) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}

// -----

!tring = !vnm_gpu.ring<4x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @c5 {
  gpu.func @c5(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C5): only the produce region of a vnm_gpu.produce_consume copies with the TMA (the copy lands on the slot's barrier)}}
    vnm_gpu.tma_copy_tile %rhs[%c0, %c0] bounds(%k, %n) ld(%ld) into %ring[%c0] : memref<?xf16>, !tring
    gpu.return
  }
}

// -----

!tacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!tring = !vnm_gpu.ring<2x512x64xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @c2_box_rows {
  gpu.func @c2_box_rows(%rhs: memref<?xf16>, %n: i32, %ld: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %k = arith.constant 256 : i32
    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !tring
    %zero = vnm_gpu.zero : !tacc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(2)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !tacc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        // expected-error @+1 {{'vnm_gpu.tma_copy_tile' op (C2): a TMA box has at most 256 rows, the ring has 512}}
        vnm_gpu.tma_copy_tile %rhs[%c0, %pair] bounds(%n, %k) ld(%ld) into %ring[%slot] : memref<?xf16>, !tring
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !tacc):
        vnm_gpu.yield %sum : !tacc
      } -> !tacc
    gpu.return
  }
}
