#!/usr/bin/env bash
# On the GPU host: all-MiniLM-L6-v2 end to end on vnm's kernels, once per
# kernel choice, each timed against PyTorch's dense forward in its own run
# (examples/minilm_sparse.py --time), and optionally the pruning study of
# examples/minilm_pruning.py on the GPU.
#
#   bash bench/run_minilm.sh <outdir> LABEL=TARGET[:GPU_OPTIONS] ...
#
# Expects, compiled here: bench/build/minilm-model (the model, e.g. an fp16
# copy), bench/build/minilm-cache (minilm_sparse.py --compile-only for each
# TARGET and GPU_OPTIONS), bench/build/libVNMFormatC.so. PRUNING_ARGS, if
# set, are passed to minilm_pruning.py --device cuda (with
# bench/build/fortunes as its --fortune-dir), after the timed runs.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="${1:?usage: bash bench/run_minilm.sh <outdir> LABEL=TARGET[:GPU_OPTIONS] ...}"
shift
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
cd "$ROOT"
export PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/libVNMFormatC.so
status=0
for spec in "$@"; do
  label="${spec%%=*}"
  rest="${spec#*=}"
  target="${rest%%:*}"
  options=""
  [[ "$rest" == *:* ]] && options="${rest#*:}"
  echo "== $label: --target $target --gpu-options '$options'"
  python3 examples/minilm_sparse.py --target "$target" --gpu-options "$options" \
    --cache-dir bench/build/minilm-cache --model-dir bench/build/minilm-model \
    --time --threads 16 --json "$OUTDIR/minilm-$label.json" \
    >"$OUTDIR/minilm-$label.txt" 2>&1 || status=1
  tail -n 2 "$OUTDIR/minilm-$label.txt"
done
if [[ -n "${PRUNING_ARGS:-}" ]]; then
  echo "== minilm_pruning.py --device cuda $PRUNING_ARGS"
  # shellcheck disable=SC2086
  python3 examples/minilm_pruning.py --device cuda --model-dir bench/build/minilm-model \
    --fortune-dir bench/build/fortunes --no-format-check $PRUNING_ARGS \
    --markdown "$OUTDIR/pruning.md" >"$OUTDIR/pruning.txt" 2>&1 || status=1
  tail -n 4 "$OUTDIR/pruning.txt"
fi
exit $status
