//===- FoldTransposedRhs.cpp - the vnm-fold-transposed-rhs pass -----------===//
//
// A linear layer y = x W^T reaches vnm.spmm as W times the transpose of the
// activations x[N][K] (vnm-sparsify writes the transpose, bufferization
// makes it a copy into a K x N buffer). The kernels that read rhs
// token-major (the i8 kernels always; the f16/bf16 mma.sp kernels at M = 4
// and 8) take x itself: this pass replaces the copy by a transposed view of
// x (memref.transpose, no data moved), where every reader of the copy is
// such a kernel and nothing writes x between the copy and its readers.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "SpmmConfig.h"

namespace vnm {
#define GEN_PASS_DEF_VNMFOLDTRANSPOSEDRHS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

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

/// The uses of a transposed copy that the fold rewrites.
struct CopyUses {
  /// spmm ops reading the copy as rhs, in the transpose's block after it.
  SmallVector<StorageSpmmOp> readers;
  /// Its deallocations (erased) and its sizes (read off x instead).
  SmallVector<Operation *> deallocations;
  SmallVector<memref::DimOp> dims;
};

/// The uses of `copy` (the transpose's destination), or failure if it has
/// any other use.
LogicalResult collectUses(linalg::TransposeOp transpose, Value copy,
                          DominanceInfo &dominance, CopyUses &uses) {
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

/// Whether the kernel of `spmm` reads rhs of type `type` token-major.
bool readsTokenMajor(StorageSpmmOp spmm, MemRefType type) {
  // The question is asked quietly: a kernel that would not read it keeps
  // its copy, and vnm-lower-to-gpu says why if it reads neither.
  ScopedDiagnosticHandler quiet(spmm.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<kernel::SpmmKernelConfig> config =
      kernel::getSpmmKernelConfig(spmm, type);
  return succeeded(config) && config->tokenMajorRhs;
}

struct FoldTransposedRhsPass
    : public vnm::impl::VNMFoldTransposedRhsBase<FoldTransposedRhsPass> {
  void runOnOperation() override {
    SmallVector<linalg::TransposeOp> transposes;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (op.hasPureBufferSemantics())
        transposes.push_back(op);
    });
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    for (linalg::TransposeOp transpose : transposes)
      fold(transpose, dominance);
  }

  void fold(linalg::TransposeOp transpose, DominanceInfo &dominance) {
    if (transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
      return;
    Value source = transpose.getInput();
    Value copy = transpose.getInit();
    auto allocation = copy.getDefiningOp<memref::AllocOp>();
    if (!allocation)
      return;
    CopyUses uses;
    if (failed(collectUses(transpose, copy, dominance, uses)))
      return;
    ArrayRef<StorageSpmmOp> readers = uses.readers;
    // x must hold what the copy held until the last reader has run.
    Operation *last = readers.front();
    for (StorageSpmmOp reader : readers)
      if (last->isBeforeInBlock(reader))
        last = reader;
    for (Operation *op = transpose->getNextNode(); op != last->getNextNode();
         op = op->getNextNode())
      if (mayWrite(op, source))
        return;

    OpBuilder builder(transpose);
    AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                  builder.getContext());
    auto view = memref::TransposeOp::create(builder, transpose.getLoc(), source,
                                            AffineMapAttr::get(swap));
    if (!llvm::all_of(readers, [&](StorageSpmmOp reader) {
          return readsTokenMajor(reader, view.getType());
        })) {
      view.erase();
      return;
    }
    for (StorageSpmmOp reader : readers)
      reader.getRhsMutable().assign(view);
    // Dimension d of the copy is dimension 1 - d of x.
    for (memref::DimOp dim : uses.dims) {
      OpBuilder at(dim);
      Value size = memref::DimOp::create(at, dim.getLoc(), source,
                                         1 - *dim.getConstantIndex());
      dim.replaceAllUsesWith(size);
      dim.erase();
    }
    for (Operation *deallocation : uses.deallocations)
      deallocation->erase();
    transpose.erase();
    if (allocation->use_empty())
      allocation.erase();
  }
};

} // namespace
