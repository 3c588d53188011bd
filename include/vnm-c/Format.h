/*===- Format.h - vnm C API: the V:N:M format library -------------*- C -*-===*\
|*                                                                            *|
|* C entry points of the format library (include/vnm/Format, specified in    *|
|* docs/format.md): pruning, logical storage, fragment (mma.sp) storage and  *|
|* their sizes, and the quantization of weights to i8 and i4. Buffers are    *|
|* row-major and hold elements as the library defines them: f16 and bf16 as  *|
|* uint16_t bit patterns, f32 as float, i8 as int8_t, i4 as one int8_t in    *|
|* [-8, 7] per value (two per byte only in fragment storage).                *|
|*                                                                            *|
|* The caller sizes the buffers with vnmFormatGetStorageShape; the library   *|
|* cannot check the size of a buffer it is given. Every other check (bad     *|
|* encoding, inconsistent storage, i4 out of range, ...) is a failing        *|
|* VnmStatus whose message names the problem; nothing is printed.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef VNM_C_FORMAT_H
#define VNM_C_FORMAT_H

#include "vnm-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum VnmElementType {
  VnmElementTypeF16 = 0,
  VnmElementTypeBF16 = 1,
  VnmElementTypeF32 = 2,
  VnmElementTypeI8 = 3,
  VnmElementTypeI4 = 4,
  /* Not a type: it makes every int a value of the enum, so that a value a
   * caller passes from outside the list is an error the library reports
   * (C++ leaves loading such a value undefined for an enum without it). */
  VnmElementTypeMaxEnum = 0x7FFFFFFF,
} VnmElementType;

/// A V:N:M encoding: v in {16, 32, 64, 128, 256}, n in {1, 2}, 4 <= m <= 32.
typedef struct VnmEncoding {
  int64_t v;
  int64_t n;
  int64_t m;
} VnmEncoding;

/// Sizes of the storage arrays of an R x K matrix (docs/format.md); counts
/// are in elements of the named array.
typedef struct VnmStorageShape {
  // Logical storage.
  int64_t rows;           ///< R
  int64_t cols;           ///< K
  int64_t groups;         ///< G = ceil(K / M)
  int64_t blocks;         ///< B = ceil(R / V)
  int64_t compressedCols; ///< 2G
  int64_t denseCount;     ///< R * K
  int64_t denseBytes;
  int64_t valueCount; ///< values[R][2G]
  int64_t valueBytes;
  int64_t colidxCount; ///< colidx[B][G][4], one byte each
  int64_t metaCount;   ///< meta[R][2G], one byte each
  // Fragment (target) storage.
  int64_t paddedRows;           ///< B * V
  int64_t paddedGroups;         ///< G rounded up to a multiple of 16
  int64_t paddedCompressedCols; ///< 2 * paddedGroups
  int64_t rowTiles;             ///< paddedRows / 16
  int64_t kTiles;               ///< paddedCompressedCols / (16 or 32)
  int64_t fragValueCount;       ///< paddedRows * paddedCompressedCols
  int64_t fragValueBytes;       ///< i4 packs two values per byte
  int64_t fragMetaWords;        ///< 32-bit words
} VnmStorageShape;

/// "f16", "bf16", "f32", "i8", "i4"; "invalid" for any other value.
VNM_CAPI_EXPORTED const char *vnmFormatGetElementTypeName(VnmElementType type);

/// Parses a name as returned by vnmFormatGetElementTypeName; false if it is
/// none of them.
VNM_CAPI_EXPORTED bool vnmFormatParseElementType(VnmStringRef name,
                                                 VnmElementType *type);

/// Bytes per element in dense and logical storage (2, 2, 4, 1, 1); 0 for an
/// invalid type.
VNM_CAPI_EXPORTED int64_t vnmFormatGetElementByteSize(VnmElementType type);

/// Checks the encoding's parameters.
VNM_CAPI_EXPORTED VnmStatus vnmFormatValidateEncoding(VnmEncoding encoding);

/// Computes every storage size of an R x K matrix; fails on an invalid
/// encoding or type, on R or K outside [0, 2^31 - 1], or on overflow.
VNM_CAPI_EXPORTED VnmStatus vnmFormatGetStorageShape(VnmEncoding encoding,
                                                     VnmElementType type,
                                                     int64_t rows, int64_t cols,
                                                     VnmStorageShape *shape);

/// Prunes `dense` (R x K) into `pruned` (R x K): kept entries bit-exact,
/// dropped entries +0. The buffers may be the same; otherwise they must not
/// overlap. `pruned` is untouched on failure. A NaN or infinite entry fails
/// unless `keepNonFinite` is nonzero (then NaN ranks above infinity, above
/// every number).
VNM_CAPI_EXPORTED VnmStatus vnmFormatPrune(VnmEncoding encoding,
                                           VnmElementType type,
                                           const void *dense, int64_t rows,
                                           int64_t cols, void *pruned,
                                           int keepNonFinite);

/// Prunes `dense` and writes its logical storage: `values` (valueCount
/// elements), `colidx` (colidxCount bytes), `meta` (metaCount bytes). NaN
/// and infinite entries as for vnmFormatPrune.
VNM_CAPI_EXPORTED VnmStatus vnmFormatCompress(VnmEncoding encoding,
                                              VnmElementType type,
                                              const void *dense, int64_t rows,
                                              int64_t cols, void *values,
                                              uint8_t *colidx, uint8_t *meta,
                                              int keepNonFinite);

