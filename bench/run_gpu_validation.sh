#!/usr/bin/env bash
# On the GPU host: the GPU issue's runs, in a few calls, each step under its
# own time limit so that what finished comes back even when a later step
# does not:
#
#   bash bench/run_gpu_validation.sh <outdir> <part>
#
# with the builds that bench/prepare_gpu_validation.sh compiled here:
#
#   part 1: the wgmma.sp probes (hopper_probes/run_on_device.sh); the
#           default sm_90, sm_90a and quantized builds over the whole case
#           matrix, timed next to cuBLAS, cuSPARSELt and torch._int_mm
#           (bench/run_builds.sh), with compute-sanitizer over small cases
#           of the sm_90 build and of the sm_90a build's two wgmma.sp
#           kernels (multistage and warp-specialized);
#   part 2: the families the defaults do not choose: W8A8/W4A8 on s8
#           wgmma.sp, split-K (f16/bf16 and W4A16), each with
#           compute-sanitizer (bench/run_untested_families.sh);
#   part 3: the end-to-end examples (bench/run_end_to_end.sh, from what
#           bench/prepare_end_to_end.sh put in bench/build).
#
# STEP_SECONDS scales the time limits (default 1).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: bash bench/run_gpu_validation.sh <outdir> <1|2|3>"
OUTDIR="${1:?$usage}"
PART="${2:?$usage}"
B=bench/build-validation
scale="${STEP_SECONDS:-1}"
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
cd "$ROOT" || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv \
  >"$OUTDIR/device.txt" 2>&1
python3 -c 'import torch; print("torch", torch.__version__)' \
  >>"$OUTDIR/device.txt" 2>&1
status=0
step() { # name seconds command...
  local name="$1" seconds="$2"
  shift 2
  echo "== $name ($((seconds * scale)) s): $*"
  timeout "$((seconds * scale))" "$@" >"$OUTDIR/$name.log" 2>&1 || status=1
  tail -n 4 "$OUTDIR/$name.log"
}
case "$PART" in
1)
  step probes 50 bash bench/hopper_probes/run_on_device.sh "$OUTDIR/probes"
  step builds 400 bash bench/run_builds.sh "$OUTDIR/builds" \
    r1000_k4000_v16_m4_f16,r96_k4096_v64_m4_f16 \
    "$B/sm90" "$B/sm90a" "$B/quantized"
  for tool in memcheck racecheck synccheck; do
    step "sanitizer-sm90a-$tool" 30 compute-sanitizer --tool "$tool" \
      python3 -B bench/device_bench.py --build "$B/sm90a" --check-only \
      --filter r96_k4096_v64_m4_f16,r1000_k4000_v64_m8_f16
  done
  ;;
2)
  step untested 480 bash bench/run_untested_families.sh "$OUTDIR/untested" \
    "$B/s8-wgmma" "$B/split-k" "$B/split-k-w4a16" "$B/quantized"
  ;;
3)
  step end-to-end 420 bash bench/run_end_to_end.sh "$OUTDIR/end-to-end"
  ;;
*)
  echo "$usage" >&2
  exit 2
  ;;
esac
exit $status
