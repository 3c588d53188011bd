// vnm-fold-transposed-rhs: a transposed copy of x[N][K] that only spmm ops
// read as rhs becomes a transposed view of x where their kernels read rhs
// token-major; anything else keeps the copy.
// RUN: vnm-opt %s --split-input-file --vnm-choose-config=register-gather=true --vnm-fold-transposed-rhs=register-gather=true | FileCheck %s
// RUN: vnm-opt %s --split-input-file --vnm-choose-config="chip=sm_90a recipe=wgmma-sp register-gather=true" --vnm-fold-transposed-rhs=register-gather=true | FileCheck %s --check-prefix=HOPPER
// RUN: vnm-opt %s --split-input-file --vnm-choose-config --vnm-fold-transposed-rhs | FileCheck %s --check-prefix=DEFAULT

// f16 at 64:2:8, two layers reading one x (as q, k and v projections do):
// with register-gather both read x itself; the copy, its buffer and its
// deallocation are gone. Without it the copy stays (the M = 8 kernels'
// registers gather costs more than the copy), tiled as the K x N kernel.
// DEFAULT-LABEL: func.func @two_readers
// DEFAULT: linalg.transpose
// DEFAULT-NOT: memref.transpose
// DEFAULT: blocks_per_sm = 4, staged_a = true>
// DEFAULT: blocks_per_sm = 4, staged_a = true>
// CHECK-LABEL: func.func @two_readers
// CHECK-SAME: %[[X:[^:]*]]: memref<?x256xf16>
// CHECK-NOT: linalg.transpose
// CHECK: %[[T:.*]] = memref.transpose %[[X]] (d0, d1) -> (d1, d0) : memref<?x256xf16> to memref<256x?xf16, strided<[1, 256]>>
// CHECK-NOT: memref.alloc(%{{.*}}) : memref<256x?xf16>
// vnm-choose-config tiles the readers of such a copy for the token-major
// kernel: at M = 8 its ring (96 KiB) allows two blocks per multiprocessor,
// so registers are left to ptxas (blocks_per_sm = 0); its K loop, which
// selects B fragments in registers, stays rolled (unrolled, it spills).
// CHECK: vnm.storage.spmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[T]] : {{.*}} blocks_per_sm = 0>
// CHECK: vnm.storage.spmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[T]] : {{.*}} blocks_per_sm = 0>
// CHECK-NOT: memref.dealloc
// The wgmma.sp kernels read rhs as K x N: the copy stays.
// HOPPER-LABEL: func.func @two_readers
// HOPPER: linalg.transpose
// HOPPER-NOT: memref.transpose
func.func @two_readers(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                       %m: memref<128x64xi8>, %x: memref<?x256xf16>)
    -> (memref<128x?xf16>, memref<128x?xf16>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  %y0 = memref.alloc(%n) : memref<128x?xf16>
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y0 : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  %y1 = memref.alloc(%n) : memref<128x?xf16>
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y1 : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  memref.dealloc %xt : memref<256x?xf16>
  return %y0, %y1 : memref<128x?xf16>, memref<128x?xf16>
}

// -----

// i8 (W8A8): the kernels read x[N][K] itself (mma.sp also under
// recipe=wgmma-sp). The copy's size N, as bufferization reads it for the
// result, is read off x.
// HOPPER-LABEL: func.func @int8
// HOPPER: memref.transpose
// CHECK-LABEL: func.func @int8
// CHECK-SAME: %[[X:[^:]*]]: memref<?x256xi8>
// CHECK: memref.transpose
// CHECK-NOT: linalg.transpose
// CHECK: %[[N:.*]] = memref.dim %[[X]], %c0
// CHECK: memref.alloc(%[[N]]) : memref<128x?xf16>
// CHECK: vnm.storage.spmm {{.*}} memref<256x?xi8, strided<[1, 256]>>)
func.func @int8(%v: memref<128x64xi8>, %c: memref<2x32x4xi8>,
                %m: memref<128x64xi8>, %x: memref<?x256xi8>,
                %sw: memref<128xf32>, %sx: memref<?xf32>) -> memref<128x?xf16> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x256xi8>
  %xt = memref.alloc(%n) : memref<256x?xi8>
  linalg.transpose ins(%x : memref<?x256xi8>) outs(%xt : memref<256x?xi8>) permutation = [1, 0]
  %c1 = arith.constant 1 : index
  %tokens = memref.dim %xt, %c1 : memref<256x?xi8>
  %y = memref.alloc(%tokens) : memref<128x?xf16>
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xi8>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xi8>)
      weight_scales(%sw : memref<128xf32>) input_scales(%sx : memref<?xf32>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return %y : memref<128x?xf16>
}

