//===- CodeGen.h - scalar and loop building blocks ------------*- C++ -*-===//
//
// The CPU execution of a tile program is plain scalar code: loop nests over
// a tile's elements, index arithmetic on `index` values, and loads and
// stores of kernel buffers that check their bounds, so that a tile program
// that indexes past a buffer stops with a message instead of reading
// whatever lies there.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMGPUTOLOOPS_CODEGEN_H
#define VNM_LIB_CONVERSION_VNMGPUTOLOOPS_CODEGEN_H

#include "vnm/Conversion/Utils/IntegerArith.h"

namespace vnm::gpu_loops {

class CodeGen : public IntegerArith {
public:
  using IntegerArith::IntegerArith;

  mlir::Value index(int64_t value);
  mlir::Value constant(mlir::Type type, double value);
  mlir::Value integer(mlir::Type type, int64_t value);
  /// A quiet NaN of a float type; for integer types the most negative
  /// value, which no tile program may keep unnoticed either.
  mlir::Value poison(mlir::Type type);
  mlir::Value zero(mlir::Type type);

  /// A kernel scalar (i32) as an index; negative values stay negative, so
  /// the unsigned bound checks below reject them.
  mlir::Value toIndex(mlir::Value value);

  mlir::Value logicalAnd(mlir::Value x, mlir::Value y);

  mlir::Value load(mlir::Value memref, mlir::ValueRange indices);
  void store(mlir::Value value, mlir::Value memref, mlir::ValueRange indices);

  /// Stops the program with `message` unless `condition` holds.
  void check(mlir::Value condition, llvm::StringRef message);

  /// Element `position` of a rank-1 buffer; stops with `message` when it
  /// lies outside the buffer.
  mlir::Value loadChecked(mlir::Value memref, mlir::Value position,
                          llvm::StringRef message);
  void storeChecked(mlir::Value value, mlir::Value memref, mlir::Value position,
                    llvm::StringRef message);

  /// Runs `body` for every point of the box [0, shape) (row-major loops).
  void forEach(llvm::ArrayRef<int64_t> shape,
               llvm::function_ref<void(mlir::ValueRange)> body);
  /// Folds `step(k, carried)` over k in [0, count), starting from `init`.
  mlir::Value
  reduce(int64_t count, mlir::Value init,
         llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> step);
  void ifThen(mlir::Value condition, llvm::function_ref<void()> body);
  /// `condition ? thenValue() : elseValue()`, where only the taken branch
  /// runs (for loads that are only safe when the condition holds).
  mlir::Value ifElse(mlir::Value condition, mlir::Type type,
                     llvm::function_ref<mlir::Value()> thenValue,
                     llvm::function_ref<mlir::Value()> elseValue);

  /// Copies every element of `from` into `to` (same static shape).
  void copy(mlir::Value from, mlir::Value to);
  /// Stores `value` into every element of `memref`.
  void fill(mlir::Value memref, mlir::Value value);
};

} // namespace vnm::gpu_loops

#endif // VNM_LIB_CONVERSION_VNMGPUTOLOOPS_CODEGEN_H
