//===- StorageShape.h - Sizes of the V:N:M storage arrays -------*- C++ -*-===//

#ifndef VNM_FORMAT_STORAGESHAPE_H
#define VNM_FORMAT_STORAGESHAPE_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Encoding.h"
#include "vnm/Format/Status.h"

#include <cstdint>

namespace vnm::format {

/// Rows and columns are limited so that every row and column index fits a
/// signed 32-bit GPU index.
inline constexpr int64_t kMaxDimension = (int64_t(1) << 31) - 1;

/// The two fragment layouts (docs/format.md, "Fragment (target) storage"):
/// the 16-bit class feeds m16n8k32 MMAs (F16, BF16, F32; and I8 or I4
/// weights that a kernel dequantizes to f16/bf16 in registers), the 8-bit
/// class m16n8k64 MMAs (I8, I4). Only kTiles and the lane formulas differ;
/// every size is the same in both.
enum class FragmentClass { SixteenBit, EightBit };

/// The class an element type's fragments take by default: 8-bit for I8
/// and I4, 16-bit otherwise.
FragmentClass getNaturalFragmentClass(ElementType type);

/// All counts are in elements of the named array; byte sizes are given where
/// they differ from the count.
struct StorageShape {
  // Logical storage.
  int64_t rows = 0;           ///< R
  int64_t cols = 0;           ///< K
  int64_t groups = 0;         ///< G = ceil(K / M)
  int64_t blocks = 0;         ///< B = ceil(R / V)
  int64_t compressedCols = 0; ///< 2G
  int64_t denseCount = 0;     ///< R * K
  int64_t denseBytes = 0;
  int64_t valueCount = 0; ///< values[R][2G]
  int64_t valueBytes = 0;
  int64_t colidxCount = 0; ///< colidx[B][G][4], one byte each
  int64_t metaCount = 0;   ///< meta[R][2G], one byte each

  // Fragment (target) storage.
  int64_t paddedRows = 0;           ///< B * V
  int64_t paddedGroups = 0;         ///< G rounded up to a multiple of 16
  int64_t paddedCompressedCols = 0; ///< 2 * paddedGroups
  int64_t rowTiles = 0;             ///< paddedRows / 16
  int64_t kTiles = 0;               ///< KT: paddedCompressedCols / (16 or 32)
  int64_t fragValueCount = 0;       ///< paddedRows * paddedCompressedCols
  int64_t fragValueBytes = 0;       ///< I4 packs two values per byte
  int64_t fragMetaWords = 0; ///< 32-bit words: paddedRows * paddedGroups / 8
  FragmentClass fragmentClass = FragmentClass::SixteenBit;
};

/// Validates the encoding, the element type and 0 <= rows, cols <=
/// kMaxDimension, and fails if any size overflows int64_t or ptrdiff_t.
/// Zero rows or columns are valid and give empty arrays.
Status getStorageShape(const Encoding &encoding, ElementType type, int64_t rows,
                       int64_t cols, StorageShape &out);
/// The same with the fragments in `fragmentClass`; the 8-bit class holds
/// I8 and I4 only.
Status getStorageShape(const Encoding &encoding, ElementType type,
                       FragmentClass fragmentClass, int64_t rows, int64_t cols,
                       StorageShape &out);

} // namespace vnm::format

#endif // VNM_FORMAT_STORAGESHAPE_H
