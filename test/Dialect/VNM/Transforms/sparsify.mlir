// RUN: vnm-opt %s --vnm-sparsify | FileCheck %s
// RUN: vnm-opt %s --vnm-sparsify=default-format=32:2:8 | FileCheck %s --check-prefix=DEFAULT
// RUN: vnm-opt %s --vnm-sparsify="default-format=32:2:8 min-elements=1024" | FileCheck %s --check-prefix=MIN
// RUN: vnm-opt %s --vnm-sparsify=default-format=32:2:8 --vnm-expand-storage --one-shot-bufferize=bufferize-function-boundaries | FileCheck %s --check-prefix=BUFFERS

//===----------------------------------------------------------------------===//
// Constant weights selected by the op's vnm.encoding attribute.
//===----------------------------------------------------------------------===//

// Weight on the left, zero init (fill of zero): no accumulator, and the fill
// goes away with the matmul.
// CHECK-LABEL: func.func @left_zero_init(
// CHECK-SAME: %[[X:.*]]: tensor<16x?xf16>)
// CHECK: %[[W:.*]] = arith.constant dense<1.000000e+00> : tensor<32x16xf16>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<32x16xf16> -> tensor<32x16xf16, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK-NOT: linalg.fill
// CHECK: %[[Y:.*]] = vnm.spmm %[[S]], %[[X]] : tensor<32x16xf16, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<16x?xf16> -> tensor<32x?xf32>
// CHECK: return %[[Y]]
func.func @left_zero_init(%x: tensor<16x?xf16>) -> tensor<32x?xf32> {
  %w = arith.constant dense<1.0> : tensor<32x16xf16>
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<16x?xf16>
  %e = tensor.empty(%n) : tensor<32x?xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x?xf32>) -> tensor<32x?xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<32x16xf16>, tensor<16x?xf16>)
      outs(%init : tensor<32x?xf32>) -> tensor<32x?xf32>
  return %y : tensor<32x?xf32>
}

// A nonzero init is the accumulator.
// CHECK-LABEL: func.func @left_acc(
// CHECK-SAME: %[[X:[^:]*]]: tensor<16x8xf16>, %[[C:.*]]: tensor<32x8xf16>)
// CHECK: %[[S:.*]] = vnm.compress
// CHECK: vnm.spmm %[[S]], %[[X]] acc(%[[C]] : tensor<32x8xf16>) : tensor<32x16xf16, #vnm.encoding<v = 16, n = 1, m = 4>>, tensor<16x8xf16> -> tensor<32x8xf16>
func.func @left_acc(%x: tensor<16x8xf16>, %c: tensor<32x8xf16>) -> tensor<32x8xf16> {
  %w = arith.constant dense<1.0> : tensor<32x16xf16>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 1, m = 4>}
      ins(%w, %x : tensor<32x16xf16>, tensor<16x8xf16>)
      outs(%c : tensor<32x8xf16>) -> tensor<32x8xf16>
  return %y : tensor<32x8xf16>
}

// x @ W.T (transposed-B maps, as Torch-MLIR emits nn.Linear): W is R x K
// already; x and the result are transposed around the spmm. A tensor.empty
// init is not read.
// CHECK-LABEL: func.func @x_times_wt(
// CHECK-SAME: %[[X:.*]]: tensor<?x8xbf16>)
// CHECK: %[[W:.*]] = arith.constant dense<2.000000e+00> : tensor<3x8xbf16>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<3x8xbf16> -> tensor<3x8xbf16, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<?x8xbf16>) outs(%{{.*}} : tensor<8x?xbf16>) permutation = [1, 0]
// CHECK: %[[YT:.*]] = vnm.spmm %[[S]], %[[XT]] : tensor<3x8xbf16, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<8x?xbf16> -> tensor<3x?xf32>
// CHECK: %[[Y:.*]] = linalg.transpose ins(%[[YT]] : tensor<3x?xf32>) outs(%{{.*}} : tensor<?x3xf32>) permutation = [1, 0]
// CHECK: return %[[Y]]
func.func @x_times_wt(%x: tensor<?x8xbf16>) -> tensor<?x3xf32> {
  %w = arith.constant dense<2.0> : tensor<3x8xbf16>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xbf16>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<?x8xbf16>, tensor<3x8xbf16>)
      outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// x @ W with W held K x R (plain maps, as JAX emits Dense): W is transposed
