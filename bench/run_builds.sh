#!/usr/bin/env bash
# On the GPU host: times several compile_cases.py builds in one run, side by
# side with cuBLAS (device_bench.py for each build in turn, so that all of
# them see the same GPU state), then runs compute-sanitizer (memcheck,
# racecheck, synccheck) over a few small cases of the first build.
# Everything lands in <outdir>/<build name>/ and <outdir>/sanitizer-*.txt.
#
#   bash bench/run_builds.sh <outdir> <sanitizer filter> <build dir>...
#
# Builds of compile_quantized_cases.py are timed by quantized_device_bench.py
# instead (their cases name a quantized form). The sanitizer filter is
# device_bench.py's --filter (comma-separated substrings of case names) over
# the first build, which must then be a float one; "-" skips the sanitizers. BENCH_FILTER, if set,
# is the --filter of the timed runs (default: every case of each build).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="${1:?usage: bash bench/run_builds.sh <outdir> <sanitizer filter> <build dir>...}"
FILTER="${2:?usage: bash bench/run_builds.sh <outdir> <sanitizer filter> <build dir>...}"
shift 2
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
cd "$ROOT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv \
  >"$OUTDIR/device.txt" 2>&1
python3 -c 'import torch; print("torch", torch.__version__)' \
  >>"$OUTDIR/device.txt" 2>&1
status=0
for build in "$@"; do
  name="$(basename "$build")"
  bench=bench/device_bench.py
  if python3 -c 'import json, sys
sys.exit("form" not in json.load(open(sys.argv[1]))["cases"][0])' \
      "$build/manifest.json"; then
    bench=bench/quantized_device_bench.py
  fi
  echo "== $name ($bench)"
  python3 -B "$bench" --build "$build" --out "$OUTDIR/$name" \
    --filter "${BENCH_FILTER:-}" \
    --command "${BENCH_FILTER:+BENCH_FILTER=$BENCH_FILTER }bash bench/run_builds.sh <outdir> $FILTER $*" \
    >"$OUTDIR/$name.log" 2>&1 || status=1
  tail -n 3 "$OUTDIR/$name.log"
done
if [[ "$FILTER" != "-" ]]; then
  first="$1"
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool ($FILTER, $(basename "$first"))"
    compute-sanitizer --tool "$tool" python3 -B bench/device_bench.py \
      --build "$first" --filter "$FILTER" --check-only \
      >"$OUTDIR/sanitizer-$tool.txt" 2>&1 || status=1
    tail -n 2 "$OUTDIR/sanitizer-$tool.txt"
  done
fi
exit $status
