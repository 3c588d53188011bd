//===- WeightMatrix.h - rearranging constant weights ------------*- C++ -*-===//
//
// vnm-sparsify encodes the R x K matrix of a weight. A constant weight may be
// held K x R, or be one matrix of a rank-3 batch; rearranging its data at
// compile time keeps the encoded operand a constant that later folds into
// storage constants, where a transpose or slice op would be run on every
// call.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_DIALECT_VNM_TRANSFORMS_WEIGHTMATRIX_H
#define VNM_LIB_DIALECT_VNM_TRANSFORMS_WEIGHTMATRIX_H

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace vnm {

/// Returns matrix `batch` of a rank-3 constant (`attr` itself, rank 2, when
/// `batch` is std::nullopt), transposed when `transpose` is set, as a new
/// rank-2 constant of the same kind (dense or dense_resource). Returns null
/// when the data cannot be read here (an elided or unloaded resource, an
/// element type without whole-byte storage in resources); the caller then
/// builds the slice and transpose as ops.
mlir::TypedAttr extractWeightMatrix(mlir::ElementsAttr attr,
                                    std::optional<int64_t> batch,
                                    bool transpose);

} // namespace vnm

#endif // VNM_LIB_DIALECT_VNM_TRANSFORMS_WEIGHTMATRIX_H
