//===- FragmentGeometry.cpp -----------------------------------------------===//

#include "vnm/Format/FragmentGeometry.h"

namespace vnm::format {

FragmentGeometry getFragmentGeometry(ElementType type,
                                     const StorageShape &shape) {
  FragmentGeometry geometry;
  // The shape's class: an i8/i4 weight may take the 16-bit class.
  geometry.eightBit = shape.fragmentClass == FragmentClass::EightBit;
  geometry.rowTiles = shape.rowTiles;
  geometry.kTiles = shape.kTiles;
  geometry.valuesPerLane = geometry.eightBit ? 16 : 8;
  return geometry;
}

void getValueCoordinates(const FragmentGeometry &geometry, int64_t rowTile,
                         int64_t kTile, int lane, int j, int64_t &row,
                         int64_t &col) {
  const int g = lane >> 2;
  const int t = lane & 3;
  if (geometry.eightBit) {
    const int r = j >> 2;
    const int b = j & 3;
    row = 16 * rowTile + g + 8 * (r & 1);
    col = 32 * kTile + 16 * (r >> 1) + 4 * t + b;
  } else {
    const int r = j >> 1;
    const int h = j & 1;
    row = 16 * rowTile + g + 8 * (r & 1);
    col = 16 * kTile + 8 * (r >> 1) + 2 * t + h;
  }
}

int getNibbleRuns(const FragmentGeometry &geometry, int64_t word,
                  NibbleRun runs[2]) {
  const int64_t unit = word / kWarpLanes;
  const int index = static_cast<int>(word % kWarpLanes);
  const int g = index >> 2;
  if (geometry.eightBit) {
    // One word per lane per tile: a row's 8-group chunk.
    const int64_t rowTile = unit / geometry.metaUnitsPerRowTile();
    const int64_t kTile = unit % geometry.metaUnitsPerRowTile();
    const int t = index & 3;
    runs[0] = {16 * rowTile + g + 8 * (t & 1), 16 * kTile + 8 * (t >> 1), 8, 0};
    return 1;
  }
  // One word per lane per k-tile pair: rows g and g + 8 of a 4-group chunk
  // of k-tile 2p + s.
  const int64_t pairs = geometry.metaUnitsPerRowTile();
  const int64_t rowTile = unit / pairs;
  const int64_t kTile = 2 * (unit % pairs) + ((index >> 1) & 1);
  const int64_t firstGroup = 8 * kTile + 4 * (index & 1);
  runs[0] = {16 * rowTile + g, firstGroup, 4, 0};
  runs[1] = {16 * rowTile + g + 8, firstGroup, 4, 16};
  return 2;
}

} // namespace vnm::format
