//===- LowerToGPU.cpp - the vnm-lower-to-gpu and vnm-choose-config passes -===//
//
// vnm-lower-to-gpu builds one kernel per vnm.storage.spmm on memrefs into
// `gpu.module @vnm_kernels` as a vnm_gpu tile program, links the op to it,
// and records each kernel's launch contract on the module
// (`vnm.launch_contracts`). Every op is checked before anything is built,
// so a rejected op leaves the module as it was.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "LaunchContract.h"
#include "SpmmTileProgram.h"

namespace vnm {
#define GEN_PASS_DEF_VNMLOWERTOGPU
#define GEN_PASS_DEF_VNMCHOOSECONFIG
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

constexpr llvm::StringLiteral kKernelModuleName = "vnm_kernels";

std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// The problem fields of an spmm kernel's launch contract.
SmallVector<NamedAttribute> spmmProblem(Builder &b,
                                        const kernel::SpmmKernelConfig &cfg) {
  return {
      b.getNamedAttr("element_type",
                     b.getStringAttr(typeName(cfg.elementType))),
      b.getNamedAttr("rhs_type", b.getStringAttr(typeName(cfg.rhsType))),
      // The class frag_values/frag_meta are packed in (docs/format.md).
      b.getNamedAttr("fragment_class",
                     b.getStringAttr(cfg.isInteger() ? "8bit" : "16bit")),
      // Per-group weight scales: weight_scales is R x ceil(K / group_size).
      b.getNamedAttr("group_size", b.getI64IntegerAttr(cfg.groupSize)),
      b.getNamedAttr("result_type", b.getStringAttr(typeName(cfg.resultType))),
      b.getNamedAttr("v", b.getI64IntegerAttr(cfg.v)),
      b.getNamedAttr("n", b.getI64IntegerAttr(cfg.n)),
      b.getNamedAttr("m", b.getI64IntegerAttr(cfg.m)),
      b.getNamedAttr("rows", b.getI64IntegerAttr(cfg.rows)),
      b.getNamedAttr("cols", b.getI64IntegerAttr(cfg.cols)),
      b.getNamedAttr("accumulate", b.getBoolAttr(cfg.accumulate)),
      b.getNamedAttr("bias", b.getBoolAttr(cfg.hasBias)),
      b.getNamedAttr("activation",
                     b.getStringAttr(stringifyActivation(cfg.activation))),
      b.getNamedAttr("block_tile", b.getI64ArrayAttr({cfg.blockM, cfg.blockN})),
      b.getNamedAttr("stages", b.getI64IntegerAttr(cfg.stages)),
      b.getNamedAttr("warps", b.getI64ArrayAttr({cfg.warpsM, cfg.warpsN})),
      b.getNamedAttr(
          "rhs_layout",
          b.getStringAttr(cfg.tokenMajorRhs ? "token_major" : "k_by_n")),
  };
}

constexpr llvm::StringLiteral kSpmmRequirements =
    "frag_values/frag_meta in the format library's fragment layout; ldb and "
    "ldc multiples of 8 and >= n; rhs rows readable up to ldb; 16-byte "
    "aligned pointers; grid = (ceildiv(n, grid_x_divisor), grid_y, 1)";
constexpr llvm::StringLiteral kTokenMajorSpmmRequirements =
    "frag_values/frag_meta in the format library's fragment layout; rhs "
    "token-major: x[n][K] with row pitch ldb, a multiple of 16 and >= K, "
    "rows readable up to ldb; ldc a multiple of 8 and >= n; weight_scales "
    "R and input_scales n f32 values; 16-byte aligned pointers; grid = "
    "(ceildiv(n, grid_x_divisor), grid_y, 1)";

/// The kernel recipe of `op`, or an error on the op.
FailureOr<kernel::SpmmKernelConfig> getSpmmConfig(StorageSpmmOp op) {
  if (op->getNumResults() != 0)
    return op.emitError("vnm-lower-to-gpu: needs vnm.storage.spmm on "
                        "memrefs; run --vnm-expand-storage and "
                        "bufferization first");
  auto values = cast<MemRefType>(op.getValues().getType());
  auto rhs = cast<MemRefType>(op.getRhs().getType());
  auto init = cast<MemRefType>(op.getInit().getType());
  auto refuse = [&](const Twine &what) {
    return op.emitError("vnm-lower-to-gpu: ")
           << what << "; the CPU pipeline (vnm-lower-to-cpu-pipeline) runs it";
  };
  Type weight = values.getElementType();
  Type rhsElement = rhs.getElementType();
  bool integerWeight =
      weight.isSignlessInteger(8) || weight.isSignlessInteger(4);
  // The integer MMA (W8A8, W4A8) reads i8 rhs token-major; an integer
  // weight times f16/bf16 rhs is dequantized for the f16 MMA (W8A16,
  // W4A16).
  bool integer = rhsElement.isSignlessInteger(8);
  if (integerWeight && !integer && !rhsElement.isF16() && !rhsElement.isBF16())
    return refuse("no GPU kernel for an " + typeName(weight) +
                  " weight times " + typeName(rhsElement) +
                  " rhs (i8 rhs: W8A8/W4A8; f16 or bf16 rhs: W8A16/W4A16)");
  if (!integerWeight && weight != rhsElement)
    return refuse("no GPU kernel for a weight of another element type than "
                  "rhs");
  if (!integerWeight && op.getWeightScales())
    return refuse("no GPU kernel for weight scales on a float weight");
  if (op.getGroupSize() && integer)
    return refuse("no GPU kernel for per-group weight scales with i8 "
                  "activations yet (W8A16 and W4A16 take them)");
  if (auto scales = op.getInputScales();
      scales && cast<MemRefType>(scales.getType()).getRank() != 1)
    return refuse("no GPU kernel for a per-tensor input scale yet (per-token "
                  "input scales run on the GPU)");
  // Which way the kernel reads rhs's K x N: K x N row-major for the
  // f16/bf16 kernels, token-major (x[N][K], K contiguous) for the i8
  // kernels; the launch contract's rhs_layout tells the host. A layout
  // known to be the other one is refused (after bufferization the strides
  // are usually dynamic: the host's arrays decide).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(rhs.getStridesAndOffset(strides, offset)) || strides.size() != 2)
    return op.emitError("vnm-lower-to-gpu: rhs must be a strided 2-D memref");
  auto knownNot = [](int64_t stride) {
    return !ShapedType::isDynamic(stride) && stride != 1;
  };
  if (integer && knownNot(strides[0]))
    return op.emitError(
        "vnm-lower-to-gpu: the i8 kernels read rhs token-major (K "
        "contiguous, e.g. memref<KxN, strided<[1, ?]>>, the transpose of an "
        "x[N][K]): sm_80 and sm_90 have no byte-transposing ldmatrix");
  if (!integer && knownNot(strides[1]))
    return op.emitError("vnm-lower-to-gpu: the f16/bf16 kernels read rhs as "
                        "K x N with contiguous rows (memref<KxN> or "
                        "strided<[?, 1]>)");
  if (integer && !isa<FloatType>(init.getElementType()) &&
      (op.getBias() || op.getActivation() != Activation::none))
    return refuse("no GPU kernel for an i32 result with a bias or an "
                  "activation");
  kernel::SpmmKernelConfig config;
  config.tokenMajorRhs = integer;
  config.hasWeightScales = static_cast<bool>(op.getWeightScales());
  if (std::optional<int64_t> groupSize = op.getGroupSize())
    config.groupSize = *groupSize;
  config.hasInputScales = static_cast<bool>(op.getInputScales());
  config.elementType = values.getElementType();
  config.rhsType = rhs.getElementType();
  config.resultType = init.getElementType();
  config.v = op.getEncoding().getV();
  config.n = op.getEncoding().getN();
  config.m = op.getEncoding().getM();
  config.rows = values.getDimSize(0);
  config.cols = rhs.getDimSize(0);
  config.accumulate = op.getAccumulate();
  config.hasBias = static_cast<bool>(op.getBias());
  config.activation = op.getActivation();
  // The op's own tiling (set by hand or by vnm-choose-config) wins;
  // without one the pass picks the default mma.sp tiling.
  Attribute tiling = op->getAttr("vnm.config");
  if (auto hopper = dyn_cast_or_null<vnm_gpu::WgmmaSpTilingAttr>(tiling)) {
    config.applyConfig(hopper);
  } else {
    auto chosen = dyn_cast_or_null<vnm_gpu::MmaSpTilingAttr>(tiling);
    if (tiling && !chosen)
      return op.emitError("vnm-lower-to-gpu: no kernel recipe for the tiling ")
             << tiling
             << " (the mma.sp kernels take #vnm_gpu.mma_sp_tiling, the "
                "sm_90a wgmma.sp kernels #vnm_gpu.wgmma_sp_tiling)";
    if (!chosen)
      chosen = kernel::chooseSpmmConfig(
          op.getContext(), config.v, config.m, config.hasIntegerWeight(),
          config.groupSize > 0, kernel::TilingOptions());
    config.applyConfig(chosen);
  }
  if (ShapedType::isDynamic(config.rows) || ShapedType::isDynamic(config.cols))
    return op.emitError("vnm-lower-to-gpu: the sparse operand's R and K must "
                        "be static (the kernel is specialized on them)");
  if (std::string why = kernel::checkSpmmKernelConfig(config); !why.empty())
    return op.emitError("vnm-lower-to-gpu: ") << why;
  return config;
}

struct LowerToGPUPass : public vnm::impl::VNMLowerToGPUBase<LowerToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<StorageSpmmOp, kernel::SpmmKernelConfig>> planned;
    bool rejected = false;
    module.walk([&](StorageSpmmOp op) {
      FailureOr<kernel::SpmmKernelConfig> config = getSpmmConfig(op);
      if (failed(config))
        rejected = true;
      else
        planned.emplace_back(op, *config);
    });
    if (rejected)
      return signalPassFailure();
    if (planned.empty())
      return;

