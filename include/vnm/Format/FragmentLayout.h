//===- FragmentLayout.h - Sparse tensor core fragment storage ---*- C++ -*-===//
//
// The fragment (target) storage lays values and metadata out in the order in
// which the 32 lanes of a warp feed them to mma.sp::ordered_metadata, so a
// kernel loads each lane's operands with contiguous vector loads. Sizes come
// from getStorageShape (fragValueBytes, fragMetaWords); the exact formulas
// are in docs/format.md. colidx has no fragment form.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_FRAGMENTLAYOUT_H
#define VNM_FORMAT_FRAGMENTLAYOUT_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Encoding.h"
#include "vnm/Format/Status.h"
#include "vnm/Format/StorageShape.h"

#include <cstdint>

namespace vnm::format {

/// Converts logical values/meta to fragments, writing zero values and 0x4
/// metadata nibbles into the padding. Checks meta (entries <= 3, pairs
/// strictly ascending) and the I4 range; values at padding columns cannot be
/// checked without colidx (use verifyStorage for that).
Status packFragments(const Encoding &encoding, ElementType type,
                     const void *values, const uint8_t *meta, int64_t rows,
                     int64_t cols, void *fragValues, uint32_t *fragMeta);
/// The same in `fragmentClass`: I8 and I4 weights take the 16-bit class
/// for kernels that dequantize them to f16/bf16 in registers (W8A16,
/// W4A16). Same sizes; I4 still packs two values per byte.
Status packFragments(const Encoding &encoding, ElementType type,
                     FragmentClass fragmentClass, const void *values,
                     const uint8_t *meta, int64_t rows, int64_t cols,
                     void *fragValues, uint32_t *fragMeta);

/// Inverse of packFragments. Fails if a padding value is not numeric zero, a
/// padding nibble is not 0x4, or a real nibble is not a strictly ascending
/// pair (0x4, 0x8, 0xC, 0x9, 0xD, 0xE). Outputs are unspecified on error.
Status unpackFragments(const Encoding &encoding, ElementType type,
                       const void *fragValues, const uint32_t *fragMeta,
                       int64_t rows, int64_t cols, void *values, uint8_t *meta);
Status unpackFragments(const Encoding &encoding, ElementType type,
                       FragmentClass fragmentClass, const void *fragValues,
                       const uint32_t *fragMeta, int64_t rows, int64_t cols,
                       void *values, uint8_t *meta);

} // namespace vnm::format

#endif // VNM_FORMAT_FRAGMENTLAYOUT_H
