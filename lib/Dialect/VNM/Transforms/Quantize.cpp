//===- Quantize.cpp - quantized weights and activations for vnm.spmm ------===//
//
// Everything is decided before anything is rewritten (as in vnm-sparsify):
// a module with several problems reports them all and is left unchanged.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "vnm/Dialect/VNM/IR/Quantization.h"
#include "vnm/Dialect/VNM/IR/StorageLayout.h"
#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm {
#define GEN_PASS_DEF_VNMQUANTIZE
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

struct Planned {
  SpmmOp spmm;
  CompressOp weight;
  QuantizationChoice choice;
};

/// The choice for `spmm`, an error on it, or nothing (left alone).
FailureOr<std::optional<QuantizationChoice>>
getChoice(SpmmOp spmm, const std::optional<QuantizationChoice> &fallback) {
  auto attr = spmm->getAttrOfType<StringAttr>(kQuantizationAttrName);
  if (!attr)
    return fallback;
  std::string error;
  std::optional<QuantizationChoice> choice =
      parseQuantization(attr.getValue(), error);
  if (!choice)
    return spmm.emitError("vnm-quantize: ") << error;
  return std::optional<QuantizationChoice>(choice);
}

LogicalResult checkPlan(SpmmOp spmm, const QuantizationChoice &choice,
                        CompressOp &weight) {
  auto fail = [&](const Twine &why) {
    return spmm.emitError("vnm-quantize: cannot quantize this vnm.spmm: ")
           << why;
  };
  if (spmm.isQuantized())
    return fail("it already takes weight scales");
  auto lhsType = cast<RankedTensorType>(spmm.getLhs().getType());
  EncodingAttr encoding = getVNMEncoding(lhsType);
  if (!isSupportedFloatType(lhsType.getElementType()))
    return fail("its weight is not a float matrix");
  if (!isSupportedFloatType(
          cast<RankedTensorType>(spmm.getType()).getElementType()))
    return fail("its result is not a float");
  weight = spmm.getLhs().getDefiningOp<CompressOp>();
  if (!weight)
    return fail("its weight is not vnm.compress of a dense matrix (an "
                "encoded function argument, say); quantize such a weight "
                "before the call (vnm.format.quantize_weights) and pass its "
                "storage and scales");
  if (choice.groupSize % encoding.getM() != 0)
    return fail(
        "the group size " + Twine(choice.groupSize) +
        " is not a multiple of the encoding's M = " + Twine(encoding.getM()));
  return success();
}

void rewrite(Planned plan) {
  SpmmOp spmm = plan.spmm;
  const QuantizationChoice &choice = plan.choice;
  OpBuilder b(spmm);
  Location loc = spmm.getLoc();
  MLIRContext *context = b.getContext();
  Value dense = plan.weight.getInput();
  auto denseType = cast<RankedTensorType>(dense.getType());
  auto lhsType = cast<RankedTensorType>(spmm.getLhs().getType());
  EncodingAttr encoding = getVNMEncoding(lhsType);
  int64_t rows = denseType.getDimSize(0), cols = denseType.getDimSize(1);
  Type f32 = b.getF32Type();
  Type weightElement = IntegerType::get(context, choice.weightBits);

  Value pruned = PruneOp::create(b, loc, denseType, dense, encoding);
  SmallVector<int64_t, 2> scaleShape = {rows};
  IntegerAttr groupSize;
  if (choice.groupSize) {
    scaleShape.push_back((cols + choice.groupSize - 1) / choice.groupSize);
    groupSize = b.getI64IntegerAttr(choice.groupSize);
  }
  auto weightScalesType = RankedTensorType::get(scaleShape, f32);
  auto quantizedType = RankedTensorType::get({rows, cols}, weightElement);
  auto weights =
      QuantizeOp::create(b, loc, TypeRange{quantizedType, weightScalesType},
                         pruned, b.getI64IntegerAttr(0), groupSize);
  Value encoded = CompressOp::create(
      b, loc, RankedTensorType::get({rows, cols}, weightElement, encoding),
      weights.getQuantized());

  Value rhs = spmm.getRhs(), inputScales;
  if (choice.quantizeActivations) {
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    auto activations = QuantizeOp::create(
        b, loc,
        TypeRange{rhsType.clone(b.getI8Type()),
                  RankedTensorType::get({rhsType.getDimSize(1)}, f32)},
        rhs, b.getI64IntegerAttr(1), IntegerAttr());
    rhs = activations.getQuantized();
    inputScales = activations.getScales();
  }
  auto quantized = SpmmOp::create(
      b, loc, spmm.getType(), encoded, rhs, spmm.getAcc(), spmm.getBias(),
      weights.getScales(), inputScales, spmm.getActivation(), groupSize);
  for (NamedAttribute attr : spmm->getDiscardableAttrs())
    if (attr.getName() != kQuantizationAttrName)
      quantized->setAttr(attr.getName(), attr.getValue());
  spmm.replaceAllUsesWith(quantized.getResult());
  spmm.erase();
  if (plan.weight->use_empty())
    plan.weight.erase();
}

struct QuantizePass : public vnm::impl::VNMQuantizeBase<QuantizePass> {
  using VNMQuantizeBase::VNMQuantizeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<QuantizationChoice> fallback;
    if (!defaultChoice.empty()) {
      std::string error;
      fallback = parseQuantization(defaultChoice, error);
      if (!fallback) {
        module.emitError("vnm-quantize: default: ") << error;
        return signalPassFailure();
      }
    }
    SmallVector<Planned> plans;
    bool failed = false;
    module.walk([&](Operation *op) {
      auto spmm = dyn_cast<SpmmOp>(op);
      if (!spmm) {
        if (op->hasAttr(kQuantizationAttrName)) {
          op->emitError("vnm-quantize: 'vnm.quantization' applies to "
                        "vnm.spmm (a matmul vnm-sparsify rewrites); this op "
                        "is not one");
          failed = true;
        }
        return;
      }
      FailureOr<std::optional<QuantizationChoice>> choice =
          getChoice(spmm, fallback);
      if (mlir::failed(choice)) {
        failed = true;
        return;
      }
      if (!*choice)
        return;
      CompressOp weight;
      if (mlir::failed(checkPlan(spmm, **choice, weight))) {
        failed = true;
        return;
      }
      plans.push_back({spmm, weight, **choice});
    });
    if (failed)
      return signalPassFailure();
    for (Planned &plan : plans)
      rewrite(plan);
    numQuantized += plans.size();
  }
};

} // namespace