// into a new constant; the init is accumulated transposed.
// CHECK-LABEL: func.func @x_times_w(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<4x2xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01]]> : tensor<2x8xf32>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<2x8xf32> -> tensor<2x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<4x8xf32>)
// CHECK: %[[CT:.*]] = linalg.transpose ins(%[[C]] : tensor<4x2xf32>)
// CHECK: %[[YT:.*]] = vnm.spmm %[[S]], %[[XT]] acc(%[[CT]] : tensor<2x4xf32>) : tensor<2x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<8x4xf32> -> tensor<2x4xf32>
// CHECK: %[[Y:.*]] = linalg.transpose ins(%[[YT]] : tensor<2x4xf32>)
// CHECK: return %[[Y]]
func.func @x_times_w(%x: tensor<4x8xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0],
                             [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0]]> : tensor<8x2xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>)
      outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// Transposed-A maps with the weight on the left: W^T is held, W is folded.
// CHECK-LABEL: func.func @wt_transposed_a(
// CHECK-SAME: %[[X:.*]]: tensor<8x5xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01]]> : tensor<2x8xf32>
// CHECK: %[[S:.*]] = vnm.compress %[[W]]
// CHECK-NOT: linalg.transpose
// CHECK: %[[Y:.*]] = vnm.spmm %[[S]], %[[X]] : tensor<2x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<8x5xf32> -> tensor<2x5xf32>
// CHECK: return %[[Y]]
func.func @wt_transposed_a(%x: tensor<8x5xf32>) -> tensor<2x5xf32> {
  %w = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0],
                             [8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0]]> : tensor<8x2xf32>
  %zero = arith.constant dense<0.0> : tensor<2x5xf32>
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<8x2xf32>, tensor<8x5xf32>)
      outs(%zero : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// i8 x i8 -> i32.
// CHECK-LABEL: func.func @int8(
// CHECK: %[[S:.*]] = vnm.compress %{{.*}} : tensor<64x32xi8> -> tensor<64x32xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK: vnm.spmm %[[S]], %{{.*}} acc(%{{.*}} : tensor<64x16xi32>) : tensor<64x32xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<32x16xi8> -> tensor<64x16xi32>
func.func @int8(%x: tensor<32x16xi8>, %c: tensor<64x16xi32>) -> tensor<64x16xi32> {
  %w = arith.constant dense<3> : tensor<64x32xi8>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      ins(%w, %x : tensor<64x32xi8>, tensor<32x16xi8>)
      outs(%c : tensor<64x16xi32>) -> tensor<64x16xi32>
  return %y : tensor<64x16xi32>
}

// A dense_resource weight held K x R becomes a transposed resource.
// CHECK-LABEL: func.func @resource_x_times_w(
// CHECK: %[[W:.*]] = arith.constant dense_resource<blob1_t> : tensor<3x8xf32>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<3x8xf32> -> tensor<3x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: vnm.spmm %[[S]]
func.func @resource_x_times_w(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %w = arith.constant dense_resource<blob1> : tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>)
      outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// A dense_resource weight held R x K is compressed as it is.
// CHECK-LABEL: func.func @resource_x_times_wt(
// CHECK: %[[W:.*]] = arith.constant dense_resource<blob2> : tensor<3x8xf32>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<3x8xf32> -> tensor<3x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: vnm.spmm %[[S]]
func.func @resource_x_times_wt(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %w = arith.constant dense_resource<blob2> : tensor<3x8xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<4x8xf32>, tensor<3x8xf32>)
      outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// i4 weights held K x R are transposed like any other.
// CHECK-LABEL: func.func @int4(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[1, 3, 5, 7, -1, -3, -5, -7], [2, 4, 6, -8, -2, -4, -6, 0]]> : tensor<2x8xi4>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<2x8xi4> -> tensor<2x8xi4, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: vnm.spmm %[[S]], %{{.*}} : tensor<2x8xi4, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<8x4xi4> -> tensor<2x4xi32>
func.func @int4(%x: tensor<4x8xi4>) -> tensor<4x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, 4], [5, 6], [7, -8],
                             [-1, -2], [-3, -4], [-5, -6], [-7, 0]]> : tensor<8x2xi4>
  %zero = arith.constant dense<0> : tensor<4x2xi32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<4x8xi4>, tensor<8x2xi4>)
      outs(%zero : tensor<4x2xi32>) -> tensor<4x2xi32>
  return %y : tensor<4x2xi32>
}

