/*===- Compiler.h - vnm C API: a self-contained compiler session --*- C -*-===*\
|*                                                                            *|
|* Parse MLIR (text or bytecode), run a textual pass pipeline, print the     *|
|* result: everything a frontend needs to compile through vnm, with no other *|
|* MLIR C API (Debian's libMLIR.so does not export it). IR crosses this API  *|
|* as text or bytecode, never as objects.                                    *|
|*                                                                            *|
|* Diagnostics are never printed: each fallible call records the ones it     *|
|* produced on its compiler (readable with vnmCompilerGetDiagnostic*), and a *|
|* failing call also returns them, formatted, in its VnmStatus message.      *|
|*                                                                            *|
|* A compiler and its modules are not thread-safe: use one thread at a time  *|
|* (MLIR itself may use worker threads inside a call).                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef VNM_C_COMPILER_H
#define VNM_C_COMPILER_H

#include "vnm-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An MLIR context with every upstream dialect and extension, the GPU-to-LLVM
/// IR translations and the vnm dialect registered, and the diagnostics of its
/// last call.
typedef struct VnmCompiler {
  void *ptr;
} VnmCompiler;

/// A builtin.module owned by the caller, living in a compiler's context.
/// Destroy every module before its compiler.
typedef struct VnmModule {
  void *ptr;
} VnmModule;

typedef enum VnmDiagnosticSeverity {
  VnmDiagnosticSeverityError = 0,
  VnmDiagnosticSeverityWarning = 1,
  VnmDiagnosticSeverityNote = 2,
  VnmDiagnosticSeverityRemark = 3,
} VnmDiagnosticSeverity;

/// Flags of vnmModulePrint, combined with `|`.
typedef enum VnmPrintFlags {
  VnmPrintFlagsNone = 0,
  /// The generic op form (every op as "dialect.op"(...) <{...}> : (...)).
  VnmPrintFlagsGeneric = 1,
  /// Locations as `loc(...)` annotations.
  VnmPrintFlagsDebugInfo = 2,
} VnmPrintFlags;

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

/// Creates a compiler. The first call in a process also registers every
/// upstream and vnm pass and pipeline with MLIR's global pass registry.
VNM_CAPI_EXPORTED VnmCompiler vnmCompilerCreate(void);

/// Destroys a compiler; a null handle is a no-op.
VNM_CAPI_EXPORTED void vnmCompilerDestroy(VnmCompiler compiler);

/// The number of diagnostics the last fallible call on this compiler or one
/// of its modules produced (each call starts with none). Notes attached to a
/// diagnostic follow it as diagnostics of severity Note.
VNM_CAPI_EXPORTED intptr_t vnmCompilerGetNumDiagnostics(VnmCompiler compiler);

/// Severity of diagnostic `pos` (0 <= pos < vnmCompilerGetNumDiagnostics).
VNM_CAPI_EXPORTED VnmDiagnosticSeverity
vnmCompilerGetDiagnosticSeverity(VnmCompiler compiler, intptr_t pos);

/// Location of diagnostic `pos` as `file:line:col` (the first file location
/// inside a fused, named or call-site location), another location's textual
/// form, or "" for an unknown location. Valid until the next fallible call.
VNM_CAPI_EXPORTED VnmStringRef
vnmCompilerGetDiagnosticLocation(VnmCompiler compiler, intptr_t pos);

/// Message of diagnostic `pos`. Valid until the next fallible call.
VNM_CAPI_EXPORTED VnmStringRef
vnmCompilerGetDiagnosticMessage(VnmCompiler compiler, intptr_t pos);

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// Parses `source`, MLIR text or bytecode (told apart by the bytecode magic
/// number), into a new module and verifies it. Top-level ops other than one
/// builtin.module are wrapped into a new builtin.module. `sourceName` names
/// the buffer in diagnostic locations ("<source>" if empty). On failure
/// `*module` is null. Parsing runs under LLVM's crash recovery (some
/// upstream op parsers crash on malformed text): such a crash fails the call
/// with "the MLIR parser crashed" and the parser's diagnostics; the memory
/// the parser held is leaked.
VNM_CAPI_EXPORTED VnmStatus vnmModuleParse(VnmCompiler compiler,
                                           VnmStringRef source,
                                           VnmStringRef sourceName,
                                           VnmModule *module);

/// Destroys a module; a null handle is a no-op.
VNM_CAPI_EXPORTED void vnmModuleDestroy(VnmModule module);

/// Parses `pipeline` and runs it on the module, verifying after each pass.
/// The pipeline names its anchor, e.g.
/// `builtin.module(canonicalize,vnm-expand-storage)` or
/// `builtin.module(vnm-lower-to-cpu-pipeline)`; a pipeline anchored on
/// another op (`func.func(cse)`) runs on every such op nested in the
/// module, and one anchored on `any` on the module itself. A pipeline that
/// does not parse changes nothing. A failing pass may leave the module
/// partially transformed (but valid IR, as MLIR's pass manager guarantees).
/// A pass that crashes, hits an LLVM fatal error (LLVM's backends abort
/// on input they cannot handle) or runs out of memory (an LLVM allocator's
/// report or an uncaught std::bad_alloc) does not end the process: the pipeline
/// runs under LLVM's crash recovery, and the call fails with a message naming a
/// reproducer file (the module before the pipeline, and the pipeline, for
/// `vnm-opt --run-reproducer`); after a crash the module may be left in any
/// state. Recovery costs a clone of the module and a thread per call.
/// Crashes in the context's worker threads (passes
/// run in parallel on nested ops) are not caught.
VNM_CAPI_EXPORTED VnmStatus vnmModuleRunPipeline(VnmModule module,
                                                 VnmStringRef pipeline);

/// Prints the module as MLIR text into `*text` (release with
/// vnmStringDestroy). `flags` combines VnmPrintFlags.
VNM_CAPI_EXPORTED VnmStatus vnmModulePrint(VnmModule module, uint32_t flags,
                                           VnmString *text);

/// Writes the module as MLIR bytecode into `*bytes` (release with
/// vnmStringDestroy).
VNM_CAPI_EXPORTED VnmStatus vnmModuleWriteBytecode(VnmModule module,
                                                   VnmString *bytes);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_COMPILER_H
