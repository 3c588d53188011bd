#!/usr/bin/env bash
# Longer runs of the two fuzzers than CI's (after scripts/setup.sh):
#  1. the malformed-input run (test/Robustness): vnm-opt on COUNT randomly
#     mutated copies of the tests, through every pipeline the harness
#     knows, from a fresh seed; a crash in vnm's code fails with the input
#     kept for replay (--seed);
#  2. the C API fuzzer (vnm-capi-fuzzer, libFuzzer under ASan and UBSan in
#     build-sanitize/, built here if missing) for SECONDS, from the seed
#     corpus cut from the tests plus what earlier runs found; a crash,
#     sanitizer report or timeout leaves its input in
#     build-sanitize/fuzz-findings/ (replay: vnm-capi-fuzzer FILE).
# A finding, once fixed, becomes a test (test/Dialect/VNM/invalid.mlir or a
# lit test of the pipeline it crashed).
# Usage: scripts/fuzz.sh [COUNT [SECONDS]]   (defaults 2000 and 1800)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_BUILD_DIR:-$ROOT/build}"
SANITIZE_DIR="${VNM_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
cd "$ROOT"
python3 test/Robustness/mutate_inputs.py --vnm-opt "$BUILD_DIR/bin/vnm-opt" \
  --count "${1:-2000}" --inputs $(find test/Dialect test/Conversion -name '*.mlir')

[[ -x "$SANITIZE_DIR/bin/vnm-capi-fuzzer" ]] || scripts/sanitize.sh --build-only
# Its own corpus, kept between runs (scripts/sanitize.sh starts afresh).
scripts/run-capi-fuzzer.sh "$SANITIZE_DIR" "$SANITIZE_DIR/fuzz-corpus-kept" "${2:-1800}"
