//===- ConstantData.h - constants to and from format-library arrays -*- C++
//-*-//
//
// Compile-time pruning hands constant tensors to the format library, which
// works on raw row-major arrays: f16/bf16 as 16-bit patterns, f32, i8, and i4
// as one int8 per element.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_DIALECT_VNM_IR_CONSTANTDATA_H
#define VNM_LIB_DIALECT_VNM_IR_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"

#include "vnm/Format/ElementType.h"

#include <optional>
#include <vector>

namespace vnm::detail {

/// The format library's name for an MLIR element type, if it has one.
std::optional<format::ElementType> getFormatElementType(mlir::Type type);

/// The elements of a dense or dense_resource constant as a raw array, or
/// nothing when the data is not available (e.g. an elided resource).
std::optional<std::vector<uint8_t>>
getConstantElements(mlir::Attribute value, format::ElementType elementType);

/// A dense constant of `type` holding a raw array of the format library.
mlir::DenseElementsAttr makeConstant(mlir::RankedTensorType type,
                                     format::ElementType elementType,
                                     const std::vector<uint8_t> &data);

} // namespace vnm::detail

#endif // VNM_LIB_DIALECT_VNM_IR_CONSTANTDATA_H
