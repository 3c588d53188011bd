//===- vnm-opt.cpp - the vnm optimizer driver -----------------------------===//
//
// mlir-opt with the vnm dialect and passes added: every upstream dialect,
// pass, extension and LLVM IR translation (GPU targets included) is
// registered so that vnm passes chain with upstream ones in one invocation.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "vnm/Conversion/Passes.h"
#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNM/Transforms/Passes.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"
#include "vnm/Pipelines/Pipelines.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  vnm::registerVNMPasses();
  vnm::registerVNMConversionPasses();
  vnm::registerVNMPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates GPU modules to LLVM IR through these.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  vnm::registerVNMDialect(registry);
  registry.insert<vnm::vnm_gpu::VNMGPUDialect>();
  // vnm_gpu ops hold vnm attributes (vnm_gpu.epilogue's default
  // activation), but the vnm_gpu dialect does not declare the vnm dialect
  // as a dependency yet: parsing a vnm_gpu.epilogue in a file that names no
  // vnm attribute would build one in an unloaded dialect.
  registry.addExtension(
      +[](mlir::MLIRContext *context, vnm::vnm_gpu::VNMGPUDialect *) {
        context->getOrLoadDialect<vnm::VNMDialect>();
      });

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "vnm optimizer driver\n", registry));
}
