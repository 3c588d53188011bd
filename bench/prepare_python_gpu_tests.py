#!/usr/bin/env python3
"""Compiles the kernels test/python/test_gpu_runtime.py launches (here, where
libVNMCAPI.so is) into bench/build/python-kernels/<name>/, and copies the
format library next to them, for the GPU host (bench/run_python_gpu_tests.sh)."""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import vnm  # noqa: E402

KERNELS = {
    "linear_f16_bias": """
!w = tensor<512x1024xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @linear(%w: !w, %x: tensor<1024x?xf16>, %b: tensor<512xf16>) -> tensor<512x?xf16> {
  %y = vnm.spmm %w, %x bias(%b : tensor<512xf16>) : !w, tensor<1024x?xf16> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}""",
    # A 6-stage ring: 96 KiB of dynamic shared memory, which the runtime
    # must allow before launching.
    "linear_f16_ring6": """
!w = tensor<512x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @linear(%w: !w, %x: tensor<4096x?xf16>, %b: tensor<512xf16>) -> tensor<512x?xf16> {
  %y = vnm.spmm %w, %x bias(%b : tensor<512xf16>)
      {vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 6, blocks_per_sm = 2>}
      : !w, tensor<4096x?xf16> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}""",
    # Quantized kernels for vnm.torch.QuantizedSparseLinear: W8A8 (i8
    # activations read token-major, per-token scales) and W4A16 (an i4
    # weight dequantized for f16 activations).
    "linear_w8a8_bias": """
!w = tensor<512x1024xi8, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @linear(%w: !w, %x: tensor<1024x?xi8>, %sw: tensor<512xf32>,
                  %sx: tensor<?xf32>, %b: tensor<512xf16>) -> tensor<512x?xf16> {
  %y = vnm.spmm %w, %x bias(%b : tensor<512xf16>) weight_scales(%sw : tensor<512xf32>)
      input_scales(%sx : tensor<?xf32>) : !w, tensor<1024x?xi8> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}""",
    "linear_w4a16_bias": """
!w = tensor<512x1024xi4, #vnm.encoding<v = 128, n = 2, m = 8>>
func.func @linear(%w: !w, %x: tensor<1024x?xf16>, %sw: tensor<512xf32>,
                  %b: tensor<512xf16>) -> tensor<512x?xf16> {
  %y = vnm.spmm %w, %x bias(%b : tensor<512xf16>) weight_scales(%sw : tensor<512xf32>)
      : !w, tensor<1024x?xf16> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}""",
    "spmm_bf16_f32": """
!w = tensor<300x1000xbf16, #vnm.encoding<v = 128, n = 2, m = 16>>
func.func @spmm(%w: !w, %x: tensor<1000x?xbf16>) -> tensor<300x?xf32> {
  %y = vnm.spmm %w, %x : !w, tensor<1000x?xbf16> -> tensor<300x?xf32>
  return %y : tensor<300x?xf32>
}""",
}


def main():
    out = os.path.join(ROOT, "bench", "build", "python-kernels")
    for name, source in KERNELS.items():
        vnm.compile(source, target="sm_90").write(os.path.join(out, name))
    lib = os.path.join(os.path.dirname(str(vnm.library_path)), "libVNMFormatC.so")
    shutil.copy(lib, os.path.join(ROOT, "bench", "build", "libVNMFormatC.so"))
    print(f"kernels for the Python GPU tests in {out}")


if __name__ == "__main__":
    main()
