//===- Quantize.cpp - quantized weights and activations for vnm.spmm ------===//
//
// Everything is decided before anything is rewritten (as in vnm-sparsify):
// a module with several problems reports them all and is left unchanged.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

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

/// Where a chosen spmm's weight comes from.
struct Planned {
  SpmmOp spmm;
  QuantizationChoice choice;
  /// `vnm.compress` of a dense float matrix, quantized in place; or
  CompressOp weight;
  /// an encoded argument of a function, retyped to the quantized encoding
  /// with its scales as the next argument.
  BlockArgument argument;
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

/// Whether every use of the encoded argument `arg` is an spmm weight and
/// every use of its function a func.call, which the pass can update.
LogicalResult checkArgument(SpmmOp spmm, BlockArgument arg, func::FuncOp func) {
  for (OpOperand &use : arg.getUses()) {
    auto user = dyn_cast<SpmmOp>(use.getOwner());
    if (!user || use.get() != user.getLhs() || use.getOperandNumber() != 0)
      return spmm.emitError("vnm-quantize: cannot quantize the weight "
                            "argument ")
             << arg.getArgNumber() << " of @" << func.getSymName()
             << ": it has a use other than as a vnm.spmm weight ('"
             << use.getOwner()->getName() << "')";
  }
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, func->getParentOp());
  if (!uses)
    return spmm.emitError("vnm-quantize: cannot retype argument ")
           << arg.getArgNumber() << ": the uses of @" << func.getSymName()
           << " cannot all be found";
  for (const SymbolTable::SymbolUse &use : *uses)
    if (!isa<func::CallOp>(use.getUser()))
      return spmm.emitError("vnm-quantize: cannot retype argument ")
             << arg.getArgNumber() << ": @" << func.getSymName()
             << " is used by '" << use.getUser()->getName()
             << "', which the pass does not update";
  return success();
}

LogicalResult checkPlan(Planned &plan) {
  SpmmOp spmm = plan.spmm;
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
  if (plan.choice.groupSize % encoding.getM() != 0)
    return fail(
        "the group size " + Twine(plan.choice.groupSize) +
        " is not a multiple of the encoding's M = " + Twine(encoding.getM()));
  plan.weight = spmm.getLhs().getDefiningOp<CompressOp>();
  if (plan.weight)
    return success();
  auto arg = dyn_cast<BlockArgument>(spmm.getLhs());
  auto func =
      arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : nullptr;
  if (!func || arg.getOwner() != &func.getBody().front())
    return fail("its weight is neither vnm.compress of a dense matrix nor a "
                "function argument");
  plan.argument = arg;
  return checkArgument(spmm, arg, func);
}

/// The quantized storage of a dense float weight, and its scales.
struct QuantizedWeight {
  Value encoded, scales;
};

RankedTensorType getWeightScalesType(RankedTensorType weightType,
                                     const QuantizationChoice &choice) {
  SmallVector<int64_t, 2> shape = {weightType.getDimSize(0)};
  if (choice.groupSize)
    shape.push_back((weightType.getDimSize(1) + choice.groupSize - 1) /
                    choice.groupSize);
  return RankedTensorType::get(shape,
                               Float32Type::get(weightType.getContext()));
}

RankedTensorType getQuantizedType(RankedTensorType type,
                                  const QuantizationChoice &choice) {
  return type.clone(IntegerType::get(type.getContext(), choice.weightBits));
}

IntegerAttr getGroupSizeAttr(OpBuilder &b, const QuantizationChoice &choice) {
  return choice.groupSize ? b.getI64IntegerAttr(choice.groupSize)
                          : IntegerAttr();
}

