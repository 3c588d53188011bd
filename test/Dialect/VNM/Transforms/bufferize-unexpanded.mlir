// Encoded-tensor ops have no buffer form: bufferizing them before
// --vnm-expand-storage is an error that names the pass, never a silent
// rewrite of an encoded tensor into one dense buffer.
// RUN: vnm-opt %s --one-shot-bufferize -split-input-file -verify-diagnostics

func.func @compress(%w: tensor<128x64xf16>)
    -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>> {
  // expected-error @+2 {{'vnm.compress' has no buffer form: run --vnm-expand-storage before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %s = vnm.compress %w : tensor<128x64xf16>
      -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
}

// -----

func.func @spmm(%s: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
                %x: tensor<64x32xf16>) -> tensor<128x32xf32> {
  // expected-error @+2 {{'vnm.spmm' has no buffer form: run --vnm-expand-storage before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %y = vnm.spmm %s, %x : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
      tensor<64x32xf16> -> tensor<128x32xf32>
  return %y : tensor<128x32xf32>
}
