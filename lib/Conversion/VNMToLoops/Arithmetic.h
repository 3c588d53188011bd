//===- Arithmetic.h - element arithmetic of the loop lowering ---*- C++ -*-===//
//
// Products are accumulated in f32 for float operands and i32 for integer
// operands; these helpers widen operands to that type, add, multiply, apply
// the spmm activation and convert the final sum to the result type.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOLOOPS_ARITHMETIC_H
#define VNM_LIB_CONVERSION_VNMTOLOOPS_ARITHMETIC_H

#include "mlir/IR/Builders.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm::loops {

/// f32 for float element types, i32 for integer ones.
mlir::Type getAccumulatorType(mlir::Type elementType);

/// Widens `value` to `accType` (extf / extsi, or nothing).
mlir::Value widen(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                  mlir::Type accType);

/// Converts `value` exactly to `accType`: widen, or sitofp for an integer
/// value and a float type.
mlir::Value convert(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                    mlir::Type accType);

/// Converts an accumulator value to `resultType` (truncf, or nothing).
mlir::Value narrow(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                   mlir::Type resultType);

mlir::Value add(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                mlir::Value y);
mlir::Value mul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                mlir::Value y);
mlir::Value zero(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

/// relu: max(x, 0); gelu (tanh form):
/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
mlir::Value applyActivation(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x, Activation activation);

} // namespace vnm::loops

#endif // VNM_LIB_CONVERSION_VNMTOLOOPS_ARITHMETIC_H