// Without the data (an elided resource) the transpose is an op.
// CHECK-LABEL: func.func @elided_resource(
// CHECK: %[[W:.*]] = arith.constant dense_resource<__elided__> : tensor<8x3xf32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<8x3xf32>) outs(%{{.*}} : tensor<3x8xf32>) permutation = [1, 0]
// CHECK: %[[S:.*]] = vnm.compress %[[WT]] : tensor<3x8xf32> -> tensor<3x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: vnm.spmm %[[S]]
func.func @elided_resource(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>)
      outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// Torch-MLIR's nn.Linear: a linalg.transpose of the R x K weight feeds a
// plain matmul. The weight is read through the transpose, which goes away.
// CHECK-LABEL: func.func @torch_linear(
// CHECK-SAME: %[[X:.*]]: tensor<?x8xf32>)
// CHECK: %[[W:.*]] = arith.constant dense_resource<blob2> : tensor<3x8xf32>
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<3x8xf32> -> tensor<3x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK-NOT: linalg.transpose ins(%[[W]]
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK: vnm.spmm %[[S]], %[[XT]] :
func.func @torch_linear(%x: tensor<?x8xf32>) -> tensor<?x3xf32> {
  %w = arith.constant dense_resource<blob2> : tensor<3x8xf32>
  %e = tensor.empty() : tensor<8x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x8xf32>) outs(%e : tensor<8x3xf32>)
      permutation = [1, 0]
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty(%n) : tensor<?x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<?x3xf32>) -> tensor<?x3xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %wt : tensor<?x8xf32>, tensor<8x3xf32>)
      outs(%init : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// The same through the batch transpose of a batch_matmul's weight.
// CHECK-LABEL: func.func @batch_transposed_weight(
// CHECK-DAG: %[[W0:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x4xf32>
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<{{\[}}[4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]]> : tensor<1x4xf32>
// CHECK-DAG: vnm.compress %[[W0]]
// CHECK-DAG: vnm.compress %[[W1]]
// CHECK-NOT: linalg.transpose ins(%{{.*}} : tensor<2x1x4xf32>)
// CHECK-COUNT-2: vnm.spmm
func.func @batch_transposed_weight(%x: tensor<2x3x4xf32>) -> tensor<2x3x1xf32> {
  %w = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0, 7.0]]]> : tensor<2x1x4xf32>
  %e = tensor.empty() : tensor<2x4x1xf32>
  %wt = linalg.transpose ins(%w : tensor<2x1x4xf32>) outs(%e : tensor<2x4x1xf32>)
      permutation = [0, 2, 1]
  %o = tensor.empty() : tensor<2x3x1xf32>
  %y = linalg.batch_matmul {vnm.encoding = #vnm.encoding<v = 16, n = 1, m = 4>}
      ins(%x, %wt : tensor<2x3x4xf32>, tensor<2x4x1xf32>)
      outs(%o : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  return %y : tensor<2x3x1xf32>
}

// A weight shared by two matmuls is compressed once.
// CHECK-LABEL: func.func @shared_weight(
// CHECK: vnm.compress
// CHECK-NOT: vnm.compress
// CHECK: vnm.spmm
// CHECK: vnm.spmm
func.func @shared_weight(%x: tensor<16x4xf16>, %z: tensor<16x4xf16>)
    -> (tensor<32x4xf32>, tensor<32x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<32x16xf16>
  %e = tensor.empty() : tensor<32x4xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<32x16xf16>, tensor<16x4xf16>)
      outs(%e : tensor<32x4xf32>) -> tensor<32x4xf32>
  %u = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %z : tensor<32x16xf16>, tensor<16x4xf16>)
      outs(%e : tensor<32x4xf32>) -> tensor<32x4xf32>
  return %y, %u : tensor<32x4xf32>, tensor<32x4xf32>
}

