// One negative case per constraint of the vnm_gpu section of docs/spec.md.
// RUN: vnm-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

//===----------------------------------------------------------------------===//
// #vnm_gpu.mma
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#vnm_gpu.mma (C1): warps must be positive and at most 32 in all (1024 threads), got [8, 8]}}
func.func private @f() -> !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [8, 8]>>

// -----

// Warps whose product overflows int64_t (found under UBSan) are refused
// like any other count above 32.
// expected-error @+1 {{#vnm_gpu.mma (C1): warps must be positive and at most 32 in all (1024 threads), got [4, 9223372036854775807]}}
func.func private @f() -> !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 9223372036854775807]>>

// -----

//===----------------------------------------------------------------------===//
// #vnm_gpu.swizzle
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#vnm_gpu.swizzle (C1): chunk must be a power of two in [4, 128] bytes, got 12}}
func.func private @f() -> !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 12, period = 8>>

// -----

// expected-error @+1 {{#vnm_gpu.swizzle (C2): period must be a power of two in [1, 16], got 3}}
func.func private @f() -> !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 3>>

// -----

// expected-error @+1 {{#vnm_gpu.swizzle (C3): rows must be a power of two in [1, 16], got 3}}
func.func private @f() -> !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 3>>

// -----

//===----------------------------------------------------------------------===//
// #vnm_gpu.copy
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#vnm_gpu.copy (C1): threads must be a multiple of 32 in [32, 1024], got 100}}
func.func private @f() attributes {layout = #vnm_gpu.copy<threads = 100, rows_per_thread = 8>}

// -----

// expected-error @+1 {{#vnm_gpu.copy (C2): rows_per_thread must be a power of two in [1, 64], got 3}}
func.func private @f() attributes {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 3>}

// -----

//===----------------------------------------------------------------------===//
// !vnm_gpu.ring
//===----------------------------------------------------------------------===//

// expected-error @+1 {{!vnm_gpu.ring (C1): stages must be in [1, 8], got 9}}
func.func private @f() -> !vnm_gpu.ring<9x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// -----

// expected-error @+1 {{!vnm_gpu.ring (C2): a slot must be non-empty, got 0x128}}
func.func private @f() -> !vnm_gpu.ring<3x0x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// -----

// expected-error @+1 {{!vnm_gpu.ring (C3): element type must be f16, bf16 or i8, got 'f32'}}
func.func private @f() -> !vnm_gpu.ring<3x64x128xf32, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// -----

// expected-error @+1 {{!vnm_gpu.ring (C4): a row of 64 bytes must hold whole 16-byte chunks and whole swizzle spans of 128 bytes}}
func.func private @f() -> !vnm_gpu.ring<3x64x32xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// -----

// expected-error @+1 {{!vnm_gpu.ring (C4): a row of 4611686018427387904 elements does not fit int64_t bytes}}
func.func private @f() -> !vnm_gpu.ring<3x64x4611686018427387904xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// -----

//===----------------------------------------------------------------------===//
// !vnm_gpu.colloc
//===----------------------------------------------------------------------===//

// expected-error @+1 {{!vnm_gpu.colloc (C1): groups must be positive, got 0}}
func.func private @f() -> !vnm_gpu.colloc<0, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>

// -----

//===----------------------------------------------------------------------===//
// !vnm_gpu.sparse_a
//===----------------------------------------------------------------------===//

// expected-error @+1 {{!vnm_gpu.sparse_a (C1): the tile must be non-empty, got 0x64}}
func.func private @f() -> !vnm_gpu.sparse_a<0x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

// expected-error @+1 {{!vnm_gpu.sparse_a (C2): mma_sp_m16n8k32 needs f16 or bf16 elements here, got 'i8'}}
func.func private @f() -> !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

// expected-error @+1 {{!vnm_gpu.sparse_a (C3): a 48x64 tile does not split into the layout's warp and instruction tiles (rows a multiple of 32, columns a multiple of 32)}}
func.func private @f() -> !vnm_gpu.sparse_a<48x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

//===----------------------------------------------------------------------===//
// !vnm_gpu.b_frag
//===----------------------------------------------------------------------===//

// expected-error @+1 {{!vnm_gpu.b_frag (C2): mma_sp_m16n8k64 needs i8 elements here, got 'f16'}}
func.func private @f() -> !vnm_gpu.b_frag<64x128xf16, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>

// -----

// expected-error @+1 {{!vnm_gpu.b_frag (C3): a 64x128 tile does not split into the layout's warp and instruction tiles (rows equal to 32, columns a multiple of 16)}}
func.func private @f() -> !vnm_gpu.b_frag<64x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

//===----------------------------------------------------------------------===//
// !vnm_gpu.acc
//===----------------------------------------------------------------------===//

// expected-error @+1 {{!vnm_gpu.acc (C2): mma_sp_m16n8k32 needs f32 elements here, got 'f16'}}
func.func private @f() -> !vnm_gpu.acc<64x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

// expected-error @+1 {{!vnm_gpu.acc (C3): a 64x100 tile does not split into the layout's warp and instruction tiles (rows a multiple of 32, columns a multiple of 16)}}
func.func private @f() -> !vnm_gpu.acc<64x100xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

//===----------------------------------------------------------------------===//
// K1
//===----------------------------------------------------------------------===//

func.func @outside() {
  // expected-error @+1 {{'vnm_gpu.alloc_ring' op (K1): a tile op must sit in a gpu.func}}
  %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// K2
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    // expected-error @+1 {{'vnm_gpu.load_colloc' op (K2): its layout spreads over 128 threads, but the kernel's block is [256, 1, 1]}}
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// load_colloc
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_colloc' op (C1): `matrix` must be a static tensor type with a #vnm.encoding, got 'tensor<64x64xf16>'}}
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<64x64xf16>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_colloc' op (C2): a 4-column group keeps all its columns; M = 4 kernels copy B with vnm_gpu.copy_tile}}
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 4>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_colloc' op (C3): `colidx` is read as i32 words, got 'memref<?xf16>'}}
    %c = vnm_gpu.load_colloc %v[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    // expected-error @+1 {{'vnm_gpu.gather' op (C1): `matrix` must be a static tensor type with a #vnm.encoding, got 'tensor<4096x4096xf16>'}}
    vnm_gpu.gather %x[%i, %i] via %c bounds(%i) ld(%i) into %r[%i] {matrix = tensor<4096x4096xf16>} : memref<?xf16>, !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    // expected-error @+1 {{'vnm_gpu.gather' op (C2): a 4-column group keeps all its columns; M = 4 kernels copy B with vnm_gpu.copy_tile}}
    vnm_gpu.gather %x[%i, %i] via %c bounds(%i) ld(%i) into %r[%i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 4>>} : memref<?xf16>, !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    // expected-error @+1 {{'vnm_gpu.gather' op (C3): `rhs` has element type 'f32', expected 'f16'}}
    vnm_gpu.gather %yf[%i, %i] via %c bounds(%i) ld(%i) into %r[%i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf32>, !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<8, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    // expected-error @+1 {{'vnm_gpu.gather' op (C4): a slot of 64 rows must hold the 4 gathered rows of each of the column-loc's 8 groups}}
    vnm_gpu.gather %x[%i, %i] via %c bounds(%i) ld(%i) into %r[%i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, !vnm_gpu.colloc<8, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 4>>
    // expected-error @+1 {{'vnm_gpu.gather' op (C5): 128 threads of 4 rows do not copy the 64x128 slot's 1024 chunks of 16 bytes one each}}
    vnm_gpu.gather %x[%i, %i] via %c bounds(%i) ld(%i) into %r[%i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 4>>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// copy_tile
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.copy_tile' op (C1): `src` has element type 'f32', expected 'f16'}}
    vnm_gpu.copy_tile %yf[%i, %i] bounds(%i, %i) ld(%i) into %r[%i] {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 8>} : memref<?xf32>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.copy_tile' op (C2): 256 threads of 8 rows do not copy the 64x128 slot's 1024 chunks of 16 bytes one each}}
    vnm_gpu.copy_tile %x[%i, %i] bounds(%i, %i) ld(%i) into %r[%i] {layout = #vnm_gpu.copy<threads = 256, rows_per_thread = 8>} : memref<?xf16>, !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// wait
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.wait' op (C1): pending must be in [0, 2] for 1 ring(s) of 3 stages, got 3}}
    vnm_gpu.wait %r pending(3) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// load_sparse_a
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C1): `matrix` must be a static tensor type with a #vnm.encoding, got 'tensor<64x64xf16>'}}
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i] {matrix = tensor<64x64xf16>} : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C2): `values` has element type 'f32', expected 'f16'}}
    %a = vnm_gpu.load_sparse_a %yf, %meta[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf32>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C2): the result has element type 'bf16', expected 'f16'}}
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xbf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C2): `meta` holds i32 metadata words, got 'memref<?xf16>'}}
    %a = vnm_gpu.load_sparse_a %v, %x[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, memref<?xf16> -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C3): the tile's 128 rows must lie in one V block (v = 64) to share one column-loc, unless m = 4}}
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C4): a value covers the 64 columns of K that one metadata word per lane describes, got 32}}
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x32xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// load_b
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C1): the result has element type 'bf16', expected 'f16'}}
    %b = vnm_gpu.load_b %r[%i] offset(0) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>> -> !vnm_gpu.b_frag<32x128xbf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C1): the result's 64 columns must be the slot's 128}}
    %b = vnm_gpu.load_b %r[%i] offset(0) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>> -> !vnm_gpu.b_frag<32x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C2): offset 16 must be a multiple of 32 with the rows of B it reads inside the slot's 64 rows}}
    %b = vnm_gpu.load_b %r[%i] offset(16) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>> -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C2): offset 64 must be a multiple of 32 with the rows of B it reads inside the slot's 64 rows}}
    %b = vnm_gpu.load_b %r[%i] offset(64) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>> -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

