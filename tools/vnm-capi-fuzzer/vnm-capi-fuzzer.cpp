//===- vnm-capi-fuzzer.cpp - libFuzzer target over the vnm C API ----------===//
//
// Each input is one byte choosing a pass pipeline, then MLIR text or
// bytecode. The target parses and verifies it through vnmModuleParse, runs
// the chosen pipeline (verification included) and prints the result, as a
// frontend would. Diagnostics are the expected outcome of malformed input;
// a crash, a sanitizer report, a hang (libFuzzer's -timeout) or a pipeline
// crash that the C API recovered from are findings. The seed corpus is cut
// from the lit tests (scripts/fuzz_corpus.py).
//
//===----------------------------------------------------------------------===//

#include "vnm-c/Compiler.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
    "vnm-pipeline-kernels,convert-vnm-gpu-to-loops)",
};
constexpr size_t kNumPipelines = sizeof(kPipelines) / sizeof(kPipelines[0]);

bool contains(VnmStringRef text, const char *needle) {
  size_t length = std::strlen(needle);
  for (size_t i = 0; i + length <= text.length; ++i)
    if (std::memcmp(text.data + i, needle, length) == 0)
      return true;
  return false;
}

/// A status the C API returns for a recovered crash names a reproducer;
/// for the fuzzer that is a finding like any other crash.
void checkNotCrashed(VnmStatus status) {
  if (vnmStatusIsOk(status))
    return;
  VnmStringRef message = vnmStatusGetMessage(status);
  if (contains(message, "' crashed;")) {
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

  VnmModule module{nullptr};
  VnmStatus parsed = vnmModuleParse(
      compiler, source, vnmStringRefCreateFromCString("fuzz-input"), &module);
  if (!vnmStatusIsOk(parsed)) {
    vnmStatusDestroy(parsed);
    return 0;
  }
  if (pipeline) {
    VnmStatus ran =
        vnmModuleRunPipeline(module, vnmStringRefCreateFromCString(pipeline));
    checkNotCrashed(ran);
    vnmStatusDestroy(ran);
  }
  VnmString text{nullptr, 0};
  VnmStatus printed = vnmModulePrint(module, VnmPrintFlagsNone, &text);
  vnmStatusDestroy(printed);
  vnmStringDestroy(text);
  vnmModuleDestroy(module);
  return 0;
}
