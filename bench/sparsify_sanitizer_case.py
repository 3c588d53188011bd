#!/usr/bin/env python3
"""One forward of small vnm.torch.sparsify models on the GPU, for
compute-sanitizer (bench/run_python_gpu_tests.sh's environment: the format
library alone and the kernel cache bench/prepare_python_gpu_tests.py
filled):

    compute-sanitizer --tool memcheck python3 bench/sparsify_sanitizer_case.py

Runs the token-major (2:4) and K x N (64:2:8) cases of
test/python/test_torch_sparsify_gpu.py on a ragged token count, through
vnm's own launcher, and checks each against the dense forward."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "python"))

import torch  # noqa: E402
import test_torch_sparsify_gpu as cases  # noqa: E402


def main():
    worst = 0.0
    for case in cases.CASES[:2]:
        model, dense, weight_dtype, model_dtype = cases.sparse_and_dense(case)
        x = torch.randn(37, case[4][0], device="cuda", dtype=model_dtype)
        with torch.no_grad():
            y = model(x)
        torch.cuda.synchronize()
        error = cases.relative_error(y, cases.reference(dense, x, weight_dtype))
        print(f"{case[0]}: relative error {error:.2e}")
        worst = max(worst, error)
    return 0 if worst < 1e-2 else 1


if __name__ == "__main__":
    sys.exit(main())
