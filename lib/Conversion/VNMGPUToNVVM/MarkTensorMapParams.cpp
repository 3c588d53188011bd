//===- MarkTensorMapParams.cpp - the vnm-mark-tensor-map-params pass ------===//
//
// A tensor map (CUtensorMap, 128 bytes, 64-byte aligned) is passed to a
// kernel by value and must stay where the launch put it: the TMA reads it
// from the parameter space. convert-vnm-gpu-to-nvvm leaves such parameters
// as generic pointers listed in the kernel's vnm_gpu.tensor_map_params;
// once the kernel is an llvm.func, this pass makes them byval grid
// constants.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "TileLowering.h"

namespace vnm {
#define GEN_PASS_DEF_VNMMARKTENSORMAPPARAMS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

/// Bytes and alignment of a CUtensorMap.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlignment = 64;

struct VNMMarkTensorMapParamsPass
    : public vnm::impl::VNMMarkTensorMapParamsBase<VNMMarkTensorMapParamsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Builder b(context);
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto params = func->getAttrOfType<DenseI64ArrayAttr>(
          vnm::vnm_gpu::lowering::kTensorMapParamsAttrName);
      if (!params)
        return;
      for (int64_t index : params.asArrayRef()) {
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            b.getI8Type(), kTensorMapBytes)));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlignment));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      func->removeAttr(vnm::vnm_gpu::lowering::kTensorMapParamsAttrName);
    });
  }
};

} // namespace
