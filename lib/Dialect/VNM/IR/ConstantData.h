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

/// The largest constant (in the format library's bytes) that the folders
/// prune or compress at compile time: 128 MiB holds an 11008 x 4096 f16
/// weight; larger constants (e.g. a huge splat, whose attribute is small but
/// whose elements would fill memory) are left to run time.
inline constexpr int64_t kMaxFoldedConstantBytes = int64_t(1) << 27;

/// The elements of a dense or dense_resource constant as a raw array, or
/// nothing when the data is not available (e.g. an elided resource) or
/// larger than kMaxFoldedConstantBytes.
std::optional<std::vector<uint8_t>>
getConstantElements(mlir::Attribute value, format::ElementType elementType);

/// A dense constant of `type` holding a raw array of the format library.
mlir::DenseElementsAttr makeConstant(mlir::RankedTensorType type,
                                     format::ElementType elementType,
                                     const std::vector<uint8_t> &data);

} // namespace vnm::detail

#endif // VNM_LIB_DIALECT_VNM_IR_CONSTANTDATA_H
