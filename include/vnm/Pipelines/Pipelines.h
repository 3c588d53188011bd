//===- Pipelines.h - named vnm pass pipelines -------------------*- C++ -*-===//

#ifndef VNM_PIPELINES_PIPELINES_H
#define VNM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace vnm {

/// The passes of `vnm-lower-to-cpu-pipeline`: vnm ops on tensors down to the
/// LLVM dialect, runnable with mlir-runner and libvnm_cpu_runtime.so.
llvm::StringRef getCPUPipelineText();

/// Appends the CPU pipeline to `pm` (anchored on a builtin.module).
llvm::LogicalResult buildCPUPipeline(mlir::OpPassManager &pm);

/// Registers `vnm-lower-to-nvvm-pipeline`.
void registerNVVMPipeline();

/// Registers every named vnm pipeline with the pass registry.
void registerVNMPipelines();

} // namespace vnm

#endif // VNM_PIPELINES_PIPELINES_H