// batch_matmul: one spmm per batch on slices; each batch's weight (held
// K x R) is its own transposed constant.
// CHECK-LABEL: func.func @batch(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x?x4xf32>, %[[C:.*]]: tensor<2x?x2xf32>)
// CHECK-DAG: %[[W0:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]]> : tensor<2x4xf32>
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<{{\[}}[8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01]]> : tensor<2x4xf32>
// CHECK-DAG: %[[S0:.*]] = vnm.compress %[[W0]] : tensor<2x4xf32> -> tensor<2x4xf32, #vnm.encoding<v = 16, n = 1, m = 4>>
// CHECK-DAG: %[[S1:.*]] = vnm.compress %[[W1]] : tensor<2x4xf32> -> tensor<2x4xf32, #vnm.encoding<v = 16, n = 1, m = 4>>
// CHECK: %[[C0:.*]] = tensor.extract_slice %[[C]][0, 0, 0] [1, %{{.*}}, 2] [1, 1, 1] : tensor<2x?x2xf32> to tensor<?x2xf32>
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 0] [1, %{{.*}}, 4] [1, 1, 1] : tensor<2x?x4xf32> to tensor<?x4xf32>
// CHECK: %[[X0T:.*]] = linalg.transpose ins(%[[X0]]
// CHECK: %[[C0T:.*]] = linalg.transpose ins(%[[C0]]
// CHECK: %[[Y0T:.*]] = vnm.spmm %[[S0]], %[[X0T]] acc(%[[C0T]] : tensor<2x?xf32>)
// CHECK: %[[Y0:.*]] = linalg.transpose ins(%[[Y0T]]
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[Y0]] into %[[C]][0, 0, 0] [1, %{{.*}}, 2] [1, 1, 1] : tensor<?x2xf32> into tensor<2x?x2xf32>
// CHECK: tensor.extract_slice %[[C]][1, 0, 0]
// CHECK: tensor.extract_slice %[[X]][1, 0, 0]
// CHECK: vnm.spmm %[[S1]]
// CHECK: %[[R1:.*]] = tensor.insert_slice %{{.*}} into %[[R0]][1, 0, 0]
// CHECK: return %[[R1]]
func.func @batch(%x: tensor<2x?x4xf32>, %c: tensor<2x?x2xf32>) -> tensor<2x?x2xf32> {
  %w = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]],
                             [[8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0]]]> : tensor<2x4x2xf32>
  %y = linalg.batch_matmul {vnm.encoding = #vnm.encoding<v = 16, n = 1, m = 4>}
      ins(%x, %w : tensor<2x?x4xf32>, tensor<2x4x2xf32>)
      outs(%c : tensor<2x?x2xf32>) -> tensor<2x?x2xf32>
  return %y : tensor<2x?x2xf32>
}

// A zero init of a batch_matmul is not read: the slices go into a fresh
// tensor.
// CHECK-LABEL: func.func @batch_zero_init(
// CHECK-NOT: linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4x5xf16>
// CHECK-NOT: linalg.fill
// CHECK: vnm.spmm
// CHECK: %[[R0:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0] [1, 4, 5] [1, 1, 1]
// CHECK: vnm.spmm
// CHECK: %[[R1:.*]] = tensor.insert_slice %{{.*}} into %[[R0]][1, 0, 0] [1, 4, 5] [1, 1, 1]
// CHECK: vnm.spmm
// CHECK: %[[R2:.*]] = tensor.insert_slice %{{.*}} into %[[R1]][2, 0, 0] [1, 4, 5] [1, 1, 1]
// CHECK-NOT: vnm.spmm
// CHECK: return %[[R2]]
func.func @batch_zero_init(%x: tensor<3x8x5xf16>) -> tensor<3x4x5xf16> {
  %w = arith.constant dense<1.0> : tensor<3x4x8xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x4x5xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<3x4x5xf16>) -> tensor<3x4x5xf16>
  %y = linalg.batch_matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<3x4x8xf16>, tensor<3x8x5xf16>)
      outs(%init : tensor<3x4x5xf16>) -> tensor<3x4x5xf16>
  return %y : tensor<3x4x5xf16>
}

