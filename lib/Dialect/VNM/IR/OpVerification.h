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

/// spmm operand element types: equal; or an i8/i4 weight with an i8 input
/// (integer product); or an i8/i4 weight with a float input when the op
/// dequantizes (has weight scales).
mlir::LogicalResult verifySpmmElementTypes(const ConstraintEmitter &error,
                                           int constraint,
                                           mlir::Type weightElement,
                                           mlir::Type inputElement,
                                           bool dequantized);

/// spmm result element type: f16/bf16/f32 for a float input or a
/// dequantizing op, i32 for an integer product.
mlir::LogicalResult verifySpmmResultElement(const ConstraintEmitter &error,
                                            int constraint,
                                            mlir::Type inputElement,
                                            mlir::Type resultElement,
                                            bool dequantized);

/// The constraint numbers of spmm's quantization rules, which differ
/// between vnm.spmm and vnm.storage.spmm.
struct SpmmScaleConstraints {
  int weightScales, groupSize, inputScales;
};

/// The scale operands of an spmm of an R x K weight (`encoding`, element
/// `weightElement`) by a K x N input: weight scales only for an integer
/// weight, f32, R or R x ceil(K / group_size); `group_size` exactly with
/// rank-2 weight scales, a positive multiple of M; input scales only for an
/// integer input of a dequantizing op, f32, rank 0 or N. `onTensors` tells
/// which kind of array the scales must be. Null types are absent operands.
mlir::LogicalResult
verifySpmmScales(const ConstraintEmitter &error,
                 SpmmScaleConstraints constraints, bool onTensors,
                 EncodingAttr encoding, mlir::Type weightElement,
                 mlir::Type inputElement, int64_t rows, int64_t cols, int64_t n,
                 mlir::Type weightScales, mlir::Type inputScales,
                 std::optional<int64_t> groupSize);

/// The constraint numbers of the quantize rules.
struct QuantizeConstraints {
  int input, quantized, grouping, scales;
};

/// vnm.quantize / vnm.storage.quantize: a rank-2 float input; a quantized
/// array of its shape and of i8 or i4; axis 0 or 1, a positive group size
/// only with an axis; f32 scales of the shape the grouping gives.
mlir::LogicalResult verifyQuantizeTypes(const ConstraintEmitter &error,
                                        QuantizeConstraints constraints,
                                        bool onTensors, mlir::Type input,
                                        mlir::Type quantized, mlir::Type scales,
                                        std::optional<int64_t> axis,
                                        std::optional<int64_t> groupSize);

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