// k_contiguous: the slot's rows are B's columns, its columns B's rows.
!r8 = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !r8
    // expected-error @+1 {{'vnm_gpu.load_b' op (C1): the result's 64 columns must be the slot's 128 rows (k_contiguous)}}
    %b = vnm_gpu.load_b %r[%i] offset(0) k_contiguous : !r8 -> !vnm_gpu.b_frag<64x64xi8, #L8>
    gpu.return
  }
}

// -----

!r8 = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !r8
    // expected-error @+1 {{'vnm_gpu.load_b' op (C2): offset 64 must be a multiple of 64 with the rows of B it reads inside the slot's 64 columns}}
    %b = vnm_gpu.load_b %r[%i] offset(64) k_contiguous : !r8 -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// -----

// 8-bit B fragments only from a k_contiguous slot.
!r8 = !vnm_gpu.ring<3x64x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !r8
    // expected-error @+1 {{'vnm_gpu.load_b' op (C3): 8-bit B fragments are read from a k_contiguous slot (sm_80 and sm_90 have no byte-transposing ldmatrix)}}
    %b = vnm_gpu.load_b %r[%i] offset(0) : !r8 -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// mma_sp
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %a = "test.a"() : () -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %b = "test.b"() : () -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 4]>>
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.mma_sp' op (C1): operands and accumulator must share one layout}}
    %d = vnm_gpu.mma_sp %a[0], %b, %c : !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 4]>>, !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %a = "test.a"() : () -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %b = "test.b"() : () -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %c = vnm_gpu.zero : !vnm_gpu.acc<32x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.mma_sp' op (C2): a 64-row A and a 128-column B of one element type make the accumulator tile, got 32x128}}
    %d = vnm_gpu.mma_sp %a[0], %b, %c : !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.acc<32x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %a = "test.a"() : () -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %b = "test.b"() : () -> !vnm_gpu.b_frag<32x128xbf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.mma_sp' op (C2): a 64-row A and a 128-column B of one element type make the accumulator tile, got 64x128}}
    %d = vnm_gpu.mma_sp %a[0], %b, %c : !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.b_frag<32x128xbf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %a = "test.a"() : () -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %b = "test.b"() : () -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.mma_sp' op (C3): step must be in [0, 1], got 2}}
    %d = vnm_gpu.mma_sp %a[2], %b, %c : !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// epilogue
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.epilogue' op (C1): results are f16, bf16 or f32 (or i32 from i32 accumulators with no scales, bias or activation), got 'i32'}}
    vnm_gpu.epilogue %c into %ci[%i, %i] bounds(4096, %i) ld(%i) : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.epilogue' op (C1): results are f16, bf16 or f32 (or i32 from i32 accumulators with no scales, bias or activation), got 'i32'}}
    vnm_gpu.epilogue %c into %ci[%i, %i] bounds(4096, %i) ld(%i) {activation = #vnm.activation<relu>} : !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>, memref<?xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.epilogue' op (C2): `bias` has element type 'f32', expected 'f16'}}
    vnm_gpu.epilogue %c into %y[%i, %i] bounds(4096, %i) ld(%i) bias(%yf : memref<?xf32>) : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.epilogue' op (C3): scales are f32, got 'memref<?xf16>'}}
    vnm_gpu.epilogue %c into %y[%i, %i] bounds(4096, %i) ld(%i) row_scales(%x : memref<?xf16>) : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %ci: memref<?xi32>, %x: memref<?xf16>, %y: memref<?xf16>, %yf: memref<?xf32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.epilogue' op (C4): rows must be positive, got 0}}
    vnm_gpu.epilogue %c into %y[%i, %i] bounds(0, %i) ld(%i) : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xf16>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Kernel parameter names
//===----------------------------------------------------------------------===//

gpu.module @m {
  // expected-error @+1 {{'vnm_gpu.param' on argument 0 must be a string, got 3 : i64}}
  gpu.func @k(%x: i32 {vnm_gpu.param = 3}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{unknown vnm_gpu argument attribute 'vnm_gpu.name'}}
  gpu.func @k(%x: i32 {vnm_gpu.name = "x"}) kernel {
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// #vnm_gpu.mma_sp_tiling
//===----------------------------------------------------------------------===//

func.func @config_c1(%w: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<8x8xf16>) -> tensor<64x8xf32> {
  // expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C1): block must be [64, 128] or [128, 128], got [32, 128]}}
  %y = vnm.spmm %w, %x {vnm.config = #vnm_gpu.mma_sp_tiling<block = [32, 128], warps = [1, 2], stages = 3, blocks_per_sm = 0>} : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<8x8xf16> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C2): warps[0] must be block[0] / 32 or block[0] / 64 (32- or 64-row warp tiles), got 4}}
func.func private @config_c2() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [4, 2], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C2): warps[0] must be block[0] / 32 or block[0] / 64 (32- or 64-row warp tiles), got 4611686018427387904}}
func.func private @config_c2_overflow() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [4611686018427387904, 2], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C3): warps[1] must be 2 or 4, got 8}}
func.func private @config_c3() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 8], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C4): stages must be in [2, 6], got 7}}
func.func private @config_c4() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 7, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C4): stages must be in [2, 6], got 1}}
func.func private @config_c4_low() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 1, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C5): blocks_per_sm must be in [0, 32], got -1}}
func.func private @config_c5() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = -1>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C6): unroll must be in [1, 12], got 0}}
func.func private @config_c6_low() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 0>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C6): unroll must be in [1, 12], got 13}}
func.func private @config_c6_high() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 13>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C7): k_splits must be in [1, 8], got 9}}
func.func private @config_c7() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 9>}

