// vnm-fuse-epilogue folds the conversion, bias and relu that frontends
// write after a matmul into the vnm.spmm, and leaves everything else.
// RUN: vnm-opt %s --vnm-fuse-epilogue -split-input-file | FileCheck %s

!enc = tensor<32x64xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// Torch-MLIR's nn.Linear + ReLU after linalg-specialize-generic-ops: the f32
// product is transposed, truncated, offset by a broadcast bias (linalg.add)
// and passed through relu (cmpf + select).
// CHECK-LABEL: func.func @torch_linear_relu
//  CHECK-SAME: (%[[W:.*]]: tensor<32x64xbf16, {{.*}}>, %[[X:.*]]: tensor<64x?xbf16>, %[[B:.*]]: tensor<32xbf16>, %[[INIT:.*]]: tensor<?x32xbf16>)
//       CHECK:   %[[S:.*]] = vnm.spmm %[[W]], %[[X]] bias(%[[B]] : tensor<32xbf16>) {activation = #vnm.activation<relu>}
//  CHECK-SAME:       -> tensor<32x?xbf16>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[S]] : tensor<32x?xbf16>) outs(%[[INIT]] : tensor<?x32xbf16>) permutation = [1, 0]
//       CHECK:   return %[[T]]
//   CHECK-NOT: linalg
func.func @torch_linear_relu(%w: !enc, %x: tensor<64x?xbf16>, %b: tensor<32xbf16>,
                             %init: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  %zero = arith.constant 0.0 : bf16
  %c0 = arith.constant 0 : index
  %n = tensor.dim %init, %c0 : tensor<?x32xbf16>
  %p = vnm.spmm %w, %x : !enc, tensor<64x?xbf16> -> tensor<32x?xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %t = linalg.transpose ins(%p : tensor<32x?xf32>) outs(%e : tensor<?x32xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x32xf32>) outs(%init : tensor<?x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<?x32xbf16>
  %be = tensor.empty(%n) : tensor<?x32xbf16>
  %bb = linalg.broadcast ins(%b : tensor<32xbf16>) outs(%be : tensor<?x32xbf16>) dimensions = [0]
  %y = linalg.add ins(%bb, %r : tensor<?x32xbf16>, tensor<?x32xbf16>) outs(%init : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<?x32xbf16>) outs(%init : tensor<?x32xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %c = arith.cmpf ugt, %in, %zero : bf16
    %s = arith.select %c, %in, %zero : bf16
    linalg.yield %s : bf16
  } -> tensor<?x32xbf16>
  return %a : tensor<?x32xbf16>
}

// -----

!enc = tensor<32x64xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A product on the storage type and one generic adding a bias read per row
// (spmm's own orientation, R x N) and applying relu as maximumf.
// CHECK-LABEL: func.func @generic_bias_relu
//       CHECK:   %[[S:.*]] = vnm.spmm %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<32xbf16>) {activation = #vnm.activation<relu>}
//  CHECK-SAME:       -> tensor<32x8xbf16>
//  CHECK-NEXT:   return %[[S]]
func.func @generic_bias_relu(%w: !enc, %x: tensor<64x8xbf16>, %b: tensor<32xbf16>) -> tensor<32x8xbf16> {
  %zero = arith.constant 0.0 : bf16
  %p = vnm.spmm %w, %x : !enc, tensor<64x8xbf16> -> tensor<32x8xbf16>
  %e = tensor.empty() : tensor<32x8xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<32x8xbf16>, tensor<32xbf16>) outs(%e : tensor<32x8xbf16>) {
  ^bb0(%in: bf16, %bias: bf16, %out: bf16):
    %s = arith.addf %bias, %in : bf16
    %r = arith.maximumf %s, %zero : bf16
    linalg.yield %r : bf16
  } -> tensor<32x8xbf16>
  return %y : tensor<32x8xbf16>
}

// -----

!enc = tensor<32x64xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// A bias read along N, not per row of the weight, is no spmm bias: only the
// conversion before it is folded.
// CHECK-LABEL: func.func @bias_along_n
//       CHECK:   vnm.spmm %{{[^ ]*}}, %{{[^ ]*}} : {{.*}} -> tensor<32x8xbf16>
//       CHECK:   linalg.generic
//       CHECK:     arith.addf
func.func @bias_along_n(%w: !enc, %x: tensor<64x8xbf16>, %b: tensor<8xbf16>) -> tensor<32x8xbf16> {
  %p = vnm.spmm %w, %x : !enc, tensor<64x8xbf16> -> tensor<32x8xf32>
  %e = tensor.empty() : tensor<32x8xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<32x8xf32>) outs(%e : tensor<32x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<32x8xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r, %b : tensor<32x8xbf16>, tensor<8xbf16>) outs(%e : tensor<32x8xbf16>) {
  ^bb0(%in: bf16, %bias: bf16, %out: bf16):
    %s = arith.addf %in, %bias : bf16
    linalg.yield %s : bf16
  } -> tensor<32x8xbf16>
  return %y : tensor<32x8xbf16>
}

