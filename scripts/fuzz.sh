#!/usr/bin/env bash
# Explores fresh seeds of the malformed-input run (test/Robustness): vnm-opt
# on randomly mutated copies of the tests, through every pipeline the
# harness knows. A crash in vnm's code fails with the input kept for
# replay (--seed); add it to test/Dialect/VNM/invalid.mlir once fixed.
# Usage: scripts/fuzz.sh [count]   (after scripts/setup.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_BUILD_DIR:-$ROOT/build}"
cd "$ROOT"
exec python3 test/Robustness/mutate_inputs.py --vnm-opt "$BUILD_DIR/bin/vnm-opt" \
  --count "${1:-2000}" --inputs $(find test/Dialect test/Conversion -name '*.mlir')