// -----

// M = 16: the f16 kernels read rhs as K x N (a token-major slot would hold
// 64 KiB per stage); the copy stays, and the tiling is the K x N kernel's.
// CHECK-LABEL: func.func @m16
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
// CHECK: blocks_per_sm = 4, staged_a = true>
func.func @m16(%v: memref<128x32xf16>, %c: memref<2x16x4xi8>,
               %m: memref<128x32xi8>, %x: memref<?x256xf16>) -> memref<128x?xf16> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %y = memref.alloc(%n) : memref<128x?xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x32xf16>, memref<2x16x4xi8>, memref<128x32xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 16>}
  return %y : memref<128x?xf16>
}

// -----

// K = 252 is not a whole number of 16-byte chunks: the copy stays.
// CHECK-LABEL: func.func @ragged_k
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @ragged_k(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                    %m: memref<128x64xi8>, %x: memref<?x252xf16>) -> memref<128x?xf16> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x252xf16>
  %y = memref.alloc(%n) : memref<128x?xf16>
  %xt = memref.alloc(%n) : memref<252x?xf16>
  linalg.transpose ins(%x : memref<?x252xf16>) outs(%xt : memref<252x?xf16>) permutation = [1, 0]
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<252x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return %y : memref<128x?xf16>
}

// -----

// x is written between the copy and the spmm: the copy holds the old
// values, so it stays.
// CHECK-LABEL: func.func @written_between
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @written_between(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                           %m: memref<128x64xi8>, %x: memref<?x256xf16>) -> memref<128x?xf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %y = memref.alloc(%n) : memref<128x?xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  linalg.fill ins(%zero : f16) outs(%x : memref<?x256xf16>)
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return %y : memref<128x?xf16>
}

// -----

// A write to a fresh buffer between them is no obstacle; another function
// argument may alias x, a write to it is.
// CHECK-LABEL: func.func @fresh_write
// CHECK: memref.transpose
// CHECK-NOT: linalg.transpose
// CHECK-LABEL: func.func @argument_write
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @fresh_write(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                       %m: memref<128x64xi8>, %x: memref<?x256xf16>) -> memref<128x?xf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  %y = memref.alloc(%n) : memref<128x?xf16>
  linalg.fill ins(%zero : f16) outs(%y : memref<128x?xf16>)
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, accumulate}
  return %y : memref<128x?xf16>
}
func.func @argument_write(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                          %m: memref<128x64xi8>, %x: memref<?x256xf16>,
                          %other: memref<?x256xf16>, %y: memref<128x?xf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  linalg.fill ins(%zero : f16) outs(%other : memref<?x256xf16>)
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// The copy has another reader than spmm's rhs: it stays.
// CHECK-LABEL: func.func @other_reader
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @other_reader(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                        %m: memref<128x64xi8>, %x: memref<?x256xf16>)
    -> (memref<128x?xf16>, f16) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %y = memref.alloc(%n) : memref<128x?xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  %e = memref.load %xt[%c0, %c0] : memref<256x?xf16>
  return %y, %e : memref<128x?xf16>, f16
}

// -----

// f16 at 2:4 (V = 16): the token-major kernel's K loop is the cheaper one,
// so x is handed over by default too.
// CHECK-LABEL: func.func @two_four
// CHECK: memref.transpose
// DEFAULT-LABEL: func.func @two_four
// DEFAULT: memref.transpose
// DEFAULT-NOT: linalg.transpose
func.func @two_four(%v: memref<128x128xf16>, %c: memref<8x64x4xi8>,
                    %m: memref<128x128xi8>, %x: memref<?x256xf16>) -> memref<128x?xf16> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  %xt = memref.alloc(%n) : memref<256x?xf16>
  linalg.transpose ins(%x : memref<?x256xf16>) outs(%xt : memref<256x?xf16>) permutation = [1, 0]
  %y = memref.alloc(%n) : memref<128x?xf16>
  vnm.storage.spmm ins(%v, %c, %m, %xt : memref<128x128xf16>, memref<8x64x4xi8>, memref<128x128xi8>, memref<256x?xf16>)
      outs(%y : memref<128x?xf16>) {encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
  return %y : memref<128x?xf16>
}
