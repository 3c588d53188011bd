#!/usr/bin/env bash
# On the GPU host: the package's GPU tests over the format library alone and
# the kernels bench/prepare_python_gpu_tests.py compiled.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PYTHONPATH="$ROOT/python"
export VNM_LIBRARY_PATH="$ROOT/bench/build/libVNMFormatC.so"
export VNM_GPU_KERNELS="$ROOT/bench/build/python-kernels"
export VNM_CACHE_DIR="$ROOT/bench/build/python-kernels/cache"
# JAX would otherwise take most of the GPU's memory before PyTorch allocates.
export XLA_PYTHON_CLIENT_PREALLOCATE="${XLA_PYTHON_CLIENT_PREALLOCATE:-false}"
exec python3 -B -m pytest -q -p no:cacheprovider -m gpu "$ROOT/test/python/test_gpu_runtime.py" \
    "$ROOT/test/python/test_torch_sparsify_gpu.py" "$ROOT/test/python/test_jax_layer_gpu.py" "$@"
