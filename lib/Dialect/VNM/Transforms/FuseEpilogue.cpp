//===- FuseEpilogue.cpp - bias, relu and conversion into vnm.spmm ---------===//
//
// Frontends write `y = x @ W.T + b` as element-wise linalg ops after the
// matmul: Torch-MLIR truncates the matmul's f32 result to bf16 or f16 in one
// op and adds the (broadcast) bias in the next, JAX adds it to a matmul on
// the storage type. Run as written, the product is rounded before the bias
// is added and rounded again. vnm.spmm's epilogue adds the bias and applies
// the activation in f32 and rounds once, as PyTorch's addmm and cuBLAS do:
// this pass folds those element-wise ops into the spmm whose result they
// read, so that the CPU and GPU paths compute the single rounding.
//
// Only what the epilogue computes exactly is folded: conversions of the
// product, one addition of a per-row bias, then at most one relu. Anything
// else (another operand, a second use of an intermediate value, an
// erf-based GELU, which the epilogue's tanh form would change) stops the
// chain where it is.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm {
#define GEN_PASS_DEF_VNMFUSEEPILOGUE
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

/// What the product has gone through after the spmm, as far as it is folded.
struct Epilogue {
  /// The per-row bias tensor (R entries), or null.
  Value bias;
  vnm::Activation activation = vnm::Activation::none;
  /// The element type the last folded op yields.
  Type elementType;
  /// The folded ops in program order; the last one's result is what the
  /// fused spmm replaces.
  SmallVector<linalg::LinalgOp> ops;
};

bool isIdentity(AffineMap map) { return map.isIdentity(); }

/// Whether `map` reads a rank-1 operand at dimension `rowDim` of a 2-d
/// iteration space: (d0, d1) -> (d_rowDim).
bool isRowMap(AffineMap map, unsigned rowDim) {
  return map.getNumDims() == 2 && map.getNumResults() == 1 &&
         map.getResult(0) == getAffineDimExpr(rowDim, map.getContext());
}

/// A 2-d linalg op with parallel loops, one init that its body does not
/// read, written through the identity map: an element-wise op.
bool isElementwise(linalg::LinalgOp op) {
  if (op.getNumLoops() != 2 || op.getNumParallelLoops() != 2 ||
      op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics())
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return isIdentity(op.getMatchingIndexingMap(init)) &&
         !op.payloadUsesValueFromOperand(init);
}

/// Follows `value`, read through `map` by an element-wise op, back through
/// ops that only copy or broadcast their one input (linalg.broadcast, a
/// generic yielding its input), composing their maps. Returns the value at
/// the start of the copies and the map from the reader's loops to it.
std::pair<Value, AffineMap> traceCopies(Value value, AffineMap map) {
  while (auto copy = value.getDefiningOp<linalg::LinalgOp>()) {
    if (!copy.hasPureTensorSemantics() || copy.getNumDpsInputs() != 1 ||
        copy.getNumDpsInits() != 1 || copy.getNumReductionLoops() != 0)
      break;
    OpOperand *init = copy.getDpsInitOperand(0);
    OpOperand *input = copy.getDpsInputOperand(0);
    Block *body = copy.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    if (!isIdentity(copy.getMatchingIndexingMap(init)) ||
        copy.payloadUsesValueFromOperand(init) ||
        &body->front() != yield.getOperation() ||
        yield.getOperand(0) != copy.getMatchingBlockArgument(input))
      break;
    map = copy.getMatchingIndexingMap(input).compose(map);
    value = input->get();
  }
  return {value, map};
}

/// The rank-1 tensor that input `operand` of the element-wise `op` reads
/// at dimension `rowDim` (the product's rows), directly or through
/// broadcasts; null for anything else.
Value getRowVector(linalg::LinalgOp op, OpOperand &operand, unsigned rowDim) {
  auto [source, map] =
      traceCopies(operand.get(), op.getMatchingIndexingMap(&operand));
  auto type = dyn_cast<RankedTensorType>(source.getType());
  if (type && type.getRank() == 1 && isRowMap(map, rowDim))
    return source;
  return Value();
}

/// Whether input `operand` of `op` is zero everywhere: a splat zero
/// constant, directly or through broadcasts (how JAX writes relu's zero).
bool isZeroInput(linalg::LinalgOp op, OpOperand &operand) {
  Value source =
      traceCopies(operand.get(), op.getMatchingIndexingMap(&operand)).first;
  return matchPattern(source, m_AnyZeroFloat());
}

