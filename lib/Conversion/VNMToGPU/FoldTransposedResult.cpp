//===- FoldTransposedResult.cpp - the vnm-fold-transposed-result pass -----===//
//
// A linear layer's spmm computes W x^T (R x N) and the program transposes
// it into y[N][R]. The spmm kernels can store their tile transposed: this
// pass lets the spmm write y through a transposed view (memref.transpose)
// and removes the copy, where the analysis of TransposedResult.h allows it
// and the kernel stores such a view.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

#include "SpmmConfig.h"
#include "TransposedResult.h"

namespace vnm {
#define GEN_PASS_DEF_VNMFOLDTRANSPOSEDRESULT
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

/// Whether the kernel of `spmm` stores a result of type `type` transposed
/// (a kernel that would not keeps the copy).
bool storesTokenMajor(StorageSpmmOp spmm, MemRefType type) {
  FailureOr<kernel::SpmmKernelConfig> config =
      kernel::getSpmmKernelConfigQuietly(spmm, nullptr, type);
  return succeeded(config) && config->tokenMajorOut;
}

struct FoldTransposedResultPass
    : public vnm::impl::VNMFoldTransposedResultBase<FoldTransposedResultPass> {
  void runOnOperation() override {
    SmallVector<StorageSpmmOp> spmms;
    getOperation().walk([&](StorageSpmmOp op) { spmms.push_back(op); });
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    for (StorageSpmmOp spmm : spmms)
      fold(spmm, dominance);
  }

  void fold(StorageSpmmOp spmm, DominanceInfo &dominance) {
    std::optional<kernel::TransposedResult> found =
        kernel::findTransposedResult(spmm, dominance);
    if (!found)
      return;
    // The destination, allocated before the spmm.
    OpBuilder builder(spmm);
    Location loc = found->destination.getLoc();
    SmallVector<Value> sizes;
    for (OpFoldResult size : found->destinationSizes)
      sizes.push_back(getValueOrCreateConstantIndexOp(builder, loc, size));
    auto destination =
        memref::AllocOp::create(builder, loc, found->destination.getType(),
                                sizes, found->destination.getAlignmentAttr());
    AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                  builder.getContext());
    auto view = memref::TransposeOp::create(builder, loc, destination,
                                            AffineMapAttr::get(swap));
    if (!storesTokenMajor(spmm, view.getType())) {
      view.erase();
      destination.erase();
      return;
    }
    spmm.getInitMutable().assign(view);
    found->destination.replaceAllUsesWith(destination.getResult());
    // The result's sizes are those it was allocated with.
    for (memref::DimOp dim : found->dims) {
      OpBuilder at(dim);
      dim.replaceAllUsesWith(getValueOrCreateConstantIndexOp(
          at, dim.getLoc(),
          kernel::allocatedSize(found->result, *dim.getConstantIndex())));
      dim.erase();
    }
    for (Operation *deallocation : found->deallocations)
      deallocation->erase();
    found->transpose.erase();
    found->destination.erase();
    found->result.erase();
  }
};

} // namespace
