//===- OpVerification.h - checks shared by vnm op verifiers -----*- C++ -*-===//
//
// The encoded-tensor ops and their storage (destination-style) forms share
// most of their rules; the helpers here check one rule each and cite the
// constraint number they are given.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_DIALECT_VNM_IR_OPVERIFICATION_H
#define VNM_LIB_DIALECT_VNM_IR_OPVERIFICATION_H

#include "vnm/Dialect/VNM/IR/StorageLayout.h"
#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm::detail {

/// Emits "'<op>' op (C<n>) ..." on an op.
struct ConstraintEmitter {
  mlir::Operation *op;
  mlir::InFlightDiagnostic operator()(int constraint) const {
    mlir::InFlightDiagnostic diag = op->emitOpError();
    diag << "(C" << constraint << ") ";
    return diag;
  }
};

/// A rank-2 tensor or memref (no tensor encoding) of an element type an
/// encoded matrix may hold.
bool isDenseMatrix(mlir::Type type);
extern const char *const kDenseMatrixDescription;

/// spmm result element type: f16/bf16/f32 for float operands, i32 for
/// integer operands.
mlir::LogicalResult verifySpmmResultElement(const ConstraintEmitter &error,
                                            int constraint,
                                            mlir::Type operandElement,
                                            mlir::Type resultElement);

/// spmm bias: rank-1, `rows` elements, the result's element type and kind.
mlir::LogicalResult verifySpmmBias(const ConstraintEmitter &error,
                                   int constraint, mlir::ShapedType result,
                                   int64_t rows, mlir::Type bias);

/// gelu needs a floating-point result.
mlir::LogicalResult verifySpmmActivation(const ConstraintEmitter &error,
                                         int constraint,
                                         mlir::Type resultElement,
                                         Activation activation);

/// sddmm operands: rank-2, one float element type, R x D and D x K.
mlir::LogicalResult verifySddmmOperands(const ConstraintEmitter &error,
                                        int constraint, mlir::Type lhs,
                                        mlir::Type rhs, int64_t rows,
                                        int64_t cols);

/// sddmm samples every stored position of its pattern; with n = 1 the
/// storage does not say which of a pair's two positions is the kept one, so
/// the pattern must have n = 2.
mlir::LogicalResult verifySddmmPatternEncoding(const ConstraintEmitter &error,
                                               int constraint,
                                               EncodingAttr encoding);

} // namespace vnm::detail

#endif // VNM_LIB_DIALECT_VNM_IR_OPVERIFICATION_H