/// Zero as a scalar inside a body: a constant, or the block argument of an
/// input that is zero everywhere.
struct ZeroValues {
  ArrayRef<BlockArgument> zeroArguments;
  bool contains(Value value) const {
    if (matchPattern(value, m_AnyZeroFloat()))
      return true;
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && llvm::is_contained(zeroArguments, argument);
  }
};

/// Whether `select` is `x > 0 ? x : 0` (relu as Torch-MLIR writes it).
bool isReluSelect(arith::SelectOp select, Value x, const ZeroValues &isZero) {
  auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
  return compare && compare->hasOneUse() && compare.getLhs() == x &&
         isZero.contains(compare.getRhs()) &&
         (compare.getPredicate() == arith::CmpFPredicate::OGT ||
          compare.getPredicate() == arith::CmpFPredicate::UGT) &&
         select.getTrueValue() == x && isZero.contains(select.getFalseValue());
}

/// Reads the body of the element-wise `op`, whose block argument `product`
/// carries the product and `bias` (or null) a row vector, as conversions of
/// the product, at most one addition of the bias (itself possibly
/// converted) before at most one relu. Updates `epilogue`; fails for any
/// other computation.
LogicalResult interpretBody(linalg::LinalgOp op, BlockArgument product,
                            BlockArgument bias, const ZeroValues &isZero,
                            Epilogue &epilogue) {
  Value current = product;
  Value biasValue = bias;
  bool addedBias = false;
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (matchPattern(&inner, m_Constant()))
      continue;
    if (isa<arith::CmpFOp>(inner))
      continue; // checked as the condition of its relu select
    if (inner.getNumResults() != 1)
      return failure();
    Value result = inner.getResult(0);
    // Each step must be the only reader of the value before it (the relu
    // select's condition reads it too).
    auto readers = llvm::to_vector(current.getUsers());
    bool onlyReader =
        readers.size() == 1 ||
        (readers.size() == 2 && isa<arith::SelectOp>(inner) &&
         llvm::is_contained(readers, &inner) &&
         llvm::is_contained(
             readers,
             cast<arith::SelectOp>(inner).getCondition().getDefiningOp()));
    if (!onlyReader)
      return failure();
    if (isa<arith::ExtFOp, arith::TruncFOp>(inner)) {
      if (inner.getOperand(0) == current)
        current = result;
      else if (biasValue && inner.getOperand(0) == biasValue &&
               biasValue.hasOneUse())
        biasValue = result;
      else
        return failure();
      continue;
    }
    if (auto add = dyn_cast<arith::AddFOp>(inner)) {
      Value other = add.getLhs() == current ? add.getRhs() : add.getLhs();
      if (addedBias || !biasValue || other != biasValue ||
          (add.getLhs() != current && add.getRhs() != current) ||
          epilogue.activation != vnm::Activation::none)
        return failure();
      addedBias = true;
      current = result;
      continue;
    }
    bool relu = false;
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(inner))
      relu = (inner.getOperand(0) == current &&
              isZero.contains(inner.getOperand(1))) ||
             (inner.getOperand(1) == current &&
              isZero.contains(inner.getOperand(0)));
    else if (auto select = dyn_cast<arith::SelectOp>(inner))
      relu = isReluSelect(select, current, isZero);
    if (!relu || epilogue.activation != vnm::Activation::none)
      return failure();
    epilogue.activation = vnm::Activation::relu;
    current = result;
  }
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  // A bias operand the body does not add is not an epilogue.
  if (yield.getOperand(0) != current || (bias && !addedBias))
    return failure();
  epilogue.elementType = current.getType();
  epilogue.ops.push_back(op);
  return success();
}

/// Folds the element-wise op reading `view` (the product, R x N, or its
/// transpose when `transposed`) into `epilogue`; fails, changing nothing,
/// when it is not one the spmm epilogue computes.
LogicalResult foldNext(Value view, bool transposed, Epilogue &epilogue) {
  if (!view.hasOneUse())
    return failure();
  auto op = dyn_cast<linalg::LinalgOp>(*view.getUsers().begin());
  if (!op || !isElementwise(op))
    return failure();
  unsigned rowDim = transposed ? 1 : 0;
  BlockArgument product, bias;
  SmallVector<BlockArgument> zeroArguments;
  Value biasVector;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(input);
    if (input->get() == view && !product &&
        isIdentity(op.getMatchingIndexingMap(input))) {
      product = argument;
    } else if (isZeroInput(op, *input)) {
      zeroArguments.push_back(argument);
    } else {
      biasVector = getRowVector(op, *input, rowDim);
      if (!biasVector || bias || epilogue.bias)
        return failure();
      bias = argument;
    }
  }
  if (!product)
    return failure();
  Epilogue next = epilogue;
  if (failed(interpretBody(op, product, bias, ZeroValues{zeroArguments}, next)))
    return failure();
  if (bias)
    next.bias = biasVector;
  epilogue = next;
  return success();
}

