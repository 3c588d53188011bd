// Constants beyond 128 MiB of elements are not pruned or compressed at
// compile time: the ops stay (and run at run time) instead of the folder
// expanding a small splat attribute into gigabytes, or overflowing its size.
// RUN: vnm-opt %s --canonicalize --split-input-file | FileCheck %s

// 65536 x 65536 f16: 8 GiB of elements.
// CHECK-LABEL: func.func @compress_big_splat
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<65536x65536xf16>
// CHECK: vnm.compress %[[C]]
// CHECK-NOT: vnm.assemble
func.func @compress_big_splat() -> tensor<65536x65536xf16, #vnm.encoding<v = 64, n = 2, m = 8>> {
  %c = arith.constant dense<1.0> : tensor<65536x65536xf16>
  %s = vnm.compress %c : tensor<65536x65536xf16> -> tensor<65536x65536xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<65536x65536xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
}

// -----

// 2^31 x 2^31 f32: the byte count (2^64) does not fit int64_t.
// CHECK-LABEL: func.func @prune_overflowing_splat
// CHECK: vnm.prune
func.func @prune_overflowing_splat() -> tensor<2147483648x2147483648xf32> {
  %c = arith.constant dense<1.0> : tensor<2147483648x2147483648xf32>
  %p = vnm.prune %c {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} : tensor<2147483648x2147483648xf32> -> tensor<2147483648x2147483648xf32>
  return %p : tensor<2147483648x2147483648xf32>
}

// -----

// 2^32 x 2^32 f16: the element count itself (2^64) wraps to 0 in
// ShapedType::getNumElements; the folder counts without wrapping.
// CHECK-LABEL: func.func @prune_wrapping_splat
// CHECK: vnm.prune
func.func @prune_wrapping_splat() -> tensor<4294967296x4294967296xf16> {
  %c = arith.constant dense<1.0> : tensor<4294967296x4294967296xf16>
  %p = vnm.prune %c {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} : tensor<4294967296x4294967296xf16> -> tensor<4294967296x4294967296xf16>
  return %p : tensor<4294967296x4294967296xf16>
}

// -----

// 4096 x 4096 f16 (32 MiB) is folded: compressed once, at compile time.
// CHECK-LABEL: func.func @compress_weight
// CHECK-NOT: vnm.compress
// CHECK: vnm.assemble
func.func @compress_weight() -> tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>> {
  %c = arith.constant dense<1.0> : tensor<4096x4096xf16>
  %s = vnm.compress %c : tensor<4096x4096xf16> -> tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
}
