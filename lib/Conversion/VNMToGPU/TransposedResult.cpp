//===- TransposedResult.cpp - transposed copies of spmm results -----------===//

#include "TransposedResult.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

namespace {

/// The uses of the spmm's result buffer into `found`, or failure if it has
/// any other than the spmm (as its init), one transpose reading it,
/// deallocations and sizes.
LogicalResult collectResultUses(TransposedResult &found) {
  Value buffer = found.result.getResult();
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (user == found.spmm.getOperation()) {
      if (&use != &found.spmm.getInitMutable())
        return failure();
      continue;
    }
    if (isa<memref::DeallocOp>(user)) {
      found.deallocations.push_back(user);
      continue;
    }
    if (auto dim = dyn_cast<memref::DimOp>(user)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!index || *index < 0 || *index > 1)
        return failure();
      found.dims.push_back(dim);
      continue;
    }
    auto transpose = dyn_cast<linalg::TransposeOp>(user);
    if (!transpose || found.transpose || transpose.getInput() != buffer ||
        !transpose.hasPureBufferSemantics() ||
        transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    found.transpose = transpose;
  }
  return success(static_cast<bool>(found.transpose));
}

} // namespace

OpFoldResult vnm::kernel::allocatedSize(memref::AllocOp allocation,
                                        unsigned index) {
  MemRefType type = allocation.getType();
  if (!type.isDynamicDim(index))
    return Builder(allocation.getContext())
        .getIndexAttr(type.getDimSize(index));
  return allocation.getDynamicSizes()[type.getDynamicDimIndex(index)];
}

std::optional<TransposedResult>
vnm::kernel::findTransposedResult(StorageSpmmOp spmm,
                                  DominanceInfo &dominance) {
  if (spmm.getAccumulate() || spmm->getNumResults() != 0)
    return std::nullopt;
  TransposedResult found;
  found.spmm = spmm;
  found.result = spmm.getInit().getDefiningOp<memref::AllocOp>();
  if (!found.result || failed(collectResultUses(found)))
    return std::nullopt;
  linalg::TransposeOp transpose = found.transpose;
  if (transpose->getBlock() != spmm->getBlock() ||
      transpose->isBeforeInBlock(spmm))
    return std::nullopt;
  found.destination = transpose.getInit().getDefiningOp<memref::AllocOp>();
  if (!found.destination ||
      found.destination.getType().getLayout() !=
          found.result.getType().getLayout() ||
      !found.destination.getType().getLayout().isIdentity())
    return std::nullopt;
  // Nothing may use the destination before the transpose has filled it.
  for (Operation *user : found.destination->getUsers())
    if (user != transpose.getOperation() &&
        !dominance.properlyDominates(transpose.getOperation(), user))
      return std::nullopt;
  // The destination's sizes, where the spmm runs: its dimension d is the
  // result's 1 - d.
  MemRefType type = found.destination.getType();
  for (unsigned d = 0; d < 2; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    Value size =
        found.destination.getDynamicSizes()[type.getDynamicDimIndex(d)];
    if (dominance.properlyDominates(size, spmm)) {
      found.destinationSizes.push_back(size);
      continue;
    }
    auto dim = size.getDefiningOp<memref::DimOp>();
    std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
    if (!dim || dim.getSource() != found.result.getResult() || !index ||
        *index != 1 - static_cast<int64_t>(d))
      return std::nullopt;
    found.destinationSizes.push_back(allocatedSize(found.result, *index));
  }
  return found;
}
