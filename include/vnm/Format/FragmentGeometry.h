//===- FragmentGeometry.h - Lane-to-matrix maps of the fragments -*- C++
//-*-===//
//
// One description of the fragment formulas (docs/format.md) shared by pack,
// unpack and the GPU kernels that read the fragments, so that none of them
// can disagree with the others.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_FRAGMENTGEOMETRY_H
#define VNM_FORMAT_FRAGMENTGEOMETRY_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/StorageShape.h"

#include <cstdint>

namespace vnm::format {

inline constexpr int kWarpLanes = 32;
/// Nibble of the padding pair (0, 1).
inline constexpr uint32_t kPaddingNibble = 0x4;

struct FragmentGeometry {
  /// The 8-bit class (m16n8k64 geometry) or the 16-bit class (m16n8k32):
  /// the shape's fragment class.
  bool eightBit = false;
  int64_t rowTiles = 0;
  int64_t kTiles = 0;
  int valuesPerLane = 0;

  /// Values are stored tile by tile, (rowTile, kTile) in row-major order,
  /// then lane by lane: value j of `lane` in tile (rowTile, kTile) is
  /// element ((rowTile * kTiles + kTile) * 32 + lane) * valuesPerLane + j.
  int64_t valuesPerTile() const { return kWarpLanes * valuesPerLane; }
  int64_t valueIndex(int64_t rowTile, int64_t kTile, int lane, int j) const {
    return ((rowTile * kTiles + kTile) * kWarpLanes + lane) * valuesPerLane + j;
  }
  /// Metadata words come in units of 32, one word per lane: a k-tile pair
  /// of a row tile in the 16-bit class (unit rowTile * kTiles / 2 + pair),
  /// a tile in the 8-bit class (unit rowTile * kTiles + kTile).
  int64_t metaUnitsPerRowTile() const { return eightBit ? kTiles : kTiles / 2; }
};

FragmentGeometry getFragmentGeometry(ElementType type,
                                     const StorageShape &shape);

/// Row and compressed column of value `j` of `lane` in tile (rowTile, kTile);
/// values are stored at consecutive indices in (tile, lane, j) order.
void getValueCoordinates(const FragmentGeometry &geometry, int64_t rowTile,
                         int64_t kTile, int lane, int j, int64_t &row,
                         int64_t &col);

/// A run of consecutive groups of one row whose nibbles fill part of a
/// metadata word, starting at bit `shift`.
struct NibbleRun {
  int64_t row;
  int64_t firstGroup;
  int nibbles;
  int shift;
};

/// Decomposes metadata word `word` into its runs (2 for the 16-bit class,
/// 1 for the 8-bit class); returns the run count.
int getNibbleRuns(const FragmentGeometry &geometry, int64_t word,
                  NibbleRun runs[2]);

/// Nibble of the strictly ascending pair (i0, i1).
inline uint32_t encodeNibble(uint8_t i0, uint8_t i1) {
  return uint32_t(i0) | uint32_t(i1) << 2;
}

} // namespace vnm::format

#endif // VNM_FORMAT_FRAGMENTGEOMETRY_H
