//===- DumpKernels.cpp - the vnm-dump-kernels pass ------------------------===//
//
// Hosts that are not MLIR programs (the Python package, the benchmark
// harness) launch the generated kernels from files: the PTX or cubin of each
// gpu.binary and a JSON launch contract per kernel.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace vnm {
#define GEN_PASS_DEF_VNMDUMPKERNELS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

llvm::json::Value toJSON(Attribute attr) {
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array out;
    for (Attribute element : array)
      out.push_back(toJSON(element));
    return out;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object out;
    for (NamedAttribute field : dict)
      out[field.getName().getValue()] = toJSON(field.getValue());
    return out;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

/// One file the pass writes: its name inside output-dir and its contents.
struct OutputFile {
  std::string name;
  std::string contents;
};

StringRef extensionOf(mlir::gpu::CompilationTarget format) {
  switch (format) {
  case mlir::gpu::CompilationTarget::Assembly:
    return ".ptx";
  case mlir::gpu::CompilationTarget::Binary:
    return ".cubin";
  case mlir::gpu::CompilationTarget::Fatbin:
    return ".fatbin";
  default:
    return ".bc";
  }
}

/// Whether `name` names a file directly inside output-dir: a symbol or
/// kernel name may hold any character, and one with a separator would write
/// somewhere else (or fail on a missing subdirectory).
bool isPlainFileName(StringRef name) {
  return !name.empty() && name != "." && name != ".." &&
         llvm::sys::path::filename(name) == name && !name.contains('/') &&
         !name.contains('\\');
}

struct DumpKernelsPass : public vnm::impl::VNMDumpKernelsBase<DumpKernelsPass> {
  using VNMDumpKernelsBase::VNMDumpKernelsBase;

  /// Every file to write, decided before any is written: a bad name or two
  /// objects landing in the same file leave output-dir untouched.
  FailureOr<SmallVector<OutputFile>> collectFiles(ModuleOp module) {
    SmallVector<OutputFile> files;
    llvm::StringMap<Location> claimed;
    auto add = [&](Operation *owner, StringRef stem, StringRef extension,
                   StringRef what, StringRef contents) -> LogicalResult {
      if (!isPlainFileName(stem))
        return owner->emitError("vnm-dump-kernels: ")
               << what << " '" << stem
               << "' is not a plain file name, so it cannot be written "
                  "inside output-dir";
      std::string name = (stem + extension).str();
      auto [it, inserted] = claimed.try_emplace(name, owner->getLoc());
      if (!inserted) {
        InFlightDiagnostic diag =
            owner->emitError("vnm-dump-kernels: two objects would both be "
                             "written to ")
            << name;
        diag.attachNote(it->second) << "the first is from here";
        return diag;
      }
      files.push_back({name, contents.str()});
      return success();
    };
    // Each kernel's identity is the hash of the object that holds it: a GPU
    // result counts for exactly that code (bench/validated_kernels.py).
    llvm::StringMap<std::pair<std::string, std::string>> identity;
    for (auto binary : module.getOps<mlir::gpu::BinaryOp>()) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<mlir::gpu::ObjectAttr>(attr);
        StringRef extension = extensionOf(object.getFormat());
        StringRef contents = object.getObject().getValue();
        if (failed(add(binary, binary.getName(), extension, "gpu.binary name",
                       contents)))
          return failure();
        auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(contents));
        identity[binary.getName()] = {(binary.getName() + extension).str(),
                                      llvm::toHex(digest, /*LowerCase=*/true)};
      }
    }
    // The dialect's verifier has checked that each contract is a dictionary
    // with a string `kernel`.
    if (auto contracts =
            module->getAttrOfType<ArrayAttr>("vnm.launch_contracts")) {
      for (Attribute attr : contracts) {
        auto contract = cast<DictionaryAttr>(attr);
        auto kernel = contract.getAs<StringAttr>("kernel");
        llvm::json::Value json = toJSON(contract);
        auto kernelModule = contract.getAs<StringAttr>("module");
        if (auto found = kernelModule ? identity.find(kernelModule.getValue())
                                      : identity.end();
            found != identity.end()) {
          StringRef file = found->second.first;
          json.getAsObject()->try_emplace("binary_file", file);
          std::string key =
              (llvm::sys::path::extension(file).drop_front() + "_sha256").str();
          json.getAsObject()->try_emplace(key, found->second.second);
        }
        std::string text;
        llvm::raw_string_ostream os(text);
        os << llvm::formatv("{0:2}", json) << "\n";
        if (failed(
                add(module, kernel.getValue(), ".json", "kernel name", text)))
          return failure();
      }
    }
    return files;
  }

  LogicalResult write(const OutputFile &file) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, file.name);
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    if (error)
      return getOperation().emitError("vnm-dump-kernels: cannot write ")
             << path << ": " << error.message();
    os << file.contents;
    os.close();
    // A stream left with an error aborts the process when destroyed; a
    // failed write (a full disk) is a diagnostic instead.
    if (os.has_error()) {
      std::error_code writeError = os.error();
      os.clear_error();
      return getOperation().emitError("vnm-dump-kernels: cannot write ")
             << path << ": " << writeError.message();
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (outputDir.empty()) {
      module.emitError("vnm-dump-kernels needs output-dir=<directory>");
      return signalPassFailure();
    }
    FailureOr<SmallVector<OutputFile>> files = collectFiles(module);
    if (failed(files))
      return signalPassFailure();
    // create_directories accepts an existing path of any kind, so a regular
    // file there is caught here rather than as a confusing error on the
    // first file written into it.
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError("vnm-dump-kernels: cannot create output-dir ")
          << outputDir << ": " << error.message();
      return signalPassFailure();
    }
    if (!llvm::sys::fs::is_directory(outputDir)) {
      module.emitError("vnm-dump-kernels: output-dir ")
          << outputDir << " exists and is not a directory";
      return signalPassFailure();
    }
    for (const OutputFile &file : *files)
      if (failed(write(file)))
        return signalPassFailure();
  }
};

} // namespace
