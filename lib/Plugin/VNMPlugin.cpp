//===- VNMPlugin.cpp - vnm as a plugin of upstream mlir-opt ---------------===//
//
// Other MLIR compilers get vnm without linking it: upstream's mlir-opt (or
// any tool built on MlirOptMain) loads this library with
//   --load-dialect-plugin=VNMPlugin.so   (the vnm and vnm_gpu dialects)
//   --load-pass-plugin=VNMPlugin.so      (every vnm pass and pipeline)
// Both entry points live in one library, so one file serves both flags.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

#include "vnm/Conversion/Passes.h"
#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNM/Transforms/Passes.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"
#include "vnm/Pipelines/Pipelines.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "VNM", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            vnm::registerVNMDialect(*registry);
            registry->insert<vnm::vnm_gpu::VNMGPUDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "VNMPasses", LLVM_VERSION_STRING, [] {
            vnm::registerVNMPasses();
            vnm::registerVNMConversionPasses();
            vnm::registerVNMPipelines();
          }};
}
