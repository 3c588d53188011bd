#!/usr/bin/env bash
# Sets up and builds vnm, then compiles the shipped example and shows what
# came out at each stage.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_BUILD_DIR:-$ROOT/build}"
EXAMPLE="$ROOT/examples/linear_spmm.mlir"

"$ROOT/scripts/setup.sh"
VNM_OPT="$BUILD_DIR/bin/vnm-opt"

echo
echo "== 1. $EXAMPLE parsed, verified and printed by vnm-opt"
"$VNM_OPT" "$EXAMPLE"

echo
echo "== 2. encoded tensors expanded into storage arrays, then bufferized"
"$VNM_OPT" "$EXAMPLE" --vnm-expand-storage \
  --one-shot-bufferize=bufferize-function-boundaries --canonicalize

echo
echo "== 3. the weight's format: storage sizes and pruning statistics"
"$BUILD_DIR/bin/vnm-format-info" --rows=4096 --cols=4096 --type=f16 \
  --v=64 --n=2 --m=8