/// Quantizes the kept values of `pruned` (dense, already pruned to
/// `encoding`) per row and compresses them.
QuantizedWeight quantizePruned(OpBuilder &b, Location loc, Value pruned,
                               EncodingAttr encoding,
                               const QuantizationChoice &choice) {
  auto denseType = cast<RankedTensorType>(pruned.getType());
  auto weights = QuantizeOp::create(
      b, loc,
      TypeRange{getQuantizedType(denseType, choice),
                getWeightScalesType(denseType, choice)},
      pruned, b.getI64IntegerAttr(0), getGroupSizeAttr(b, choice));
  Value encoded = CompressOp::create(
      b, loc,
      RankedTensorType::get(
          denseType.getShape(),
          getQuantizedType(denseType, choice).getElementType(), encoding),
      weights.getQuantized());
  return {encoded, weights.getScales()};
}

/// Retypes the encoded argument to the quantized encoding, inserts its
/// scales as the next argument and quantizes what every call passes.
QuantizedWeight retypeArgument(BlockArgument arg,
                               const QuantizationChoice &choice) {
  auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
  unsigned index = arg.getArgNumber();
  auto encodedType = cast<RankedTensorType>(arg.getType());
  EncodingAttr encoding = getVNMEncoding(encodedType);
  auto denseType = RankedTensorType::get(encodedType.getShape(),
                                         encodedType.getElementType());
  RankedTensorType scalesType = getWeightScalesType(denseType, choice);

  // Every call quantizes the matrix it passes: decompress gives it pruned.
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, func->getParentOp());
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = cast<func::CallOp>(use.getUser());
    OpBuilder b(call);
    Value dense = DecompressOp::create(b, call.getLoc(), denseType,
                                       call.getOperand(index));
    QuantizedWeight passed =
        quantizePruned(b, call.getLoc(), dense, encoding, choice);
    SmallVector<Value> operands(call.getOperands());
    operands[index] = passed.encoded;
    operands.insert(operands.begin() + index + 1, passed.scales);
    call->setOperands(operands);
  }

  if (failed(func.insertArgument(index + 1, scalesType,
                                 DictionaryAttr::get(func.getContext()),
                                 arg.getLoc())))
    llvm_unreachable("inserting an argument into a function definition");
  Type quantizedType = RankedTensorType::get(
      encodedType.getShape(),
      getQuantizedType(denseType, choice).getElementType(), encoding);
  arg.setType(quantizedType);
  SmallVector<Type> inputs(func.getBody().getArgumentTypes());
  func.setType(
      FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  return {arg, func.getArgument(index + 1)};
}

