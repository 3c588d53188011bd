//===- PackFragments.cpp --------------------------------------------------===//

#include "vnm/Format/FragmentLayout.h"

#include "ArgumentChecks.h"
#include "ElementTraits.h"
#include "StorageChecks.h"
#include "vnm/Format/FragmentGeometry.h"

#include <cstring>

namespace vnm::format {

using namespace detail;

namespace {

template <typename Traits>
void packValues(const FragmentGeometry &geometry, const StorageShape &shape,
                const void *values, void *fragValues) {
  using Bits = typename Traits::Bits;
  constexpr bool packNibbles = Traits::kType == ElementType::I4;
  // Padding stays zero; I4 nibbles are OR-ed into zeroed bytes.
  std::memset(fragValues, 0, static_cast<size_t>(shape.fragValueBytes));
  for (int64_t rt = 0; rt < geometry.rowTiles; ++rt) {
    for (int64_t kt = 0; kt < geometry.kTiles; ++kt) {
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        for (int j = 0; j < geometry.valuesPerLane; ++j) {
          const int64_t index = geometry.valueIndex(rt, kt, lane, j);
          int64_t row, col;
          getValueCoordinates(geometry, rt, kt, lane, j, row, col);
          if (row >= shape.rows || col >= shape.compressedCols)
            continue;
          const Bits value =
              loadElement<Bits>(values, row * shape.compressedCols + col);
          if constexpr (packNibbles) {
            auto *bytes = static_cast<uint8_t *>(fragValues);
            const unsigned nibble = static_cast<uint8_t>(value) & 0xf;
            bytes[index / 2] |=
                static_cast<uint8_t>(nibble << (4 * (index & 1)));
          } else {
            storeElement<Bits>(fragValues, index, value);
          }
        }
      }
    }
  }
}

void packMeta(const FragmentGeometry &geometry, const StorageShape &shape,
              const uint8_t *meta, uint32_t *fragMeta) {
  for (int64_t word = 0; word < shape.fragMetaWords; ++word) {
    NibbleRun runs[2];
    const int runCount = getNibbleRuns(geometry, word, runs);
    uint32_t bits = 0;
    for (int i = 0; i < runCount; ++i) {
      const NibbleRun &run = runs[i];
      for (int q = 0; q < run.nibbles; ++q) {
        const int64_t group = run.firstGroup + q;
        uint32_t nibble = kPaddingNibble;
        if (run.row < shape.rows && group < shape.groups) {
          const uint8_t *pair =
              meta + run.row * shape.compressedCols + 2 * group;
          nibble = encodeNibble(pair[0], pair[1]);
        }
        bits |= nibble << (run.shift + 4 * q);
      }
    }
    fragMeta[word] = bits;
  }
}

} // namespace

Status packFragments(const Encoding &encoding, ElementType type,
                     const void *values, const uint8_t *meta, int64_t rows,
                     int64_t cols, void *fragValues, uint32_t *fragMeta) {
  return packFragments(encoding, type, getNaturalFragmentClass(type), values,
                       meta, rows, cols, fragValues, fragMeta);
}

Status packFragments(const Encoding &encoding, ElementType type,
                     FragmentClass fragmentClass, const void *values,
                     const uint8_t *meta, int64_t rows, int64_t cols,
                     void *fragValues, uint32_t *fragMeta) {
  StorageShape shape;
  if (Status s =
          getStorageShape(encoding, type, fragmentClass, rows, cols, shape);
      !s.ok())
    return s;
  if (Status s = checkBuffers({{values, shape.valueCount, "values"},
                               {meta, shape.metaCount, "meta"},
                               {fragValues, shape.fragValueCount, "fragValues"},
                               {fragMeta, shape.fragMetaWords, "fragMeta"}});
      !s.ok())
    return s;
  // A malformed pair would corrupt its neighbours' nibbles.
  if (Status s = checkMeta(shape, meta); !s.ok())
    return s;
  const FragmentGeometry geometry = getFragmentGeometry(type, shape);
  return dispatchElementType(type, [&](auto traits) {
    using Traits = decltype(traits);
    if (Status s = checkValueRange<Traits>(shape, values); !s.ok())
      return s;
    if (shape.fragValueCount > 0) {
      packValues<Traits>(geometry, shape, values, fragValues);
      packMeta(geometry, shape, meta, fragMeta);
    }
    return Status::success();
  });
}

} // namespace vnm::format
