//===- TileRunner.cpp - compile and run a case's tile program -------------===//

#include "TileRunner.h"

#include "HandWrittenKernel.h"

#include "vnm/Conversion/Passes.h"
#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNM/Transforms/Passes.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace vnm::tile_test;

namespace {

/// The CPU lowering of what convert-vnm-gpu-to-loops leaves: scf, memref,
/// arith, math (tanh through libm) and cf.assert down to LLVM.
constexpr const char *kToLLVM =
    "canonicalize,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "convert-math-to-libm,finalize-memref-to-llvm,convert-math-to-llvm,"
    "convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,"
    "reconcile-unrealized-casts";

/// float -> bf16, rounded to nearest even (NaNs stay quiet NaNs), with
/// the ABI of compiler-rt's __truncsfbf2: the bits in the low half of the
/// SSE return register, which _Float16 shares. LLVM's x86 backend calls it
/// for bf16 values held in registers (a select or phi of bf16) on CPUs
/// without AVX512-BF16, and libgcc before GCC 13 does not define it.
extern "C" _Float16 vnmTruncSfBf2(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t half;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    half = static_cast<uint16_t>((bits >> 16) | 0x40u);
  else
    half = static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  _Float16 result;
  std::memcpy(&result, &half, sizeof(result));
  return result;
}

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    // A failed cf.assert prints its message with puts, then aborts, which
    // would drop a buffered stdout with the message in it.
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    registerAllPasses();
    vnm::registerVNMPasses();
    vnm::registerVNMConversionPasses();
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    vnm::registerVNMDialect(registry);
    registry.insert<vnm::vnm_gpu::VNMGPUDialect>();
    auto *created = new MLIRContext(registry);
    created->loadAllAvailableDialects();
    return created;
  }();
  return *context;
}

/// Diagnostics of a failed step, for the exception's message.
class DiagnosticLog {
public:
  explicit DiagnosticLog(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diagnostic) {
          text += diagnostic.str() + "\n";
          return success();
        }) {}
  std::string text;

private:
  ScopedDiagnosticHandler handler;
};

llvm::Error fail(const std::string &message) {
  return llvm::createStringError(message);
}

llvm::Expected<OwningOpRef<ModuleOp>> parse(const std::string &text,
                                            DiagnosticLog &log) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &getContext());
  if (!module)
    return fail("cannot parse the module:\n" + log.text);
  return module;
}

llvm::Error runPipeline(ModuleOp module, const std::string &pipeline,
                        DiagnosticLog &log) {
  PassManager pm(&getContext());
  if (failed(parsePassPipeline(pipeline, pm)) || failed(pm.run(module)))
    return fail("pipeline " + pipeline + " failed:\n" + log.text);
  return llvm::Error::success();
}

std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// grid_x_divisor and grid_y of @spmm_0's launch contract.
llvm::Expected<std::pair<int64_t, int64_t>> getGrid(ModuleOp module) {
  auto contracts = module->getAttrOfType<ArrayAttr>("vnm.launch_contracts");
  for (Attribute attribute : contracts ? contracts : ArrayAttr()) {
    auto contract = dyn_cast<DictionaryAttr>(attribute);
    auto kernel = contract ? contract.getAs<StringAttr>("kernel") : nullptr;
    if (!kernel || kernel.getValue() != "spmm_0")
      continue;
    auto divisor = contract.getAs<IntegerAttr>("grid_x_divisor");
    auto gridY = contract.getAs<IntegerAttr>("grid_y");
    if (divisor && gridY)
      return std::make_pair(divisor.getInt(), gridY.getInt());
  }
  return fail("no launch contract for spmm_0");
}