// -----

// expected-error @+1 {{#vnm_gpu.mma_sp_tiling (C7): k_splits must be in [1, 8], got 0}}
func.func private @config_c7_low() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 0>}

// -----

// expected-error @+1 {{expected `unroll` or `k_splits` or `staged_a` (in that order, each at most once), got `unroll`}}
func.func private @config_order() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 2, unroll = 3>}

// -----

// expected-error @+1 {{expected `true` or `false` for `staged_a`, got `yes`}}
func.func private @config_staged_word() attributes {cfg = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, staged_a = yes>}

// -----

// A wait in a kernel that stages A by its threads counts both rings' copies.
gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %aring = vnm_gpu.alloc_ring : !vnm_gpu.a_ring<3, !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>>
    vnm_gpu.stage_sparse_a %v, %meta[%i, %i] into %aring[%i]
        {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
         matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32>, !vnm_gpu.a_ring<3, !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>>
    // expected-error @+1 {{'vnm_gpu.wait' op (C1): pending must be in [0, 5] for 2 ring(s) of 3 stages, got 6}}
    vnm_gpu.wait %r pending(6) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

//===----------------------------------------------------------------------===//
// reduce_k_splits
//===----------------------------------------------------------------------===//
// -----

!racc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!rring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%rank: i32) kernel {
    %r = vnm_gpu.alloc_ring : !rring
    %z = vnm_gpu.zero : !racc
    // expected-error @+1 {{'vnm_gpu.reduce_k_splits' op (C1): splits must be in [2, 8] (8: the portable cluster size of sm_90), got 1}}
    %s = vnm_gpu.reduce_k_splits %z rank(%rank) splits(1) through %r : !racc, !rring
    gpu.return
  }
}

