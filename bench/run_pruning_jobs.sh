#!/usr/bin/env bash
# On the GPU host: several configurations of the MiniLM pruning study
# (examples/minilm_pruning.py --device cuda) side by side on the one GPU.
#
#   bash bench/run_pruning_jobs.sh <outdir> NAME="ARGS" ...
#
# Each job writes <outdir>/NAME.txt as it runs (use --log-every to see the
# distillation's progress in a run that a time limit stops) and
# <outdir>/NAME.md at its end. The pruning's numerics run on the CPU in
# numpy: each job gets an equal share of the cores as its BLAS and torch
# threads, since jobs that each take all of them do not finish. Expects,
# compiled here: bench/build/minilm-model, bench/build/fortunes and
# bench/build/libVNMFormatC.so (as bench/run_minilm.sh). JOB_SECONDS (default
# 570) stops every job after that many seconds.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="${1:?usage: bash bench/run_pruning_jobs.sh <outdir> NAME=\"ARGS\" ...}"
shift
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
cd "$ROOT"
export PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/libVNMFormatC.so
threads=$(( $(nproc) / $# ))
(( threads < 1 )) && threads=1
pids=()
for spec in "$@"; do
  name="${spec%%=*}"
  args="${spec#*=}"
  echo "== $name: $args ($threads threads)"
  # shellcheck disable=SC2086
  OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads MKL_NUM_THREADS=$threads \
    timeout "${JOB_SECONDS:-570}" python3 examples/minilm_pruning.py --device cuda \
    --model-dir bench/build/minilm-model --fortune-dir bench/build/fortunes \
    --threads "$threads" $args --markdown "$OUTDIR/$name.md" \
    >"$OUTDIR/$name.txt" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
for spec in "$@"; do
  name="${spec%%=*}"
  echo "== $name"
  grep -E "^ +[0-9:]+ |via |step " "$OUTDIR/$name.txt" | tail -n 12
done
exit $status