std::string spmmModule(const SpmmCase &c) {
  const int64_t groups = (c.cols + c.m - 1) / c.m;
  const int64_t blocks = (c.rows + c.v - 1) / c.v;
  const std::string values = "memref<" + std::to_string(c.rows) + "x" +
                             std::to_string(2 * groups) + "x" + c.weightType() +
                             ">";
  const std::string colidx = "memref<" + std::to_string(blocks) + "x" +
                             std::to_string(groups) + "x4xi8>";
  const std::string meta = "memref<" + std::to_string(c.rows) + "x" +
                           std::to_string(2 * groups) + "xi8>";
  // Token-major activations (i8 always): the K x N view of an x[N][K].
  const std::string rhs =
      "memref<" + std::to_string(c.cols) + "x?x" + c.element +
      (c.tokenMajorRhs() ? ", strided<[1, " + std::to_string(c.ldb()) + "]>>"
                         : std::string(">"));
  const std::string weightScales =
      "memref<" + std::to_string(c.rows) +
      (c.groupSize ? "x" + std::to_string(c.scaleGroups()) : std::string()) +
      "xf32>";
  const std::string inputScales = "memref<?xf32>";
  const std::string bias =
      "memref<" + std::to_string(c.rows) + "x" + c.result + ">";
  // y[N][R] (token-major) is the R x N view with strides [1, ldc].
  const std::string out =
      "memref<" + std::to_string(c.rows) + "x?x" + c.result +
      (c.tokenMajorOut ? ", strided<[1, " + std::to_string(c.ldc()) + "]>>"
                       : std::string(">"));
  std::string attributes =
      "encoding = #vnm.encoding<v = " + std::to_string(c.v) +
      ", n = 2, m = " + std::to_string(c.m) + ">";
  if (c.accumulate)
    attributes += ", accumulate";
  if (c.activation != "none")
    attributes += ", activation = #vnm.activation<" + c.activation + ">";
  if (c.groupSize)
    attributes += ", group_size = " + std::to_string(c.groupSize);
  std::string scales;
  if (c.quantized())
    scales = " weight_scales(%sw : " + weightScales +
             ") input_scales(%sx : " + inputScales + ")";
  else if (c.weightOnly())
    scales = " weight_scales(%sw : " + weightScales + ")";
  return "func.func @spmm(%v: " + values + ", %c: " + colidx + ", %m: " + meta +
         ", %x: " + rhs + ", %b: " + bias + ", %sw: " + weightScales +
         ", %sx: " + inputScales + ", %y: " + out +
         ") {\n  vnm.storage.spmm ins(%v, %c, %m, %x : " + values + ", " +
         colidx + ", " + meta + ", " + rhs + ")" +
         (c.bias ? " bias(%b : " + bias + ")" : std::string()) + scales +
         " outs(%y : " + out + ") {" + attributes + "}\n  return\n}\n";
}

template <typename T> StridedMemRefType<T, 1> describe(T *data, int64_t size) {
  return StridedMemRefType<T, 1>{data, data, 0, {size}, {1}};
}

} // namespace

llvm::Expected<std::string>
vnm::tile_test::buildTileProgram(const SpmmCase &c) {
  switch (c.source) {
  case ProgramSource::HandPlain:
    return writeHandKernel(c, /*pipelined=*/false);
  case ProgramSource::HandWarpSpecialized:
    return writeWarpSpecializedKernel(c);
  case ProgramSource::HandPipelined:
    return writeHandKernel(c, /*pipelined=*/true);
  case ProgramSource::Generated:
    break;
  }
  DiagnosticLog log(getContext());
  auto module = parse(spmmModule(c), log);
  if (!module)
    return module.takeError();
  if (llvm::Error error = runPipeline(
          **module,
          "vnm-choose-config{chip=" + c.chip +
              (c.chip == "sm_90a" ? " recipe=" + c.recipe : std::string()) +
              (c.as24 ? " as-2-4=1" : std::string()) +
              (c.blockCols ? " block-cols=" + std::to_string(c.blockCols)
                           : std::string()) +
              (c.unroll ? " unroll=" + std::to_string(c.unroll)
                        : std::string()) +
              (c.kSplits ? " k-splits=" + std::to_string(c.kSplits)
                         : std::string()) +
              (c.stagedA ? " staged-a=1" : std::string()) +
              " block-rows=" + std::to_string(c.blockRows) +
              " warp-rows=" + std::to_string(c.warpRows) + " warps-n=" +
              std::to_string(c.warpsN) + " stages=" + std::to_string(c.stages) +
              "},vnm-lower-to-gpu,vnm-pipeline-kernels,vnm-unroll-kernel-loops",
          log))
    return std::move(error);
  return print(**module);
}