// Without a weight, a batch_matmul stays as it is.
// CHECK-LABEL: func.func @batch_untouched(
// CHECK: linalg.batch_matmul
// CHECK-NOT: vnm.
// DEFAULT-LABEL: func.func @batch_untouched(
// DEFAULT-NOT: vnm.
// DEFAULT: linalg.batch_matmul
// DEFAULT-NOT: vnm.
// DEFAULT: return
func.func @batch_untouched(%x: tensor<2x4x8xf32>, %w: tensor<2x8x16xf32>,
                           %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %y = linalg.batch_matmul ins(%x, %w : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
      outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %y : tensor<2x4x16xf32>
}

//===----------------------------------------------------------------------===//
// Annotated function arguments.
//===----------------------------------------------------------------------===//

// An R x K argument (x @ W.T) takes the encoded type and loses its
// annotation; its other uses read the decompressed matrix; callers compress
// what they pass.
// CHECK-LABEL: func.func @arg_x_times_wt(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[W:[^:]*]]: tensor<16x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>, %[[C:[^:]*]]: tensor<4x16xf32>)
// CHECK-SAME: -> (tensor<4x16xf32>, tensor<16x8xf32>) {
// CHECK: %[[D:.*]] = vnm.decompress %[[W]] : tensor<16x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>> -> tensor<16x8xf32>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK: %[[CT:.*]] = linalg.transpose ins(%[[C]]
// CHECK: %[[YT:.*]] = vnm.spmm %[[W]], %[[XT]] acc(%[[CT]] : tensor<16x4xf32>)
// CHECK: %[[Y:.*]] = linalg.transpose ins(%[[YT]]
// CHECK: return %[[Y]], %[[D]]
func.func @arg_x_times_wt(%x: tensor<4x8xf32>,
    %w: tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
    %c: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<16x8xf32>) {
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<4x8xf32>, tensor<16x8xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %w : tensor<4x16xf32>, tensor<16x8xf32>
}

// CHECK-LABEL: func.func @call_x_times_wt(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[W:[^:]*]]: tensor<16x8xf32>, %[[C:[^:]*]]: tensor<4x16xf32>)
// CHECK: %[[S:.*]] = vnm.compress %[[W]] : tensor<16x8xf32> -> tensor<16x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
// CHECK: call @arg_x_times_wt(%[[X]], %[[S]], %[[C]]) : (tensor<4x8xf32>, tensor<16x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<4x16xf32>)
func.func @call_x_times_wt(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>,
                           %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r:2 = call @arg_x_times_wt(%x, %w, %c)
      : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x16xf32>)
      -> (tensor<4x16xf32>, tensor<16x8xf32>)
  return %r#0 : tensor<4x16xf32>
}

// Weight on the left; the op's vnm.encoding may repeat the argument's.
// Unrelated matmuls in the function stay as they are.
// CHECK-LABEL: func.func @arg_left(
// CHECK-SAME: %[[W:[^:]*]]: tensor<64x32xi8, #vnm.encoding<v = 32, n = 1, m = 16>>, %[[X:[^:]*]]: tensor<32x?xi8>, %[[C:[^:]*]]: tensor<64x?xi32>
// CHECK-NOT: vnm.decompress
// CHECK: %[[Y:.*]] = vnm.spmm %[[W]], %[[X]] acc(%[[C]] : tensor<64x?xi32>)
// CHECK: %[[Z:.*]] = linalg.matmul ins(%[[X]], %[[X2:.*]] : tensor<32x?xi8>, tensor<?x8xi8>)
func.func @arg_left(
    %w: tensor<64x32xi8> {vnm.encoding = #vnm.encoding<v = 32, n = 1, m = 16>},
    %x: tensor<32x?xi8>, %c: tensor<64x?xi32>, %x2: tensor<?x8xi8>,
    %c2: tensor<32x8xi32>) -> (tensor<64x?xi32>, tensor<32x8xi32>) {
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 32, n = 1, m = 16>}
      ins(%w, %x : tensor<64x32xi8>, tensor<32x?xi8>)
      outs(%c : tensor<64x?xi32>) -> tensor<64x?xi32>
  %z = linalg.matmul ins(%x, %x2 : tensor<32x?xi8>, tensor<?x8xi8>)
      outs(%c2 : tensor<32x8xi32>) -> tensor<32x8xi32>
  return %y, %z : tensor<64x?xi32>, tensor<32x8xi32>
}

