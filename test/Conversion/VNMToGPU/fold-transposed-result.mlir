// vnm-fold-transposed-result: an spmm result that is only transposed into
// y[N][R] is written into y through a transposed view (the kernel stores
// its tile transposed); anything else keeps the copy.
// RUN: vnm-opt %s --split-input-file --vnm-fold-transposed-result | FileCheck %s

// A linear layer's result, N dynamic: the destination is allocated before
// the spmm with the result's own size N (its size was read off the result),
// the copy, the result buffer and its deallocation are gone, and a size of
// the result is read off its allocation.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: %[[N:[^:]*]]: index
// CHECK: %[[Y:.*]] = memref.alloc(%[[N]]) : memref<?x128xf16>
// CHECK: %[[V:.*]] = memref.transpose %[[Y]] (d0, d1) -> (d1, d0) : memref<?x128xf16> to memref<128x?xf16, strided<[1, 128]>>
// CHECK: vnm.storage.spmm {{.*}} outs(%[[V]] : memref<128x?xf16, strided<[1, 128]>>)
// CHECK-NOT: linalg.transpose
// CHECK-NOT: memref.dealloc
// CHECK: return %[[Y]], %[[N]] : memref<?x128xf16>, index
func.func @linear(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                  %m: memref<128x64xi8>, %x: memref<256x?xf16>, %n: index)
    -> (memref<?x128xf16>, index) {
  %c1 = arith.constant 1 : index
  %yt = memref.alloc(%n) : memref<128x?xf16>
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%yt : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  %size = memref.dim %yt, %c1 : memref<128x?xf16>
  %y = memref.alloc(%size) : memref<?x128xf16>
  linalg.transpose ins(%yt : memref<128x?xf16>) outs(%y : memref<?x128xf16>) permutation = [1, 0]
  memref.dealloc %yt : memref<128x?xf16>
  return %y, %size : memref<?x128xf16>, index
}

// -----

// Static shapes, a bias and an activation: folded too.
// CHECK-LABEL: func.func @static
// CHECK: %[[Y:.*]] = memref.alloc() : memref<64x128xf32>
// CHECK: %[[V:.*]] = memref.transpose %[[Y]]
// CHECK: vnm.storage.spmm {{.*}} outs(%[[V]] : memref<128x64xf32, strided<[1, 128]>>)
// CHECK-NOT: linalg.transpose
func.func @static(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                  %m: memref<128x64xi8>, %x: memref<256x64xf16>,
                  %b: memref<128xf32>) -> memref<64x128xf32> {
  %yt = memref.alloc() : memref<128x64xf32>
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x64xf16>)
      bias(%b : memref<128xf32>) outs(%yt : memref<128x64xf32>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, activation = #vnm.activation<gelu>}
  %y = memref.alloc() : memref<64x128xf32>
  linalg.transpose ins(%yt : memref<128x64xf32>) outs(%y : memref<64x128xf32>) permutation = [1, 0]
  return %y : memref<64x128xf32>
}

// -----

// An accumulating spmm reads its result buffer's previous values: kept.
// CHECK-LABEL: func.func @accumulates
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @accumulates(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                       %m: memref<128x64xi8>, %x: memref<256x64xf16>)
    -> memref<64x128xf16> {
  %cst = arith.constant 0.0 : f16
  %yt = memref.alloc() : memref<128x64xf16>
  linalg.fill ins(%cst : f16) outs(%yt : memref<128x64xf16>)
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x64xf16>)
      outs(%yt : memref<128x64xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, accumulate}
  %y = memref.alloc() : memref<64x128xf16>
  linalg.transpose ins(%yt : memref<128x64xf16>) outs(%y : memref<64x128xf16>) permutation = [1, 0]
  return %y : memref<64x128xf16>
}

// -----

// The result is also returned (read by another user): kept.
// CHECK-LABEL: func.func @result_escapes
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @result_escapes(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                          %m: memref<128x64xi8>, %x: memref<256x64xf16>)
    -> (memref<64x128xf16>, memref<128x64xf16>) {
  %yt = memref.alloc() : memref<128x64xf16>
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x64xf16>)
      outs(%yt : memref<128x64xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  %y = memref.alloc() : memref<64x128xf16>
  linalg.transpose ins(%yt : memref<128x64xf16>) outs(%y : memref<64x128xf16>) permutation = [1, 0]
  return %y, %yt : memref<64x128xf16>, memref<128x64xf16>
}

// -----

// The destination is a function argument (it may alias x): kept.
// CHECK-LABEL: func.func @into_argument
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @into_argument(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                         %m: memref<128x64xi8>, %x: memref<256x64xf16>,
                         %y: memref<64x128xf16>) {
  %yt = memref.alloc() : memref<128x64xf16>
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x64xf16>)
      outs(%yt : memref<128x64xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  linalg.transpose ins(%yt : memref<128x64xf16>) outs(%y : memref<64x128xf16>) permutation = [1, 0]
  return
}

// -----

// The destination is written before the transpose: kept.
// CHECK-LABEL: func.func @destination_used_before
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @destination_used_before(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                                   %m: memref<128x64xi8>, %x: memref<256x64xf16>)
    -> memref<64x128xf16> {
  %cst = arith.constant 1.0 : f16
  %y = memref.alloc() : memref<64x128xf16>
  linalg.fill ins(%cst : f16) outs(%y : memref<64x128xf16>)
  %yt = memref.alloc() : memref<128x64xf16>
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x64xf16>)
      outs(%yt : memref<128x64xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  linalg.transpose ins(%yt : memref<128x64xf16>) outs(%y : memref<64x128xf16>) permutation = [1, 0]
  return %y : memref<64x128xf16>
}

// -----

// The destination's size is computed after the spmm from something other
// than the result: kept.
// CHECK-LABEL: func.func @size_after
// CHECK: linalg.transpose
// CHECK-NOT: memref.transpose
func.func @size_after(%v: memref<128x64xf16>, %c: memref<2x32x4xi8>,
                      %m: memref<128x64xi8>, %x: memref<256x?xf16>, %n: index)
    -> memref<?x128xf16> {
  %yt = memref.alloc(%n) : memref<128x?xf16>
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x64xf16>, memref<2x32x4xi8>, memref<128x64xi8>, memref<256x?xf16>)
      outs(%yt : memref<128x?xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  %c1 = arith.constant 1 : index
  %size = memref.dim %x, %c1 : memref<256x?xf16>
  %y = memref.alloc(%size) : memref<?x128xf16>
  linalg.transpose ins(%yt : memref<128x?xf16>) outs(%y : memref<?x128xf16>) permutation = [1, 0]
  return %y : memref<?x128xf16>
}
