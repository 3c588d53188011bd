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
  // * math.tanh (gelu) goes to libm, then everything to LLVM.
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
         "convert-math-to-libm,"
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
