#!/usr/bin/env bash
# On the GPU machine: the warp-specialized wgmma.sp probe built by build.sh.
# Checks the small problems, runs compute-sanitizer (memcheck, racecheck,
# synccheck) over one small problem per B source, then times the case
# matrix next to cuBLAS. Everything goes to the directory given (default
# $OUT).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN="$HERE/build/wgmma_sp_ws"
DEST="${1:-${OUT:?give a results directory}}"
mkdir -p "$DEST"
# cuBLAS comes from the machine's CUDA or from PyTorch's wheels.
if ! ldd "$BIN" | grep -q 'libcublas.so.*=> /'; then
  lib=$(python3 -c 'import nvidia.cublas, os; print(os.path.join(nvidia.cublas.__path__[0], "lib"))' 2>/dev/null ||
        dirname "$(find / -name 'libcublas.so.13*' -print -quit 2>/dev/null)")
  export LD_LIBRARY_PATH="$lib:${LD_LIBRARY_PATH:-}"
fi
{
  date -u +%Y-%m-%dT%H:%MZ
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  echo "command: bash bench/hopper_probes/run_ws_on_device.sh"
} | tee "$DEST/ws-device.txt"
# Each step is bounded: a barrier protocol that is wrong hangs.
timeout 120 "$BIN" check 2>&1 | tee "$DEST/ws-check.csv"
for tool in memcheck racecheck synccheck; do
  timeout 300 compute-sanitizer --tool "$tool" "$BIN" sanitize > "$DEST/ws-sanitizer-$tool.txt" 2>&1
  echo "compute-sanitizer $tool: rc $? ($(grep -m1 'SUMMARY' "$DEST/ws-sanitizer-$tool.txt"))"
done
timeout 300 "$BIN" time 2>&1 | tee "$DEST/ws-time.csv"
