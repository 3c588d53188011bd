//===- CompilerRegistry.cpp - What a vnm C API compiler knows -------------===//
//
// Kept apart from Compiler.cpp because the InitAll* headers are by far the
// most expensive includes of the library.
//
//===----------------------------------------------------------------------===//

#include "CompilerRegistry.h"

#include "vnm-c/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include <mutex>

void vnm::capi::registerCompilerDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  vnm::registerVNMDialect(registry);
  // Sources may carry a kernel's tiling (#vnm_gpu.mma_sp_tiling as
  // vnm.config) or tile programs.
  registry.insert<vnm::vnm_gpu::VNMGPUDialect>();
}

void vnm::capi::registerCompilerPasses() {
  static std::once_flag once;
  std::call_once(once, [] { mlir::registerAllPasses(); });
  vnmRegisterPasses();
}
