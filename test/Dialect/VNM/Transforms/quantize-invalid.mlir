// vnm-quantize refuses what it cannot quantize, says why, and rewrites
// nothing.
// RUN: vnm-opt %s --vnm-quantize --split-input-file -verify-diagnostics
// RUN: not vnm-opt %s --split-input-file --vnm-quantize=default=w3a8 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: vnm-quantize: default: invalid quantization 'w3a8': unknown form 'w3a8'

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
// An encoded argument with another use: it cannot be retyped.
func.func @argument_used_elsewhere(%w: tensor<128x64xf16, #enc>, %x: tensor<64x4xf16>) -> tensor<128x4xf32> {
  // expected-error @+1 {{vnm-quantize: cannot quantize the weight argument 0 of @argument_used_elsewhere: it has a use other than as a vnm.spmm weight ('vnm.decompress')}}
  %y = vnm.spmm %w, %x {vnm.quantization = "w8a8"} : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  %d = vnm.decompress %w : tensor<128x64xf16, #enc> -> tensor<128x64xf16>
  return %y : tensor<128x4xf32>
}

// -----

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
func.func @argument_two_choices(%w: tensor<128x64xf16, #enc>, %x: tensor<64x4xf16>) -> (tensor<128x4xf32>, tensor<128x4xf32>) {
  %y = vnm.spmm %w, %x {vnm.quantization = "w8a8"} : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  // expected-error @+1 {{vnm-quantize: the weight argument 0 is read by vnm.spmm ops with different quantizations}}
  %z = vnm.spmm %w, %x {vnm.quantization = "w4a8"} : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  return %y, %z : tensor<128x4xf32>, tensor<128x4xf32>
}

// -----

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
func.func @argument_partly(%w: tensor<128x64xf16, #enc>, %x: tensor<64x4xf16>) -> (tensor<128x4xf32>, tensor<128x4xf32>) {
  %y = vnm.spmm %w, %x {vnm.quantization = "w8a8"} : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  // expected-error @+1 {{vnm-quantize: the weight argument 0 is quantized for another vnm.spmm, but this one has no quantization}}
  %z = vnm.spmm %w, %x : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  return %y, %z : tensor<128x4xf32>, tensor<128x4xf32>
}

// -----

// expected-error @+1 {{vnm-quantize: argument 0 has 'vnm.quantization' but no 'vnm.encoding' (vnm-sparsify takes both)}}
func.func @argument_without_encoding(%w: tensor<128x64xf16> {vnm.quantization = "w8a8"}) {
  return
}

// -----

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
func.func @group(%w: tensor<128x64xf16>, %x: tensor<64x4xf16>) -> tensor<128x4xf32> {
  %c = vnm.compress %w : tensor<128x64xf16> -> tensor<128x64xf16, #enc>
  // expected-error @+1 {{vnm-quantize: cannot quantize this vnm.spmm: the group size 12 is not a multiple of the encoding's M = 8}}
  %y = vnm.spmm %c, %x {vnm.quantization = "w4a16-g12"} : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  return %y : tensor<128x4xf32>
}

// -----

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
func.func @integer(%w: tensor<128x64xi8>, %x: tensor<64x4xi8>) -> tensor<128x4xi32> {
  %c = vnm.compress %w : tensor<128x64xi8> -> tensor<128x64xi8, #enc>
  // expected-error @+1 {{vnm-quantize: cannot quantize this vnm.spmm: its weight is not a float matrix}}
  %y = vnm.spmm %c, %x {vnm.quantization = "w8a8"} : tensor<128x64xi8, #enc>, tensor<64x4xi8> -> tensor<128x4xi32>
  return %y : tensor<128x4xi32>
}

// -----

func.func @not_spmm(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{vnm-quantize: 'vnm.quantization' applies to vnm.spmm (a matmul vnm-sparsify rewrites); this op is not one}}
  %y = linalg.matmul {vnm.quantization = "w8a8"} ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
func.func @bad_attribute(%w: tensor<128x64xf16>, %x: tensor<64x4xf16>) -> tensor<128x4xf32> {
  %c = vnm.compress %w : tensor<128x64xf16> -> tensor<128x64xf16, #enc>
  // expected-error @+1 {{'vnm.quantization': invalid quantization 'w8a8-g': the group size must be -g followed by a positive integer}}
  %y = vnm.spmm %c, %x {vnm.quantization = "w8a8-g"} : tensor<128x64xf16, #enc>, tensor<64x4xf16> -> tensor<128x4xf32>
  return %y : tensor<128x4xf32>
}

// -----

#enc = #vnm.encoding<v = 64, n = 2, m = 8>
// expected-error @+1 {{vnm-quantize: argument 0 has 'vnm.quantization' and 'vnm.encoding': run vnm-sparsify first, which hands the choice to the spmm ops reading it}}
func.func @argument_not_sparsified(%w: tensor<128x64xf16> {vnm.encoding = #enc, vnm.quantization = "w8a8"}) {
  return
}
