//===- DumpKernels.cpp - the vnm-dump-kernels pass ------------------------===//
//
// Hosts that are not MLIR programs (the Python package, the benchmark
// harness) launch the generated kernels from files: the PTX or cubin of each
// gpu.binary and a JSON launch contract per kernel.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
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

struct DumpKernelsPass : public vnm::impl::VNMDumpKernelsBase<DumpKernelsPass> {
  using VNMDumpKernelsBase::VNMDumpKernelsBase;

  LogicalResult write(StringRef name, StringRef contents) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name);
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    if (error)
      return getOperation().emitError("vnm-dump-kernels: cannot write ")
             << path << ": " << error.message();
    os << contents;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (outputDir.empty()) {
      module.emitError("vnm-dump-kernels needs output-dir=<directory>");
      return signalPassFailure();
    }
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError("vnm-dump-kernels: cannot create ")
          << outputDir << ": " << error.message();
      return signalPassFailure();
    }
    for (auto binary : module.getOps<mlir::gpu::BinaryOp>()) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<mlir::gpu::ObjectAttr>(attr);
        StringRef extension;
        switch (object.getFormat()) {
        case mlir::gpu::CompilationTarget::Assembly:
          extension = ".ptx";
          break;
        case mlir::gpu::CompilationTarget::Binary:
          extension = ".cubin";
          break;
        case mlir::gpu::CompilationTarget::Fatbin:
          extension = ".fatbin";
          break;
        default:
          extension = ".bc";
          break;
        }
        if (failed(write((binary.getName() + extension).str(),
                         object.getObject().getValue())))
          return signalPassFailure();
      }
    }
    auto contracts = module->getAttrOfType<ArrayAttr>("vnm.launch_contracts");
    if (!contracts)
      return;
    for (Attribute attr : contracts) {
      auto contract = cast<DictionaryAttr>(attr);
      auto kernel = contract.getAs<StringAttr>("kernel");
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::formatv("{0:2}", toJSON(contract)) << "\n";
      if (failed(write((kernel.getValue() + ".json").str(), text)))
        return signalPassFailure();
    }
  }
};

} // namespace