// -----

!racc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!rring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%rank: i32) kernel {
    %r = vnm_gpu.alloc_ring : !rring
    %z = vnm_gpu.zero : !racc
    // expected-error @+1 {{'vnm_gpu.reduce_k_splits' op (C1): splits must be in [2, 8] (8: the portable cluster size of sm_90), got 9}}
    %s = vnm_gpu.reduce_k_splits %z rank(%rank) splits(9) through %r : !racc, !rring
    gpu.return
  }
}

// -----

!racc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!rring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%rank: i32, %c: i1) kernel {
    %r = vnm_gpu.alloc_ring : !rring
    %z = vnm_gpu.zero : !racc
    scf.if %c {
      // expected-error @+1 {{'vnm_gpu.reduce_k_splits' op (C2): it synchronizes the cluster, so it must sit in the body block of its gpu.func (not in a loop or a branch)}}
      %s = vnm_gpu.reduce_k_splits %z rank(%rank) splits(2) through %r : !racc, !rring
    }
    gpu.return
  }
}

// -----

!racc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!rring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%rank: i32, %c0: i32) kernel {
    %r = vnm_gpu.alloc_ring : !rring
    %z = vnm_gpu.zero : !racc
    %acc = vnm_gpu.produce_consume %c0 to %c0 stages(3)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%z : !racc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %sum: !racc):
        vnm_gpu.yield %sum : !racc
      } -> !racc
    // expected-error @+1 {{'vnm_gpu.reduce_k_splits' op (C3): a kernel split by vnm_gpu.produce_consume cannot reduce K splits (its producers are done)}}
    %s = vnm_gpu.reduce_k_splits %acc rank(%rank) splits(2) through %r : !racc, !rring
    gpu.return
  }
}

