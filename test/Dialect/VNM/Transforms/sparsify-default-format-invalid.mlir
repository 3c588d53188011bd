// RUN: vnm-opt %s --vnm-sparsify=default-format=64:2:8 -split-input-file -verify-diagnostics

// default-format asks for every constant weight: one encoded tensors cannot
// hold is an error.
func.func @f64_constant(%x: tensor<8x4xf64>, %c: tensor<16x4xf64>) -> tensor<16x4xf64> {
  %w = arith.constant dense<1.0> : tensor<16x8xf64>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: weight element type 'f64' cannot be encoded (encoding C6: f16, bf16, f32, i8 or i4)}}
  %y = linalg.matmul ins(%w, %x : tensor<16x8xf64>, tensor<8x4xf64>)
      outs(%c : tensor<16x4xf64>) -> tensor<16x4xf64>
  return %y : tensor<16x4xf64>
}

// -----

func.func @two_constants(%c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<1.0> : tensor<16x8xf32>
  %x = arith.constant dense<2.0> : tensor<8x4xf32>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: both inputs are weight candidates (constants); only one operand can be encoded}}
  %y = linalg.matmul ins(%w, %x : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
