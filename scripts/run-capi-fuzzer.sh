#!/usr/bin/env bash
# Runs vnm-capi-fuzzer (libFuzzer over the C API, under ASan and UBSan) of
# a sanitizer build for SECONDS, from CORPUS after adding the seeds cut
# from the lit tests (scripts/fuzz_corpus.py) to it. A crash, a sanitizer
# report, a pipeline crash the C API recovered from, or an input running
# past 60 s fails the run and leaves the input in BUILD/fuzz-findings/
# (replay: BUILD/bin/vnm-capi-fuzzer FILE).
# Usage: scripts/run-capi-fuzzer.sh BUILD CORPUS SECONDS
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$1" CORPUS="$2" SECONDS_TO_RUN="$3"

python3 "$ROOT/scripts/fuzz_corpus.py" "$CORPUS" \
  "$ROOT"/test/{Dialect,Conversion,Pipelines,Integration,Examples}
mkdir -p "$BUILD_DIR/fuzz-findings"
# abort_on_error: every report is a crash that libFuzzer records;
# allow_user_poisoning=0 as in scripts/sanitize.sh (LLVM's allocators).
# verify_asan_link_order=0: clang links libFuzzer's libstdc++ ahead of the
# shared ASan runtime; libstdc++ defines none of the functions ASan
# intercepts, so the runtime's still come before libc's.
ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:allow_user_poisoning=0:verify_asan_link_order=0" \
UBSAN_OPTIONS="abort_on_error=1:halt_on_error=1:print_stacktrace=1" \
ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer \
  "$BUILD_DIR/bin/vnm-capi-fuzzer" "$CORPUS" -max_total_time="$SECONDS_TO_RUN" \
  -timeout=60 -rss_limit_mb=6144 -max_len=65536 \
  -artifact_prefix="$BUILD_DIR/fuzz-findings/" -print_final_stats=1
