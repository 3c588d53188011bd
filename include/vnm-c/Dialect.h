/*===- Dialect.h - vnm C API: dialect registration ----------------*- C -*-===*\
|*                                                                            *|
|* Lets a compiler that speaks the upstream MLIR C API (mlir-c/IR.h) add the *|
|* vnm dialect to its registry or context. The handle types come from        *|
|* mlir-c/IR.h; their functions (mlirDialectRegistryCreate, ...) are the     *|
|* embedder's: Debian's libMLIR.so does not export the upstream C API, which *|
|* ships only as static libMLIRCAPI*.a archives, so libVNMCAPI.so does not   *|
|* bring it either. Both sides must share one libMLIR.so.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef VNM_C_DIALECT_H
#define VNM_C_DIALECT_H

#include "mlir-c/IR.h"
#include "vnm-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The vnm dialect's handle, for mlirDialectHandleInsertDialect,
/// mlirDialectHandleLoadDialect and mlirDialectHandleGetNamespace. Inserting
/// it also registers the dialect's external interface models
/// (bufferization), unlike a plain `registry.insert<VNMDialect>()`: without
/// them one-shot-bufferize cannot handle vnm storage ops.
VNM_CAPI_EXPORTED MlirDialectHandle mlirGetDialectHandle__vnm__(void);

/// Registers the vnm dialect and its external interface models in
/// `registry` (vnm::registerVNMDialect).
VNM_CAPI_EXPORTED void vnmRegisterDialect(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_DIALECT_H
