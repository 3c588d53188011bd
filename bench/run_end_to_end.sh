#!/usr/bin/env bash
# On the GPU host: every end-to-end run on the kernels that
# bench/prepare_end_to_end.sh compiled into bench/build, in one call:
#
#   bash bench/run_end_to_end.sh <outdir>
#
# the package's GPU tests (pytest-gpu.txt), examples/torch_mlp.py and
# quantized_mlp.py `run` against PyTorch's dense forward (torch_mlp.txt,
# quantized_mlp.txt), the JAX MLP (jax_mlp.md) and MiniLM through
# vnm.torch.sparsify on sm_90 and sm_90a kernels, timed against the dense
# model eager, compiled and under CUDA graphs (minilm-*.json). Each step's
# output lands in <outdir>; a failing step does not stop the others, and the
# exit status says whether any failed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="${1:?usage: bash bench/run_end_to_end.sh <outdir>}"
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
cd "$ROOT" || exit 1
export PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/libVNMFormatC.so
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv \
  >"$OUTDIR/device.txt" 2>&1
python3 -c 'import torch; print("torch", torch.__version__)' >>"$OUTDIR/device.txt" 2>&1
status=0
step() {
  local name="$1"
  shift
  echo "== $name: $*"
  "$@" >"$OUTDIR/$name.txt" 2>&1 || status=1
  tail -n 3 "$OUTDIR/$name.txt"
}
step pytest-gpu bash bench/run_python_gpu_tests.sh -rs
step torch_mlp python3 -B examples/torch_mlp.py run bench/build/mlp
step quantized_mlp python3 -B examples/quantized_mlp.py run bench/build/qmlp
step jax_mlp bash bench/run_jax_mlp.sh "$OUTDIR"
step minilm bash bench/run_minilm.sh "$OUTDIR" sm90=sm_90 sm90a=sm_90a
exit $status