// A K x R argument (x @ W, plain maps) cannot take the R x K encoded type: it
// stays dense and is transposed and compressed on entry.
// CHECK-LABEL: func.func @arg_x_times_w(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x16xf16>, %[[W:[^:]*]]: tensor<16x32xf16>)
// CHECK-NOT: vnm.encoding =
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<16x32xf16>) outs(%{{.*}} : tensor<32x16xf16>) permutation = [1, 0]
// CHECK: %[[S:.*]] = vnm.compress %[[WT]] : tensor<32x16xf16> -> tensor<32x16xf16, #vnm.encoding<v = 32, n = 2, m = 8>>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK: %[[YT:.*]] = vnm.spmm %[[S]], %[[XT]] : tensor<32x16xf16, #vnm.encoding<v = 32, n = 2, m = 8>>, tensor<16x?xf16> -> tensor<32x?xf16>
// CHECK: linalg.transpose ins(%[[YT]]
func.func @arg_x_times_w(%x: tensor<?x16xf16>,
    %w: tensor<16x32xf16> {vnm.encoding = #vnm.encoding<v = 32, n = 2, m = 8>})
    -> tensor<?x32xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf16>
  %e = tensor.empty(%n) : tensor<?x32xf16>
  %y = linalg.matmul ins(%x, %w : tensor<?x16xf16>, tensor<16x32xf16>)
      outs(%e : tensor<?x32xf16>) -> tensor<?x32xf16>
  return %y : tensor<?x32xf16>
}

// Read R x K by one matmul and K x R by another, the argument stays dense
// and is compressed in both orientations.
// CHECK-LABEL: func.func @arg_both_orientations(
// CHECK-SAME: %[[W:[^:]*]]: tensor<16x16xf32>, %[[X:[^:]*]]: tensor<16x4xf32>)
// CHECK-DAG: %[[S:.*]] = vnm.compress %[[W]] : tensor<16x16xf32> -> tensor<16x16xf32, #vnm.encoding<v = 16, n = 2, m = 4>>
// CHECK-DAG: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<16x16xf32>)
// CHECK-DAG: %[[ST:.*]] = vnm.compress %[[WT]] : tensor<16x16xf32> -> tensor<16x16xf32, #vnm.encoding<v = 16, n = 2, m = 4>>
// CHECK: %[[Y:.*]] = vnm.spmm %[[S]], %[[X]] :
// CHECK: vnm.spmm %[[ST]], %{{.*}} :
func.func @arg_both_orientations(
    %w: tensor<16x16xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>},
    %x: tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<16x4xf32>
  %y = linalg.matmul ins(%w, %x : tensor<16x16xf32>, tensor<16x4xf32>)
      outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %xt = tensor.empty() : tensor<4x16xf32>
  %f = tensor.empty() : tensor<4x16xf32>
  %t = linalg.transpose ins(%x : tensor<16x4xf32>) outs(%xt : tensor<4x16xf32>) permutation = [1, 0]
  %u = linalg.matmul ins(%t, %w : tensor<4x16xf32>, tensor<16x16xf32>)
      outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %u : tensor<16x4xf32>, tensor<4x16xf32>
}

// An annotated argument no matmul reads as its weight is still retyped; here
// it is a matmul's init, which reads the decompressed matrix.
// CHECK-LABEL: func.func @arg_as_init(
// CHECK-SAME: %[[C:[^:]*]]: tensor<16x16xf16, #vnm.encoding<v = 16, n = 2, m = 8>>, %[[A:[^:]*]]: tensor<16x8xf16>, %[[B:[^:]*]]: tensor<8x16xf16>)
// CHECK: %[[D:.*]] = vnm.decompress %[[C]]
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<16x8xf16>, tensor<8x16xf16>) outs(%[[D]] : tensor<16x16xf16>)
func.func @arg_as_init(
    %c: tensor<16x16xf16> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
    %a: tensor<16x8xf16>, %b: tensor<8x16xf16>) -> tensor<16x16xf16> {
  %y = linalg.matmul ins(%a, %b : tensor<16x8xf16>, tensor<8x16xf16>)
      outs(%c : tensor<16x16xf16>) -> tensor<16x16xf16>
  return %y : tensor<16x16xf16>
}

// A declaration keeps its annotation.
// CHECK-LABEL: func.func private @declaration(tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>})
func.func private @declaration(tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>})

