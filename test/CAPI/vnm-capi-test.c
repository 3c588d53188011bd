/*===- vnm-capi-test.c - Exercise every entry point of the vnm C API ------===*\
|*                                                                            *|
|* A C program, so that the headers are checked to be C. The embedding part  *|
|* links the upstream C API from its static archives (Debian's libMLIR.so    *|
|* does not export it), as a compiler built on that API would.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

// RUN: vnm-capi-test 2>&1 | FileCheck %s
// CHECK: C API version 3

#include "vnm-c/Compiler.h"
#include "vnm-c/Dialect.h"
#include "vnm-c/Format.h"
#include "vnm-c/Passes.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printStringRef(VnmStringRef ref) {
  fwrite(ref.data, 1, ref.length, stdout);
}

/// Prints "<what>: ok" or "<what>: error: <message>" and releases the status.
/// Returns whether it was a success.
static int report(const char *what, VnmStatus status) {
  int ok = vnmStatusIsOk(status);
  printf("%s: ", what);
  if (ok) {
    printf("ok\n");
  } else {
    printf("error: ");
    printStringRef(vnmStatusGetMessage(status));
    printf("\n");
  }
  vnmStatusDestroy(status);
  return ok;
}

static void printMlirString(MlirStringRef ref, void *userData) {
  (void)userData;
  fwrite(ref.data, 1, ref.length, stdout);
}

//===----------------------------------------------------------------------===//
// Embedding through the upstream C API
//===----------------------------------------------------------------------===//

static const char kLinear[] =
    "!w = tensor<32x16xf32, #vnm.encoding<v = 16, n = 2, m = 8>>\n"
    "func.func @linear(%w: tensor<32x16xf32>, %x: tensor<16x4xf32>)\n"
    "    -> tensor<32x4xf32> {\n"
    "  %s = vnm.compress %w : tensor<32x16xf32> -> !w\n"
    "  %y = vnm.spmm %s, %x : !w, tensor<16x4xf32> -> tensor<32x4xf32>\n"
    "  return %y : tensor<32x4xf32>\n"
    "}\n";

static void testEmbedding(void) {
  printf("=== embedding\n");
  MlirDialectHandle handle = mlirGetDialectHandle__vnm__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  printf("namespace: %.*s\n", (int)ns.length, ns.data);
  // CHECK-LABEL: === embedding
  // CHECK: namespace: vnm

  // An embedder's context: its own dialects plus vnm.
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  vnmRegisterDialect(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  MlirDialect dialect =
      mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("vnm"));
  printf("loaded through the registry: %d\n", !mlirDialectIsNull(dialect));
  // CHECK: loaded through the registry: 1

  MlirType type = mlirTypeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>"));
  printf("type: ");
  mlirTypePrint(type, printMlirString, NULL);
  printf("\n");
  // CHECK: type: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

  // The handle path, into a context created without vnm.
  MlirContext bare = mlirContextCreate();
  MlirDialect viaHandle = mlirDialectHandleLoadDialect(handle, bare);
  printf("loaded through the handle: %d\n", !mlirDialectIsNull(viaHandle));
  // CHECK: loaded through the handle: 1
  MlirDialectRegistry second = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(handle, second);
  mlirDialectRegistryDestroy(second);
  mlirContextDestroy(bare);

  // Nothing in this process has registered vnm passes yet.
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult before = mlirOpPassManagerAddPipeline(
      opm, mlirStringRefCreateFromCString("vnm-expand-storage"),
      printMlirString, NULL);
  printf("\nbefore vnmRegisterPasses: %d\n",
         mlirLogicalResultIsSuccess(before));
  // CHECK: 'vnm-expand-storage' does not refer to a registered pass
  // CHECK: before vnmRegisterPasses: 0

  // The embedder registers upstream passes; vnm's pipelines are built from
  // them.
  mlirRegisterAllPasses();
  vnmRegisterPasses();
  vnmRegisterPasses(); // Idempotent.
  MlirLogicalResult after = mlirOpPassManagerAddPipeline(
      opm, mlirStringRefCreateFromCString("vnm-expand-storage"),
      printMlirString, NULL);
  printf("after vnmRegisterPasses: %d\n", mlirLogicalResultIsSuccess(after));
  // CHECK: after vnmRegisterPasses: 1
  MlirPassManager cpu = mlirPassManagerCreate(ctx);
  MlirLogicalResult pipeline = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(cpu),
      mlirStringRefCreateFromCString("vnm-lower-to-cpu-pipeline"),
      printMlirString, NULL);
  printf("cpu pipeline: %d\n", mlirLogicalResultIsSuccess(pipeline));
  // CHECK: cpu pipeline: 1
  mlirPassManagerDestroy(cpu);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kLinear));
  MlirOperation op = mlirModuleGetOperation(module);
  MlirLogicalResult ran = mlirPassManagerRunOnOp(pm, op);
  printf("expand-storage ran: %d\n", mlirLogicalResultIsSuccess(ran));
  mlirOperationPrint(op, printMlirString, NULL);
  printf("\n");
  // CHECK: expand-storage ran: 1
  // CHECK: vnm.storage.compress
  // CHECK: vnm.storage.spmm
  mlirModuleDestroy(module);
  mlirPassManagerDestroy(pm);

  mlirContextDestroy(ctx);
  mlirDialectRegistryDestroy(registry);
}

//===----------------------------------------------------------------------===//
// Compiler session
//===----------------------------------------------------------------------===//

static void printDiagnostics(VnmCompiler compiler) {
  static const char *const kSeverities[] = {"error", "warning", "note",
                                            "remark"};
  intptr_t count = vnmCompilerGetNumDiagnostics(compiler);
  printf("diagnostics: %ld\n", (long)count);
  for (intptr_t i = 0; i < count; ++i) {
    printf("  [%s] at '",
           kSeverities[vnmCompilerGetDiagnosticSeverity(compiler, i)]);
    printStringRef(vnmCompilerGetDiagnosticLocation(compiler, i));
    printf("': ");
    printStringRef(vnmCompilerGetDiagnosticMessage(compiler, i));
    printf("\n");
  }
}

static void printModule(const char *what, VnmModule module, uint32_t flags) {
  VnmString text = {NULL, 0};
  if (!report(what, vnmModulePrint(module, flags, &text)))
    return;
  fwrite(text.data, 1, text.length, stdout);
  vnmStringDestroy(text);
}

static VnmModule parse(VnmCompiler compiler, const char *what,
                       const char *source) {
  VnmModule module = {NULL};
  report(what, vnmModuleParse(compiler, vnmStringRefCreateFromCString(source),
                              vnmStringRefCreateFromCString(what), &module));
  return module;
}

static VnmStatus run(VnmModule module, const char *pipeline) {
  return vnmModuleRunPipeline(module, vnmStringRefCreateFromCString(pipeline));
}

static void testCompiler(void) {
  printf("=== compiler\n");
  // CHECK-LABEL: === compiler
  VnmCompiler compiler = vnmCompilerCreate();

  VnmModule module = parse(compiler, "linear.mlir", kLinear);
  // CHECK: linear.mlir: ok
  printDiagnostics(compiler);
  // CHECK-NEXT: diagnostics: 0
  printModule("print", module, VnmPrintFlagsNone);
  // CHECK: print: ok
  // CHECK: func.func @linear
  // CHECK: vnm.compress
  // CHECK: vnm.spmm

  report("expand-storage", run(module, "builtin.module(vnm-expand-storage)"));
  printModule("print", module, VnmPrintFlagsNone);
  // CHECK: expand-storage: ok
  // CHECK: print: ok
  // CHECK: vnm.storage.compress
  // CHECK: vnm.storage.spmm

  // Bytecode out and back in gives the same module.
  VnmString bytecode = {NULL, 0};
  report("write bytecode", vnmModuleWriteBytecode(module, &bytecode));
  printf("bytecode magic: %.4s\n", bytecode.data);
  // CHECK: write bytecode: ok
  // CHECK: bytecode magic: ML{{.}}R
  VnmModule reparsed = {NULL};
  report("parse bytecode",
         vnmModuleParse(
             compiler, (VnmStringRef){bytecode.data, bytecode.length},
             vnmStringRefCreateFromCString("linear.mlirbc"), &reparsed));
  vnmStringDestroy(bytecode);
  // CHECK: parse bytecode: ok
  VnmString first = {NULL, 0}, second = {NULL, 0};
  vnmStatusDestroy(vnmModulePrint(module, VnmPrintFlagsNone, &first));
  vnmStatusDestroy(vnmModulePrint(reparsed, VnmPrintFlagsNone, &second));
  printf("bytecode round trip equal: %d\n",
         first.length == second.length &&
             memcmp(first.data, second.data, first.length) == 0);
  // CHECK: bytecode round trip equal: 1
  vnmStringDestroy(first);
  vnmStringDestroy(second);
  vnmModuleDestroy(reparsed);

  report("cpu pipeline",
         run(module, "builtin.module(vnm-lower-to-cpu-pipeline)"));
  printModule("print", module, VnmPrintFlagsNone);
  // CHECK: cpu pipeline: ok
  // CHECK: print: ok
  // CHECK: llvm.func @linear
  // CHECK-NOT: vnm.storage
  vnmModuleDestroy(module);

  // A builtin.module(...) pipeline really runs on the module (it is not
  // nested under a second builtin.module), and one anchored on func.func
  // runs on every function.
  const char *fold = "func.func @f() -> i32 {\n"
                     "  %a = arith.constant 1 : i32\n"
                     "  %b = arith.addi %a, %a : i32\n"
                     "  return %b : i32\n"
                     "}\n";
  module = parse(compiler, "fold.mlir", fold);
  report("module canonicalize", run(module, "builtin.module(canonicalize)"));
  printModule("print", module, VnmPrintFlagsNone);
  // CHECK: module canonicalize: ok
  // CHECK: print: ok
  // CHECK: arith.constant 2 : i32
  // CHECK-NOT: arith.addi
  vnmModuleDestroy(module);

  // Constant weights fold through the format library. This needs the op
  // traits' TypeIDs to agree between libVNMCAPI.so and libMLIR.so (see
  // lib/CAPI/CMakeLists.txt).
  module = parse(compiler, "weights.mlir",
                 "!s = tensor<2x5xf32, #vnm.encoding<v = 16, n = 2, m = 5>>\n"
                 "func.func @f() -> !s {\n"
                 "  %w = arith.constant dense<[[1.0, 2.0, 0.1, 3.0, 4.0],\n"
                 "                             [-5.0, 0.5, 0.2, 1.0, -0.0]]>\n"
                 "      : tensor<2x5xf32>\n"
                 "  %s = vnm.compress %w : tensor<2x5xf32> -> !s\n"
                 "  return %s : !s\n"
                 "}\n");
  report("fold weights", run(module, "builtin.module(canonicalize)"));
  printModule("print", module, VnmPrintFlagsNone);
  // CHECK: fold weights: ok
  // CHECK: print: ok
  // CHECK-DAG: arith.constant dense<{{\[\[}}2, 3], [0, 2]]> : tensor<2x2xi8>
  // CHECK-DAG: arith.constant dense<{{\[\[\[}}0, 1, 3, 4]]]> : tensor<1x1x4xi8>
  // CHECK: vnm.assemble
  // CHECK-NOT: vnm.compress
  vnmModuleDestroy(module);
  module = parse(compiler, "fold.mlir", fold);
  report("func canonicalize", run(module, "func.func(canonicalize)"));
  printModule("generic", module, VnmPrintFlagsGeneric | VnmPrintFlagsDebugInfo);
  // CHECK: func canonicalize: ok
  // CHECK: generic: ok
  // CHECK: "arith.constant"() <{value = 2 : i32}> : () -> i32
  // CHECK-SAME: loc(#loc[[LOC:[0-9]+]])
  // CHECK-NOT: arith.addi
  // CHECK: #loc[[LOC]] = loc("fold.mlir":3:8)

  // Pipeline errors: nothing runs, the message says why.
  report("unknown pass", run(module, "builtin.module(no-such-pass)"));
  printDiagnostics(compiler);
  // CHECK: unknown pass: error: invalid pass pipeline
  // CHECK-SAME: 'builtin.module(no-such-pass)'
  // CHECK-NEXT: <pass pipeline>:1:16: error: 'no-such-pass' does not refer
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: [error] at '<pass pipeline>:1:16': 'no-such-pass' does not
  report("unanchored", run(module, "canonicalize"));
  // CHECK: unanchored: error: invalid pass pipeline 'canonicalize'
  // CHECK-NEXT: error: expected pass pipeline to be wrapped with the anchor
  report("unknown option",
         run(module, "builtin.module(canonicalize{no-such-option=1})"));
  // CHECK: unknown option: error: invalid pass pipeline
  // CHECK-SAME: 'builtin.module(canonicalize{no-such-option=1})'
  // CHECK-NEXT: error: {{.*}}no-such-option
  report("bad option value",
         run(module, "builtin.module(vnm-sparsify{default-format=1:2:3})"));
  // CHECK: bad option value: error: pass pipeline
  // CHECK-SAME: 'builtin.module(vnm-sparsify{default-format=1:2:3})' failed
  // CHECK-NEXT: error: vnm-sparsify: default-format '1:2:3': #vnm.encoding (C1)
  report("unbalanced", run(module, "builtin.module(canonicalize"));
  // CHECK: unbalanced: error: invalid pass pipeline
  // CHECK-SAME: 'builtin.module(canonicalize'
  // A GPU target outside the supported list is refused while the pipeline
  // is built, before anything reaches LLVM (whose NVPTX backend aborts the
  // process on sm_75 and crashes on an empty chip).
  report("unsupported chip",
         run(module, "builtin.module(vnm-lower-to-nvvm-pipeline{chip=sm_75})"));
  // CHECK: unsupported chip: error: invalid pass pipeline
  // CHECK-SAME: 'builtin.module(vnm-lower-to-nvvm-pipeline{chip=sm_75})'
  // CHECK-NEXT: error: vnm-lower-to-nvvm-pipeline: chip 'sm_75' cannot run the
  // kernels: mma.sp::ordered_metadata and cp.async need sm_80 or newer;
  // supported chips: sm_80, sm_90, sm_90a
  report("empty chip",
         run(module, "builtin.module(vnm-lower-to-nvvm-pipeline{chip=})"));
  // CHECK: empty chip: error: invalid pass pipeline
  // CHECK-NEXT: error: vnm-lower-to-nvvm-pipeline: chip is empty; supported
  // chips: sm_80, sm_90, sm_90a
  report("old ptx", run(module, "builtin.module(vnm-lower-to-nvvm-pipeline{"
                                "chip=sm_80 features=+ptx80})"));
  // CHECK: old ptx: error: invalid pass pipeline
  // CHECK-NEXT: error: vnm-lower-to-nvvm-pipeline: sm_80 needs PTX 8.5 or newer
  // (mma.sp::ordered_metadata), got +ptx80; supported features: +ptx85, +ptx86,
  // +ptx87, +ptx88, +ptx90
  vnmModuleDestroy(module);

  // A failing pass: bufferizing encoded tensors is refused.
  module = parse(compiler, "linear.mlir", kLinear);
  report("bufferize encoded",
         run(module, "builtin.module(one-shot-bufferize)"));
  printDiagnostics(compiler);
  // CHECK: bufferize encoded: error: pass pipeline
  // CHECK-SAME: 'builtin.module(one-shot-bufferize)' failed
  // CHECK-NEXT: linear.mlir:4:8: error: 'vnm.compress' has no buffer form
  // CHECK-NEXT: linear.mlir:4:8: error: failed to bufferize op
  // CHECK-NEXT: diagnostics: 2
  // CHECK-NEXT: [error] at 'linear.mlir:4:8': 'vnm.compress' has no buffer form
  // CHECK-NEXT: [error] at 'linear.mlir:4:8': failed to bufferize op
  vnmModuleDestroy(module);

  // Malformed IR: a syntax error and a verifier error, with locations.
  module =
      parse(compiler, "syntax.mlir", "func.func @f() {\n  %0 = vnm.bogus\n}\n");
  printf("null module: %d\n", module.ptr == NULL);
  printDiagnostics(compiler);
  // CHECK: syntax.mlir: error: failed to parse 'syntax.mlir'
  // CHECK-NEXT: syntax.mlir:2:8: error: {{.*}}vnm.bogus
  // CHECK: null module: 1
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: [error] at 'syntax.mlir:2:8':
  module = parse(compiler, "verify.mlir",
                 "func.func @f(%w: tensor<8x8xf16>) {\n"
                 "  %p = vnm.prune %w {encoding = #vnm.encoding<v = 3, n = 2, "
                 "m = 8>} : tensor<8x8xf16> -> tensor<8x8xf16>\n"
                 "  return\n}\n");
  printDiagnostics(compiler);
  // CHECK: verify.mlir: error: failed to parse 'verify.mlir'
  // CHECK-NEXT: verify.mlir:2:{{[0-9]+}}: error: #vnm.encoding (C1)
  // CHECK: diagnostics: 1
  // CHECK-NEXT: [error] at 'verify.mlir:2:{{[0-9]+}}': #vnm.encoding (C1)
  module = parse(compiler, "", "");
  // CHECK: : ok
  vnmModuleDestroy(module);

  // A diagnostic with a note: the note follows it.
  module = parse(compiler, "redefined.mlir",
                 "func.func @f() {\n  return\n}\nfunc.func @f() {\n"
                 "  return\n}\n");
  printDiagnostics(compiler);
  // CHECK: redefined.mlir: error: failed to parse 'redefined.mlir'
  // CHECK-NEXT: redefined.mlir:4:1: error: redefinition of symbol named 'f'
  // CHECK-NEXT: redefined.mlir:1:1: note: see existing symbol definition here
  // CHECK-NEXT: diagnostics: 2
  // CHECK-NEXT: [error] at 'redefined.mlir:4:1': redefinition of symbol
  // CHECK-NEXT: [note] at 'redefined.mlir:1:1': see existing symbol

  // Misuse is an error status, not a crash.
  report("null out-parameter",
         vnmModuleParse(compiler, vnmStringRefCreateFromCString(""),
                        vnmStringRefCreateFromCString(""), NULL));
  report("null module",
         vnmModuleRunPipeline((VnmModule){NULL},
                              vnmStringRefCreateFromCString("")));
  // CHECK: null out-parameter: error: vnmModuleParse: the module out-param
  // CHECK: null module: error: vnmModuleRunPipeline: the module is null

  vnmCompilerDestroy(compiler);
  vnmCompilerDestroy((VnmCompiler){NULL});
}

//===----------------------------------------------------------------------===//
// Format library
//===----------------------------------------------------------------------===//

static void printBytes(const char *name, const uint8_t *data, int64_t count) {
  printf("%s:", name);
  for (int64_t i = 0; i < count; ++i)
    printf(" %d", data[i]);
  printf("\n");
}

static void printFloats(const char *name, const float *data, int64_t count) {
  printf("%s:", name);
  for (int64_t i = 0; i < count; ++i)
    printf(" %g", data[i]);
  printf("\n");
}

static void testFormat(void) {
  printf("=== format\n");
  // CHECK-LABEL: === format
  for (int type = VnmElementTypeF16; type <= VnmElementTypeI4; ++type) {
    VnmElementType parsed = VnmElementTypeF32;
    const char *name = vnmFormatGetElementTypeName((VnmElementType)type);
    int ok =
        vnmFormatParseElementType(vnmStringRefCreateFromCString(name), &parsed);
    printf("%s: %lld bytes, parses back: %d\n", name,
           (long long)vnmFormatGetElementByteSize((VnmElementType)type),
           ok && parsed == (VnmElementType)type);
  }
  // CHECK: f16: 2 bytes, parses back: 1
  // CHECK: bf16: 2 bytes, parses back: 1
  // CHECK: f32: 4 bytes, parses back: 1
  // CHECK: i8: 1 bytes, parses back: 1
  // CHECK: i4: 1 bytes, parses back: 1
  VnmElementType unused;
  printf(
      "invalid type: %s, parse 'f64': %d\n",
      vnmFormatGetElementTypeName((VnmElementType)9),
      vnmFormatParseElementType(vnmStringRefCreateFromCString("f64"), &unused));
  // CHECK: invalid type: invalid, parse 'f64': 0

  report("encoding 64:2:8", vnmFormatValidateEncoding((VnmEncoding){64, 2, 8}));
  report("encoding 3:2:8", vnmFormatValidateEncoding((VnmEncoding){3, 2, 8}));
  // CHECK: encoding 64:2:8: ok
  // CHECK: encoding 3:2:8: error: {{.*}}v{{.*}}3

  VnmStorageShape shape;
  report("shape", vnmFormatGetStorageShape((VnmEncoding){64, 2, 8},
                                           VnmElementTypeF16, 100, 20, &shape));
  printf("groups %lld blocks %lld values %lld colidx %lld meta %lld "
         "paddedRows %lld paddedGroups %lld kTiles %lld fragValueBytes %lld "
         "fragMetaWords %lld\n",
         (long long)shape.groups, (long long)shape.blocks,
         (long long)shape.valueCount, (long long)shape.colidxCount,
         (long long)shape.metaCount, (long long)shape.paddedRows,
         (long long)shape.paddedGroups, (long long)shape.kTiles,
         (long long)shape.fragValueBytes, (long long)shape.fragMetaWords);
  // CHECK: shape: ok
  // CHECK-NEXT: groups 3 blocks 2 values 600 colidx 24 meta 600
  // CHECK-SAME: paddedRows 128 paddedGroups 16 kTiles 2
  // CHECK-SAME: fragValueBytes 8192 fragMetaWords 256
  report("shape of -1 rows",
         vnmFormatGetStorageShape((VnmEncoding){64, 2, 8}, VnmElementTypeF16,
                                  -1, 20, &shape));
  report("shape of type 9",
         vnmFormatGetStorageShape((VnmEncoding){64, 2, 8}, (VnmElementType)9, 4,
                                  4, &shape));
  // CHECK: shape of -1 rows: error:
  // CHECK: shape of type 9: error: invalid element type 9

  // docs/pipeline.md's example: 2 x 5, 16:2:5 (one ragged block, one group).
  const VnmEncoding enc = {16, 2, 5};
  const float dense[10] = {1.0f,  2.0f, 0.1f, 3.0f, 4.0f,
                           -5.0f, 0.5f, 0.2f, 1.0f, -0.0f};
  float pruned[10];
  report("prune",
         vnmFormatPrune(enc, VnmElementTypeF32, dense, 2, 5, pruned, 0));
  printFloats("pruned", pruned, 10);
  // CHECK: prune: ok
  // CHECK-NEXT: pruned: 0 0 0 3 4 -5 0 0 1 0

  float values[4];
  uint8_t colidx[4], meta[4];
  report("compress", vnmFormatCompress(enc, VnmElementTypeF32, dense, 2, 5,
                                       values, colidx, meta, 0));
  printFloats("values", values, 4);
  printBytes("colidx", colidx, 4);
  printBytes("meta", meta, 4);
  // CHECK: compress: ok
  // CHECK-NEXT: values: 3 4 -5 1
  // CHECK-NEXT: colidx: 0 1 3 4
  // CHECK-NEXT: meta: 2 3 0 2
  report("verify", vnmFormatVerifyStorage(enc, VnmElementTypeF32, values,
                                          colidx, meta, 2, 5));
  float restored[10];
  report("decompress", vnmFormatDecompress(enc, VnmElementTypeF32, values,
                                           colidx, meta, 2, 5, restored));
  printf("decompress == prune: %d\n",
         memcmp(restored, pruned, sizeof(pruned)) == 0);
  // CHECK: verify: ok
  // CHECK: decompress: ok
  // CHECK-NEXT: decompress == prune: 1

  // Inconsistent storage arrays are reported, and decompress writes nothing.
  uint8_t badColidx[4] = {0, 3, 1, 4};
  report("colidx not ascending",
         vnmFormatVerifyStorage(enc, VnmElementTypeF32, values, badColidx, meta,
                                2, 5));
  uint8_t badMeta[4] = {2, 3, 0, 7};
  float untouched[10] = {42, 42, 42, 42, 42, 42, 42, 42, 42, 42};
  report("meta out of range",
         vnmFormatDecompress(enc, VnmElementTypeF32, values, colidx, badMeta, 2,
                             5, untouched));
  printf("untouched: %g\n", untouched[0]);
  // CHECK: colidx not ascending: error: {{.*}}colidx
  // CHECK: meta out of range: error: {{.*}}meta
  // CHECK-NEXT: untouched: 42
  int8_t i4Dense[4] = {1, 2, 9, -3};
  int8_t i4Pruned[4];
  report("i4 out of range",
         vnmFormatPrune((VnmEncoding){16, 2, 4}, VnmElementTypeI4, i4Dense, 1,
                        4, i4Pruned, 0));
  // CHECK: i4 out of range: error:
  report("invalid encoding",
         vnmFormatPrune((VnmEncoding){16, 3, 8}, VnmElementTypeF32, dense, 2, 5,
                        pruned, 0));
  // CHECK: invalid encoding: error:

  // A NaN weight is refused unless kept on request (then it outranks
  // every number of its block).
  float nanDense[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  nanDense[1] = NAN;
  float nanPruned[10];
  report("nan refused",
         vnmFormatPrune(enc, VnmElementTypeF32, nanDense, 2, 5, nanPruned, 0));
  // CHECK: nan refused: error: dense[0][1] = 0x7fc00000 is NaN or infinite
  report("nan kept",
         vnmFormatPrune(enc, VnmElementTypeF32, nanDense, 2, 5, nanPruned, 1));
  // CHECK: nan kept: ok
  printf("nan kept in place: %d\n", isnan(nanPruned[1]) ? 1 : 0);
  // CHECK-NEXT: nan kept in place: 1

  // Fragment storage round trip.
  VnmStorageShape fragShape;
  vnmStatusDestroy(
      vnmFormatGetStorageShape(enc, VnmElementTypeF32, 2, 5, &fragShape));
  void *fragValues = calloc(1, (size_t)fragShape.fragValueBytes);
  uint32_t *fragMeta =
      calloc((size_t)fragShape.fragMetaWords, sizeof(uint32_t));
  report("pack", vnmFormatPackFragments(enc, VnmElementTypeF32, values, meta, 2,
                                        5, fragValues, fragMeta));
  printf("fragment sizes: %lld bytes, %lld words\n",
         (long long)fragShape.fragValueBytes,
         (long long)fragShape.fragMetaWords);
  // CHECK: pack: ok
  // CHECK-NEXT: fragment sizes: 2048 bytes, 32 words
  float unpackedValues[4];
  uint8_t unpackedMeta[4];
  report("unpack",
         vnmFormatUnpackFragments(enc, VnmElementTypeF32, fragValues, fragMeta,
                                  2, 5, unpackedValues, unpackedMeta));
  printf("unpack == logical: %d\n",
         memcmp(unpackedValues, values, sizeof(values)) == 0 &&
             memcmp(unpackedMeta, meta, sizeof(meta)) == 0);
  // CHECK: unpack: ok
  // CHECK-NEXT: unpack == logical: 1
  for (int64_t i = 0; i < fragShape.fragMetaWords; ++i)
    fragMeta[i] = 0xFFFFFFFFu; // Every nibble an invalid pair (3, 3).
  report("unpack corrupt metadata",
         vnmFormatUnpackFragments(enc, VnmElementTypeF32, fragValues, fragMeta,
                                  2, 5, unpackedValues, unpackedMeta));
  // CHECK: unpack corrupt metadata: error:
  report("pack bad meta",
         vnmFormatPackFragments(enc, VnmElementTypeF32, values, badMeta, 2, 5,
                                fragValues, fragMeta));
  // CHECK: pack bad meta: error: {{.*}}meta
  // Fragment classes: f32 has no 8-bit class; an unknown class is refused.
  report("pack f32 8-bit",
         vnmFormatPackFragmentsAs(enc, VnmElementTypeF32, VnmFragmentClass8Bit,
                                  values, meta, 2, 5, fragValues, fragMeta));
  // CHECK: pack f32 8-bit: error: the 8-bit fragment class holds i8 and i4
  // values only, got f32
  report("pack class 7",
         vnmFormatPackFragmentsAs(enc, VnmElementTypeF32, (VnmFragmentClass)7,
                                  values, meta, 2, 5, fragValues, fragMeta));
  // CHECK: pack class 7: error: invalid fragment class 7
  free(fragValues);
  free(fragMeta);

  // An i8 weight in the 16-bit class (W8A16) round-trips.
  int8_t i8Values[4] = {-7, 100, 3, -128};
  VnmStorageShape i8Shape;
  vnmStatusDestroy(
      vnmFormatGetStorageShape(enc, VnmElementTypeI8, 2, 5, &i8Shape));
  void *i8Frag = calloc(1, (size_t)i8Shape.fragValueBytes);
  uint32_t *i8Meta = calloc((size_t)i8Shape.fragMetaWords, sizeof(uint32_t));
  report("pack i8 16-bit",
         vnmFormatPackFragmentsAs(enc, VnmElementTypeI8, VnmFragmentClass16Bit,
                                  i8Values, meta, 2, 5, i8Frag, i8Meta));
  // CHECK: pack i8 16-bit: ok
  int8_t i8Unpacked[4];
  uint8_t i8UnpackedMeta[4];
  report("unpack i8 16-bit",
         vnmFormatUnpackFragmentsAs(enc, VnmElementTypeI8,
                                    VnmFragmentClass16Bit, i8Frag, i8Meta, 2, 5,
                                    i8Unpacked, i8UnpackedMeta));
  // CHECK: unpack i8 16-bit: ok
  printf("i8 16-bit round trip: %d\n",
         memcmp(i8Unpacked, i8Values, sizeof i8Values) == 0 &&
             memcmp(i8UnpackedMeta, meta, sizeof i8UnpackedMeta) == 0);
  // CHECK-NEXT: i8 16-bit round trip: 1
  free(i8Frag);
  free(i8Meta);

  // Empty matrices are valid and need no buffers.
  report("empty", vnmFormatCompress(enc, VnmElementTypeF16, NULL, 0, 0, NULL,
                                    NULL, NULL, 0));
  // CHECK: empty: ok
}

static void printInts(const char *name, const int8_t *data, int64_t count) {
  printf("%s:", name);
  for (int64_t i = 0; i < count; ++i)
    printf(" %d", data[i]);
  printf("\n");
}

static void testQuantize(void) {
  printf("=== quantize\n");
  // CHECK-LABEL: === quantize
  int64_t scaleRows = -1, scaleCols = -1;
  report("scale shape",
         vnmFormatGetQuantizeScaleShape(5, 7, 0, 3, &scaleRows, &scaleCols));
  printf("scales %lld x %lld\n", (long long)scaleRows, (long long)scaleCols);
  // CHECK: scale shape: ok
  // CHECK-NEXT: scales 5 x 3
  report("scale shape per column",
         vnmFormatGetQuantizeScaleShape(5, 7, 1, 2, &scaleRows, &scaleCols));
  printf("scales %lld x %lld\n", (long long)scaleRows, (long long)scaleCols);
  // CHECK: scale shape per column: ok
  // CHECK-NEXT: scales 3 x 7

  // Row 0: amax 254, scale 2, x / scale = 1.5 2.5 -0.5 -1.5 127 (half to
  // even); row 1: scale 1; row 2: amax 1, scale 1/127.
  const float dense[15] = {3, 5, -1, -3, 254,  0, 0,    0,
                           0, 0, 1,  -1, 0.5f, 0, 0.25f};
  int8_t q[15];
  float scales[3];
  report("quantize", vnmFormatQuantize(VnmElementTypeF32, dense, 3, 5,
                                       VnmElementTypeI8, 0, 0, q, scales));
  printInts("q", q, 15);
  printf("scales: %g %g %d\n", scales[0], scales[1],
         scales[2] == 1.0f / 127.0f);
  // CHECK: quantize: ok
  // CHECK-NEXT: q: 2 2 0 -2 127 0 0 0 0 0 127 -127 64 0 32
  // CHECK-NEXT: scales: 2 1 1
  float restored[15];
  report("dequantize", vnmFormatDequantize(q, 3, 5, VnmElementTypeI8, 0, 0,
                                           scales, restored));
  printFloats("restored", restored, 5);
  // CHECK: dequantize: ok
  // CHECK-NEXT: restored: 4 4 0 -4 254

  // i4, one scale for the matrix: amax 14, scale 2.
  const float small[4] = {14, -7, 3, 1};
  float scale;
  report("quantize i4", vnmFormatQuantize(VnmElementTypeF32, small, 2, 2,
                                          VnmElementTypeI4, -1, 0, q, &scale));
  printInts("q", q, 4);
  printf("scale: %g\n", scale);
  // CHECK: quantize i4: ok
  // CHECK-NEXT: q: 7 -4 2 0
  // CHECK-NEXT: scale: 2

  // Errors leave the outputs as they were.
  float nanDense[4] = {1, 2, 3, 4};
  nanDense[3] = NAN;
  int8_t untouched[4] = {9, 9, 9, 9};
  float untouchedScales[2] = {-7, -7};
  report("quantize nan",
         vnmFormatQuantize(VnmElementTypeF32, nanDense, 2, 2, VnmElementTypeI8,
                           0, 0, untouched, untouchedScales));
  printf("untouched: %d %g\n", untouched[0], untouchedScales[0]);
  // CHECK: quantize nan: error: dense[1][1] = 0x7fc00000 is NaN or infinite
  // CHECK-NEXT: untouched: 9 -7
  report("bad axis", vnmFormatQuantize(VnmElementTypeF32, dense, 3, 5,
                                       VnmElementTypeI8, 2, 0, q, scales));
  // CHECK: bad axis: error: invalid quantization axis 2
  report("bad group size",
         vnmFormatQuantize(VnmElementTypeF32, dense, 3, 5, VnmElementTypeI8, 0,
                           -4, q, scales));
  // CHECK: bad group size: error: invalid quantization group size -4
  report("per-tensor group",
         vnmFormatGetQuantizeScaleShape(3, 5, -1, 4, &scaleRows, &scaleCols));
  // CHECK: per-tensor group: error: quantization group size 4 with axis -1
  report("integer source",
         vnmFormatQuantize(VnmElementTypeI8, dense, 3, 5, VnmElementTypeI8, 0,
                           0, q, scales));
  // CHECK: integer source: error: the quantization source must be f16, bf16
  // CHECK-SAME: or f32, not i8
  report("float target", vnmFormatQuantize(VnmElementTypeF32, dense, 3, 5,
                                           VnmElementTypeF16, 0, 0, q, scales));
  // CHECK: float target: error: the quantization target must be i8 or i4,
  // CHECK-SAME: not f16
  report("target 9", vnmFormatDequantize(q, 3, 5, (VnmElementType)9, 0, 0,
                                         scales, restored));
  // CHECK: target 9: error: invalid element type 9
  report("negative rows", vnmFormatQuantize(VnmElementTypeF32, dense, -3, 5,
                                            VnmElementTypeI8, 0, 0, q, scales));
  // CHECK: negative rows: error: invalid row count: -3
  report("null scales", vnmFormatQuantize(VnmElementTypeF32, dense, 3, 5,
                                          VnmElementTypeI8, 0, 0, q, NULL));
  // CHECK: null scales: error: scales is null but must hold 3 elements
  report("null shape",
         vnmFormatGetQuantizeScaleShape(3, 5, 0, 0, NULL, &scaleCols));
  // CHECK: null shape: error: vnmFormatGetQuantizeScaleShape: a shape
  // CHECK-SAME: out-parameter is null
  const int8_t badI4[2] = {-8, 8};
  report("i4 out of range", vnmFormatDequantize(badI4, 1, 2, VnmElementTypeI4,
                                                -1, 0, &scale, restored));
  // CHECK: i4 out of range: error: quantized[0][1] = 8 is outside the I4
  // CHECK-SAME: range [-8, 7]

  // Empty groups have scale 1; no other buffer is needed.
  float emptyScales[3] = {0, 0, 0};
  report("empty", vnmFormatQuantize(VnmElementTypeF16, NULL, 0, 3,
                                    VnmElementTypeI8, 1, 0, NULL, emptyScales));
  printFloats("empty scales", emptyScales, 3);
  // CHECK: empty: ok
  // CHECK-NEXT: empty scales: 1 1 1
}

int main(void) {
  printf("C API version %d\n", vnmGetCAPIVersion());
  testEmbedding();
  testCompiler();
  testFormat();
  testQuantize();
  printf("=== done\n");
  // CHECK: === done
  return 0;
}
