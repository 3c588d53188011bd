// vnm-flatten-broadcast-matmuls: a batch matmul of one matrix broadcast
// along the batch becomes a matmul of the flattened batch and rows.
// RUN: vnm-opt %s --vnm-flatten-broadcast-matmuls -split-input-file | FileCheck %s

// PyTorch's bmm(x, expand(W.T)) (BERT's attention output under sdpa).
// CHECK-LABEL: func.func @bmm_of_expanded_weight
//  CHECK-SAME: (%[[X:.*]]: tensor<2x16x64xf32>, %[[W:.*]]: tensor<32x64xf32>, %[[C:.*]]: tensor<2x16x32xf32>)
//       CHECK:   %[[WT:.*]] = linalg.transpose ins(%[[W]]
//   CHECK-NOT:   linalg.broadcast
//       CHECK:   %[[XF:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x16x64xf32> into tensor<32x64xf32>
//       CHECK:   %[[CF:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1], [2]] : tensor<2x16x32xf32> into tensor<32x32xf32>
//       CHECK:   %[[M:.*]] = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>} ins(%[[XF]], %[[WT]] : tensor<32x64xf32>, tensor<64x32xf32>) outs(%[[CF]] : tensor<32x32xf32>)
//       CHECK:   %[[Y:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2]] output_shape [2, 16, 32] : tensor<32x32xf32> into tensor<2x16x32xf32>
//       CHECK:   return %[[Y]]
func.func @bmm_of_expanded_weight(%x: tensor<2x16x64xf32>, %w: tensor<32x64xf32>,
                                  %c: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<2x64x32xf32>
  %b = linalg.broadcast ins(%wt : tensor<64x32xf32>) outs(%eb : tensor<2x64x32xf32>) dimensions = [0]
  %y = linalg.batch_matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %b : tensor<2x16x64xf32>, tensor<2x64x32xf32>)
      outs(%c : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %y : tensor<2x16x32xf32>
}

// -----

// A zero-filled init (as Torch-MLIR writes it) stays a fill of the
// flattened tensor: vnm-sparsify then sees a product that accumulates into
// nothing, not an all-zero accumulator.
// CHECK-LABEL: func.func @filled_init
//       CHECK:   %[[Z:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[E:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x16x32xf32> into tensor<32x32xf32>
//       CHECK:   %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<32x32xf32>)
//       CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x32xf32>) outs(%[[F]] : tensor<32x32xf32>)
func.func @filled_init(%x: tensor<2x16x64xf32>, %wt: tensor<64x32xf32>) -> tensor<2x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %eb = tensor.empty() : tensor<2x64x32xf32>
  %b = linalg.broadcast ins(%wt : tensor<64x32xf32>) outs(%eb : tensor<2x64x32xf32>) dimensions = [0]
  %y = linalg.batch_matmul ins(%x, %b : tensor<2x16x64xf32>, tensor<2x64x32xf32>)
      outs(%c : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %y : tensor<2x16x32xf32>
}

// -----

#bcast = affine_map<(b, k, n) -> (k, n)>
#id = affine_map<(b, k, n) -> (b, k, n)>

// The broadcast as Torch-MLIR writes it (a copying generic), with dynamic
// batch and tokens.
// CHECK-LABEL: func.func @generic_broadcast_dynamic
//       CHECK:   %[[XF:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<?x?x64xf32> into tensor<?x64xf32>
//       CHECK:   %[[M:.*]] = linalg.matmul ins(%[[XF]], %{{.*}} : tensor<?x64xf32>, tensor<64x32xf32>)
//       CHECK:   %[[B:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?x32xf32>
//       CHECK:   %[[T:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?x32xf32>
//       CHECK:   tensor.expand_shape %[[M]] {{\[}}[0, 1], [2]] output_shape [%[[B]], %[[T]], 32]
func.func @generic_broadcast_dynamic(%x: tensor<?x?x64xf32>, %wt: tensor<64x32xf32>,
                                     %c: tensor<?x?x32xf32>) -> tensor<?x?x32xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x64xf32>
  %eb = tensor.empty(%n) : tensor<?x64x32xf32>
  %b = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%wt : tensor<64x32xf32>) outs(%eb : tensor<?x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x64x32xf32>
  %y = linalg.batch_matmul ins(%x, %b : tensor<?x?x64xf32>, tensor<?x64x32xf32>)
      outs(%c : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %y : tensor<?x?x32xf32>
}

// -----

// Batch matrices that differ (a real batch of weights), or a broadcast of
// the activations instead of the weight: left alone.
// CHECK-LABEL: func.func @others_stay
//   CHECK-NOT:   linalg.matmul
//       CHECK:   linalg.batch_matmul
//       CHECK:   linalg.batch_matmul
func.func @others_stay(%x: tensor<2x16x64xf32>, %w: tensor<2x64x32xf32>, %a: tensor<16x64xf32>,
                       %c: tensor<2x16x32xf32>) -> (tensor<2x16x32xf32>, tensor<2x16x32xf32>) {
  %y = linalg.batch_matmul ins(%x, %w : tensor<2x16x64xf32>, tensor<2x64x32xf32>)
      outs(%c : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %ea = tensor.empty() : tensor<2x16x64xf32>
  %ab = linalg.broadcast ins(%a : tensor<16x64xf32>) outs(%ea : tensor<2x16x64xf32>) dimensions = [0]
  %z = linalg.batch_matmul ins(%ab, %w : tensor<2x16x64xf32>, tensor<2x64x32xf32>)
      outs(%c : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %y, %z : tensor<2x16x32xf32>, tensor<2x16x32xf32>
}
