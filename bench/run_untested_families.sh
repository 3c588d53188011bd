#!/usr/bin/env bash
# On the GPU host, in one call: correctness and speed of the kernel families
# that no GPU has run yet, with compute-sanitizer over a small case of each,
# each step under its own time limit so that what finished comes back:
#
#   bash bench/run_untested_families.sh <outdir> <s8 wgmma build> <split-K build> \
#       [<split-K quantized build> <whole-K quantized build>]
#
# built here by
#
#   python3 bench/compile_quantized_cases.py --chip sm_90a --recipe wgmma-sp-ws \
#       --filter w8a8,w4a8 --out <s8 wgmma build>
#   python3 bench/compile_cases.py --k-splits 4 --out <split-K build>
#   python3 bench/compile_quantized_cases.py --filter w4a16 --k-splits 4 \
#       --out <split-K quantized build>
#   python3 bench/compile_quantized_cases.py --out <whole-K quantized build>
#
# 1. W8A8 and W4A8 2:4 on s8 wgmma.sp (the build's M = 4 kernels; its M = 8
#    ones are the mma.sp kernels timed before) next to torch._int_mm, and
#    memcheck and racecheck over one kernel of each form;
# 2. the f16/bf16 split-K kernels next to cuBLAS, with bench/run_builds.sh's
#    sanitizers over two of them;
# 3. the W4A16 split-K kernels and, in the same run, their whole-K kernels
#    (the decode bar's forms).
# STEP_SECONDS scales the time limits (default 1: about 430 s in all).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: bash bench/run_untested_families.sh <outdir> <s8 wgmma build> <split-K build> [<split-K quantized build> <whole-K quantized build>]"
OUTDIR="${1:?$usage}"
S8="${2:?$usage}"
KS="${3:?$usage}"
QKS="${4:-}"
Q="${5:-}"
scale="${STEP_SECONDS:-1}"
limit() { echo $(( $1 * scale )); }
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
cd "$ROOT" || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv \
  >"$OUTDIR/device.txt" 2>&1
status=0
step() { # name seconds command...
  local name="$1" seconds="$2"
  shift 2
  echo "== $name: $*"
  timeout "$(limit "$seconds")" "$@" >"$OUTDIR/$name.log" 2>&1 || status=1
  tail -n 3 "$OUTDIR/$name.log"
}
step s8-wgmma 150 python3 -B bench/quantized_device_bench.py --build "$S8" \
  --filter _m4_ --out "$OUTDIR/s8-wgmma" \
  --command "bash bench/run_untested_families.sh $*"
for tool in memcheck racecheck; do
  step "sanitizer-s8-wgmma-$tool" 35 compute-sanitizer --tool "$tool" \
    python3 -B bench/quantized_device_bench.py --build "$S8" \
    --filter w8a8_r200_k100_v64_m4_f16,w4a8_r200_k100_v64_m4_i32 \
    --no-timing --out "$OUTDIR/sanitizer-s8-wgmma-$tool"
done
step split-k 130 bash bench/run_builds.sh "$OUTDIR/split-k" r96_k4096 "$KS"
if [[ -n "$QKS" && -n "$Q" ]]; then
  step split-k-w4a16 50 python3 -B bench/quantized_device_bench.py \
    --build "$QKS" --out "$OUTDIR/split-k-w4a16"
  step whole-k-w4a16 50 python3 -B bench/quantized_device_bench.py \
    --build "$Q" --filter w4a16 --out "$OUTDIR/whole-k-w4a16"
fi
exit $status
