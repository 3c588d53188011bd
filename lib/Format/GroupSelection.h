//===- GroupSelection.h - Drives the pruning rule over a matrix -*- C++ -*-===//
//
// Shared by prune and compress, which differ only in how they write a
// group's selection.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_GROUPSELECTION_H
#define VNM_LIB_FORMAT_GROUPSELECTION_H

#include "ElementTraits.h"
#include "StorageChecks.h"
#include "SubsetSearch.h"

#include "vnm/Format/Encoding.h"
#include "vnm/Format/StorageShape.h"

#include <algorithm>
#include <memory>
#include <new>

namespace vnm::format::detail {

/// I4 inputs are range-checked before anything is written so that a failed
/// call leaves the outputs untouched.
template <typename Traits>
Status checkDenseRange(const StorageShape &shape, const void *dense) {
  if constexpr (Traits::kType != ElementType::I4)
    return Status::success();
  for (int64_t i = 0; i < shape.denseCount; ++i) {
    auto value = loadElement<typename Traits::Bits>(dense, i);
    if (!Traits::inRange(value))
      return Status::error(indexName("dense", i / shape.cols, i % shape.cols) +
                           " = " + Traits::describe(value) +
                           " is outside the I4 range [-8, 7]");
  }
  return Status::success();
}

/// Calls emit(firstRow, group, const SearchWorkspace &) for every V x M group
/// of the row-major `dense` matrix, after selecting its columns and values.
/// Padding columns (>= K) enter the search as magnitude 0.
template <typename Traits, typename Emit>
Status forEachGroupSelection(const Encoding &encoding,
                             const StorageShape &shape, const void *dense,
                             Emit &&emit) {
  using Bits = typename Traits::Bits;
  if (shape.denseCount == 0)
    return Status::success();
  if (Status s = checkDenseRange<Traits>(shape, dense); !s.ok())
    return s;
  std::unique_ptr<SearchWorkspace> ws(new (std::nothrow) SearchWorkspace);
  if (!ws)
    return Status::error("out of memory allocating the pruning workspace");
  const int m = static_cast<int>(encoding.m);
  ws->m = m;
  ws->keepTwo = encoding.n == 2;
  for (int64_t firstRow = 0; firstRow < shape.rows; firstRow += encoding.v) {
    ws->rows = static_cast<int>(std::min(encoding.v, shape.rows - firstRow));
    for (int64_t g = 0; g < shape.groups; ++g) {
      const int64_t firstCol = g * encoding.m;
      const int realCols =
          static_cast<int>(std::min(encoding.m, shape.cols - firstCol));
      for (int r = 0; r < ws->rows; ++r) {
        const int64_t rowStart = (firstRow + r) * shape.cols + firstCol;
        for (int c = 0; c < realCols; ++c)
          ws->mag[c][r] =
              Traits::magnitude(loadElement<Bits>(dense, rowStart + c));
        for (int c = realCols; c < m; ++c)
          ws->mag[c][r] = 0;
      }
      selectGroup(*ws);
      emit(firstRow, g, static_cast<const SearchWorkspace &>(*ws));
    }
  }
  return Status::success();
}

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_GROUPSELECTION_H
