// A linear layer y = relu(W x + b) with its 4096 x 4096 weight W held in the
// 64:2:8 V:N:M format (25% dense) and a dynamic number of tokens N.
//
//   vnm-opt examples/linear_spmm.mlir                     verify, print
//   vnm-opt examples/linear_spmm.mlir --vnm-expand-storage \
//       --one-shot-bufferize=bufferize-function-boundaries   to buffers

!weight = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// Prunes and compresses a dense weight once, ahead of inference.
func.func @compress_weight(%w: tensor<4096x4096xf16>) -> !weight {
  %s = vnm.compress %w : tensor<4096x4096xf16> -> !weight
  return %s : !weight
}

// One layer: f16 operands, f32 accumulation, bias and ReLU fused, f16 out.
func.func @linear(%w: !weight, %x: tensor<4096x?xf16>, %b: tensor<4096xf16>)
    -> tensor<4096x?xf16> {
  %y = vnm.spmm %w, %x bias(%b : tensor<4096xf16>)
      {activation = #vnm.activation<relu>}
      : !weight, tensor<4096x?xf16> -> tensor<4096x?xf16>
  return %y : tensor<4096x?xf16>
}
