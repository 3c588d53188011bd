//===- Compiler.cpp - vnm C API: a self-contained compiler session --------===//
//
// A VnmCompiler owns an MLIRContext whose diagnostic handler records every
// diagnostic instead of printing it; each entry point clears the record
// first, so the caller reads exactly what its last call produced.
//
//===----------------------------------------------------------------------===//

#include "vnm-c/Compiler.h"

#include "CAPIUtils.h"
#include "CompilerRegistry.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace vnm::capi;

namespace {

struct DiagnosticRecord {
  VnmDiagnosticSeverity severity;
  std::string location;
  std::string message;
};

VnmDiagnosticSeverity convertSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return VnmDiagnosticSeverityError;
  case DiagnosticSeverity::Warning:
    return VnmDiagnosticSeverityWarning;
  case DiagnosticSeverity::Note:
    return VnmDiagnosticSeverityNote;
  case DiagnosticSeverity::Remark:
    return VnmDiagnosticSeverityRemark;
  }
  return VnmDiagnosticSeverityError;
}

const char *getSeverityName(VnmDiagnosticSeverity severity) {
  switch (severity) {
  case VnmDiagnosticSeverityError:
    return "error";
  case VnmDiagnosticSeverityWarning:
    return "warning";
  case VnmDiagnosticSeverityNote:
    return "note";
  case VnmDiagnosticSeverityRemark:
    return "remark";
  }
  return "error";
}

/// `file:line:col` is what editors and users expect, and what mlir-opt
/// prints; fused and call-site locations contain one.
std::string formatLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  if (isa<UnknownLoc>(loc))
    return std::string();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

class Compiler {
public:
  Compiler() : context(createRegistry()) {
    // A note holding the whole failing op (mlir-opt's default) can be as
    // large as the module; the location already identifies the op.
    context.printOpOnDiagnostic(false);
    handler =
        context.getDiagEngine().registerHandler([this](Diagnostic &diagnostic) {
          record(diagnostic);
          return success();
        });
  }

  ~Compiler() { context.getDiagEngine().eraseHandler(handler); }

  MLIRContext &getContext() { return context; }

  /// Starts a fallible entry point: its diagnostics replace the previous
  /// call's.
  void beginCall() { diagnostics.clear(); }

  void addError(llvm::StringRef location, llvm::StringRef message) {
    diagnostics.push_back(
        {VnmDiagnosticSeverityError, location.str(), message.str()});
  }

  /// A failing status whose message is `summary` followed by the call's
  /// diagnostics, one per line, as mlir-opt would print them.
  VnmStatus fail(const llvm::Twine &summary) {
    std::string text = summary.str();
    for (const DiagnosticRecord &record : diagnostics) {
      text += "\n";
      if (!record.location.empty())
        text += record.location + ": ";
      text += getSeverityName(record.severity);
      text += ": " + record.message;
    }
    return errorStatus(std::move(text));
  }

  const std::vector<DiagnosticRecord> &getDiagnostics() const {
    return diagnostics;
  }

private:
  static DialectRegistry createRegistry() {
    registerCompilerPasses();
    DialectRegistry registry;
    registerCompilerDialects(registry);
    return registry;
  }

  /// Needs no lock: the diagnostic engine serializes handler calls, also
  /// those from pass-manager worker threads, and those threads are done when
  /// the entry point returns.
  void record(Diagnostic &diagnostic) {
    diagnostics.push_back({convertSeverity(diagnostic.getSeverity()),
                           formatLocation(diagnostic.getLocation()),
                           diagnostic.str()});
    for (Diagnostic &note : diagnostic.getNotes())
      diagnostics.push_back({VnmDiagnosticSeverityNote,
                             formatLocation(note.getLocation()), note.str()});
  }

  MLIRContext context;
  DiagnosticEngine::HandlerID handler;
  std::vector<DiagnosticRecord> diagnostics;
};

struct Module {
  Compiler *compiler;
  /// Kept alive with the IR: the bytecode reader may reference resource
  /// blobs in the parsed buffer instead of copying them.
  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  OwningOpRef<ModuleOp> op;
};

Compiler *unwrap(VnmCompiler compiler) {
  return static_cast<Compiler *>(compiler.ptr);
}

Module *unwrap(VnmModule module) { return static_cast<Module *>(module.ptr); }

const DiagnosticRecord *getDiagnostic(VnmCompiler compiler, intptr_t pos) {
  Compiler *impl = unwrap(compiler);
  if (!impl || pos < 0 ||
      static_cast<size_t>(pos) >= impl->getDiagnostics().size())
    return nullptr;
  return &impl->getDiagnostics()[pos];
}