void rewriteSpmm(SpmmOp spmm, const QuantizationChoice &choice,
                 const QuantizedWeight &weight) {
  OpBuilder b(spmm);
  Location loc = spmm.getLoc();
  Value rhs = spmm.getRhs(), inputScales;
  if (choice.quantizeActivations) {
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    Type scalesType =
        RankedTensorType::get({rhsType.getDimSize(1)}, b.getF32Type());
    // rhs's columns are tokens. Activations x[N][K] that reach spmm
    // transposed (a linear layer) are quantized per row as they are and the
    // i8 result is transposed instead: the same values, a quarter of the
    // bytes moved (f32), and a copy the GPU pipeline folds away, as the i8
    // kernels read x[N][K] itself (vnm-fold-transposed-rhs).
    auto transpose = rhs.getDefiningOp<linalg::TransposeOp>();
    if (transpose && transpose.hasPureTensorSemantics() &&
        transpose.getPermutation() == ArrayRef<int64_t>{1, 0}) {
      Value tokens = transpose.getInput();
      auto tokensType = cast<RankedTensorType>(tokens.getType());
      auto activations = QuantizeOp::create(
          b, loc, TypeRange{tokensType.clone(b.getI8Type()), scalesType},
          tokens, b.getI64IntegerAttr(0), IntegerAttr());
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(b, loc, transpose.getInit());
      Value init = tensor::EmptyOp::create(b, loc, sizes, b.getI8Type());
      rhs = linalg::TransposeOp::create(b, loc, activations.getQuantized(),
                                        init, ArrayRef<int64_t>{1, 0})
                .getResult()[0];
      inputScales = activations.getScales();
    } else {
      auto activations = QuantizeOp::create(
          b, loc, TypeRange{rhsType.clone(b.getI8Type()), scalesType}, rhs,
          b.getI64IntegerAttr(1), IntegerAttr());
      rhs = activations.getQuantized();
      inputScales = activations.getScales();
    }
  }
  auto quantized =
      SpmmOp::create(b, loc, spmm.getType(), weight.encoded, rhs, spmm.getAcc(),
                     spmm.getBias(), weight.scales, inputScales,
                     spmm.getActivation(), getGroupSizeAttr(b, choice));
  for (NamedAttribute attr : spmm->getDiscardableAttrs())
    if (attr.getName() != kQuantizationAttrName)
      quantized->setAttr(attr.getName(), attr.getValue());
  spmm.replaceAllUsesWith(quantized.getResult());
  spmm.erase();
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
    // The choice each argument is quantized with (all its spmm ops agree).
    llvm::MapVector<BlockArgument, QuantizationChoice> arguments;
    bool failed = false;
    module.walk([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        // vnm-sparsify moves an argument's choice to its spmm ops.
        for (unsigned i = 0; i < func.getNumArguments(); ++i) {
          if (!func.getArgAttr(i, kQuantizationAttrName))
            continue;
          InFlightDiagnostic diag = func.emitError("vnm-quantize: argument ")
                                    << i << " has 'vnm.quantization' ";
          if (func.getArgAttr(i, "vnm.encoding"))
            diag << "and 'vnm.encoding': run vnm-sparsify first, which "
                    "hands the choice to the spmm ops reading it";
          else
            diag << "but no 'vnm.encoding' (vnm-sparsify takes both)";
          failed = true;
        }
        return;
      }
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
      Planned plan{spmm, **choice, CompressOp(), BlockArgument()};
      if (mlir::failed(checkPlan(plan))) {
        failed = true;
        return;
      }
      if (plan.argument) {
        auto [it, inserted] = arguments.try_emplace(plan.argument, plan.choice);
        if (!inserted && it->second != plan.choice) {
          spmm.emitError("vnm-quantize: the weight argument ")
              << plan.argument.getArgNumber()
              << " is read by vnm.spmm ops with different quantizations";
          failed = true;
          return;
        }
      }
      plans.push_back(plan);
    });
    // An argument is retyped only if every spmm reading it is quantized
    // (checked once the choices themselves are consistent).
    if (!failed) {
      for (auto &[arg, choice] : arguments) {
        for (Operation *user : arg.getUsers()) {
          if (llvm::any_of(plans,
                           [&](const Planned &p) { return p.spmm == user; }))
            continue;
          user->emitError("vnm-quantize: the weight argument ")
              << arg.getArgNumber()
              << " is quantized for another vnm.spmm, but this one has no "
                 "quantization";
          failed = true;
        }
      }
    }
    if (failed)
      return signalPassFailure();

    llvm::DenseMap<BlockArgument, QuantizedWeight> retyped;
    for (auto &[arg, choice] : arguments)
      retyped[arg] = retypeArgument(arg, choice);
    for (Planned &plan : plans) {
      QuantizedWeight weight;
      if (plan.argument) {
        weight = retyped[plan.argument];
      } else {
        OpBuilder b(plan.spmm);
        Location loc = plan.spmm.getLoc();
        Value dense = plan.weight.getInput();
        EncodingAttr encoding = getVNMEncoding(plan.spmm.getLhs().getType());
        Value pruned =
            PruneOp::create(b, loc, dense.getType(), dense, encoding);
        weight = quantizePruned(b, loc, pruned, encoding, plan.choice);
      }
      CompressOp compress = plan.weight;
      rewriteSpmm(plan.spmm, plan.choice, weight);
      if (compress && compress->use_empty())
        compress.erase();
    }
    numQuantized += plans.size();
  }
};

} // namespace