// -----

!racc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
!rring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%rank: i32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %r = vnm_gpu.alloc_ring : !rring
    %z = vnm_gpu.zero : !racc
    // expected-error @+1 {{'vnm_gpu.reduce_k_splits' op (K2): its layout spreads over 128 threads, but the kernel's block is [256, 1, 1]}}
    %s = vnm_gpu.reduce_k_splits %z rank(%rank) splits(2) through %r : !racc, !rring
    gpu.return
  }
}

//===----------------------------------------------------------------------===//
// sampled_store
//===----------------------------------------------------------------------===
// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %vi: memref<?xi32>, %meta: memref<?xi8>, %meti: memref<?xi32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.sampled_store' op (C1): `matrix` must be a static tensor type with a #vnm.encoding, got 'tensor<4096x4096xf16>'}}
    vnm_gpu.sampled_store %c into %v[%i, %i] meta(%meta) {matrix = tensor<4096x4096xf16>} : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xi8>, memref<?xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %vi: memref<?xi32>, %meta: memref<?xi8>, %meti: memref<?xi32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.sampled_store' op (C2): values are f16, bf16 or f32 for f32 accumulators, got 'i32'}}
    vnm_gpu.sampled_store %c into %vi[%i, %i] meta(%meta) {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xi8>, memref<?xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %vi: memref<?xi32>, %meta: memref<?xi8>, %meti: memref<?xi32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.sampled_store' op (C2): values are i32 for i32 accumulators, got 'f16'}}
    vnm_gpu.sampled_store %c into %v[%i, %i] meta(%meta) {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>, memref<?xi8>, memref<?xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %vi: memref<?xi32>, %meta: memref<?xi8>, %meti: memref<?xi32>, %i: i32) kernel {
    %c = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    // expected-error @+1 {{'vnm_gpu.sampled_store' op (C3): meta is a memref of i8, got 'memref<?xi32>'}}
    vnm_gpu.sampled_store %c into %v[%i, %i] meta(%meti) {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>} : !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>, memref<?xi32>, memref<?xf16>
    gpu.return
  }
}

// -----

// !vnm_gpu.colloc: spread as a copy or as B fragments.
// expected-error @+1 {{!vnm_gpu.colloc (C2): the layout is a #vnm_gpu.copy or a #vnm_gpu.mma, got #vnm_gpu.swizzle<chunk = 16, period = 8>}}
func.func private @f() -> !vnm_gpu.colloc<16, #vnm_gpu.swizzle<chunk = 16, period = 8>>

// -----

// expected-error @+1 {{!vnm_gpu.colloc (C3): a column-loc spread as B fragments needs an mma.sp layout (mma_sp_m16n8k32 or mma_sp_m16n8k64), got wgmma_sp_m64nNk32}}
func.func private @f() -> !vnm_gpu.colloc<16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>

// -----

// expected-error @+1 {{!vnm_gpu.colloc (C3): a column-loc spread as B fragments covers one k-tile pair (16 groups), got 8}}
func.func private @f() -> !vnm_gpu.colloc<8, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// -----