/// The pipeline parser reports through a SourceMgr over the text inside the
/// anchor's parentheses: `MLIR Textual PassPipeline Parser:1:COL: error:
/// MESSAGE`, then that text and a caret. Recorded as a diagnostic at
/// `<pass pipeline>:1:COL` with COL counted in the whole pipeline, like those
/// of the IR; anything else is kept whole.
void addPipelineError(Compiler &compiler, llvm::StringRef pipeline,
                      llvm::StringRef errors) {
  static constexpr llvm::StringLiteral kBufferName =
      "MLIR Textual PassPipeline Parser:1:";
  llvm::StringRef firstLine = errors.trim().split('\n').first;
  if (firstLine.consume_front(kBufferName)) {
    auto [column, message] = firstLine.split(": error: ");
    unsigned innerColumn;
    size_t open = pipeline.find('(');
    if (!message.empty() && !column.getAsInteger(10, innerColumn) &&
        open != llvm::StringRef::npos) {
      compiler.addError(
          ("<pass pipeline>:1:" + llvm::Twine(innerColumn + open + 1)).str(),
          message);
      return;
    }
  }
  compiler.addError("", errors.trim());
}

VnmStringRef toStringRef(const std::string &text) {
  return VnmStringRef{text.c_str(), text.size()};
}

} // namespace

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

VnmCompiler vnmCompilerCreate(void) { return VnmCompiler{new Compiler()}; }

void vnmCompilerDestroy(VnmCompiler compiler) { delete unwrap(compiler); }

intptr_t vnmCompilerGetNumDiagnostics(VnmCompiler compiler) {
  Compiler *impl = unwrap(compiler);
  return impl ? static_cast<intptr_t>(impl->getDiagnostics().size()) : 0;
}

VnmDiagnosticSeverity vnmCompilerGetDiagnosticSeverity(VnmCompiler compiler,
                                                       intptr_t pos) {
  const DiagnosticRecord *record = getDiagnostic(compiler, pos);
  return record ? record->severity : VnmDiagnosticSeverityError;
}

VnmStringRef vnmCompilerGetDiagnosticLocation(VnmCompiler compiler,
                                              intptr_t pos) {
  const DiagnosticRecord *record = getDiagnostic(compiler, pos);
  return record ? toStringRef(record->location) : VnmStringRef{"", 0};
}

VnmStringRef vnmCompilerGetDiagnosticMessage(VnmCompiler compiler,
                                             intptr_t pos) {
  const DiagnosticRecord *record = getDiagnostic(compiler, pos);
  return record ? toStringRef(record->message) : VnmStringRef{"", 0};
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

VnmStatus vnmModuleParse(VnmCompiler compiler, VnmStringRef source,
                         VnmStringRef sourceName, VnmModule *module) {
  if (!module)
    return errorStatus("vnmModuleParse: the module out-parameter is null");
  *module = VnmModule{nullptr};
  Compiler *impl = unwrap(compiler);
  if (!impl)
    return errorStatus("vnmModuleParse: the compiler is null");
  if (!source.data && source.length)
    return errorStatus("vnmModuleParse: the source is null");
  impl->beginCall();

  llvm::StringRef name = sourceName.length
                             ? llvm::StringRef(vnm::capi::unwrap(sourceName))
                             : llvm::StringRef("<source>");
  // A copy, aligned for the widest resource blob bytecode may hold, because
  // the caller's buffer need not outlive this call nor be aligned.
  std::unique_ptr<llvm::WritableMemoryBuffer> buffer =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(source.length, name,
                                                        llvm::Align(64));
  if (!buffer)
    return errorStatus("vnmModuleParse: out of memory");
  if (source.length)
    std::memcpy(buffer->getBufferStart(), source.data, source.length);
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());

  // Parsers of upstream ops can crash on malformed text (MLIR 22's
  // linalg.transpose dereferences a null attribute when `permutation =` is
  // not followed by an array), so parsing runs under crash recovery as the
  // pass pipelines do.
  ParserConfig config(&impl->getContext());
  OwningOpRef<ModuleOp> op;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafelyOnThread(
          [&] { op = parseSourceFile<ModuleOp>(sourceMgr, config); }))
    return impl->fail("the MLIR parser crashed on '" + name +
                      "' (malformed input that an upstream op's parser does "
                      "not reject cleanly); nothing was parsed");
  if (!op)
    return impl->fail("failed to parse '" + name + "'");
  *module = VnmModule{new Module{impl, std::move(sourceMgr), std::move(op)}};
  return okStatus();
}

