/*===- Passes.h - vnm C API: pass registration --------------------*- C -*-===*\
|*                                                                            *|
|* Makes the vnm passes and pipelines known to MLIR's global pass registry,  *|
|* so that a textual pipeline parsed by the embedder (mlirParsePassPipeline, *|
|* mlirOpPassManagerAddPipeline) can name them.                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef VNM_C_PASSES_H
#define VNM_C_PASSES_H

#include "vnm-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every vnm pass (vnm-sparsify, vnm-expand-storage, ...), every
/// vnm conversion pass (vnm-lower-to-loops, ...) and every named vnm
/// pipeline (vnm-lower-to-cpu-pipeline, ...). Idempotent and thread-safe;
/// the registry is process-wide.
///
/// Upstream passes are the embedder's to register (mlirRegisterAllPasses),
/// and must be registered before a vnm pipeline is added to a pass manager:
/// the pipelines name upstream passes (canonicalize, one-shot-bufferize, ...)
/// and building one without them is a fatal error in MLIR.
/// vnmCompilerCreate registers both.
VNM_CAPI_EXPORTED void vnmRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_PASSES_H
