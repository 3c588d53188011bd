// vnm-specialize-transposes turns generic transposes into linalg.transpose
// and leaves every other generic, contractions included, as it is.
// RUN: vnm-opt %s --vnm-specialize-transposes | FileCheck %s

#swap = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// JAX's W.T.
// CHECK-LABEL: func.func @jax_transpose
//  CHECK-SAME: (%[[W:.*]]: tensor<128x256xf16>)
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<256x128xf16>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[W]] : tensor<128x256xf16>) outs(%[[E]] : tensor<256x128xf16>) permutation = [1, 0]
//       CHECK:   return %[[T]]
func.func @jax_transpose(%w: tensor<128x256xf16>) -> tensor<256x128xf16> {
  %e = tensor.empty() : tensor<256x128xf16>
  %t = linalg.generic {indexing_maps = [#swap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<128x256xf16>) outs(%e : tensor<256x128xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<256x128xf16>
  return %t : tensor<256x128xf16>
}

#p021 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A batched transpose of the last two dimensions.
// CHECK-LABEL: func.func @batched_transpose
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<4x16x32xf32>) outs(%{{.*}} : tensor<4x32x16xf32>) permutation = [0, 2, 1]
func.func @batched_transpose(%x: tensor<4x16x32xf32>) -> tensor<4x32x16xf32> {
  %e = tensor.empty() : tensor<4x32x16xf32>
  %t = linalg.generic {indexing_maps = [#p021, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x16x32xf32>) outs(%e : tensor<4x32x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x32x16xf32>
  return %t : tensor<4x32x16xf32>
}

#q = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#k = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#s = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Not transposes: a broadcast, an element-wise op, and JAX's
// einsum("htd,hsd->hts") (which upstream's linalg-specialize-generic-ops
// turns into a batch_matmul that does not verify).
// CHECK-LABEL: func.func @others_stay
//   CHECK-NOT:   linalg.transpose
//   CHECK-NOT:   linalg.batch_matmul
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
//       CHECK:     arith.negf
//       CHECK:   linalg.generic
//       CHECK:     arith.mulf
func.func @others_stay(%b: tensor<256xf16>, %x: tensor<8x256xf16>, %q: tensor<4x16x32xf32>,
                       %k: tensor<4x16x32xf32>, %init: tensor<4x16x16xf32>)
    -> (tensor<8x256xf16>, tensor<8x256xf16>, tensor<4x16x16xf32>) {
  %e = tensor.empty() : tensor<8x256xf16>
  %bb = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<256xf16>) outs(%e : tensor<8x256xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<8x256xf16>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x256xf16>) outs(%e : tensor<8x256xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.negf %in : f16
    linalg.yield %m : f16
  } -> tensor<8x256xf16>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x16x32xf32>, tensor<4x16x32xf32>) outs(%init : tensor<4x16x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  return %bb, %n, %s : tensor<8x256xf16>, tensor<8x256xf16>, tensor<4x16x16xf32>
}
