// vnm-lower-to-loops needs storage ops on memrefs.
// RUN: vnm-opt %s --vnm-lower-to-loops --split-input-file -verify-diagnostics

func.func @encoded(%w: tensor<64x8xf16>) -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>> {
  // expected-error @+1 {{vnm-lower-to-loops needs vnm storage ops on memrefs; run --vnm-expand-storage and bufferization first}}
  %s = vnm.compress %w : tensor<64x8xf16> -> tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
}

// -----

func.func @storage_on_tensors(%w: tensor<64x8xf16>, %p: tensor<64x8xf16>) -> tensor<64x8xf16> {
  // expected-error @+1 {{vnm-lower-to-loops needs vnm storage ops on memrefs}}
  %r = vnm.storage.prune ins(%w : tensor<64x8xf16>) outs(%p : tensor<64x8xf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<64x8xf16>
  return %r : tensor<64x8xf16>
}
