#!/usr/bin/env bash
# On the GPU machine: runs the wgmma.sp probes built by build.sh, one
# (case, descriptor variant) per process, and compute-sanitizer over the
# loop probe with the descriptor that passed; everything goes to the
# directory given (default $OUT). Prints CSV lines: case, descriptor, lbo,
# sbo, result, mismatches, max error.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN="$HERE/build"
DEST="${1:-${OUT:?give a results directory}}"
mkdir -p "$DEST"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$DEST/device.txt"
{
  echo "case,descriptor,lbo,sbo,result,mismatches,max_abs_err"
  i=0
  for name in $("$BIN/wgmma_sp_layouts" --list); do
    for variant in 0 1; do
      # A failing case's inputs and raw outputs are dumped only on request
      # (PROBE_DUMP=1): most failures are the wrong descriptor variant.
      line=$("$BIN/wgmma_sp_layouts" "${PROBE_DUMP:+$DEST}" "$i" "$variant" 2>&1 | tail -1)
      if [[ "$line" == "$name,"* ]]; then
        echo "$line"
      else # the CUDA context ended: a descriptor that reads outside shared memory
        desc=$([[ $variant == 0 ]] && echo "lbo=k-atoms,sbo=mn-atoms" || echo "lbo=mn-atoms,sbo=k-atoms")
        echo "$name,$desc,,,error: ${line//,/;},,"
      fi
    done
    i=$((i + 1))
  done
} | tee "$DEST/layouts.csv"
good=""
for problem in 0 1; do
  for variant in 0 1; do
    if "$BIN/wgmma_sp_loop" "$problem" "$variant" 2>&1 | tail -1 | tee -a "$DEST/loop.csv" /dev/stderr | grep -q PASS; then
      good="$variant"
    fi
  done
done
[[ -n "$good" ]] || { echo "no loop variant passed"; exit 1; }
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool "$tool" "$BIN/wgmma_sp_loop" 0 "$good" \
    > "$DEST/sanitizer-$tool.txt" 2>&1
  echo "compute-sanitizer $tool (loop, variant $good): rc $? ($(grep -m1 'SUMMARY' "$DEST/sanitizer-$tool.txt"))"
done
