//===- TransposedRhs.cpp - transposed copies of activations ---------------===//

#include "TransposedRhs.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

namespace {

/// The buffer `value` is a view of (through view-like ops).
Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Whether two buffers may share memory: unless one of them is a fresh
/// allocation and they are different buffers, assume so (function
/// arguments may alias each other).
bool mayAlias(Value a, Value b) {
  Value rootA = getRootBuffer(a), rootB = getRootBuffer(b);
  if (rootA == rootB)
    return true;
  auto fresh = [](Value root) {
    return root.getDefiningOp<memref::AllocOp>() ||
           root.getDefiningOp<memref::AllocaOp>();
  };
  return !fresh(rootA) && !fresh(rootB);
}

/// Whether `op` may write (or free) memory that `buffer` may share.
bool mayWrite(Operation *op, Value buffer) {
  if (isMemoryEffectFree(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
      continue;
    Value target = effect.getValue();
    if (!target || mayAlias(target, buffer))
      return true;
  }
  return false;
}

/// The uses of `copy` (the transpose's destination) into `uses`, or
/// failure if it has any other use.
LogicalResult collectUses(linalg::TransposeOp transpose, Value copy,
                          DominanceInfo &dominance, TransposedCopy &uses) {
  Value source = transpose.getInput();
  for (OpOperand &use : copy.getUses()) {
    Operation *user = use.getOwner();
    if (user == transpose.getOperation())
      continue;
    if (isa<memref::DeallocOp>(user)) {
      uses.deallocations.push_back(user);
      continue;
    }
    // A size of the copy is one of x's, where x is defined.
    if (auto dim = dyn_cast<memref::DimOp>(user)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!index || *index < 0 || *index > 1 ||
          !dominance.properlyDominates(source, dim))
        return failure();
      uses.dims.push_back(dim);
      continue;
    }
    auto spmm = dyn_cast<StorageSpmmOp>(user);
    if (!spmm || &use != &spmm.getRhsMutable() ||
        spmm->getBlock() != transpose->getBlock() ||
        spmm->isBeforeInBlock(transpose))
      return failure();
    // The copy read as another operand too: leave it.
    if (llvm::count(spmm->getOperands(), copy) != 1)
      return failure();
    uses.readers.push_back(spmm);
  }
  return success(!uses.readers.empty());
}

} // namespace

std::optional<TransposedCopy>
vnm::kernel::findTransposedCopy(Value buffer, DominanceInfo &dominance) {
  auto allocation = buffer.getDefiningOp<memref::AllocOp>();
  if (!allocation)
    return std::nullopt;
  // The one op writing the copy: a transpose into it.
  linalg::TransposeOp transpose;
  for (Operation *user : buffer.getUsers()) {
    auto candidate = dyn_cast<linalg::TransposeOp>(user);
    if (!candidate || candidate.getInit() != buffer)
      continue;
    if (transpose)
      return std::nullopt;
    transpose = candidate;
  }
  if (!transpose || !transpose.hasPureBufferSemantics() ||
      transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
    return std::nullopt;
  TransposedCopy copy;
  copy.transpose = transpose;
  copy.allocation = allocation;
  if (failed(collectUses(transpose, buffer, dominance, copy)))
    return std::nullopt;
  // x must hold what the copy held until the last reader has run.
  Operation *last = copy.readers.front();
  for (StorageSpmmOp reader : copy.readers)
    if (last->isBeforeInBlock(reader))
      last = reader;
  for (Operation *op = transpose->getNextNode(); op != last->getNextNode();
       op = op->getNextNode())
    if (mayWrite(op, copy.source()))
      return std::nullopt;
  return copy;
}
