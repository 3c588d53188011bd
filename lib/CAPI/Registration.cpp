//===- Registration.cpp - vnm C API: dialect and pass registration --------===//
//
// Only the upstream C API's header-only parts are used here (handle structs,
// wrap/unwrap): libMLIR.so does not export the upstream C API functions, and
// the embedder brings its own.
//
//===----------------------------------------------------------------------===//

#include "vnm-c/Dialect.h"
#include "vnm-c/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/MLIRContext.h"

#include "vnm/Conversion/Passes.h"
#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNM/Transforms/Passes.h"
#include "vnm/Pipelines/Pipelines.h"

#include <mutex>

static void insertVNMDialect(MlirDialectRegistry registry) {
  vnm::registerVNMDialect(*unwrap(registry));
}

static MlirDialect loadVNMDialect(MlirContext context) {
  // mlirDialectHandleLoadDialect bypasses any registry, so the interface
  // models are appended here; otherwise a context that only loads vnm would
  // refuse to bufferize vnm storage ops.
  mlir::DialectRegistry registry;
  vnm::registerVNMDialect(registry);
  unwrap(context)->appendDialectRegistry(registry);
  return wrap(unwrap(context)->getOrLoadDialect<vnm::VNMDialect>());
}

static MlirStringRef getVNMDialectNamespace() {
  return wrap(vnm::VNMDialect::getDialectNamespace());
}

MlirDialectHandle mlirGetDialectHandle__vnm__(void) {
  static MlirDialectRegistrationHooks hooks = {insertVNMDialect, loadVNMDialect,
                                               getVNMDialectNamespace};
  return MlirDialectHandle{&hooks};
}

void vnmRegisterDialect(MlirDialectRegistry registry) {
  insertVNMDialect(registry);
}

void vnmRegisterPasses(void) {
  // MLIR's pass registry is process-wide, and registering a pipeline twice
  // is a fatal error in assertion-enabled MLIR builds.
  static std::once_flag once;
  std::call_once(once, [] {
    vnm::registerVNMPasses();
    vnm::registerVNMConversionPasses();
    vnm::registerVNMPipelines();
  });
}