// An annotated argument read through its only transpose (Torch-MLIR's
// nn.Linear with the weight as an argument) is R x K: it is retyped.
// CHECK-LABEL: func.func @arg_through_transpose(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf16>, %[[W:[^:]*]]: tensor<16x8xf16, #vnm.encoding<v = 16, n = 2, m = 8>>)
// CHECK-NOT: vnm.decompress
// CHECK-NOT: linalg.transpose ins(%[[W]]
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK: vnm.spmm %[[W]], %[[XT]] :
func.func @arg_through_transpose(%x: tensor<4x8xf16>,
    %w: tensor<16x8xf16> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>})
    -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<8x16xf16>
  %wt = linalg.transpose ins(%w : tensor<16x8xf16>) outs(%e : tensor<8x16xf16>)
      permutation = [1, 0]
  %o = tensor.empty() : tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x8xf16>, tensor<8x16xf16>)
      outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// A transpose with other uses is not looked through: it reads the dense
// matrix, and the matmul reads its result as an ordinary input.
// CHECK-LABEL: func.func @arg_shared_transpose(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf16>, %[[W:[^:]*]]: tensor<16x8xf16, #vnm.encoding<v = 16, n = 2, m = 8>>)
// CHECK: %[[D:.*]] = vnm.decompress %[[W]]
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[D]]
// CHECK: linalg.matmul ins(%[[X]], %[[WT]]
func.func @arg_shared_transpose(%x: tensor<4x8xf16>,
    %w: tensor<16x8xf16> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>})
    -> (tensor<4x16xf32>, tensor<8x16xf16>) {
  %e = tensor.empty() : tensor<8x16xf16>
  %wt = linalg.transpose ins(%w : tensor<16x8xf16>) outs(%e : tensor<8x16xf16>)
      permutation = [1, 0]
  %o = tensor.empty() : tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x8xf16>, tensor<8x16xf16>)
      outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %wt : tensor<4x16xf32>, tensor<8x16xf16>
}

