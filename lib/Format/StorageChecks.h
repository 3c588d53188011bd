//===- StorageChecks.h - Consistency checks of logical storage --*- C++ -*-===//
//
// Shared by verifyStorage and packFragments so both report a malformed array
// with the same message.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_STORAGECHECKS_H
#define VNM_LIB_FORMAT_STORAGECHECKS_H

#include "ElementTraits.h"

#include "vnm/Format/StorageShape.h"

#include <cstdint>
#include <string>

namespace vnm::format::detail {

/// Entries < m and strictly ascending within each group.
Status checkColidx(const StorageShape &shape, int64_t m, const uint8_t *colidx);

/// Entries <= 3 and strictly ascending within each pair.
Status checkMeta(const StorageShape &shape, const uint8_t *meta);

std::string indexName(const char *array, int64_t i, int64_t j);

/// I4 values within [-8, 7]; other types accept every bit pattern.
template <typename Traits>
Status checkValueRange(const StorageShape &shape, const void *values) {
  if constexpr (Traits::kType != ElementType::I4)
    return Status::success();
  const int64_t cc = shape.compressedCols;
  for (int64_t i = 0; i < shape.valueCount; ++i) {
    auto value = loadElement<typename Traits::Bits>(values, i);
    if (!Traits::inRange(value))
      return Status::error(indexName("values", i / cc, i % cc) + " = " +
                           Traits::describe(value) +
                           " is outside the I4 range [-8, 7]");
  }
  return Status::success();
}

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_STORAGECHECKS_H