// -----

!enc = tensor<32x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The product read twice (x + relu(x)) is not an epilogue; nothing changes.
// CHECK-LABEL: func.func @product_read_twice
//       CHECK:   vnm.spmm %{{[^ ]*}}, %{{[^ ]*}} : {{.*}} -> tensor<32x8xf16>
//       CHECK:   linalg.generic
//       CHECK:     arith.maximumf
//       CHECK:     arith.addf
func.func @product_read_twice(%w: !enc, %x: tensor<64x8xf16>) -> tensor<32x8xf16> {
  %zero = arith.constant 0.0 : f16
  %p = vnm.spmm %w, %x : !enc, tensor<64x8xf16> -> tensor<32x8xf16>
  %e = tensor.empty() : tensor<32x8xf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<32x8xf16>) outs(%e : tensor<32x8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %r = arith.maximumf %in, %zero : f16
    %s = arith.addf %in, %r : f16
    linalg.yield %s : f16
  } -> tensor<32x8xf16>
  return %y : tensor<32x8xf16>
}

// -----

!enc = tensor<32x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An erf GELU after the bias stays: spmm's GELU is the tanh form. The bias
// is folded.
// CHECK-LABEL: func.func @erf_gelu_stays
//       CHECK:   %[[S:.*]] = vnm.spmm %{{.*}} bias(%{{.*}} : tensor<32xf16>) : {{.*}} -> tensor<32x8xf16>
//   CHECK-NOT:   activation
//       CHECK:   linalg.generic {{.*}} ins(%[[S]]
//       CHECK:     math.erf
func.func @erf_gelu_stays(%w: !enc, %x: tensor<64x8xf16>, %b: tensor<32xf16>) -> tensor<32x8xf16> {
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %isqrt2 = arith.constant 0.7071 : f16
  %p = vnm.spmm %w, %x : !enc, tensor<64x8xf16> -> tensor<32x8xf16>
  %e = tensor.empty() : tensor<32x8xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<32x8xf16>, tensor<32xf16>) outs(%e : tensor<32x8xf16>) {
  ^bb0(%in: f16, %bias: f16, %out: f16):
    %s = arith.addf %in, %bias : f16
    linalg.yield %s : f16
  } -> tensor<32x8xf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<32x8xf16>) outs(%e : tensor<32x8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %a = arith.mulf %in, %isqrt2 : f16
    %f = math.erf %a : f16
    %o = arith.addf %f, %one : f16
    %h = arith.mulf %in, %half : f16
    %r = arith.mulf %h, %o : f16
    linalg.yield %r : f16
  } -> tensor<32x8xf16>
  return %g : tensor<32x8xf16>
}

// -----

!enc = tensor<32x64xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An f32 bias added before the truncation to bf16: spmm takes the bias with
// its f32 result, but not the truncation (its bias would have to be bf16).
// CHECK-LABEL: func.func @f32_bias_then_truncation
//       CHECK:   %[[S:.*]] = vnm.spmm %{{.*}} bias(%{{.*}} : tensor<32xf32>) : {{.*}} -> tensor<32x8xf32>
//       CHECK:   linalg.generic {{.*}} ins(%[[S]]
//       CHECK:     arith.truncf
func.func @f32_bias_then_truncation(%w: !enc, %x: tensor<64x8xbf16>, %b: tensor<32xf32>) -> tensor<32x8xbf16> {
  %p = vnm.spmm %w, %x : !enc, tensor<64x8xbf16> -> tensor<32x8xf32>
  %e = tensor.empty() : tensor<32x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<32x8xf32>, tensor<32xf32>) outs(%e : tensor<32x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  %eb = tensor.empty() : tensor<32x8xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<32x8xf32>) outs(%eb : tensor<32x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<32x8xbf16>
  return %r : tensor<32x8xbf16>
}

// -----

!enc = tensor<32x64xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#id = affine_map<(d0, d1) -> (d0, d1)>

