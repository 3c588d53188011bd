//===- UnpackFragments.cpp ------------------------------------------------===//

#include "vnm/Format/FragmentLayout.h"

#include "ArgumentChecks.h"
#include "ElementTraits.h"
#include "vnm/Format/FragmentGeometry.h"

#include <string>

namespace vnm::format {

using namespace detail;

namespace {

std::string describeSlot(int64_t row, int64_t col) {
  return "(row " + std::to_string(row) + ", compressed column " +
         std::to_string(col) + ")";
}

template <typename Traits>
Status unpackValues(const FragmentGeometry &geometry, const StorageShape &shape,
                    const void *fragValues, void *values) {
  using Bits = typename Traits::Bits;
  constexpr bool packNibbles = Traits::kType == ElementType::I4;
  for (int64_t rt = 0; rt < geometry.rowTiles; ++rt) {
    for (int64_t kt = 0; kt < geometry.kTiles; ++kt) {
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        for (int j = 0; j < geometry.valuesPerLane; ++j) {
          const int64_t index = geometry.valueIndex(rt, kt, lane, j);
          Bits value;
          if constexpr (packNibbles) {
            const auto *bytes = static_cast<const uint8_t *>(fragValues);
            const int nibble = (bytes[index / 2] >> (4 * (index & 1))) & 0xf;
            value = static_cast<Bits>((nibble ^ 8) - 8); // Sign-extend.
          } else {
            value = loadElement<Bits>(fragValues, index);
          }
          int64_t row, col;
          getValueCoordinates(geometry, rt, kt, lane, j, row, col);
          if (row < shape.rows && col < shape.compressedCols) {
            storeElement<Bits>(values, row * shape.compressedCols + col, value);
            continue;
          }
          if (!Traits::isZero(value))
            return Status::error("fragValues element " + std::to_string(index) +
                                 " = " + Traits::describe(value) +
                                 " is padding " + describeSlot(row, col) +
                                 " but not zero");
        }
      }
    }
  }
  return Status::success();
}

Status unpackMeta(const FragmentGeometry &geometry, const StorageShape &shape,
                  const uint32_t *fragMeta, uint8_t *meta) {
  for (int64_t word = 0; word < shape.fragMetaWords; ++word) {
    NibbleRun runs[2];
    const int runCount = getNibbleRuns(geometry, word, runs);
    for (int i = 0; i < runCount; ++i) {
      const NibbleRun &run = runs[i];
      for (int q = 0; q < run.nibbles; ++q) {
        const int64_t group = run.firstGroup + q;
        const int shift = run.shift + 4 * q;
        const uint32_t nibble = (fragMeta[word] >> shift) & 0xf;
        auto where = [&] {
          return "fragMeta[" + std::to_string(word) + "] bits " +
                 std::to_string(shift + 3) + ":" + std::to_string(shift) +
                 " (row " + std::to_string(run.row) + ", group " +
                 std::to_string(group) + ")";
        };
        if (run.row >= shape.rows || group >= shape.groups) {
          if (nibble != kPaddingNibble)
            return Status::error(where() + " = " + std::to_string(nibble) +
                                 " is padding but not 0x4");
          continue;
        }
        const uint8_t i0 = nibble & 3;
        const uint8_t i1 = nibble >> 2;
        if (i0 >= i1)
          return Status::error(where() + " = " + std::to_string(nibble) +
                               " is not a strictly ascending pair");
        uint8_t *pair = meta + run.row * shape.compressedCols + 2 * group;
        pair[0] = i0;
        pair[1] = i1;
      }
    }
  }
  return Status::success();
}

} // namespace

Status unpackFragments(const Encoding &encoding, ElementType type,
                       const void *fragValues, const uint32_t *fragMeta,
                       int64_t rows, int64_t cols, void *values,
                       uint8_t *meta) {
  return unpackFragments(encoding, type, getNaturalFragmentClass(type),
                         fragValues, fragMeta, rows, cols, values, meta);
}

Status unpackFragments(const Encoding &encoding, ElementType type,
                       FragmentClass fragmentClass, const void *fragValues,
                       const uint32_t *fragMeta, int64_t rows, int64_t cols,
                       void *values, uint8_t *meta) {
  StorageShape shape;
  if (Status s =
          getStorageShape(encoding, type, fragmentClass, rows, cols, shape);
      !s.ok())
    return s;
  if (Status s = checkBuffers({{fragValues, shape.fragValueCount, "fragValues"},
                               {fragMeta, shape.fragMetaWords, "fragMeta"},
                               {values, shape.valueCount, "values"},
                               {meta, shape.metaCount, "meta"}});
      !s.ok())
    return s;
  const FragmentGeometry geometry = getFragmentGeometry(type, shape);
  if (Status s = unpackMeta(geometry, shape, fragMeta, meta); !s.ok())
    return s;
  return dispatchElementType(type, [&](auto traits) {
    return unpackValues<decltype(traits)>(geometry, shape, fragValues, values);
  });
}

} // namespace vnm::format
