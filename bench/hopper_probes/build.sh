#!/usr/bin/env bash
# Builds the wgmma.sp probes for sm_90a into bench/hopper_probes/build/
# (here, with CUDA's nvcc; the binaries need only the CUDA driver there).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/build"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
mkdir -p "$OUT"
python3 "$HERE/gen_wgmma_ops.py" --out "$OUT/wgmma_ops.h"
for probe in wgmma_sp_layouts wgmma_sp_loop wgmma_sp_ws; do
  # The warp-specialized probe times cuBLAS beside itself and makes TMA
  # tensor maps with the driver API.
  libs=()
  [[ $probe == wgmma_sp_ws ]] && libs=(-lcublas -lcuda)
  "$NVCC" -std=c++17 -O2 -lineinfo \
    -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
    -I"$HERE" -I"$OUT" -o "$OUT/$probe" "$HERE/$probe.cu" "${libs[@]}" \
    2> "$OUT/$probe.ptxas.txt"
  echo "$probe: $(grep -c 'Used [0-9]* registers' "$OUT/$probe.ptxas.txt") kernels," \
    "$(grep -c ' 0 bytes spill stores' "$OUT/$probe.ptxas.txt") without spills"
done
