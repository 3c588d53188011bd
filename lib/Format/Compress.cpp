//===- Compress.cpp -------------------------------------------------------===//

#include "vnm/Format/LogicalStorage.h"

#include "ArgumentChecks.h"
#include "FiniteCheck.h"
#include "GroupSelection.h"

namespace vnm::format {

using namespace detail;

namespace {

template <typename Traits>
Status compressTyped(const Encoding &encoding, const StorageShape &shape,
                     const void *dense, void *values, uint8_t *colidx,
                     uint8_t *meta) {
  using Bits = typename Traits::Bits;
  const int64_t k = shape.cols;
  const int64_t cc = shape.compressedCols;
  auto emit = [&](int64_t firstRow, int64_t g, const SearchWorkspace &ws) {
    const int64_t block = firstRow / encoding.v;
    for (int i = 0; i < 4; ++i)
      colidx[(block * shape.groups + g) * 4 + i] = ws.subset[i];
    const int64_t firstCol = g * encoding.m;
    for (int r = 0; r < ws.rows; ++r) {
      const int64_t row = firstRow + r;
      const RowChoice &choice = ws.choices[r];
      for (int p = 0; p < 2; ++p) {
        const int64_t slot = row * cc + 2 * g + p;
        const int64_t col = firstCol + ws.subset[choice.slots[p]];
        Bits value = 0;
        if (p != choice.zeroSlot && col < k)
          value = loadElement<Bits>(dense, row * k + col);
        meta[slot] = choice.slots[p];
        storeElement<Bits>(values, slot, value);
      }
    }
  };
  return forEachGroupSelection<Traits>(encoding, shape, dense, emit);
}

} // namespace

Status compress(const Encoding &encoding, ElementType type, const void *dense,
                int64_t rows, int64_t cols, void *values, uint8_t *colidx,
                uint8_t *meta, NonFinite nonFinite) {
  StorageShape shape;
  if (Status s = getStorageShape(encoding, type, rows, cols, shape); !s.ok())
    return s;
  if (Status s = checkBuffers({{dense, shape.denseCount, "dense"},
                               {values, shape.valueCount, "values"},
                               {colidx, shape.colidxCount, "colidx"},
                               {meta, shape.metaCount, "meta"}});
      !s.ok())
    return s;
  return dispatchElementType(type, [&](auto traits) {
    if (Status s = checkFinite<decltype(traits)>(dense, rows, cols, nonFinite);
        !s.ok())
      return s;
    return compressTyped<decltype(traits)>(encoding, shape, dense, values,
                                           colidx, meta);
  });
}

} // namespace vnm::format