// expected-error @+1 {{!vnm_gpu.colloc (C3): a column-loc spread as B fragments covers one k-tile pair (16 groups), got 32}}
func.func private @f() -> !vnm_gpu.colloc<32, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>

// -----

// A gather copies rows: its column-locs are spread as the copy.
!w = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%ci: memref<?xi32>, %x: memref<?xi8>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !vnm_gpu.ring<3x64x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = !w} : memref<?xi32> -> !vnm_gpu.colloc<16, #L8>
    // expected-error @+1 {{'vnm_gpu.gather' op (C6): the column-loc must be spread as the copy (a #vnm_gpu.copy layout), got #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>}}
    vnm_gpu.gather %x[%i, %i] via %c bounds(%i) ld(%i) into %r[%i] {matrix = !w} : memref<?xi8>, !vnm_gpu.colloc<16, #L8>, !vnm_gpu.ring<3x64x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    gpu.return
  }
}

// -----

// load_b via: from a k_contiguous slot, through column-locs spread as its
// own fragments.
!w = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
!r = !vnm_gpu.ring<3x128x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
#L8b = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [4, 1]>
gpu.module @m {
  gpu.func @k(%ci: memref<?xi32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !r
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = !w} : memref<?xi32> -> !vnm_gpu.colloc<16, #L8b>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C4): `via` gathers from a k_contiguous slot through a column-loc spread as the result's fragments (#vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>)}}
    %b = vnm_gpu.load_b %r[%i] offset(0) k_contiguous via %c : !r, !vnm_gpu.colloc<16, #L8b> -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// -----

// A slot row holds the groups whole: M = 64 / 16 = 4 keeps every column.
!w = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
!r = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%ci: memref<?xi32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !r
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = !w} : memref<?xi32> -> !vnm_gpu.colloc<16, #L8>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C5): a slot row of 64 columns must hold the column-loc's 16 groups whole, M > 4 columns each}}
    %b = vnm_gpu.load_b %r[%i] offset(0) k_contiguous via %c : !r, !vnm_gpu.colloc<16, #L8> -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// -----

!w = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
!r = !vnm_gpu.ring<3x128x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
#L8 = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%ci: memref<?xi32>, %i: i32) kernel {
    %r = vnm_gpu.alloc_ring : !r
    %c = vnm_gpu.load_colloc %ci[%i, %i] {matrix = !w} : memref<?xi32> -> !vnm_gpu.colloc<16, #L8>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C5): rows 64 .. 127 of B lie past the column-loc's 16 groups}}
    %b = vnm_gpu.load_b %r[%i] offset(64) k_contiguous via %c : !r, !vnm_gpu.colloc<16, #L8> -> !vnm_gpu.b_frag<64x128xi8, #L8>
    gpu.return
  }
}

// -----

// An i4 matrix's fragment values are bytes (two per byte), widened to an
// i8 result.
gpu.module @m {
  gpu.func @k(%v: memref<?xi4>, %meta: memref<?xi32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C2): `values` has element type 'i4', expected 'i8'}}
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i] {matrix = tensor<4096x4096xi4, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xi4>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>>
    gpu.return
  }
}

// -----

// An i8 matrix dequantized for the f16 MMA: its fragment bytes are i8.
gpu.module @m {
  gpu.func @k(%v: memref<?xf16>, %meta: memref<?xi32>, %i: i32) kernel {
    // expected-error @+1 {{'vnm_gpu.load_sparse_a' op (C2): `values` has element type 'f16', expected 'i8'}}
    %a = vnm_gpu.load_sparse_a %v, %meta[%i, %i] {matrix = tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 8>>} : memref<?xf16>, memref<?xi32> -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}

// -----

// group_scale folds f32 sums with f32 scales; the last pair lies in a group.
#L = #vnm_gpu.mma<mma_sp_m16n8k64, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%s: memref<?xf32>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xi32, #L>
    // expected-error @+1 {{'vnm_gpu.group_scale' op (C1): group scales fold f32 accumulators, got 'i32'}}
    %a, %p = vnm_gpu.group_scale %z, %z, %s[%i, %i] {rows = 64 : i64, groups = 2 : i64, pairs_per_group = 1 : i64, last_pair = 1 : i64} : !vnm_gpu.acc<64x128xi32, #L>, memref<?xf32>
    gpu.return
  }
}

// -----

