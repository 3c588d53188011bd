#!/usr/bin/env bash
# Builds vnm's code with AddressSanitizer + UndefinedBehaviorSanitizer and
# libFuzzer coverage (clang, in build-sanitize/), then runs under them: the
# lit suite (the C API test included), the unit tests, the tile-program
# mutation check and the malformed-input robustness run, each sanitizer
# report ending its process as a crash; and the C API fuzzer
# (vnm-capi-fuzzer) for VNM_FUZZ_SECONDS (default 120) from a seed corpus
# cut from the lit tests. libMLIR.so and libLLVM.so stay uninstrumented.
# Usage: scripts/sanitize.sh            (after scripts/setup.sh)
#        scripts/sanitize.sh --build-only
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
FUZZ_SECONDS="${VNM_FUZZ_SECONDS:-120}"
CLANG_BIN=/usr/lib/llvm-22/bin

# -O1 as sanitizers are usually run; no NDEBUG, so vnm's assertions and
# those of the LLVM and MLIR headers it instantiates are checked too.
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 \
  -DCMAKE_C_COMPILER="$CLANG_BIN/clang" -DCMAKE_CXX_COMPILER="$CLANG_BIN/clang++" \
  -DVNM_SANITIZERS=address,undefined -DVNM_BUILD_FUZZER=ON \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DPython3_EXECUTABLE="$(command -v python3)"
ninja -C "$BUILD_DIR"
[[ "${1:-}" == "--build-only" ]] && exit 0

# abort_on_error: a report is a crash (SIGABRT) to every harness, never a
# line on stderr it might not read. Leaks are reported too.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons the unused part of
# its slabs when its header code is compiled with ASan (vnm's) and does not
# unpoison it when compiled without (libMLIR.so's); one allocator shared by
# both (an MLIRContext's) would report every allocation libMLIR makes in it.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:allow_user_poisoning=0"
export UBSAN_OPTIONS="abort_on_error=1:halt_on_error=1:print_stacktrace=1"
export ASAN_SYMBOLIZER_PATH="$CLANG_BIN/llvm-symbolizer"
# The Python test suites load the instrumented C API into an uninstrumented
# interpreter (and the SASS budget checks ptxas' output): they run in the
# plain build only.
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" \
  -E '^(vnm-pytest|vnm-sass-budget|vnm-sass-budget-token-major|vnm-find-package)$'

# A fresh corpus, so that CI's run depends on the tree alone.
rm -rf "$BUILD_DIR/fuzz-corpus"
"$ROOT/scripts/run-capi-fuzzer.sh" "$BUILD_DIR" "$BUILD_DIR/fuzz-corpus" "$FUZZ_SECONDS"
