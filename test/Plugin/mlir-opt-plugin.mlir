// Debian's own mlir-opt, with vnm loaded as a plugin, parses vnm IR and runs
// vnm passes and pipelines next to upstream ones (named in --pass-pipeline:
// mlir-opt parses its pass flags before it loads plugins).
// RUN: %mlir_opt %s --load-dialect-plugin=%vnm_plugin --load-pass-plugin=%vnm_plugin \
// RUN:   --pass-pipeline="builtin.module(vnm-expand-storage,canonicalize)" | FileCheck %s
// RUN: %mlir_opt %s --load-dialect-plugin=%vnm_plugin --load-pass-plugin=%vnm_plugin \
// RUN:   --pass-pipeline="builtin.module(vnm-lower-to-cpu-pipeline)" | FileCheck %s --check-prefix=CPU

// CHECK-LABEL: func.func @linear
//       CHECK:   vnm.storage.compress
//       CHECK:   vnm.storage.spmm
// CPU: llvm.func private @vnm_rt_compress_f16
// CPU: llvm.func @linear
func.func @linear(%w: tensor<64x32xf16>, %x: tensor<32x8xf16>) -> tensor<64x8xf32> {
  %s = vnm.compress %w : tensor<64x32xf16> -> tensor<64x32xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
  %y = vnm.spmm %s, %x : tensor<64x32xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<32x8xf16> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}
