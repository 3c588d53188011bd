#!/usr/bin/env python3
"""A PyTorch MLP with its weights pruned to 64:2:8, on vnm's kernels.

Two steps, because compiling needs LLVM/MLIR (libVNMCAPI.so) and running
needs a GPU:

  # here: compile one kernel per layer shape (PTX + launch contract)
  PYTHONPATH=python VNM_LIBRARY_PATH=build/lib python3 examples/torch_mlp.py compile bench/build/mlp
  # on the GPU host: format library alone, PyTorch and CuPy
  PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/libVNMFormatC.so \\
      python3 examples/torch_mlp.py run bench/build/mlp

`run` builds Linear(4096, 11008) -> ReLU -> Linear(11008, 4096) in fp16 with
random weights, swaps each Linear for vnm.torch.SparseLinear, checks the
output against PyTorch's dense forward on the same pruned weights, and times
both (CUDA events, medians).
"""

import os
import sys

HIDDEN, FFN, TOKENS, FORMAT = 4096, 11008, 2048, (64, 2, 8)


def layer_mlir(rows, cols):
    v, n, m = FORMAT
    w = f"tensor<{rows}x{cols}xf16, #vnm.encoding<v = {v}, n = {n}, m = {m}>>"
    return f"""func.func @linear(%w: {w}, %x: tensor<{cols}x?xf16>, %b: tensor<{rows}xf16>)
    -> tensor<{rows}x?xf16> {{
  %y = vnm.spmm %w, %x bias(%b : tensor<{rows}xf16>) : {w}, tensor<{cols}x?xf16>
      -> tensor<{rows}x?xf16>
  return %y : tensor<{rows}x?xf16>
}}"""


def compile_kernels(directory):
    import vnm

    for name, (rows, cols) in {"up": (FFN, HIDDEN), "down": (HIDDEN, FFN)}.items():
        vnm.compile(layer_mlir(rows, cols), target="sm_90").write(
            os.path.join(directory, name))
    print(f"kernels in {directory}")


def median_ms(torch, fn, runs=30, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def run(directory):
    import torch
    from vnm.runtime import SpmmKernel
    from vnm.torch import SparseLinear

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    dense = torch.nn.Sequential(torch.nn.Linear(HIDDEN, FFN), torch.nn.ReLU(),
                                torch.nn.Linear(FFN, HIDDEN)).half()
    up = SparseLinear(SpmmKernel.from_files(os.path.join(directory, "up")),
                      dense[0].weight, dense[0].bias)
    down = SparseLinear(SpmmKernel.from_files(os.path.join(directory, "down")),
                        dense[2].weight, dense[2].bias)
    sparse = torch.nn.Sequential(up, torch.nn.ReLU(), down)
    # The framework's dense computation on the same pruned weights.
    with torch.no_grad():
        dense[0].weight.copy_(up.pruned_weight)
        dense[2].weight.copy_(down.pruned_weight)
    dense = dense.cuda()
    x = torch.randn(TOKENS, HIDDEN, device="cuda", dtype=torch.float16)
    with torch.no_grad():
        y_sparse = sparse(x).float()
        y_dense = dense(x).float()
        error = float((y_sparse - y_dense).norm() / y_dense.norm())
        t_sparse = median_ms(torch, lambda: sparse(x))
        t_dense = median_ms(torch, lambda: dense(x))
    ok = error <= 1e-2 and not torch.isnan(y_sparse).any()
    print(f"{torch.cuda.get_device_name()}: MLP {HIDDEN}->{FFN}->{HIDDEN}, {TOKENS} tokens, "
          f"fp16, 64:2:8")
    print(f"relative error against the dense forward on the pruned weights: {error:.2e} "
          f"({'ok' if ok else 'WRONG'})")
    print(f"dense forward (cuBLAS) {t_dense:.3f} ms, vnm SparseLinear {t_sparse:.3f} ms "
          f"({t_dense / t_sparse:.2f}x; includes the activation transposes)")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("compile", "run"):
        sys.exit(__doc__)
    sys.exit(compile_kernels(sys.argv[2]) if sys.argv[1] == "compile" else run(sys.argv[2]))
