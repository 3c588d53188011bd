// RUN: vnm-opt %s --vnm-sparsify=default-format=64:2 -verify-diagnostics

// A malformed default-format fails the pass before anything is rewritten.
// The error is on the module.

// expected-error@+1 {{vnm-sparsify: default-format must be V:N:M (e.g. 64:2:8), got '64:2'}}
module {
  func.func @f(%x: tensor<32x4xf32>) -> tensor<16x4xf32> {
    %w = arith.constant dense<1.0> : tensor<16x32xf32>
    %e = tensor.empty() : tensor<16x4xf32>
    %y = linalg.matmul ins(%w, %x : tensor<16x32xf32>, tensor<32x4xf32>)
        outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
    return %y : tensor<16x4xf32>
  }
}
