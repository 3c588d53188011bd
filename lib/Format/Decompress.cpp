//===- Decompress.cpp -----------------------------------------------------===//

#include "VerifyStorage.h"

#include "ArgumentChecks.h"
#include "ElementTraits.h"

#include "vnm/Format/LogicalStorage.h"

#include <cstring>

namespace vnm::format {

using namespace detail;

namespace {

template <typename Traits>
void scatterValues(const Encoding &encoding, const StorageShape &shape,
                   const void *values, const uint8_t *colidx,
                   const uint8_t *meta, void *dense) {
  using Bits = typename Traits::Bits;
  const int64_t cc = shape.compressedCols;
  for (int64_t row = 0; row < shape.rows; ++row) {
    const uint8_t *blockCols = colidx + (row / encoding.v) * shape.groups * 4;
    for (int64_t slot = row * cc; slot < (row + 1) * cc; ++slot) {
      const int64_t g = (slot - row * cc) / 2;
      const int64_t col = g * encoding.m + blockCols[g * 4 + meta[slot]];
      // Verified zero there; a padding column has no place in dense.
      if (col < shape.cols)
        storeElement<Bits>(dense, row * shape.cols + col,
                           loadElement<Bits>(values, slot));
    }
  }
}

} // namespace

Status decompress(const Encoding &encoding, ElementType type,
                  const void *values, const uint8_t *colidx,
                  const uint8_t *meta, int64_t rows, int64_t cols,
                  void *dense) {
  StorageShape shape;
  if (Status s = checkStorageArguments(encoding, type, values, colidx, meta,
                                       rows, cols, shape);
      !s.ok())
    return s;
  if (Status s = checkBuffers({{dense, shape.denseCount, "dense"}}); !s.ok())
    return s;
  if (Status s = verifyArrays(encoding, type, shape, values, colidx, meta);
      !s.ok())
    return s;
  if (shape.denseBytes == 0)
    return Status::success();
  // All-zero bits are +0 for every element type.
  std::memset(dense, 0, static_cast<size_t>(shape.denseBytes));
  dispatchElementType(type, [&](auto traits) {
    scatterValues<decltype(traits)>(encoding, shape, values, colidx, meta,
                                    dense);
    return 0;
  });
  return Status::success();
}

} // namespace vnm::format
