//===- LowerToGPU.cpp - the vnm-lower-to-gpu pass -------------------------===//
//
// Generates one sparse-tensor-core kernel per vnm.storage.spmm on memrefs
// into `gpu.module @vnm_kernels`, links the op to it, and records each
// kernel's launch contract on the module (`vnm.launch_contracts`) so that
// any host can launch it.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "SpmmKernel.h"

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

/// The launch contract of one kernel: everything a host needs to call it.
DictionaryAttr buildContract(OpBuilder &b, StringRef kernel,
                             const kernel::SpmmKernelConfig &config) {
  SmallVector<Attribute> params, paramTypes;
  for (const kernel::KernelParameter &param :
       kernel::getSpmmKernelParameters()) {
    params.push_back(b.getStringAttr(param.name));
    paramTypes.push_back(b.getStringAttr(param.isPointer ? "ptr" : "i32"));
  }
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("kernel", b.getStringAttr(kernel)),
      b.getNamedAttr("module", b.getStringAttr(kKernelModuleName)),
      b.getNamedAttr("op", b.getStringAttr("vnm.storage.spmm")),
      b.getNamedAttr("params", b.getArrayAttr(params)),
      b.getNamedAttr("param_types", b.getArrayAttr(paramTypes)),
      b.getNamedAttr("block", b.getI64ArrayAttr({config.threads(), 1, 1})),
      b.getNamedAttr("grid_x_divisor", b.getI64IntegerAttr(config.blockN)),
      b.getNamedAttr("grid_y", b.getI64IntegerAttr(config.gridY())),
      b.getNamedAttr("static_shared_bytes",
                     b.getI64IntegerAttr(
                         config.dynamicShared() ? 0 : config.sharedBytes())),
      b.getNamedAttr("dynamic_shared_bytes",
                     b.getI64IntegerAttr(
                         config.dynamicShared() ? config.sharedBytes() : 0)),
      b.getNamedAttr("element_type",
                     b.getStringAttr(typeName(config.elementType))),
      b.getNamedAttr("result_type",
                     b.getStringAttr(typeName(config.resultType))),
      b.getNamedAttr("v", b.getI64IntegerAttr(config.v)),
      b.getNamedAttr("n", b.getI64IntegerAttr(config.n)),
      b.getNamedAttr("m", b.getI64IntegerAttr(config.m)),
      b.getNamedAttr("rows", b.getI64IntegerAttr(config.rows)),
      b.getNamedAttr("cols", b.getI64IntegerAttr(config.cols)),
      b.getNamedAttr("accumulate", b.getBoolAttr(config.accumulate)),
      b.getNamedAttr("bias", b.getBoolAttr(config.hasBias)),
      b.getNamedAttr("activation",
                     b.getStringAttr(stringifyActivation(config.activation))),
      b.getNamedAttr("block_tile",
                     b.getI64ArrayAttr({config.blockM, config.blockN})),
      b.getNamedAttr("stages", b.getI64IntegerAttr(config.stages)),
      b.getNamedAttr("warps",
                     b.getI64ArrayAttr({config.warpsM, config.warpsN})),
      b.getNamedAttr(
          "requirements",
          b.getStringAttr("frag_values/frag_meta in the format library's "
                          "fragment layout; ldb and ldc multiples of 8 and "
                          ">= n; rhs rows readable up to ldb; 16-byte "
                          "aligned pointers; grid = (ceildiv(n, "
                          "grid_x_divisor), grid_y, 1)")),
  };
  return b.getDictionaryAttr(fields);
}

struct LowerToGPUPass : public vnm::impl::VNMLowerToGPUBase<LowerToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<StorageSpmmOp> ops;
    module.walk([&](StorageSpmmOp op) { ops.push_back(op); });
    if (ops.empty())
      return;

    OpBuilder b(module.getContext());
    mlir::gpu::GPUModuleOp kernels;
    SmallVector<Attribute> contracts;
    if (auto existing =
            module->getAttrOfType<ArrayAttr>("vnm.launch_contracts"))
      llvm::append_range(contracts, existing);

    for (auto [index, op] : llvm::enumerate(ops)) {
      if (op->getNumResults() != 0) {
        op.emitError("vnm-lower-to-gpu needs vnm.storage.spmm on memrefs; run "
                     "--vnm-expand-storage and bufferization first");
        return signalPassFailure();
      }
      auto values = cast<MemRefType>(op.getValues().getType());
      auto rhs = cast<MemRefType>(op.getRhs().getType());
      auto init = cast<MemRefType>(op.getInit().getType());
      kernel::SpmmKernelConfig config;
      config.elementType = values.getElementType();
      config.resultType = init.getElementType();
      config.v = op.getEncoding().getV();
      config.n = op.getEncoding().getN();
      config.m = op.getEncoding().getM();
      config.rows = values.getDimSize(0);
      config.cols = rhs.getDimSize(0);
      config.accumulate = op.getAccumulate();
      config.hasBias = static_cast<bool>(op.getBias());
      config.activation = op.getActivation();
      // The op's own #vnm.config (set by hand or by vnm-choose-config)
      // wins; without one the pass picks the default tiling.
      auto chosen = op->getAttrOfType<ConfigAttr>("vnm.config");
      if (!chosen)
        chosen = kernel::chooseSpmmConfig(&getContext(), config.v, config.m,
                                          kernel::TilingOptions());
      config.applyConfig(chosen);
      if (ShapedType::isDynamic(config.rows) ||
          ShapedType::isDynamic(config.cols)) {
        op.emitError("vnm-lower-to-gpu: the sparse operand's R and K must be "
                     "static (the kernel is specialized on them)");
        return signalPassFailure();
      }
      if (std::string why = kernel::checkSpmmKernelConfig(config);
          !why.empty()) {
        op.emitError("vnm-lower-to-gpu: ") << why;
        return signalPassFailure();
      }

      if (!kernels) {
        b.setInsertionPointToEnd(module.getBody());
        kernels = mlir::gpu::GPUModuleOp::create(b, module.getLoc(),
                                                 kKernelModuleName);
        module->setAttr(mlir::gpu::GPUDialect::getContainerModuleAttrName(),
                        b.getUnitAttr());
      }
      std::string name = "spmm_" + std::to_string(index);
      kernel::buildSpmmKernel(b, kernels, name, config);
      op->setAttr(
          "vnm.gpu_kernel",
          SymbolRefAttr::get(b.getStringAttr(kKernelModuleName),
                             {FlatSymbolRefAttr::get(b.getStringAttr(name))}));
      contracts.push_back(buildContract(b, name, config));
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
    auto reject = [&](StringRef message) {
      getOperation().emitError("vnm-choose-config: ") << message;
      signalPassFailure();
    };
    if (blockRows != 0 && blockRows != 64 && blockRows != 128)
      return reject("block-rows must be 0, 64 or 128");
    if (warpsN != 0 && warpsN != 2 && warpsN != 4)
      return reject("warps-n must be 0, 2 or 4");
    if (warpRows != 0 && warpRows != 32 && warpRows != 64)
      return reject("warp-rows must be 0, 32 or 64");
    if (stages != 0 && (stages < 2 || stages > 6))
      return reject("stages must be 0 or in [2, 6]");
    kernel::TilingOptions options;
    options.blockRows = blockRows;
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
      op->setAttr("vnm.config",
                  kernel::chooseSpmmConfig(&getContext(), encoding.getV(),
                                           encoding.getM(), options));
    });
  }
};

} // namespace
