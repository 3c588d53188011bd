//===- vnm-capi-fuzzer.cpp - libFuzzer target over the vnm C API ----------===//
//
// Each input is one byte choosing a pass pipeline, then MLIR text or
// bytecode. The target parses and verifies it through vnmModuleParse, runs
// the chosen pipeline (verification included) and prints the result, as a
// frontend would. Diagnostics are the expected outcome of malformed input;
// a crash, a sanitizer report, a hang (libFuzzer's -timeout) or a parser or
// pipeline crash that the C API recovered from are findings; known upstream
// parser crashes are skipped (hitsKnownUpstreamParserCrash). The seed corpus is
// cut from the lit tests (scripts/fuzz_corpus.py).
//
//===----------------------------------------------------------------------===//

#include "vnm-c/Compiler.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

namespace {

/// The pipelines an input can select, by its first byte modulo their
/// number. The order is part of the corpus format: append, never reorder.
const char *const kPipelines[] = {
    // Parse and verify only.
    nullptr,
    "builtin.module(canonicalize)",
    "builtin.module(vnm-expand-storage)",
    "builtin.module(vnm-sparsify{default-format=64:2:8})",
    "builtin.module(vnm-lower-to-cpu-pipeline)",
    "builtin.module(vnm-lower-to-nvvm-pipeline{chip=sm_90})",
    "builtin.module(vnm-lower-to-nvvm-pipeline{chip=sm_80 block-rows=64})",
    "builtin.module(vnm-expand-storage,one-shot-bufferize{"
    "bufferize-function-boundaries},vnm-choose-config,vnm-lower-to-gpu,"
    "vnm-pipeline-kernels,vnm-unroll-kernel-loops,convert-vnm-gpu-to-loops)",
};
constexpr size_t kNumPipelines = sizeof(kPipelines) / sizeof(kPipelines[0]);

/// Whether `text` starts with `prefix`.
bool startsWith(VnmStringRef text, const std::string &prefix) {
  return text.length >= prefix.size() &&
         std::memcmp(text.data, prefix.data(), prefix.size()) == 0;
}

/// Whether `text` at `pos` holds a well-formed `= [i, j, ...]`.
bool isIntegerArrayAt(VnmStringRef text, size_t pos) {
  auto skipSpaces = [&] {
    while (pos < text.length &&
           (text.data[pos] == ' ' || text.data[pos] == '\n' ||
            text.data[pos] == '\t'))
      ++pos;
  };
  auto expect = [&](char c) {
    skipSpaces();
    if (pos >= text.length || text.data[pos] != c)
      return false;
    ++pos;
    return true;
  };
  if (!expect('=') || !expect('['))
    return false;
  skipSpaces();
  if (pos < text.length && text.data[pos] == ']')
    return true;
  while (true) {
    skipSpaces();
    if (pos < text.length && text.data[pos] == '-')
      ++pos;
    size_t digits = pos;
    while (pos < text.length && text.data[pos] >= '0' && text.data[pos] <= '9')
      ++pos;
    if (pos == digits)
      return false;
    if (expect(']'))
      return true;
    if (!expect(','))
      return false;
  }
}

/// Whether `text` at `pos` holds `=` followed by anything but a
/// well-formed `[i, j, ...]`.
bool isMalformedArrayAssignmentAt(VnmStringRef text, size_t pos) {
  size_t at = pos;
  while (at < text.length && (text.data[at] == ' ' || text.data[at] == '\t'))
    ++at;
  if (at >= text.length || text.data[at] != '=')
    return false;
  return !isIntegerArrayAt(text, pos);
}

/// Upstream parser crashes that vnm cannot fix, skipped so that the fuzzer
/// goes on looking for new ones: MLIR 22's parsers of linalg.transpose,
/// linalg.broadcast and linalg.reduce dereference a null attribute when
/// `permutation =` or `dimensions =` is not followed by a well-formed
/// integer array (Debian's mlir-opt-22 crashes on them too). The C API
/// recovers from these crashes (test_crash_recovery.py); recovery leaks the
/// parser's memory, which LeakSanitizer would report.
bool hitsKnownUpstreamParserCrash(VnmStringRef text) {
  for (const char *keyword : {"permutation", "dimensions"}) {
    size_t length = std::strlen(keyword);
    for (size_t i = 0; i + length <= text.length; ++i)
      if (std::memcmp(text.data + i, keyword, length) == 0 &&
          isMalformedArrayAssignmentAt(text, i + length))
        return true;
  }
  return false;
}

/// The C API reports a recovered crash in the first line of its status
/// message (the summary; the diagnostics follow, and may quote the input,
/// which may spell anything). For the fuzzer that is a finding like any
/// other crash.
void checkNotCrashed(VnmStatus status, const char *pipeline) {
  if (vnmStatusIsOk(status))
    return;
  VnmStringRef message = vnmStatusGetMessage(status);
  std::string crashed =
      pipeline ? std::string("pass pipeline '") + pipeline + "' crashed;"
               : std::string("the MLIR parser crashed on '");
  if (startsWith(message, crashed)) {
    std::fprintf(stderr, "vnm-capi-fuzzer: %.*s\n", (int)message.length,
                 message.data);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  // One compiler for the whole run: creating one registers every dialect
  // and pass, which would dominate each input's time.
  static VnmCompiler compiler = vnmCompilerCreate();
  const char *pipeline = kPipelines[data[0] % kNumPipelines];
  VnmStringRef source{reinterpret_cast<const char *>(data + 1), size - 1};
  if (hitsKnownUpstreamParserCrash(source))
    return 0;

  VnmModule module{nullptr};
  VnmStatus parsed = vnmModuleParse(
      compiler, source, vnmStringRefCreateFromCString("fuzz-input"), &module);
  if (!vnmStatusIsOk(parsed)) {
    checkNotCrashed(parsed, nullptr);
    vnmStatusDestroy(parsed);
    return 0;
  }
  if (pipeline) {
    VnmStatus ran =
        vnmModuleRunPipeline(module, vnmStringRefCreateFromCString(pipeline));
    checkNotCrashed(ran, pipeline);
    vnmStatusDestroy(ran);
  }
  VnmString text{nullptr, 0};
  VnmStatus printed = vnmModulePrint(module, VnmPrintFlagsNone, &text);
  vnmStatusDestroy(printed);
  vnmStringDestroy(text);
  vnmModuleDestroy(module);
  return 0;
}
