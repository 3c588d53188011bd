// vnm-quantize: the op's vnm.quantization attribute or the default choice
// turns an spmm of a compressed float weight into its quantized form.
// RUN: vnm-opt %s --vnm-quantize --split-input-file | FileCheck %s
// RUN: vnm-opt %s --vnm-quantize=default=w4a16-g16 --split-input-file | FileCheck %s --check-prefix=DEFAULT

#enc = #vnm.encoding<v = 64, n = 2, m = 8>

// CHECK-LABEL: func @w8a8
// CHECK-SAME: (%[[W:.*]]: tensor<128x64xf16>, %[[X:.*]]: tensor<64x?xf16>, %[[B:.*]]: tensor<128xf32>)
// CHECK: %[[P:.*]] = vnm.prune %[[W]] {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} : tensor<128x64xf16> -> tensor<128x64xf16>
// CHECK: %[[Q:.*]], %[[S:.*]] = vnm.quantize %[[P]] {axis = 0 : i64} : tensor<128x64xf16> -> tensor<128x64xi8>, tensor<128xf32>
// CHECK: %[[C:.*]] = vnm.compress %[[Q]] : tensor<128x64xi8> -> tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
// CHECK: %[[XQ:.*]], %[[XS:.*]] = vnm.quantize %[[X]] {axis = 1 : i64} : tensor<64x?xf16> -> tensor<64x?xi8>, tensor<?xf32>
// CHECK: vnm.spmm %[[C]], %[[XQ]] bias(%[[B]] : tensor<128xf32>) weight_scales(%[[S]] : tensor<128xf32>) input_scales(%[[XS]] : tensor<?xf32>) {activation = #vnm.activation<relu>} : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<64x?xi8> -> tensor<128x?xf32>
// CHECK-NOT: vnm.quantization
// DEFAULT-LABEL: func @w8a8
// DEFAULT: vnm.quantize %{{.*}} {axis = 1 : i64}
func.func @w8a8(%w: tensor<128x64xf16>, %x: tensor<64x?xf16>, %b: tensor<128xf32>) -> tensor<128x?xf32> {
  %c = vnm.compress %w : tensor<128x64xf16> -> tensor<128x64xf16, #enc>
  %y = vnm.spmm %c, %x bias(%b : tensor<128xf32>) {activation = #vnm.activation<relu>, vnm.quantization = "w8a8"}
      : tensor<128x64xf16, #enc>, tensor<64x?xf16> -> tensor<128x?xf32>
  return %y : tensor<128x?xf32>
}

// -----

// Without an attribute the op is left alone, unless a default applies:
// DEFAULT quantizes the weight to i4 per row and group of 16 columns and
// keeps the f16 activations.
#enc = #vnm.encoding<v = 64, n = 2, m = 8>

// CHECK-LABEL: func @no_choice
// CHECK-NOT: vnm.quantize
// CHECK: vnm.spmm %{{.*}}, %{{.*}} : tensor<128x40xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<40x4xf16> -> tensor<128x4xf16>
// DEFAULT-LABEL: func @no_choice
// DEFAULT: vnm.quantize %{{.*}} {axis = 0 : i64, group_size = 16 : i64} : tensor<128x40xf16> -> tensor<128x40xi4>, tensor<128x3xf32>
// DEFAULT-NOT: {axis = 1
// DEFAULT: vnm.spmm %{{.*}}, %{{.*}} weight_scales(%{{.*}} : tensor<128x3xf32>) {group_size = 16 : i64} : tensor<128x40xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<40x4xf16> -> tensor<128x4xf16>
func.func @no_choice(%w: tensor<128x40xf16>, %x: tensor<40x4xf16>) -> tensor<128x4xf16> {
  %c = vnm.compress %w : tensor<128x40xf16> -> tensor<128x40xf16, #enc>
  %y = vnm.spmm %c, %x : tensor<128x40xf16, #enc>, tensor<40x4xf16> -> tensor<128x4xf16>
  return %y : tensor<128x4xf16>
}

// -----

// An encoded weight argument takes the quantized encoding and its scales
// as the next argument; calls quantize what they pass.
#enc = #vnm.encoding<v = 64, n = 2, m = 8>

// CHECK-LABEL: func @argument
// CHECK-SAME: (%{{.*}}: tensor<64x?xf16>, %[[W:.*]]: tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, %[[S:.*]]: tensor<128x4xf32>, %{{.*}}: tensor<4xf32>)
// CHECK: vnm.spmm %[[W]], %{{.*}} weight_scales(%[[S]] : tensor<128x4xf32>) {group_size = 16 : i64}
// CHECK: vnm.spmm %[[W]], %{{.*}} weight_scales(%[[S]] : tensor<128x4xf32>) {group_size = 16 : i64}
func.func @argument(%x: tensor<64x?xf16>, %w: tensor<128x64xf16, #enc>, %u: tensor<4xf32>) -> (tensor<128x?xf32>, tensor<128x?xf32>) {
  %y = vnm.spmm %w, %x {vnm.quantization = "w4a16-g16"} : tensor<128x64xf16, #enc>, tensor<64x?xf16> -> tensor<128x?xf32>
  %z = vnm.spmm %w, %x {vnm.quantization = "w4a16-g16"} : tensor<128x64xf16, #enc>, tensor<64x?xf16> -> tensor<128x?xf32>
  return %y, %z : tensor<128x?xf32>, tensor<128x?xf32>
}

// CHECK-LABEL: func @caller
// CHECK-SAME: (%[[X:.*]]: tensor<64x?xf16>, %[[E:.*]]: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %[[U:.*]]: tensor<4xf32>)
// CHECK: %[[D:.*]] = vnm.decompress %[[E]]
// CHECK: %[[Q:.*]], %[[QS:.*]] = vnm.quantize %[[D]] {axis = 0 : i64, group_size = 16 : i64} : tensor<128x64xf16> -> tensor<128x64xi4>, tensor<128x4xf32>
// CHECK: %[[C:.*]] = vnm.compress %[[Q]]
// CHECK: call @argument(%[[X]], %[[C]], %[[QS]], %[[U]]) : (tensor<64x?xf16>, tensor<128x64xi4, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<128x4xf32>, tensor<4xf32>)
func.func @caller(%x: tensor<64x?xf16>, %e: tensor<128x64xf16, #enc>, %u: tensor<4xf32>) -> tensor<128x?xf32> {
  %y, %z = func.call @argument(%x, %e, %u) : (tensor<64x?xf16>, tensor<128x64xf16, #enc>, tensor<4xf32>) -> (tensor<128x?xf32>, tensor<128x?xf32>)
  return %y : tensor<128x?xf32>
}