    OpBuilder b(module.getContext());
    SmallVector<Attribute> contracts;
    if (auto existing =
            module->getAttrOfType<ArrayAttr>("vnm.launch_contracts"))
      llvm::append_range(contracts, existing);
    b.setInsertionPointToEnd(module.getBody());
    auto kernels =
        gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    for (auto [index, entry] : llvm::enumerate(planned)) {
      auto [op, config] = entry;
      std::string name = "spmm_" + std::to_string(index);
      gpu::GPUFuncOp kernel =
          kernel::buildSpmmTileProgram(b, kernels, name, config);
      op->setAttr(
          "vnm.gpu_kernel",
          SymbolRefAttr::get(b.getStringAttr(kKernelModuleName),
                             {FlatSymbolRefAttr::get(b.getStringAttr(name))}));
      kernel::LaunchGrid grid{config.blockN, config.gridY()};
      contracts.push_back(kernel::buildLaunchContract(
          kernel, kKernelModuleName, StorageSpmmOp::getOperationName(), grid,
          spmmProblem(b, config),
          config.tokenMajorRhs ? kTokenMajorSpmmRequirements
                               : kSpmmRequirements));
    }
    module->setAttr("vnm.launch_contracts", b.getArrayAttr(contracts));
  }
};

/// Gives every spmm without a #vnm.config the default tiling, with the
/// pass options' overrides.
struct ChooseConfigPass
    : public vnm::impl::VNMChooseConfigBase<ChooseConfigPass> {
  using VNMChooseConfigBase::VNMChooseConfigBase;

  void runOnOperation() override {
    // The options are checked once, whether or not an op needs them.
    auto reject = [&](const Twine &message) {
      getOperation().emitError("vnm-choose-config: ") << message;
      signalPassFailure();
    };
    if (blockRows != 0 && blockRows != 64 && blockRows != 128)
      return reject("block-rows must be 0, 64 or 128");
    if (blockCols != 0 && blockCols != 128 && blockCols != 256)
      return reject("block-cols must be 0, 128 or 256");
    if (blockCols == 256 && recipe != "wgmma-sp")
      return reject("block-cols=256 needs recipe=wgmma-sp (the mma.sp "
                    "kernels have 128-column block tiles)");
    if (warpsN != 0 && warpsN != 2 && warpsN != 4)
      return reject("warps-n must be 0, 2 or 4");
    if (warpRows != 0 && warpRows != 32 && warpRows != 64)
      return reject("warp-rows must be 0, 32 or 64");
    if (stages != 0 && (stages < 2 || stages > 6))
      return reject("stages must be 0 or in [2, 6]");
    // 32 resident blocks per multiprocessor is the hardware's limit.
    if (blocksPerSM < -1 || blocksPerSM > 32)
      return reject("blocks-per-sm must be -1 (choose), 0 (ptxas's choice) "
                    "or in [1, 32]");
    // The chip bounds the kernel recipes: mma.sp runs on sm_80 and later,
    // wgmma.sp on sm_90a (for float weights; the quantized kernels are
    // mma.sp only).
    if (chip != "sm_80" && chip != "sm_90" && chip != "sm_90a")
      return reject("no spmm kernel recipe for chip '" + chip +
                    "' (sm_80, sm_90, sm_90a)");
    if (recipe != "auto" && recipe != "mma-sp" && recipe != "wgmma-sp")
      return reject("recipe '" + recipe + "' must be auto, mma-sp or wgmma-sp");
    if (recipe == "wgmma-sp" && chip != "sm_90a")
      return reject("recipe wgmma-sp needs chip sm_90a (wgmma.sp is an "
                    "sm_90a instruction), got chip '" +
                    chip + "'");
    // auto: the recipe measured fastest. On the H200 the wgmma.sp kernels
    // (a multistage ring, each pair's MMAs waited for before the next
    // copy) trail the mma.sp kernels at 128 columns and beat them at 2:4
    // and 2:8 only with 256 columns, which spill and lose at small N
    // (bench/results/2026-12-02-h200-recipes-same-run/), so auto is mma.sp.
    bool wgmma = recipe == "wgmma-sp";
    kernel::TilingOptions options;
    options.blockRows = blockRows;
    options.blockCols = blockCols;
    options.warpRows = warpRows;
    options.warpsN = warpsN;
    options.stages = stages;
    options.blocksPerSM = blocksPerSM;

    getOperation().walk([&](Operation *op) {
      if (!isa<SpmmOp, StorageSpmmOp>(op) || op->hasAttr("vnm.config"))
        return;
      EncodingAttr encoding =
          isa<SpmmOp>(op) ? getVNMEncoding(cast<SpmmOp>(op).getLhs().getType())
                          : cast<StorageSpmmOp>(op).getEncoding();
      // Kernels of integer weights (W8A8, W4A8, W8A16, W4A16) tile
      // differently.
      Type weight =
          isa<SpmmOp>(op)
              ? cast<ShapedType>(cast<SpmmOp>(op).getLhs().getType())
                    .getElementType()
              : cast<ShapedType>(cast<StorageSpmmOp>(op).getValues().getType())
                    .getElementType();
      std::optional<int64_t> groupSize =
          isa<SpmmOp>(op) ? cast<SpmmOp>(op).getGroupSize()
                          : cast<StorageSpmmOp>(op).getGroupSize();
      bool integerWeight =
          weight.isSignlessInteger(8) || weight.isSignlessInteger(4);
      if (wgmma && !integerWeight) {
        op->setAttr("vnm.config",
                    kernel::chooseWgmmaSpConfig(&getContext(), encoding.getV(),
                                                encoding.getM(), options));
        return;
      }
      op->setAttr("vnm.config",
                  kernel::chooseSpmmConfig(&getContext(), encoding.getV(),
                                           encoding.getM(),
                                           weight.isSignlessInteger(8) ||
                                               weight.isSignlessInteger(4),
                                           groupSize.has_value(), options));
    });
  }
};

} // namespace
