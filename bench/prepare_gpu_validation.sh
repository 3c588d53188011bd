#!/usr/bin/env bash
# Here (LLVM/MLIR, ptxas, nvcc): compiles every build that
# bench/run_gpu_validation.sh runs on the GPU host into
# bench/build-validation/, and the wgmma.sp probes into
# bench/hopper_probes/build/:
#
#   bash bench/prepare_gpu_validation.sh
#
# Part 3 (the end-to-end examples) reads bench/build, which
# bench/prepare_end_to_end.sh fills. A device call carries the two folders
# (bench/build-validation, bench/hopper_probes/build) in its `carry`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
B=bench/build-validation
mkdir -p "$B"
python3 bench/compile_cases.py --out "$B/sm90"
python3 bench/compile_cases.py --chip sm_90a --out "$B/sm90a"
python3 bench/compile_quantized_cases.py --out "$B/quantized"
python3 bench/compile_quantized_cases.py --chip sm_90a --recipe wgmma-sp-ws \
  --filter w8a8,w4a8 --out "$B/s8-wgmma"
python3 bench/compile_cases.py --k-splits 4 --out "$B/split-k"
python3 bench/compile_quantized_cases.py --filter w4a16 --k-splits 4 \
  --out "$B/split-k-w4a16"
bash bench/hopper_probes/build.sh
kib=$(du -sk "$B" bench/hopper_probes/build | awk '{s += $1} END {print s}')
echo "$B and the probes: $((kib / 1024)) MiB (a device call carries at most 64 MiB)"
