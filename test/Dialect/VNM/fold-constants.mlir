// Weights known at compile time are pruned and compressed by the format
// library during canonicalization. Expected storage worked out by hand:
//
//   W = [[ 1,  2,   0.1, 3, 4  ],     v = 16, n = 2, m = 5: one partial row
//        [-5,  0.5, 0.2, 1, -0 ]]     block, one group of 5 columns.
//
// Column subsets {0,2,3,4} and {0,1,3,4} both score 13 (7 + 6); the
// lexicographically first wins: colidx = [0, 1, 3, 4]. Row 0 keeps 3 and 4
// (positions 2, 3); row 1 keeps -5 and 1 (positions 0, 2); the dropped -0.0
// becomes +0 in the pruned matrix.
// RUN: vnm-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func @compress_dense
// CHECK-DAG: %[[V:.*]] = arith.constant dense<{{\[}}[3.000000e+00, 4.000000e+00], [-5.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[C:.*]] = arith.constant dense<{{\[\[\[}}0, 1, 3, 4]]]> : tensor<1x1x4xi8>
// CHECK-DAG: %[[M:.*]] = arith.constant dense<{{\[}}[2, 3], [0, 2]]> : tensor<2x2xi8>
// CHECK: %[[S:.*]] = vnm.assemble %[[V]], %[[C]], %[[M]]
// CHECK-NOT: vnm.compress
// CHECK: return %[[S]]
func.func @compress_dense() -> tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>> {
  %w = arith.constant dense<[[1.0, 2.0, 0.1, 3.0, 4.0], [-5.0, 0.5, 0.2, 1.0, -0.0]]> : tensor<2x5xf32>
  %s = vnm.compress %w : tensor<2x5xf32> -> tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>
  return %s : tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>
}

// -----

// The same weight as Torch-MLIR emits it: a dense_resource blob.
// CHECK-LABEL: func @compress_resource
// CHECK-DAG: arith.constant dense<{{\[}}[3.000000e+00, 4.000000e+00], [-5.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: arith.constant dense<{{\[\[\[}}0, 1, 3, 4]]]> : tensor<1x1x4xi8>
// CHECK-DAG: arith.constant dense<{{\[}}[2, 3], [0, 2]]> : tensor<2x2xi8>
// CHECK: vnm.assemble
func.func @compress_resource() -> tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>> {
  %w = arith.constant dense_resource<weight> : tensor<2x5xf32>
  %s = vnm.compress %w : tensor<2x5xf32> -> tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>
  return %s : tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803f00000040cdcccc3d00004040000080400000a0c00000003fcdcc4c3e0000803f00000080"
    }
  }
#-}

// -----

// CHECK-LABEL: func @prune_dense
// CHECK: %[[P:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00, 3.000000e+00, 4.000000e+00], [-5.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<2x5xf16>
// CHECK-NOT: vnm.prune
// CHECK: return %[[P]]
func.func @prune_dense() -> tensor<2x5xf16> {
  %w = arith.constant dense<[[1.0, 2.0, 0.1, 3.0, 4.0], [-5.0, 0.5, 0.2, 1.0, -0.0]]> : tensor<2x5xf16>
  %p = vnm.prune %w {encoding = #vnm.encoding<v = 16, n = 2, m = 5>} : tensor<2x5xf16> -> tensor<2x5xf16>
  return %p : tensor<2x5xf16>
}

// -----

// Integer weights (i8) fold as well. With n = 1 a subset scores each row's
// largest magnitude: {0,2,3,4}, {0,1,3,4} and {0,1,2,4} all score 4 + 5, and
// {0,1,2,4} is first. Each row keeps one value and a zero partner at the
// smallest other position.
// CHECK-LABEL: func @compress_i8_n1
// CHECK-DAG: arith.constant dense<{{\[}}[0, 4], [-5, 0]]> : tensor<2x2xi8>
// CHECK-DAG: arith.constant dense<{{\[\[\[}}0, 1, 2, 4]]]> : tensor<1x1x4xi8>
// CHECK-DAG: arith.constant dense<{{\[}}[0, 3], [0, 1]]> : tensor<2x2xi8>
func.func @compress_i8_n1() -> tensor<2x5xi8, #vnm.encoding<v = 16, n = 1, m = 5>> {
  %w = arith.constant dense<[[1, 2, 0, 3, 4], [-5, 1, 0, 1, 0]]> : tensor<2x5xi8>
  %s = vnm.compress %w : tensor<2x5xi8> -> tensor<2x5xi8, #vnm.encoding<v = 16, n = 1, m = 5>>
  return %s : tensor<2x5xi8, #vnm.encoding<v = 16, n = 1, m = 5>>
}

// -----

// Data that is not available (an elided resource) stays a run-time compress.
// CHECK-LABEL: func @compress_elided
// CHECK: vnm.compress
func.func @compress_elided() -> tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>> {
  %w = arith.constant dense_resource<__elided__> : tensor<2x5xf32>
  %s = vnm.compress %w : tensor<2x5xf32> -> tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>
  return %s : tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>
}

// -----

// quantize(constant) folds through the format library: per row, scale =
// max |x| / 127 (254 / 127 = 2), q = roundeven(x / scale) (5 / 2 = 2.5 -> 2,
// -7 / 2 = -3.5 -> -4); a zero row gets scale 1.
// CHECK-LABEL: func @quantize_constant
// CHECK-NOT: vnm.quantize
// CHECK-DAG: arith.constant dense<{{\[}}[127, 2, -4], [0, 0, 0]]> : tensor<2x3xi8>
// CHECK-DAG: arith.constant dense<[2.000000e+00, 1.000000e+00]> : tensor<2xf32>
func.func @quantize_constant() -> (tensor<2x3xi8>, tensor<2xf32>) {
  %w = arith.constant dense<[[254.0, 5.0, -7.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %q, %s = vnm.quantize %w {axis = 0} : tensor<2x3xf32> -> tensor<2x3xi8>, tensor<2xf32>
  return %q, %s : tensor<2x3xi8>, tensor<2xf32>
}

// -----

// A non-finite weight is not folded: the op stays, and at run time its
// group's scale is NaN.
// CHECK-LABEL: func @quantize_nan_constant
// CHECK: vnm.quantize
func.func @quantize_nan_constant() -> (tensor<1x2xi8>, tensor<f32>) {
  %w = arith.constant dense<[[0x7FC00000, 1.0]]> : tensor<1x2xf32>
  %q, %s = vnm.quantize %w : tensor<1x2xf32> -> tensor<1x2xi8>, tensor<f32>
  return %q, %s : tensor<1x2xi8>, tensor<f32>
}
