//===- StorageShape.cpp ---------------------------------------------------===//

#include "vnm/Format/StorageShape.h"

#include "CheckedMath.h"

#include <cstddef>
#include <string>

namespace vnm::format {

using detail::ceilDiv;
using detail::checkDimension;
using detail::checkedMul;
using detail::checkedRoundUp;
using detail::fitsPointerRange;
using detail::overflow;

namespace {

/// Geometry of the fragment storage shared by both fragment classes: a k-tile
/// pair of the 16-bit class and a k-tile of the 8-bit class both cover 16
/// groups, so padding is always to 16 groups.
constexpr int64_t kFragmentGroups = 16;
constexpr int64_t kTileRows = 16;

} // namespace

Status getStorageShape(const Encoding &encoding, ElementType type, int64_t rows,
                       int64_t cols, StorageShape &out) {
  if (Status s = validateEncoding(encoding); !s.ok())
    return s;
  if (!isValidElementType(type))
    return Status::error("invalid element type " +
                         std::to_string(static_cast<int>(type)));
  if (Status s = checkDimension("row count", rows); !s.ok())
    return s;
  if (Status s = checkDimension("column count", cols); !s.ok())
    return s;

  StorageShape shape;
  const int64_t elementBytes = getElementByteSize(type);
  const bool eightBit =
      getNaturalFragmentClass(type) == FragmentClass::EightBit;
  shape.rows = rows;
  shape.cols = cols;
  shape.groups = ceilDiv(cols, encoding.m);
  shape.blocks = ceilDiv(rows, encoding.v);
  shape.compressedCols = 2 * shape.groups;
  if (!checkedMul(rows, cols, shape.denseCount) ||
      !checkedMul(shape.denseCount, elementBytes, shape.denseBytes) ||
      !fitsPointerRange(shape.denseBytes))
    return overflow("the dense matrix");
  if (!checkedMul(rows, shape.compressedCols, shape.valueCount) ||
      !checkedMul(shape.valueCount, elementBytes, shape.valueBytes) ||
      !fitsPointerRange(shape.valueBytes))
    return overflow("values");
  shape.metaCount = shape.valueCount;
  if (!checkedMul(shape.blocks, shape.groups, shape.colidxCount) ||
      !checkedMul(shape.colidxCount, 4, shape.colidxCount))
    return overflow("colidx");

  shape.paddedRows = shape.blocks * encoding.v; // <= 2^31 + 255
  shape.rowTiles = shape.paddedRows / kTileRows;
  if (!checkedRoundUp(shape.groups, kFragmentGroups, shape.paddedGroups))
    return overflow("the padded groups");
  shape.paddedCompressedCols = 2 * shape.paddedGroups;
  shape.kTiles = shape.paddedCompressedCols / (eightBit ? 32 : 16);
  shape.fragmentClass = getNaturalFragmentClass(type);
  if (!checkedMul(shape.paddedRows, shape.paddedCompressedCols,
                  shape.fragValueCount))
    return overflow("fragment values");
  if (type == ElementType::I4)
    shape.fragValueBytes = shape.fragValueCount / 2;
  else if (!checkedMul(shape.fragValueCount, elementBytes,
                       shape.fragValueBytes))
    return overflow("fragment values");
  if (!fitsPointerRange(shape.fragValueBytes))
    return overflow("fragment values");
  // Each word holds 8 nibbles, i.e. one row's metadata for 8 groups.
  if (!checkedMul(shape.paddedRows, shape.paddedGroups / 8,
                  shape.fragMetaWords) ||
      !fitsPointerRange(shape.fragMetaWords) ||
      shape.fragMetaWords > PTRDIFF_MAX / 4)
    return overflow("fragment metadata");

  out = shape;
  return Status::success();
}

FragmentClass getNaturalFragmentClass(ElementType type) {
  return type == ElementType::I8 || type == ElementType::I4
             ? FragmentClass::EightBit
             : FragmentClass::SixteenBit;
}

Status getStorageShape(const Encoding &encoding, ElementType type,
                       FragmentClass fragmentClass, int64_t rows, int64_t cols,
                       StorageShape &out) {
  StorageShape shape;
  if (Status s = getStorageShape(encoding, type, rows, cols, shape); !s.ok())
    return s;
  if (fragmentClass == FragmentClass::EightBit &&
      getNaturalFragmentClass(type) != FragmentClass::EightBit)
    return Status::error("the 8-bit fragment class holds i8 and i4 values "
                         "only, got " +
                         std::string(getElementTypeName(type)));
  // Padded groups are a multiple of 16, so both tile widths divide them.
  shape.kTiles = shape.paddedCompressedCols /
                 (fragmentClass == FragmentClass::EightBit ? 32 : 16);
  shape.fragmentClass = fragmentClass;
  out = shape;
  return Status::success();
}

} // namespace vnm::format
