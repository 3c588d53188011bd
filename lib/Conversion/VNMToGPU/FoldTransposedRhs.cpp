//===- FoldTransposedRhs.cpp - the vnm-fold-transposed-rhs pass -----------===//
//
// A linear layer y = x W^T reaches vnm.spmm as W times the transpose of the
// activations x[N][K] (vnm-sparsify writes the transpose, bufferization
// makes it a copy into a K x N buffer). The kernels that read rhs
// token-major (the i8 kernels always; the f16/bf16 mma.sp kernels at M = 4
// and 8; the warp-specialized sm_90a kernel) take x itself: this pass
// replaces the copy by a transposed view of x (memref.transpose, no data
// moved), where every reader of the copy is such a kernel and nothing writes
// x between the copy and its readers.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "SpmmConfig.h"
#include "TransposedRhs.h"

namespace vnm {
#define GEN_PASS_DEF_VNMFOLDTRANSPOSEDRHS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

/// Whether the kernel of `spmm` reads rhs of type `type` token-major (a
/// kernel that would not keeps its copy, and vnm-lower-to-gpu says why if
/// it reads neither) and is best handed it: the warp-specialized kernel
/// reads it by the TMA as cheaply as K x N; the others where
/// kernel::prefersTokenMajor says so.
bool takesTokenMajor(StorageSpmmOp spmm, MemRefType type, bool registerGather) {
  FailureOr<kernel::SpmmKernelConfig> config =
      kernel::getSpmmKernelConfigQuietly(spmm, type, nullptr);
  return succeeded(config) && config->tokenMajorRhs &&
         (config->warpSpecialized ||
          kernel::prefersTokenMajor(type.getElementType(),
                                    spmm.getEncoding().getM(), registerGather));
}

struct FoldTransposedRhsPass
    : public vnm::impl::VNMFoldTransposedRhsBase<FoldTransposedRhsPass> {
  using VNMFoldTransposedRhsBase::VNMFoldTransposedRhsBase;

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
    std::optional<kernel::TransposedCopy> copy =
        kernel::findTransposedCopy(transpose.getInit(), dominance);
    if (!copy)
      return;
    Value source = copy->source();
    ArrayRef<StorageSpmmOp> readers = copy->readers;

    OpBuilder builder(transpose);
    AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                  builder.getContext());
    auto view = memref::TransposeOp::create(builder, transpose.getLoc(), source,
                                            AffineMapAttr::get(swap));
    if (!llvm::all_of(readers, [&](StorageSpmmOp reader) {
          return takesTokenMajor(reader, view.getType(), registerGather);
        })) {
      view.erase();
      return;
    }
    for (StorageSpmmOp reader : readers)
      reader.getRhsMutable().assign(view);
    // Dimension d of the copy is dimension 1 - d of x.
    for (memref::DimOp dim : copy->dims) {
      OpBuilder at(dim);
      Value size = memref::DimOp::create(at, dim.getLoc(), source,
                                         1 - *dim.getConstantIndex());
      dim.replaceAllUsesWith(size);
      dim.erase();
    }
    for (Operation *deallocation : copy->deallocations)
      deallocation->erase();
    transpose.erase();
    if (copy->allocation->use_empty())
      copy->allocation.erase();
  }
};

} // namespace
