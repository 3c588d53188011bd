//===- VerifyStorage.cpp --------------------------------------------------===//

#include "VerifyStorage.h"

#include "ArgumentChecks.h"
#include "ElementTraits.h"
#include "StorageChecks.h"

#include "vnm/Format/LogicalStorage.h"

namespace vnm::format {

using namespace detail;

namespace {

/// Padding columns must hold zero so that the logical storage never carries
/// data that decompress would silently drop.
template <typename Traits>
Status checkValues(const Encoding &encoding, const StorageShape &shape,
                   const void *values, const uint8_t *colidx,
                   const uint8_t *meta) {
  using Bits = typename Traits::Bits;
  const int64_t cc = shape.compressedCols;
  if (Status s = checkValueRange<Traits>(shape, values); !s.ok())
    return s;
  for (int64_t row = 0; row < shape.rows; ++row) {
    const uint8_t *blockCols = colidx + (row / encoding.v) * shape.groups * 4;
    for (int64_t g = 0; g < shape.groups; ++g) {
      Bits pair[2];
      for (int p = 0; p < 2; ++p) {
        const int64_t slot = row * cc + 2 * g + p;
        pair[p] = loadElement<Bits>(values, slot);
        const int64_t col = g * encoding.m + blockCols[g * 4 + meta[slot]];
        if (col >= shape.cols && !Traits::isZero(pair[p]))
          return Status::error(indexName("values", row, 2 * g + p) + " = " +
                               Traits::describe(pair[p]) +
                               " is not zero but maps to padding "
                               "column " +
                               std::to_string(col) +
                               " (K = " + std::to_string(shape.cols) + ")");
      }
      if (encoding.n == 1 && !Traits::isZero(pair[0]) &&
          !Traits::isZero(pair[1]))
        return Status::error(indexName("values", row, 2 * g) + " and " +
                             indexName("values", row, 2 * g + 1) +
                             " are both nonzero but n = 1");
    }
  }
  return Status::success();
}

} // namespace

Status detail::checkStorageArguments(const Encoding &encoding, ElementType type,
                                     const void *values, const uint8_t *colidx,
                                     const uint8_t *meta, int64_t rows,
                                     int64_t cols, StorageShape &shape) {
  if (Status s = getStorageShape(encoding, type, rows, cols, shape); !s.ok())
    return s;
  return checkBuffers({{values, shape.valueCount, "values"},
                       {colidx, shape.colidxCount, "colidx"},
                       {meta, shape.metaCount, "meta"}});
}

Status detail::verifyArrays(const Encoding &encoding, ElementType type,
                            const StorageShape &shape, const void *values,
                            const uint8_t *colidx, const uint8_t *meta) {
  if (Status s = checkColidx(shape, encoding.m, colidx); !s.ok())
    return s;
  if (Status s = checkMeta(shape, meta); !s.ok())
    return s;
  return dispatchElementType(type, [&](auto traits) {
    return checkValues<decltype(traits)>(encoding, shape, values, colidx, meta);
  });
}

Status verifyStorage(const Encoding &encoding, ElementType type,
                     const void *values, const uint8_t *colidx,
                     const uint8_t *meta, int64_t rows, int64_t cols) {
  StorageShape shape;
  if (Status s = checkStorageArguments(encoding, type, values, colidx, meta,
                                       rows, cols, shape);
      !s.ok())
    return s;
  return verifyArrays(encoding, type, shape, values, colidx, meta);
}

} // namespace vnm::format