// An f32 accumulator (a matmul into a non-zero init) keeps spmm's f32
// result (constraint C6): the generic that truncates stays whole, relu and
// all. A relu before a bias is no epilogue either: the relu is folded, the
// bias add after it stays.
// CHECK-LABEL: func.func @acc_keeps_type
//       CHECK:   %[[S:.*]] = vnm.spmm %{{[^ ]*}}, %{{[^ ]*}} acc(%{{.*}} : tensor<32x8xf32>) : {{.*}} -> tensor<32x8xf32>
//       CHECK:   linalg.generic {{.*}} ins(%[[S]]
//       CHECK:     arith.maximumf
//       CHECK:     arith.truncf
// CHECK-LABEL: func.func @relu_before_bias
//       CHECK:   %[[S:.*]] = vnm.spmm %{{[^ ]*}}, %{{[^ ]*}} {activation = #vnm.activation<relu>} : {{.*}} -> tensor<32x8xbf16>
//       CHECK:   linalg.add ins(%{{.*}}, %[[S]]
func.func @acc_keeps_type(%w: !enc, %x: tensor<64x8xbf16>, %c: tensor<32x8xf32>) -> tensor<32x8xbf16> {
  %zero = arith.constant 0.0 : f32
  %p = vnm.spmm %w, %x acc(%c : tensor<32x8xf32>) : !enc, tensor<64x8xbf16> -> tensor<32x8xf32>
  %eb = tensor.empty() : tensor<32x8xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<32x8xf32>) outs(%eb : tensor<32x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %m = arith.maximumf %in, %zero : f32
    %v = arith.truncf %m : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<32x8xbf16>
  return %r : tensor<32x8xbf16>
}
func.func @relu_before_bias(%w: !enc, %x: tensor<64x8xbf16>, %b: tensor<32x8xbf16>) -> tensor<32x8xbf16> {
  %zero = arith.constant 0.0 : bf16
  %p = vnm.spmm %w, %x : !enc, tensor<64x8xbf16> -> tensor<32x8xbf16>
  %e = tensor.empty() : tensor<32x8xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<32x8xbf16>) outs(%e : tensor<32x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %m = arith.maximumf %in, %zero : bf16
    linalg.yield %m : bf16
  } -> tensor<32x8xbf16>
  %y = linalg.add ins(%b, %r : tensor<32x8xbf16>, tensor<32x8xbf16>) outs(%e : tensor<32x8xbf16>) -> tensor<32x8xbf16>
  return %y : tensor<32x8xbf16>
}

// -----

!enc = tensor<128x256xbf16, #vnm.encoding<v = 64, n = 2, m = 8>>
#row0 = affine_map<(d0, d1) -> (0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// JAX's relu(x @ w.T + b) (once its relu is inlined): the bias broadcast in
// two steps (to 1 x R, then to N x R), relu as maximumf with a broadcast
// zero constant.
// CHECK-LABEL: func.func @jax_linear_relu
//  CHECK-SAME: %[[B:[^:]*]]: tensor<128xbf16>
//       CHECK:   %[[S:.*]] = vnm.spmm %{{.*}} bias(%[[B]] : tensor<128xbf16>) {activation = #vnm.activation<relu>}
//  CHECK-SAME:       -> tensor<128x8xbf16>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[S]]
//  CHECK-NEXT:   return %[[T]]
func.func @jax_linear_relu(%w: !enc, %x: tensor<256x8xbf16>, %b: tensor<128xbf16>) -> tensor<8x128xbf16> {
  %p = vnm.spmm %w, %x : !enc, tensor<256x8xbf16> -> tensor<128x8xbf16>
  %e = tensor.empty() : tensor<8x128xbf16>
  %t = linalg.transpose ins(%p : tensor<128x8xbf16>) outs(%e : tensor<8x128xbf16>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<1x128xbf16>
  %b1 = linalg.broadcast ins(%b : tensor<128xbf16>) outs(%e1 : tensor<1x128xbf16>) dimensions = [0]
  %bn = linalg.generic {indexing_maps = [#row0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b1 : tensor<1x128xbf16>) outs(%e : tensor<8x128xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<8x128xbf16>
  %y = linalg.add ins(%t, %bn : tensor<8x128xbf16>, tensor<8x128xbf16>) outs(%e : tensor<8x128xbf16>) -> tensor<8x128xbf16>
  %zero = arith.constant dense<0.0> : tensor<bf16>
  %z = linalg.broadcast ins(%zero : tensor<bf16>) outs(%e : tensor<8x128xbf16>) dimensions = [0, 1]
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %z : tensor<8x128xbf16>, tensor<8x128xbf16>) outs(%e : tensor<8x128xbf16>) {
  ^bb0(%in: bf16, %in0: bf16, %out: bf16):
    %m = arith.maximumf %in, %in0 : bf16
    linalg.yield %m : bf16
  } -> tensor<8x128xbf16>
  return %r : tensor<8x128xbf16>
}