// An annotated argument outranks a constant on the other side.
// CHECK-LABEL: func.func @arg_and_constant(
// CHECK-SAME: %[[W:[^:]*]]: tensor<16x8xf32, #vnm.encoding<v = 16, n = 2, m = 4>>)
// CHECK: %[[X:.*]] = arith.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK: vnm.spmm %[[W]], %[[X]] :
func.func @arg_and_constant(
    %w: tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>})
    -> tensor<16x8xf32> {
  %x = arith.constant dense<1.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %y = linalg.matmul ins(%w, %x : tensor<16x8xf32>, tensor<8x8xf32>)
      outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

//===----------------------------------------------------------------------===//
// default-format and min-elements.
//===----------------------------------------------------------------------===//

// Without an attribute, a constant weight is encoded only under
// default-format, and under min-elements=1024 only if it has 1024 elements.
// CHECK-LABEL: func.func @unannotated(
// CHECK-NOT: vnm.
// CHECK: linalg.matmul
// CHECK: linalg.matmul
// CHECK-NOT: vnm.
// CHECK: return
// DEFAULT-LABEL: func.func @unannotated(
// DEFAULT-DAG: %[[WS:.*]] = vnm.compress %{{.*}} : tensor<16x32xf32> -> tensor<16x32xf32, #vnm.encoding<v = 32, n = 2, m = 8>>
// DEFAULT-DAG: %[[WL:.*]] = vnm.compress %{{.*}} : tensor<64x32xf32> -> tensor<64x32xf32, #vnm.encoding<v = 32, n = 2, m = 8>>
// DEFAULT: vnm.spmm %[[WS]]
// DEFAULT: vnm.spmm %[[WL]]
// MIN-LABEL: func.func @unannotated(
// MIN: %[[WL:.*]] = vnm.compress %{{.*}} : tensor<64x32xf32> -> tensor<64x32xf32, #vnm.encoding<v = 32, n = 2, m = 8>>
// MIN-NOT: vnm.compress
// MIN: linalg.matmul ins(%{{.*}} : tensor<16x32xf32>, tensor<32x4xf32>)
// MIN: vnm.spmm %[[WL]]
func.func @unannotated(%x: tensor<32x4xf32>) -> (tensor<16x4xf32>, tensor<64x4xf32>) {
  %small = arith.constant dense<1.0> : tensor<16x32xf32>
  %large = arith.constant dense<1.0> : tensor<64x32xf32>
  %e16 = tensor.empty() : tensor<16x4xf32>
  %e64 = tensor.empty() : tensor<64x4xf32>
  %y = linalg.matmul ins(%small, %x : tensor<16x32xf32>, tensor<32x4xf32>)
      outs(%e16 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %z = linalg.matmul ins(%large, %x : tensor<64x32xf32>, tensor<32x4xf32>)
      outs(%e64 : tensor<64x4xf32>) -> tensor<64x4xf32>
  return %y, %z : tensor<16x4xf32>, tensor<64x4xf32>
}

// The op's attribute overrides default-format, and min-elements does not
// apply to it.
// DEFAULT-LABEL: func.func @override(
// DEFAULT: vnm.compress %{{.*}} : tensor<16x32xf32> -> tensor<16x32xf32, #vnm.encoding<v = 16, n = 1, m = 4>>
// MIN-LABEL: func.func @override(
// MIN: vnm.compress %{{.*}} : tensor<16x32xf32> -> tensor<16x32xf32, #vnm.encoding<v = 16, n = 1, m = 4>>
func.func @override(%x: tensor<32x4xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<1.0> : tensor<16x32xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 1, m = 4>}
      ins(%w, %x : tensor<16x32xf32>, tensor<32x4xf32>)
      outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// A default-format weight whose matmul spmm cannot express is skipped: here
// f16 x f16 -> f64 (spmm C5) and mixed input types.
// DEFAULT-LABEL: func.func @skipped(
// DEFAULT-NOT: vnm.
// DEFAULT: linalg.matmul
// DEFAULT: linalg.matmul
// DEFAULT-NOT: vnm.
// DEFAULT: return
func.func @skipped(%x: tensor<32x4xf16>, %x32: tensor<32x4xf32>, %c: tensor<16x4xf64>,
                   %c32: tensor<16x4xf32>) -> (tensor<16x4xf64>, tensor<16x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<16x32xf16>
  %y = linalg.matmul ins(%w, %x : tensor<16x32xf16>, tensor<32x4xf16>)
      outs(%c : tensor<16x4xf64>) -> tensor<16x4xf64>
  %z = linalg.matmul ins(%w, %x32 : tensor<16x32xf16>, tensor<32x4xf32>)
      outs(%c32 : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y, %z : tensor<16x4xf64>, tensor<16x4xf32>
}

// The rewritten module expands and bufferizes.
// BUFFERS-LABEL: func.func @left_acc(
// BUFFERS-SAME: %[[X:[^:]*]]: memref<16x8xf16, {{.*}}>, %[[C:[^:]*]]: memref<32x8xf16, {{.*}}>) -> memref<32x8xf16
// BUFFERS: vnm.storage.compress ins(%{{.*}} : memref<32x16xf16>) outs(%[[V:.*]], %[[I:.*]], %[[M:.*]] : memref<32x8xf16>, memref<2x4x4xi8>, memref<32x8xi8>)
// BUFFERS: vnm.storage.spmm ins(%[[V]], %[[I]], %[[M]], %[[X]] : {{.*}}) outs(%[[C]] : memref<32x8xf16, {{.*}}>) {accumulate, encoding = #vnm.encoding<v = 16, n = 1, m = 4>}
// BUFFERS-LABEL: func.func @arg_x_times_wt(
// BUFFERS-SAME: %{{[^:]*}}: memref<4x8xf32, {{.*}}>, %[[V:[^:]*]]: memref<16x2xf32, {{.*}}>, %[[I:[^:]*]]: memref<1x1x4xi8, {{.*}}>, %[[M:[^:]*]]: memref<16x2xi8, {{.*}}>, %{{.*}}: memref<4x16xf32, {{.*}}>)
// BUFFERS: vnm.storage.decompress ins(%[[V]], %[[I]], %[[M]] :
// BUFFERS: vnm.storage.spmm ins(%[[V]], %[[I]], %[[M]], %{{.*}} :

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841",
      blob2: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841"
    }
  }
#-}

// The transposed resource holds W^T row by row.
// CHECK: blob1_t: "0x0400000000000000000040400000C040000010410000404100007041000090410000A8410000803F000080400000E040000020410000504100008041000098410000B041000000400000A040000000410000304100006041000088410000A0410000B841"
