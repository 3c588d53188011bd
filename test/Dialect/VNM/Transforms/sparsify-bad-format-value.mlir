// RUN: vnm-opt %s --vnm-sparsify=default-format=64:3:8 -verify-diagnostics

// A default-format the encoding attribute rejects fails the pass with the
// attribute's message. The error is on the module.

// expected-error@+1 {{vnm-sparsify: default-format '64:3:8': #vnm.encoding (C2): n must be 1 or 2, got 3}}
module {
  func.func @f(%x: tensor<32x4xf32>) -> tensor<16x4xf32> {
    %w = arith.constant dense<1.0> : tensor<16x32xf32>
    %e = tensor.empty() : tensor<16x4xf32>
    %y = linalg.matmul ins(%w, %x : tensor<16x32xf32>, tensor<32x4xf32>)
        outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
    return %y : tensor<16x4xf32>
  }
}
