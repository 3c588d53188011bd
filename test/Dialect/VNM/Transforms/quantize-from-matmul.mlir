// vnm-sparsify carries a matmul's quantization choice to the spmm; the
// constant weight is then pruned, quantized and compressed at compile time.
// RUN: vnm-opt %s --vnm-sparsify --vnm-quantize --canonicalize | FileCheck %s

// CHECK-LABEL: func @from_matmul
// CHECK-NOT: vnm.prune
// CHECK-NOT: vnm.compress
// CHECK: vnm.assemble %{{.*}} : tensor<64x8xi8>, tensor<1x4x4xi8>, tensor<64x8xi8> -> tensor<64x32xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK: vnm.quantize %{{.*}} {axis = 1 : i64} : tensor<32x?xf32> -> tensor<32x?xi8>, tensor<?xf32>
// CHECK: vnm.spmm {{.*}} weight_scales(%{{.*}} : tensor<64xf32>) input_scales
func.func @from_matmul(%x: tensor<32x?xf32>) -> tensor<64x?xf32> {
  %w = arith.constant dense<0.5> : tensor<64x32xf32>
  %c0 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<32x?xf32>
  %e = tensor.empty(%n) : tensor<64x?xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x?xf32>) -> tensor<64x?xf32>
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.quantization = "w8a8"}
      ins(%w, %x : tensor<64x32xf32>, tensor<32x?xf32>) outs(%init : tensor<64x?xf32>) -> tensor<64x?xf32>
  return %y : tensor<64x?xf32>
}

// An annotated weight argument: vnm-sparsify gives it the encoded type and
// its choice to the spmm; vnm-quantize gives it the quantized encoding and
// its scales as the next argument.
// CHECK-LABEL: func @from_argument
// CHECK-SAME: (%{{.*}}: tensor<32x?xf32>, %[[W:.*]]: tensor<64x32xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, %[[S:.*]]: tensor<64xf32>)
// CHECK-NOT: vnm.quantization
// CHECK: vnm.spmm %[[W]], %{{.*}} weight_scales(%[[S]] : tensor<64xf32>) : tensor<64x32xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<32x?xf32> -> tensor<64x?xf32>
func.func @from_argument(%x: tensor<32x?xf32>, %w: tensor<64x32xf32> {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>, vnm.quantization = "w8a16"}) -> tensor<64x?xf32> {
  %c0 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<32x?xf32>
  %e = tensor.empty(%n) : tensor<64x?xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x?xf32>) -> tensor<64x?xf32>
  %y = linalg.matmul ins(%w, %x : tensor<64x32xf32>, tensor<32x?xf32>) outs(%init : tensor<64x?xf32>) -> tensor<64x?xf32>
  return %y : tensor<64x?xf32>
}
