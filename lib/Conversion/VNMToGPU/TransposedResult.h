//===- TransposedResult.h - transposed copies of spmm results --*- C++ -*-===//
//
// A linear layer y = x W^T computes W x^T with vnm.spmm into a fresh R x N
// buffer and transposes it into y[N][R] (a linalg.transpose that
// bufferization makes a copy). A kernel that stores its tile transposed can
// write y directly. This finds such copies for vnm-fold-transposed-result.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_TRANSPOSEDRESULT_H
#define VNM_LIB_CONVERSION_VNMTOGPU_TRANSPOSEDRESULT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include <optional>

namespace vnm::kernel {

/// An spmm result that is only transposed into another buffer.
struct TransposedResult {
  StorageSpmmOp spmm;
  /// The spmm's result buffer and its deallocations and sizes.
  mlir::memref::AllocOp result;
  llvm::SmallVector<mlir::Operation *> deallocations;
  llvm::SmallVector<mlir::memref::DimOp> dims;
  /// The copy: linalg.transpose (permutation [1, 0]) of the result into
  /// `destination`, a memref.alloc.
  mlir::linalg::TransposeOp transpose;
  mlir::memref::AllocOp destination;
  /// The destination's dynamic sizes as known before the spmm (values
  /// that dominate it, or constants).
  llvm::SmallVector<mlir::OpFoldResult> destinationSizes;
};

/// Size `index` of `allocation`: static, or the dynamic size it was
/// allocated with.
mlir::OpFoldResult allocatedSize(mlir::memref::AllocOp allocation,
                                 unsigned index);

/// The transposed copy of `spmm`'s result, if the spmm could write the
/// copy's destination through a transposed view instead: the result is a
/// fresh allocation that only the spmm writes (not accumulating) and only
/// the transpose reads, later in the same block (besides deallocations and
/// sizes); the destination is a fresh allocation whose sizes are known
/// before the spmm and that nothing uses before the transpose. Whether the
/// kernel stores the view is the caller's question.
std::optional<TransposedResult>
findTransposedResult(StorageSpmmOp spmm, mlir::DominanceInfo &dominance);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_TRANSPOSEDRESULT_H
