#!/usr/bin/env bash
# On the GPU host (JAX with CUDA, CuPy; no LLVM): the JAX MLP example on the
# kernels `examples/jax_mlp.py compile bench/build/jax-mlp` wrote here, with
# the format library it copied next to them. Writes <outdir>/jax_mlp.md.
#
#   bash bench/run_jax_mlp.sh <outdir> [extra arguments of `jax_mlp.py run`]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="${1:?usage: bash bench/run_jax_mlp.sh <outdir> [--runs N] [--warmup N]}"
shift
KERNELS="$ROOT/bench/build/jax-mlp"
for f in plan.json libVNMFormatC.so; do
  if [[ ! -f "$KERNELS/$f" ]]; then
    echo "run_jax_mlp.sh: $KERNELS/$f is missing; on the machine with LLVM run" >&2
    echo "  PYTHONPATH=python VNM_LIBRARY_PATH=build/lib python3 examples/jax_mlp.py compile bench/build/jax-mlp" >&2
    exit 2
  fi
done
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
export PYTHONPATH="$ROOT/python"
export VNM_LIBRARY_PATH="$KERNELS/libVNMFormatC.so"
# JAX would otherwise take most of the GPU's memory before CuPy allocates.
export XLA_PYTHON_CLIENT_PREALLOCATE="${XLA_PYTHON_CLIENT_PREALLOCATE:-false}"
cd "$ROOT"
exec python3 -B examples/jax_mlp.py run bench/build/jax-mlp --out "$OUTDIR/jax_mlp.md" "$@"