/// Verifies the logical storage, then writes the R x K matrix it encodes
/// (+0 where nothing is kept). `dense` is untouched on failure.
VNM_CAPI_EXPORTED VnmStatus vnmFormatDecompress(
    VnmEncoding encoding, VnmElementType type, const void *values,
    const uint8_t *colidx, const uint8_t *meta, int64_t rows, int64_t cols,
    void *dense);

/// Checks that the three arrays form a valid logical storage; the message of
/// the first violation names the array and the index.
VNM_CAPI_EXPORTED VnmStatus vnmFormatVerifyStorage(
    VnmEncoding encoding, VnmElementType type, const void *values,
    const uint8_t *colidx, const uint8_t *meta, int64_t rows, int64_t cols);

/// Converts logical `values`/`meta` to fragment storage: `fragValues`
/// (fragValueBytes bytes) and `fragMeta` (fragMetaWords words, 4-byte
/// aligned).
VNM_CAPI_EXPORTED VnmStatus
vnmFormatPackFragments(VnmEncoding encoding, VnmElementType type,
                       const void *values, const uint8_t *meta, int64_t rows,
                       int64_t cols, void *fragValues, uint32_t *fragMeta);

/// Inverse of vnmFormatPackFragments; fails on a nonzero padding value, a
/// padding nibble other than 0x4 or a nibble that is not a strictly
/// ascending pair.
VNM_CAPI_EXPORTED VnmStatus vnmFormatUnpackFragments(
    VnmEncoding encoding, VnmElementType type, const void *fragValues,
    const uint32_t *fragMeta, int64_t rows, int64_t cols, void *values,
    uint8_t *meta);

/// The fragment layouts (docs/format.md): the element type's own, the
/// 16-bit class (m16n8k32; i8/i4 weights a kernel dequantizes to f16 or
/// bf16) or the 8-bit class (m16n8k64; i8 and i4 only).
typedef enum VnmFragmentClass {
  VnmFragmentClassNatural = 0,
  VnmFragmentClass16Bit = 1,
  VnmFragmentClass8Bit = 2,
  /* Not a class: makes every int a value of the enum (as for
   * VnmElementType), so that an unknown value is an error. */
  VnmFragmentClassMaxEnum = 0x7FFFFFFF,
} VnmFragmentClass;

/// vnmFormatPackFragments in `fragmentClass` (same sizes in every class).
VNM_CAPI_EXPORTED VnmStatus vnmFormatPackFragmentsAs(
    VnmEncoding encoding, VnmElementType type, VnmFragmentClass fragmentClass,
    const void *values, const uint8_t *meta, int64_t rows, int64_t cols,
    void *fragValues, uint32_t *fragMeta);

/// vnmFormatUnpackFragments of fragments in `fragmentClass`.
VNM_CAPI_EXPORTED VnmStatus vnmFormatUnpackFragmentsAs(
    VnmEncoding encoding, VnmElementType type, VnmFragmentClass fragmentClass,
    const void *fragValues, const uint32_t *fragMeta, int64_t rows,
    int64_t cols, void *values, uint8_t *meta);

/// Shape of the scales of an R x K matrix quantized with `axis` (-1: one
/// scale for the matrix, 0: per row, 1: per column) and `groupSize` (0: whole
/// rows or columns; g > 0: chunks of g entries along the row (axis 0) or the
/// column (axis 1), the last one ragged; must be 0 for axis -1): 1 x 1, R x
/// ceil(K / g) (R x 1 for g = 0) or ceil(R / g) x K (1 x K for g = 0).
VNM_CAPI_EXPORTED VnmStatus vnmFormatGetQuantizeScaleShape(
    int64_t rows, int64_t cols, int32_t axis, int64_t groupSize,
    int64_t *scaleRows, int64_t *scaleCols);

/// Symmetric quantization (docs/format.md, "Quantization") of the f16, bf16
/// or f32 matrix `dense` (R x K) to `target` (i8 or i4): R x K values, one
/// int8_t each, in `quantized`, and the f32 scales (row-major, as
/// vnmFormatGetQuantizeScaleShape gives) in `scales`. With qmax = 127 (i8) or
/// 7 (i4): scale = amax / qmax per group (1 where amax = 0), q =
/// clamp(roundeven(x / scale), -qmax, qmax). A NaN or infinite entry fails,
/// naming its row and column; the outputs are untouched on failure.
VNM_CAPI_EXPORTED VnmStatus vnmFormatQuantize(VnmElementType source,
                                              const void *dense, int64_t rows,
                                              int64_t cols,
                                              VnmElementType target,
                                              int32_t axis, int64_t groupSize,
                                              int8_t *quantized, float *scales);

/// dense[r][c] = (float)q * scale (R x K f32) for the values of
/// vnmFormatQuantize; an i4 value outside [-8, 7] fails. `dense` is
/// untouched on failure.
VNM_CAPI_EXPORTED VnmStatus vnmFormatDequantize(
    const int8_t *quantized, int64_t rows, int64_t cols, VnmElementType target,
    int32_t axis, int64_t groupSize, const float *scales, float *dense);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_FORMAT_H
