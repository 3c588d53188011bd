//===- Prune.cpp ----------------------------------------------------------===//

#include "vnm/Format/Prune.h"

#include "ArgumentChecks.h"
#include "FiniteCheck.h"
#include "GroupSelection.h"

namespace vnm::format {

using namespace detail;

namespace {

template <typename Traits>
Status pruneTyped(const Encoding &encoding, const StorageShape &shape,
                  const void *dense, void *prunedDense) {
  using Bits = typename Traits::Bits;
  const int64_t k = shape.cols;
  auto emit = [&](int64_t firstRow, int64_t g, const SearchWorkspace &ws) {
    const int64_t firstCol = g * encoding.m;
    const int64_t lastCol = std::min(firstCol + encoding.m, k);
    for (int r = 0; r < ws.rows; ++r) {
      const int64_t rowStart = (firstRow + r) * k;
      const RowChoice &choice = ws.choices[r];
      // Read the kept values before clearing, which keeps in-place safe.
      int64_t keptCol[2];
      Bits kept[2];
      int keptCount = 0;
      for (int p = 0; p < 2; ++p) {
        if (p == choice.zeroSlot)
          continue;
        const int64_t col = firstCol + ws.subset[choice.slots[p]];
        if (col >= k)
          continue;
        keptCol[keptCount] = col;
        kept[keptCount++] = loadElement<Bits>(dense, rowStart + col);
      }
      for (int64_t col = firstCol; col < lastCol; ++col)
        storeElement<Bits>(prunedDense, rowStart + col, Bits(0));
      for (int i = 0; i < keptCount; ++i)
        storeElement<Bits>(prunedDense, rowStart + keptCol[i], kept[i]);
    }
  };
  return forEachGroupSelection<Traits>(encoding, shape, dense, emit);
}

} // namespace

Status prune(const Encoding &encoding, ElementType type, const void *dense,
             int64_t rows, int64_t cols, void *prunedDense,
             NonFinite nonFinite) {
  StorageShape shape;
  if (Status s = getStorageShape(encoding, type, rows, cols, shape); !s.ok())
    return s;
  if (Status s = checkBuffers({{dense, shape.denseCount, "dense"},
                               {prunedDense, shape.denseCount, "prunedDense"}});
      !s.ok())
    return s;
  return dispatchElementType(type, [&](auto traits) {
    if (Status s = checkFinite<decltype(traits)>(dense, rows, cols, nonFinite);
        !s.ok())
      return s;
    return pruneTyped<decltype(traits)>(encoding, shape, dense, prunedDense);
  });
}

} // namespace vnm::format
