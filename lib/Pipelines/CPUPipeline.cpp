//===- CPUPipeline.cpp - vnm-lower-to-cpu-pipeline ------------------------===//
//
// From vnm ops on tensors to the LLVM dialect on the CPU: the reference
// semantics every other lowering is checked against.
//
//===----------------------------------------------------------------------===//

#include "vnm/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

StringRef vnm::getCPUPipelineText() {
  // Order matters:
  // * canonicalize first folds vnm ops on constants (compile-time pruning);
  // * encoded tensors are expanded into storage arrays before bufferization,
  //   which cannot give one tensor three buffers;
  // * linalg (e.g. the dense reference of a test) becomes loops next to the
  //   vnm loops;
  // * run-time checks become runtime calls (stderr, exit status 1);
  // * math ops on f16/bf16 compute in f32 (libm has no 16-bit functions);
  //   math.rsqrt (LayerNorm) becomes 1 / sqrt (libm has no rsqrtf); the
  //   rest goes to libm (tanh, erf, exp, ...) or, where libm has nothing,
  //   to LLVM intrinsics; then everything to LLVM.
  return "canonicalize,"
         "vnm-expand-storage,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         "buffer-deallocation-pipeline,"
         "func.func(convert-linalg-to-loops),"
         "vnm-lower-to-loops,"
         "vnm-lower-runtime-checks,"
         "convert-scf-to-cf,"
         "expand-strided-metadata,"
         "lower-affine,"
         "func.func(vnm-widen-math,math-expand-ops{ops=rsqrt}),"
         "convert-math-to-libm,"
         "convert-math-to-llvm,"
         "finalize-memref-to-llvm,"
         "convert-arith-to-llvm,"
         "convert-func-to-llvm,"
         "convert-cf-to-llvm,"
         "reconcile-unrealized-casts";
}

LogicalResult vnm::buildCPUPipeline(OpPassManager &pm) {
  return parsePassPipeline(getCPUPipelineText(), pm);
}

void vnm::registerVNMPipelines() {
  registerNVVMPipeline();
  PassPipelineRegistration<>(
      "vnm-lower-to-cpu-pipeline",
      "Lower vnm ops on tensors to the LLVM dialect for the CPU (reference "
      "semantics; run with mlir-runner and libvnm_cpu_runtime.so)",
      [](OpPassManager &pm) {
        if (failed(buildCPUPipeline(pm)))
          llvm::report_fatal_error("vnm-lower-to-cpu-pipeline: invalid "
                                   "pipeline text");
      });
}