#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%s: memref<?xf16>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    // expected-error @+1 {{'vnm_gpu.group_scale' op (C2): scales are f32, got 'memref<?xf16>'}}
    %a, %p = vnm_gpu.group_scale %z, %z, %s[%i, %i] {rows = 64 : i64, groups = 2 : i64, pairs_per_group = 1 : i64, last_pair = 1 : i64} : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf16>
    gpu.return
  }
}

// -----

#L = #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>
gpu.module @m {
  gpu.func @k(%s: memref<?xf32>, %i: i32) kernel {
    %z = vnm_gpu.zero : !vnm_gpu.acc<64x128xf32, #L>
    // expected-error @+1 {{'vnm_gpu.group_scale' op (C3): rows, groups and pairs_per_group are positive and the last pair's group (5 / 2) is below groups (2)}}
    %a, %p = vnm_gpu.group_scale %z, %z, %s[%i, %i] {rows = 64 : i64, groups = 2 : i64, pairs_per_group = 2 : i64, last_pair = 5 : i64} : !vnm_gpu.acc<64x128xf32, #L>, memref<?xf32>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// The wgmma.sp layout, swizzle column blocks and tiling
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#vnm_gpu.mma (C2): wgmma_sp_m64nNk32 needs whole warpgroups of rows, warps = [4 W, 1], got [4, 2]}}
func.func private @f() -> !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 2]>>

// -----

// expected-error @+1 {{#vnm_gpu.mma (C2): wgmma_sp_m64nNk32 needs whole warpgroups of rows, warps = [4 W, 1], got [2, 1]}}
func.func private @f() -> !vnm_gpu.acc<32x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [2, 1]>>

// -----

// expected-error @+1 {{#vnm_gpu.mma (C2): wgmma_sp_m64nNk64 needs whole warpgroups of rows, warps = [4 W, 1], got [4, 2]}}
func.func private @f() -> !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 2]>>

// -----

// expected-error @+1 {{#vnm_gpu.swizzle (C4): column_blocks must be a power of two in [1, 16], got 3}}
func.func private @f() -> !vnm_gpu.ring<3x64x192xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 3>>

// -----

// expected-error @+1 {{expected `rows` or `column_blocks` (in that order, each at most once), got `blocks`}}
func.func private @f() -> !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, blocks = 2>>

// -----

// expected-error @+1 {{!vnm_gpu.ring (C4): a row of 256 bytes must hold whole 16-byte chunks and in each of its 4 column blocks whole swizzle spans of 128 bytes}}
func.func private @f() -> !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 4>>

// -----

// A wgmma tile: one 16-row tile per warp (C3), at most 256 columns (C4).
// expected-error @+1 {{!vnm_gpu.acc (C3): a 128x128 tile does not split into the layout's warp and instruction tiles (rows equal to 64, columns a multiple of 8)}}
func.func private @f() -> !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>

// -----

// expected-error @+1 {{!vnm_gpu.acc (C4): wgmma_sp_m64nNk32 tiles have at most 256 columns (N of one wgmma), got 512}}
func.func private @f() -> !vnm_gpu.acc<64x512xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>

// -----

// The integer wgmma's N: 8, 16, 24, then multiples of 16.
// expected-error @+1 {{!vnm_gpu.acc (C4): wgmma_sp_m64nNk64 tiles have at most 256 columns (N of one wgmma), above 24 a multiple of 16, got 40}}
func.func private @f() -> !vnm_gpu.acc<64x40xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>

// -----

// expected-error @+1 {{!vnm_gpu.sparse_a (C2): wgmma_sp_m64nNk64 needs i8 elements here, got 'f16'}}
func.func private @f() -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>

// -----

// expected-error @+1 {{!vnm_gpu.b_frag (C4): wgmma_sp_m64nNk32 reads B from shared memory (vnm_gpu.wgmma_sp), not from B fragments}}
func.func private @f() -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C1): warpgroups must be 1 or 2, got 3}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [192, 128], warpgroups = 3, stages = 4>}

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C2): block[0] must be 64 rows per warpgroup (128), got 64}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 2, stages = 4>}

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C3): block[1] must be 64, 128 or 256, got 96}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [64, 96], warpgroups = 1, stages = 4>}

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C4): stages must be in [2, 6] and stages x block[1] at most 1024 (the ring within 128 KiB), got 5 stages of 256 columns}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [64, 256], warpgroups = 1, stages = 5>}

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C5): producers must be 0 (every thread copies) or 1 (a producer warpgroup), got 2}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 2>}

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C6): cluster_rows must be 1, 2, 4 or 8, got 3}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 3>}

