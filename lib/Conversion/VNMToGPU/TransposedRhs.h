//===- TransposedRhs.h - transposed copies of activations ------*- C++ -*-===//
//
// A linear layer y = x W^T reaches vnm.storage.spmm as W times a copy of
// the activations x[N][K] transposed into a fresh K x N buffer
// (vnm-sparsify writes the transpose, bufferization the copy). Kernels
// that read rhs token-major can read x itself instead. This finds the
// copies that a transposed view of x could replace: vnm-choose-config
// tiles their readers for a token-major rhs, vnm-fold-transposed-rhs
// replaces them.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_TRANSPOSEDRHS_H
#define VNM_LIB_CONVERSION_VNMTOGPU_TRANSPOSEDRHS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include <optional>

namespace vnm::kernel {

/// A transposed copy of x and its uses.
struct TransposedCopy {
  /// The copy: linalg.transpose (permutation [1, 0]) of x into a
  /// memref.alloc.
  mlir::linalg::TransposeOp transpose;
  mlir::memref::AllocOp allocation;
  /// spmm ops reading the copy as rhs, in the transpose's block after it.
  llvm::SmallVector<StorageSpmmOp> readers;
  /// Its deallocations and its sizes (which x also has).
  llvm::SmallVector<mlir::Operation *> deallocations;
  llvm::SmallVector<mlir::memref::DimOp> dims;

  /// x.
  mlir::Value source() { return transpose.getInput(); }
};

/// The transposed copy that `buffer` holds, if a view of x could stand for
/// it: only the transpose writes it; only spmm ops read it, as rhs, later
/// in the transpose's block (besides its deallocations and sizes); and no
/// op between the transpose and its last reader may write memory that x
/// may share (function arguments may alias each other, fresh allocations
/// alias nothing else). Whether the readers' kernels read a view is the
/// caller's question.
std::optional<TransposedCopy>
findTransposedCopy(mlir::Value buffer, mlir::DominanceInfo &dominance);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_TRANSPOSEDRHS_H
