#!/usr/bin/env bash
# Sets up, builds and runs every test suite through ctest: the lit suite
# (one ctest test), the GoogleTest unit tests, the Python package tests and
# the static checks; then the same suites again under ASan and UBSan in a
# sanitizer build, and the C API fuzzer for a bounded time
# (scripts/sanitize.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_BUILD_DIR:-$ROOT/build}"

VNM_WITH_SANITIZERS=1 "$ROOT/scripts/setup.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)"
"$ROOT/scripts/sanitize.sh"
