//===- StorageOpLowerings.h - vnm storage ops to loops ----------*- C++ -*-===//

#ifndef VNM_LIB_CONVERSION_VNMTOLOOPS_STORAGEOPLOWERINGS_H
#define VNM_LIB_CONVERSION_VNMTOLOOPS_STORAGEOPLOWERINGS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace vnm::loops {

/// A storage op on memrefs is replaced by the code `lower` writes in its
/// place (on tensors it is not matched: bufferization comes first).
template <typename OpTy>
struct StorageOpLowering : mlir::OpRewritePattern<OpTy> {
  using mlir::OpRewritePattern<OpTy>::OpRewritePattern;

  mlir::LogicalResult
  matchAndRewrite(OpTy op, mlir::PatternRewriter &rewriter) const final {
    if (op->getNumResults() != 0)
      return rewriter.notifyMatchFailure(op, "not on memrefs");
    lower(op, rewriter, op->template getParentOfType<mlir::ModuleOp>());
    rewriter.eraseOp(op);
    return mlir::success();
  }

  virtual void lower(OpTy op, mlir::OpBuilder &b,
                     mlir::ModuleOp module) const = 0;
};

/// Patterns lowering each memref-form vnm.storage op to loops and runtime
/// calls.
void populateStorageOpLoweringPatterns(mlir::RewritePatternSet &patterns);

/// The pattern lowering vnm.storage.quantize (QuantizeLowering.cpp).
void populateQuantizeLoweringPatterns(mlir::RewritePatternSet &patterns);

} // namespace vnm::loops

#endif // VNM_LIB_CONVERSION_VNMTOLOOPS_STORAGEOPLOWERINGS_H