/// Whether spmm can take `epilogue` (verifier constraints C6 and C7 of
/// vnm.spmm: acc and bias of the result element type).
bool isExpressible(vnm::SpmmOp spmm, const Epilogue &epilogue) {
  Type type = epilogue.elementType;
  if (!isa<FloatType>(type))
    return false;
  if (spmm.getAcc() &&
      cast<RankedTensorType>(spmm.getAcc().getType()).getElementType() != type)
    return false;
  return !epilogue.bias ||
         cast<RankedTensorType>(epilogue.bias.getType()).getElementType() ==
             type;
}

struct FuseEpiloguePass
    : public vnm::impl::VNMFuseEpilogueBase<FuseEpiloguePass> {
  void runOnOperation() override {
    SmallVector<vnm::SpmmOp> candidates;
    getOperation()->walk([&](vnm::SpmmOp spmm) {
      if (!spmm.getBias() && spmm.getActivation() == vnm::Activation::none &&
          isa<RankedTensorType>(spmm.getType()) &&
          isa<FloatType>(getElementTypeOrSelf(spmm.getType())))
        candidates.push_back(spmm);
    });
    for (vnm::SpmmOp spmm : candidates)
      fuse(spmm);
  }

  void fuse(vnm::SpmmOp spmm) {
    // Torch's `x @ W.T` reaches spmm's R x N through a transpose.
    Value view = spmm.getResult();
    linalg::TransposeOp transpose;
    if (view.hasOneUse())
      if ((transpose = dyn_cast<linalg::TransposeOp>(*view.user_begin())) &&
          transpose.getPermutation() == ArrayRef<int64_t>{1, 0})
        view = transpose.getResult()[0];
    bool transposed = static_cast<bool>(transpose) && view != spmm.getResult();

    // The longest run of element-wise ops that spmm can take.
    Epilogue epilogue;
    epilogue.elementType = getElementTypeOrSelf(spmm.getType());
    std::optional<Epilogue> best;
    while (succeeded(foldNext(view, transposed, epilogue))) {
      if (isExpressible(spmm, epilogue))
        best = epilogue;
      view = epilogue.ops.back()->getResult(0);
    }
    if (!best)
      return;

    linalg::LinalgOp last = best->ops.back();
    OpBuilder builder(last);
    Location loc = last.getLoc();
    auto spmmType = cast<RankedTensorType>(spmm.getType());
    auto resultType = spmmType.clone(best->elementType);
    Value fused = vnm::SpmmOp::create(
        builder, loc, resultType, spmm.getLhs(), spmm.getRhs(), spmm.getAcc(),
        best->bias, spmm.getWeightScales(), spmm.getInputScales(),
        best->activation, spmm.getGroupSizeAttr());
    if (transposed)
      fused = linalg::TransposeOp::create(builder, loc, fused,
                                          last.getDpsInitOperand(0)->get(),
                                          ArrayRef<int64_t>{1, 0})
                  .getResult()[0];
    last->getResult(0).replaceAllUsesWith(fused);

    // The folded ops, the transpose and the spmm are dead now, and so are
    // the inits and bias broadcasts that only they read.
    // Erased from the end of `dead`: each op after its readers.
    SmallVector<Operation *> dead{spmm};
    if (transposed)
      dead.push_back(transpose);
    dead.append(best->ops.begin(), best->ops.end());
    while (!dead.empty()) {
      Operation *op = dead.pop_back_val();
      SmallVector<Value> operands(op->getOperands());
      op->erase();
      for (Value operand : operands) {
        Operation *producer = operand.getDefiningOp();
        if (producer && producer->use_empty() &&
            !llvm::is_contained(dead, producer) &&
            isa<linalg::LinalgOp, tensor::EmptyOp>(producer))
          dead.push_back(producer);
      }
    }
    ++numFused;
  }
};

} // namespace