void vnmModuleDestroy(VnmModule module) { delete unwrap(module); }

/// Writes `module` and `pipeline` as an MLIR crash reproducer to a new
/// temporary file and says where (or why not).
static std::string writeReproducer(Operation *module,
                                   llvm::StringRef pipeline) {
  llvm::SmallString<128> path;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("vnm-crash-reproducer", "mlir", fd,
                                         path))
    return "no reproducer: no temporary file could be created";
  llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
  module->print(out, OpPrintingFlags().enableDebugInfo());
  out << "\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
      << "      pipeline: \"" << pipeline
      << "\",\n      disable_threading: true,\n      verify_each: true\n"
      << "    }\n  }\n#-}\n";
  out.close();
  if (out.has_error())
    return "no reproducer: writing " + std::string(path) + " failed";
  return "reproducer: " + std::string(path);
}

VnmStatus vnmModuleRunPipeline(VnmModule module, VnmStringRef pipeline) {
  Module *impl = unwrap(module);
  if (!impl)
    return errorStatus("vnmModuleRunPipeline: the module is null");
  Compiler &compiler = *impl->compiler;
  compiler.beginCall();
  llvm::StringRef text = vnm::capi::unwrap(pipeline);

  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  FailureOr<OpPassManager> parsed = parsePassPipeline(text, errorStream);
  if (failed(parsed)) {
    addPipelineError(compiler, text, parseErrors);
    return compiler.fail("invalid pass pipeline '" + text + "'");
  }

  // The parsed pipeline replaces the top-level pass manager's contents: adding
  // a `builtin.module(...)` pipeline *into* a module pass manager would nest
  // it under a second builtin.module and silently run on nothing.
  PassManager pm(&compiler.getContext(), ModuleOp::getOperationName());
  llvm::StringRef anchor = parsed->getOpAnchorName();
  if (anchor == ModuleOp::getOperationName() ||
      anchor == OpPassManager::getAnyOpAnchorName())
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
  else
    pm.nest(anchor) = std::move(*parsed);

  // A crash or an LLVM fatal error inside a pass (LLVM's backends abort on
  // input they cannot handle) must not take the caller's process down: the
  // pass manager runs under LLVM's crash recovery, and a crash leaves a
  // reproducer (the module before the pipeline, with the pipeline, as
  // `vnm-opt --run-reproducer` reads it) in a temporary file. MLIR's own
  // reproducer generation is not used: it also writes one for every
  // ordinary pass failure, and adds notes to its diagnostics.
  OwningOpRef<Operation *> before(impl->op->clone());
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  LogicalResult result = failure();
  if (!recovery.RunSafelyOnThread([&] { result = pm.run(impl->op.get()); })) {
    std::string where = writeReproducer(before.get(), text);
    return compiler.fail("pass pipeline '" + text +
                         "' crashed; the module may be left in any state; " +
                         where);
  }
  if (failed(result))
    return compiler.fail("pass pipeline '" + text + "' failed");
  return okStatus();
}

VnmStatus vnmModulePrint(VnmModule module, uint32_t flags, VnmString *text) {
  if (!text)
    return errorStatus("vnmModulePrint: the text out-parameter is null");
  *text = VnmString{nullptr, 0};
  Module *impl = unwrap(module);
  if (!impl)
    return errorStatus("vnmModulePrint: the module is null");
  impl->compiler->beginCall();

  OpPrintingFlags printingFlags;
  if (flags & VnmPrintFlagsGeneric)
    printingFlags.printGenericOpForm();
  if (flags & VnmPrintFlagsDebugInfo)
    printingFlags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  std::string output;
  llvm::raw_string_ostream os(output);
  impl->op->print(os, printingFlags);
  *text = makeString(output);
  if (!text->data)
    return errorStatus("vnmModulePrint: out of memory");
  return okStatus();
}

VnmStatus vnmModuleWriteBytecode(VnmModule module, VnmString *bytes) {
  if (!bytes)
    return errorStatus(
        "vnmModuleWriteBytecode: the bytes out-parameter is null");
  *bytes = VnmString{nullptr, 0};
  Module *impl = unwrap(module);
  if (!impl)
    return errorStatus("vnmModuleWriteBytecode: the module is null");
  Compiler &compiler = *impl->compiler;
  compiler.beginCall();

  std::string output;
  llvm::raw_string_ostream os(output);
  if (failed(writeBytecodeToFile(impl->op.get(), os)))
    return compiler.fail("failed to write bytecode");
  *bytes = makeString(output);
  if (!bytes->data)
    return errorStatus("vnmModuleWriteBytecode: out of memory");
  return okStatus();
}
