#!/usr/bin/env python3
"""Compiles the kernels test/python/test_gpu_runtime.py launches (here, where
libVNMCAPI.so is) into bench/build/python-kernels/<name>/ and those of
test_torch_sparsify_gpu.py and test_jax_layer_gpu.py into the kernel cache
bench/build/python-kernels/cache, and copies the format library next to
them, for the GPU host
(bench/run_python_gpu_tests.sh)."""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import vnm  # noqa: E402

TOKEN_MAJOR_QUANTIZED = """
!w = tensor<512x1024x{weight}, #vnm.encoding<{enc}>>
func.func @linear(%w: !w, %tokens: tensor<?x1024xf16>, %sw: tensor<512xf32>,
                  %b: tensor<512xf16>) -> tensor<512x?xf16> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %tokens, %c0 : tensor<?x1024xf16>
  %e = tensor.empty(%n) : tensor<1024x?xf16>
  %x = linalg.transpose ins(%tokens : tensor<?x1024xf16>) outs(%e : tensor<1024x?xf16>)
      permutation = [1, 0]
  %y = vnm.spmm %w, %x bias(%b : tensor<512xf16>) weight_scales(%sw : tensor<512xf32>)
      : !w, tensor<1024x?xf16> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}}"""

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
    # W4A16 / W8A16 reading f16 activations token-major (x[N][K] as
    # PyTorch holds them): at M = 4 by default, at M = 8 with the
    # register gather (KERNEL_OPTIONS).
    "linear_w4a16_tm_m4": TOKEN_MAJOR_QUANTIZED.format(weight="i4", enc="v = 64, n = 2, m = 4"),
    "linear_w8a16_tm_m4": TOKEN_MAJOR_QUANTIZED.format(weight="i8", enc="v = 64, n = 2, m = 4"),
    "linear_w4a16_tm_m8": TOKEN_MAJOR_QUANTIZED.format(weight="i4", enc="v = 128, n = 2, m = 8"),
    "linear_w8a16_tm_m8": TOKEN_MAJOR_QUANTIZED.format(weight="i8", enc="v = 64, n = 2, m = 8"),
    "spmm_bf16_f32": """
!w = tensor<300x1000xbf16, #vnm.encoding<v = 128, n = 2, m = 16>>
func.func @spmm(%w: !w, %x: tensor<1000x?xbf16>) -> tensor<300x?xf32> {
  %y = vnm.spmm %w, %x : !w, tensor<1000x?xbf16> -> tensor<300x?xf32>
  return %y : tensor<300x?xf32>
}""",
}


# Tiling options of the kernels that need them.
KERNEL_OPTIONS = {"linear_w4a16_tm_m8": "register-gather=true",
                  "linear_w8a16_tm_m8": "register-gather=true"}


def main():
    out = os.path.join(ROOT, "bench", "build", "python-kernels")
    for name, source in KERNELS.items():
        result = vnm.compile(source, target="sm_90", gpu_options=KERNEL_OPTIONS.get(name, ""))
        if "_tm_" in name and result.kernels[0].contract.get("rhs_layout") != "token_major":
            sys.exit(f"{name}: the kernel does not read x token-major")
        result.write(os.path.join(out, name))
    # The layer programs of vnm.torch.sparsify's GPU tests, into the
    # kernel cache that bench/run_python_gpu_tests.sh hands them.
    sys.path.insert(0, os.path.join(ROOT, "test", "python"))
    import test_jax_layer_gpu
    import test_torch_sparsify_gpu

    test_torch_sparsify_gpu.fill_cache(os.path.join(out, "cache"))
    test_jax_layer_gpu.fill_cache(os.path.join(out, "cache"))
    lib = os.path.join(os.path.dirname(str(vnm.library_path)), "libVNMFormatC.so")
    shutil.copy(lib, os.path.join(ROOT, "bench", "build", "libVNMFormatC.so"))
    print(f"kernels for the Python GPU tests in {out}")


if __name__ == "__main__":
    main()