llvm::Error vnm::tile_test::runTileProgram(const SpmmCase &c,
                                           const std::string &program,
                                           CaseData &data) {
  DiagnosticLog log(getContext());
  auto parsed = parse(program, log);
  if (!parsed)
    return parsed.takeError();
  OwningOpRef<ModuleOp> module = std::move(*parsed);
  auto grid = getGrid(*module);
  if (!grid)
    return grid.takeError();
  auto [divisor, gridY] = *grid;
  if (llvm::Error error = runPipeline(*module, "convert-vnm-gpu-to-loops", log))
    return error;
  // The host side of the module (the spmm op the kernel was made for) is
  // not under test; only the kernel's CPU function is compiled.
  for (auto func : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (func.getName() != "spmm_0_cpu")
      func.erase();
  if (!module->lookupSymbol("spmm_0_cpu"))
    return fail("convert-vnm-gpu-to-loops made no @spmm_0_cpu");
  if (llvm::Error error = runPipeline(*module, kToLLVM, log))
    return error;

  ExecutionEngineOptions options;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Default;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine)
    return fail("JIT compilation failed: " +
                llvm::toString(engine.takeError()));
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&vnmTruncSfBf2),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });

  auto values = describe(static_cast<uint16_t *>(data.fragValues.data()),
                         data.fragValues.size());
  auto meta = describe(data.fragMeta.data(),
                       static_cast<int64_t>(data.fragMeta.size()));
  auto colidx = describe(data.colidxWords.data(),
                         static_cast<int64_t>(data.colidxWords.size()));
  auto rhs =
      describe(static_cast<uint16_t *>(data.rhs.data()), data.rhs.size());
  auto out = describe(static_cast<uint8_t *>(data.out.data()), data.out.size());
  auto bias =
      describe(static_cast<uint8_t *>(data.bias.data()), data.bias.size());
  auto weightScales = describe(data.weightScales.data(),
                               static_cast<int64_t>(data.weightScales.size()));
  auto inputScales = describe(data.inputScales.data(),
                              static_cast<int64_t>(data.inputScales.size()));
  auto *valuesRef = &values;
  auto *metaRef = &meta;
  auto *colidxRef = &colidx;
  auto *rhsRef = &rhs;
  auto *outRef = &out;
  auto *biasRef = &bias;
  auto *weightScalesRef = &weightScales;
  auto *inputScalesRef = &inputScales;
  int32_t n = static_cast<int32_t>(c.n);
  int32_t ldb = static_cast<int32_t>(c.ldb());
  int32_t ldc = static_cast<int32_t>(c.ldc());
  int64_t gridX = (c.n + divisor - 1) / divisor;
  // In the kernel's parameter order: the scales of a quantized kernel
  // follow the bias.
  SmallVector<void *> args = {&valuesRef, &metaRef, &colidxRef,
                              &rhsRef,    &outRef,  &biasRef};
  if (c.quantized())
    args.append({&weightScalesRef, &inputScalesRef});
  else if (c.weightOnly())
    args.push_back(&weightScalesRef);
  args.append({&n, &ldb, &ldc, &gridX, &gridY});
  if (llvm::Error error =
          (*engine)->invokePacked("_mlir_ciface_spmm_0_cpu", args))
    return fail("cannot call @spmm_0_cpu: " + llvm::toString(std::move(error)));
  return llvm::Error::success();
}

std::string vnm::tile_test::runAndCheck(const SpmmCase &c,
                                        const std::string &program) {
  auto data = CaseData::generate(c, chooseSeed());
  if (!data)
    return c.name() + ": " + llvm::toString(data.takeError());
  if (llvm::Error error = runTileProgram(c, program, *data))
    return c.name() + ": " + llvm::toString(std::move(error));
  return data->check(c);
}