// -----

// expected-error @+1 {{#vnm_gpu.wgmma_sp_tiling (C7): as_2_4 runs on the warp-specialized kernel (producers = 1)}}
func.func private @f() attributes {t = #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 3, as_2_4 = true>}

// -----

//===----------------------------------------------------------------------===//
// alloc_ring alignment
//===----------------------------------------------------------------------===//

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @+1 {{'vnm_gpu.alloc_ring' op (C1): alignment must be a power of two in [16, 1024] bytes, got 2048}}
    %r = vnm_gpu.alloc_ring {alignment = 2048 : i64} : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// wgmma_sp
//===----------------------------------------------------------------------===//

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 1]>>
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C1): A and the accumulator must share one wgmma_sp_m64nNk32 or wgmma_sp_m64nNk64 layout}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(0) : !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 1]>>, !wring, !wacc
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xbf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C2): a 64-row A and a ring of 128 columns of A's element type make the accumulator tile, got 64x128 from a ring of 'bf16'}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C3): step must be in [0, 1], got 2}}
    %d = vnm_gpu.wgmma_sp %a[2], %r[%s] offset(0), %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C4): offset must be a multiple of 8 with 32 rows of the slot's 64 from it, got 40}}
    %d = vnm_gpu.wgmma_sp %a[1], %r[%s] offset(40), %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

// A transposed (K-major) slot gives N as its rows.
!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C2): a 64-row A and a ring of 64 rows of A's element type make the accumulator tile, got 64x128 from a ring of 'f16'}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0) k_contiguous, %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

// A K-major step starts at a whole step of K.
!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x128x64xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C4): offset must be a multiple of 32 with 32 columns of the slot's 64 from it, got 8}}
    %d = vnm_gpu.wgmma_sp %a[1], %r[%s] offset(8) k_contiguous, %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C5): the ring must have a canonical swizzled layout: 128-byte column blocks (16-byte chunks, period 8) or 64-byte rows (16-byte chunks, period 4 over pairs of rows), rows a multiple of 8}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

// 64-byte i8 rows need the 64-byte swizzle's XOR term per pair of rows.
!sa = !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!sacc = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!sring = !vnm_gpu.ring<3x128x64xi8, #vnm_gpu.swizzle<chunk = 16, period = 4>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !sa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %c = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C5): the ring must have a canonical swizzled layout}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0) k_contiguous, %c pending(0) : !sa, !sring, !sacc
    gpu.return
  }
}

// -----

// s8 B is K-major only: a K x N slot (MN-major) is refused.
!sa = !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!sacc = !vnm_gpu.acc<64x128xi32, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>
!sring = !vnm_gpu.ring<3x64x128xi8, #vnm_gpu.swizzle<chunk = 16, period = 8>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !sa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !sring
    %c = vnm_gpu.zero : !sacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C8): wgmma_sp_m64nNk64 reads B K-major: the slot must hold it transposed (k_contiguous)}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(0) : !sa, !sring, !sacc
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C6): pending must be 0 or 1, got 2}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(2) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32, %y: memref<?xf32>, %n: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !wring
    %c = vnm_gpu.zero : !wacc
    // A result still running is read by the epilogue.
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C6): a result still running (pending = 1) may only be the accumulator of one vnm_gpu.wgmma_sp}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(1) : !wa, !wring, !wacc
    vnm_gpu.epilogue %d into %y[%s, %s] bounds(64, %n) ld(%n) : !wacc, memref<?xf32>
    gpu.return
  }
}

// -----

!wa = !vnm_gpu.sparse_a<64x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wacc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>>
!wring = !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %a = "test.a"() : () -> !wa
    %r = vnm_gpu.alloc_ring : !wring
    %c = vnm_gpu.zero : !wacc
    // expected-error @+1 {{'vnm_gpu.wgmma_sp' op (C7): the ring must come from a vnm_gpu.alloc_ring aligned to 1024 bytes (where the swizzle's 8-row atoms start)}}
    %d = vnm_gpu.wgmma_sp %a[0], %r[%s] offset(0), %c pending(0) : !wa, !wring, !wacc
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%s: i32) kernel {
    %r = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>
    // expected-error @+1 {{'vnm_gpu.load_b' op (C6): the ring's rows must be stored whole (column_blocks = 1), got 2 column blocks}}
    %b = vnm_gpu.load_b %r[%s] offset(0) : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>> -> !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>
    gpu.return
  }
}
