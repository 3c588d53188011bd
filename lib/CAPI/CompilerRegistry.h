//===- CompilerRegistry.h - What a vnm C API compiler knows -----*- C++ -*-===//

#ifndef VNM_LIB_CAPI_COMPILERREGISTRY_H
#define VNM_LIB_CAPI_COMPILERREGISTRY_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace vnm::capi {

/// Fills `registry` as vnm-opt does: every upstream dialect and extension,
/// the GPU-to-LLVM IR translations gpu-module-to-binary needs, and vnm.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// Registers every upstream and vnm pass and pipeline, once per process.
void registerCompilerPasses();

} // namespace vnm::capi

#endif // VNM_LIB_CAPI_COMPILERREGISTRY_H
