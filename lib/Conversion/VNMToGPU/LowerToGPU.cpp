//===- LowerToGPU.cpp - the vnm-lower-to-gpu pass -------------------------===//
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
#include "SpmmConfig.h"
#include "SpmmTileProgram.h"

namespace vnm {
#define GEN_PASS_DEF_VNMLOWERTOGPU
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

constexpr llvm::StringLiteral kKernelModuleName = "vnm_kernels";

/// The problem fields of an spmm kernel's launch contract.
SmallVector<NamedAttribute> spmmProblem(Builder &b,
                                        const kernel::SpmmKernelConfig &cfg) {
  return {
      b.getNamedAttr("element_type",
                     b.getStringAttr(kernel::typeName(cfg.elementType))),
      b.getNamedAttr("rhs_type",
                     b.getStringAttr(kernel::typeName(cfg.rhsType))),
      // The class frag_values/frag_meta are packed in (docs/format.md).
      b.getNamedAttr("fragment_class",
                     b.getStringAttr(cfg.isInteger() ? "8bit" : "16bit")),
      // Per-group weight scales: weight_scales is R x ceil(K / group_size).
      b.getNamedAttr("group_size", b.getI64IntegerAttr(cfg.groupSize)),
      b.getNamedAttr("result_type",
                     b.getStringAttr(kernel::typeName(cfg.resultType))),
      b.getNamedAttr("v", b.getI64IntegerAttr(cfg.v)),
      b.getNamedAttr("n", b.getI64IntegerAttr(cfg.n)),
      b.getNamedAttr("m", b.getI64IntegerAttr(cfg.m)),
      // The op's M: other than m where a V:N:M weight runs as 2:4 (the
      // host packs the pruned weight as v:n:4).
      b.getNamedAttr("op_m", b.getI64IntegerAttr(cfg.opM)),
      b.getNamedAttr("rows", b.getI64IntegerAttr(cfg.rows)),
      b.getNamedAttr("cols", b.getI64IntegerAttr(cfg.cols)),
      b.getNamedAttr("accumulate", b.getBoolAttr(cfg.accumulate)),
      b.getNamedAttr("bias", b.getBoolAttr(cfg.hasBias)),
      b.getNamedAttr("activation",
                     b.getStringAttr(stringifyActivation(cfg.activation))),
      b.getNamedAttr("block_tile", b.getI64ArrayAttr({cfg.blockM, cfg.blockN})),
      b.getNamedAttr("stages", b.getI64IntegerAttr(cfg.stages)),
      b.getNamedAttr("warps", b.getI64ArrayAttr({cfg.warpsM, cfg.warpsN})),
      // Blocks per tile along y (grid_y counts them all).
      b.getNamedAttr("k_splits", b.getI64IntegerAttr(cfg.kSplits)),
      b.getNamedAttr(
          "rhs_layout",
          b.getStringAttr(cfg.tokenMajorRhs ? "token_major" : "k_by_n")),
      b.getNamedAttr(
          "out_layout",
          b.getStringAttr(cfg.tokenMajorOut ? "token_major" : "r_by_n")),
  };
}

/// What a launch must satisfy (the contract's `requirements`).
std::string spmmRequirements(const kernel::SpmmKernelConfig &cfg) {
  std::string text = "frag_values/frag_meta in the format library's fragment "
                     "layout; ";
  if (cfg.as24)
    text += "the weight (m = " + std::to_string(cfg.opM) +
            ") packed as v:n:4, with the colidx of that packing; ";
  if (cfg.tokenMajorRhs)
    text += "rhs token-major: x[n][K] with row pitch ldb (in elements), "
            "16-byte rows (ldb a multiple of 16 for i8, of 8 for f16/bf16) and "
            ">= K, rows readable up to ldb; ";
  else
    text += "rhs K x n with row pitch ldb, a multiple of 8 and >= n, rows "
            "readable up to ldb; ";
  if (cfg.tokenMajorOut)
    text += "out token-major: y[n][R] with row pitch ldc >= R; ";
  else
    text += "out R x n with row pitch ldc, a multiple of 8 and >= n; ";
  if (cfg.hasWeightScales)
    text += "weight_scales as the contract's group_size says; ";
  if (cfg.hasInputScales)
    text += "input_scales n f32 values; ";
  return text + "16-byte aligned pointers; grid = (ceildiv(n, "
                "grid_x_divisor), grid_y, 1)";
}

struct LowerToGPUPass : public vnm::impl::VNMLowerToGPUBase<LowerToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<StorageSpmmOp, kernel::SpmmKernelConfig>> planned;
    bool rejected = false;
    module.walk([&](StorageSpmmOp op) {
      FailureOr<kernel::SpmmKernelConfig> config =
          kernel::getSpmmKernelConfig(op);
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
      // The K splits of a tile are consecutive blocks along y.
      kernel::LaunchGrid grid{config.blockN, config.gridY() * config.kSplits};
      contracts.push_back(kernel::buildLaunchContract(
          kernel, kKernelModuleName, StorageSpmmOp::getOperationName(), grid,
          spmmProblem(b, config), spmmRequirements(config)));
    }
    module->setAttr("vnm.launch_contracts", b.getArrayAttr(contracts));
  }
};

} // namespace
