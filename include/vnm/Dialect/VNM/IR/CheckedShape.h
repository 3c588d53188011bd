//===- CheckedShape.h - element counts that cannot wrap ---------*- C++ -*-===//
//
// ShapedType::getNumElements multiplies the dimensions without a check: a
// constant of type tensor<4294967296x4294967296xf16> claims 0 elements.
// Code that sizes buffers from a shape uses these instead.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNM_IR_CHECKEDSHAPE_H
#define VNM_DIALECT_VNM_IR_CHECKEDSHAPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <optional>

namespace vnm {

/// The byte size of `elementBytes`-byte elements in a static `shape`, or
/// nullopt when a dimension is negative (dynamic) or the size overflows
/// int64_t.
inline std::optional<int64_t> getCheckedNumBytes(llvm::ArrayRef<int64_t> shape,
                                                 int64_t elementBytes) {
  std::optional<int64_t> size = elementBytes;
  for (int64_t dim : shape) {
    if (dim < 0 || !size)
      return std::nullopt;
    size = llvm::checkedMul(*size, dim);
  }
  return size;
}

} // namespace vnm

#endif // VNM_DIALECT_VNM_IR_CHECKEDSHAPE_H
