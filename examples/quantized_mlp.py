#!/usr/bin/env python3
"""A PyTorch MLP with its weights pruned to V:N:M and quantized to 8 bits,
on vnm's quantized kernels (W8A16: i8 weights, f16 activations; W8A8: i8
weights and activations quantized per token).

Two steps, because compiling needs LLVM/MLIR (libVNMCAPI.so) and running
needs a GPU:

  # here: compile one kernel per layer shape and form (PTX + launch contract)
  PYTHONPATH=python VNM_LIBRARY_PATH=build/lib python3 examples/quantized_mlp.py compile bench/build/qmlp
  # on the GPU host: format library alone, PyTorch and CuPy
  PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/libVNMFormatC.so \\
      python3 examples/quantized_mlp.py run bench/build/qmlp

`run` builds Linear(4096, 11008) -> ReLU -> Linear(11008, 4096) in fp16 with
random weights and, for each form and format, swaps each Linear for a
vnm.torch.QuantizedSparseLinear (which prunes, then quantizes the kept
values per output channel). It checks the output against PyTorch's dense
fp16 forward on the same pruned and dequantized weights (W8A8 also rounds
the activations to 8 bits per token, which the dense forward does not, so
its bound is wider), and times both (CUDA events, medians).
"""

import os
import sys

HIDDEN, FFN, TOKENS = 4096, 11008, 2048
FORMATS = {"2:4": (64, 2, 4), "64:2:8": (64, 2, 8)}
FORMS = ["w8a16", "w8a8"]
# Relative error bounds against the dense forward on the dequantized
# weights: W8A16 differs by f32-vs-f16 accumulation only; W8A8 adds the
# activations' 8-bit rounding (about 0.4% per value, before ReLU).
BOUNDS = {"w8a16": 1e-2, "w8a8": 5e-2}


def layer_mlir(form, rows, cols, encoding):
    v, n, m = encoding
    w = f"tensor<{rows}x{cols}xi8, #vnm.encoding<v = {v}, n = {n}, m = {m}>>"
    y = f"tensor<{rows}x?xf16>"
    b = f"tensor<{rows}xf16>"
    sw = f"tensor<{rows}xf32>"
    if form == "w8a16":
        x = f"tensor<{cols}x?xf16>"
        return f"""func.func @linear(%w: {w}, %x: {x}, %b: {b}, %sw: {sw}) -> {y} {{
  %y = vnm.spmm %w, %x bias(%b : {b}) weight_scales(%sw : {sw}) : {w}, {x} -> {y}
  return %y : {y}
}}"""
    x = f"tensor<{cols}x?xi8>"
    return f"""func.func @linear(%w: {w}, %x: {x}, %b: {b}, %sw: {sw},
    %sx: tensor<?xf32>) -> {y} {{
  %y = vnm.spmm %w, %x bias(%b : {b}) weight_scales(%sw : {sw})
      input_scales(%sx : tensor<?xf32>) : {w}, {x} -> {y}
  return %y : {y}
}}"""


def kernel_dir(directory, form, fmt, layer):
    return os.path.join(directory, f"{form}-{fmt.replace(':', '_')}-{layer}")


def compile_kernels(directory):
    import vnm

    for form in FORMS:
        for fmt, encoding in FORMATS.items():
            for layer, (rows, cols) in {"up": (FFN, HIDDEN), "down": (HIDDEN, FFN)}.items():
                vnm.compile(layer_mlir(form, rows, cols, encoding), target="sm_90").write(
                    kernel_dir(directory, form, fmt, layer))
    print(f"kernels in {directory}")
    return 0


def run(directory):
    import torch
    from torch_mlp import median_ms  # the same timing as the float example
    from vnm.runtime import SpmmKernel
    from vnm.torch import QuantizedSparseLinear

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    base = torch.nn.Sequential(torch.nn.Linear(HIDDEN, FFN), torch.nn.ReLU(),
                               torch.nn.Linear(FFN, HIDDEN)).half()
    x = torch.randn(TOKENS, HIDDEN, device="cuda", dtype=torch.float16)
    print(f"{torch.cuda.get_device_name()}: MLP {HIDDEN}->{FFN}->{HIDDEN}, {TOKENS} tokens")
    dense_fp16 = base.cuda()
    with torch.no_grad():
        t_fp16 = median_ms(torch, lambda: dense_fp16(x))
    print(f"dense fp16 forward of the unpruned weights (cuBLAS): {t_fp16:.3f} ms")
    failures = 0
    for form in FORMS:
        for fmt in FORMATS:
            up = QuantizedSparseLinear(
                SpmmKernel.from_files(kernel_dir(directory, form, fmt, "up"), "spmm_0"),
                base[0].weight, base[0].bias)
            down = QuantizedSparseLinear(
                SpmmKernel.from_files(kernel_dir(directory, form, fmt, "down"), "spmm_0"),
                base[2].weight, base[2].bias)
            sparse = torch.nn.Sequential(up, torch.nn.ReLU(), down)
            # The framework's dense computation on the same pruned and
            # dequantized weights.
            dense = torch.nn.Sequential(torch.nn.Linear(HIDDEN, FFN), torch.nn.ReLU(),
                                        torch.nn.Linear(FFN, HIDDEN)).half().cuda()
            with torch.no_grad():
                dense[0].weight.copy_(up.dequantized_weight)
                dense[0].bias.copy_(base[0].bias)
                dense[2].weight.copy_(down.dequantized_weight)
                dense[2].bias.copy_(base[2].bias)
                y_sparse = sparse(x).float()
                y_dense = dense(x).float()
                error = float((y_sparse - y_dense).norm() / y_dense.norm())
                t_sparse = median_ms(torch, lambda: sparse(x))
                t_dense = median_ms(torch, lambda: dense(x))
            ok = error <= BOUNDS[form] and not torch.isnan(y_sparse).any()
            failures += not ok
            print(f"{form} {fmt}: relative error {error:.2e} against the dense forward on the "
                  f"dequantized weights ({'ok' if ok else 'WRONG'}); dense fp16 {t_dense:.3f} "
                  f"ms, vnm {t_sparse:.3f} ms ({t_dense / t_sparse:.2f}x; includes the "
                  "activation transposes and, for W8A8, their quantization)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("compile", "run"):
        sys.exit(__doc__)
    sys.exit(compile_kernels(sys.argv[2]) if sys.argv[1] == "compile" else run(sys.argv[2]))
