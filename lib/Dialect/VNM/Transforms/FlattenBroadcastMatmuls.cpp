//===- FlattenBroadcastMatmuls.cpp - one weight shared by a batch ---------===//
//
// PyTorch writes a linear layer on a 3-d input that is not contiguous (a
// BERT's attention output under `sdpa` at batch > 1) as a batch matmul with
// the weight broadcast along the batch: bmm(x, expand(W.T)). Every batch
// multiplies the same matrix, so the product is one matmul of the batch
// and token dimensions flattened together, which vnm-sparsify turns into
// vnm.spmm like any linear layer.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace vnm {
#define GEN_PASS_DEF_VNMFLATTENBROADCASTMATMULS
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

/// The K x N matrix that `value` broadcasts along a new leading (batch)
/// dimension, through linalg.broadcast or a generic that only copies; null
/// for anything else.
Value getBroadcastMatrix(Value value) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1)
    return Value();
  std::optional<SmallVector<int64_t>> dimensions;
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op.getOperation()))
    dimensions = llvm::to_vector(broadcast.getDimensions());
  else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    dimensions = linalg::isaBroadcastOpInterface(generic);
  Value matrix = op.getDpsInputOperand(0)->get();
  auto type = dyn_cast<RankedTensorType>(matrix.getType());
  if (!dimensions || *dimensions != ArrayRef<int64_t>{0} || !type ||
      type.getRank() != 2)
    return Value();
  return matrix;
}

/// The size of dimension `dim` of `value`, as an index value or attribute.
OpFoldResult getSize(OpBuilder &builder, Location loc, Value value,
                     int64_t dim) {
  return tensor::getMixedSize(builder, loc, value, dim);
}

struct FlattenBroadcastMatmulsPass
    : public vnm::impl::VNMFlattenBroadcastMatmulsBase<
          FlattenBroadcastMatmulsPass> {
  void runOnOperation() override {
    SmallVector<linalg::BatchMatmulOp> candidates;
    getOperation()->walk([&](linalg::BatchMatmulOp op) {
      // Plain maps only: (b, m, k) x (b, k, n) -> (b, m, n).
      if (op.hasPureTensorSemantics() && !op.hasUserDefinedMaps() &&
          getBroadcastMatrix(op.getDpsInputOperand(1)->get()))
        candidates.push_back(op);
    });
    for (linalg::BatchMatmulOp op : candidates)
      flatten(op);
  }

  void flatten(linalg::BatchMatmulOp op) {
    OpBuilder builder(op);
    Location loc = op.getLoc();
    Value lhs = op.getDpsInputOperand(0)->get();
    Value matrix = getBroadcastMatrix(op.getDpsInputOperand(1)->get());
    Value init = op.getDpsInitOperand(0)->get();
    SmallVector<ReassociationIndices> batchAndRows{{0, 1}, {2}};
    auto flat = [&](Value value) -> Value {
      return tensor::CollapseShapeOp::create(builder, loc, value, batchAndRows);
    };
    Value flatLhs = flat(lhs);
    // A filled init (Torch-MLIR zero-fills it) stays a fill, of the
    // flattened tensor, so that vnm-sparsify still sees that the product
    // accumulates into nothing (a collapsed fill would become an all-zero
    // accumulator the kernel reads).
    Value flatInit;
    if (auto fill = init.getDefiningOp<linalg::FillOp>();
        fill && fill.hasPureTensorSemantics())
      flatInit = linalg::FillOp::create(builder, loc, fill.value(),
                                        flat(fill.output()))
                     .getResult(0);
    else
      flatInit = flat(init);
    auto matmul = linalg::MatmulOp::create(
        builder, loc, ValueRange{flatLhs, matrix}, ValueRange{flatInit});
    matmul->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    SmallVector<OpFoldResult> shape = {getSize(builder, loc, init, 0),
                                       getSize(builder, loc, init, 1),
                                       getSize(builder, loc, init, 2)};
    Value result = tensor::ExpandShapeOp::create(
        builder, loc, resultType, matmul.getResult(0), batchAndRows, shape);
    Operation *broadcast = op.getDpsInputOperand(1)->get().getDefiningOp();
    op.getResult(0).replaceAllUsesWith(result);
    op.erase();
    if (broadcast->use_empty())
      broadcast->erase();
    ++numFlattened;
  }
};

} // namespace
