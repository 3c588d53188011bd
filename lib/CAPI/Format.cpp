//===- Format.cpp - vnm C API: the V:N:M format library -------------------===//
//
// Thin wrappers: the format library already validates everything it can see
// and reports it in a Status; this layer only converts types and turns a
// Status into a VnmStatus.
//
//===----------------------------------------------------------------------===//

#include "vnm-c/Format.h"

#include "CAPIUtils.h"

#include "vnm/Format/Format.h"

#include <optional>

using namespace vnm::capi;
namespace fmt = vnm::format;

namespace {

/// Not a cast: a C caller can pass any int (hence the switch on int), and
/// the library's enum order is not part of its API.
std::optional<fmt::ElementType> convertType(VnmElementType type) {
  switch (static_cast<int>(type)) {
  case VnmElementTypeF16:
    return fmt::ElementType::F16;
  case VnmElementTypeBF16:
    return fmt::ElementType::BF16;
  case VnmElementTypeF32:
    return fmt::ElementType::F32;
  case VnmElementTypeI8:
    return fmt::ElementType::I8;
  case VnmElementTypeI4:
    return fmt::ElementType::I4;
  }
  return std::nullopt;
}

fmt::Encoding convertEncoding(VnmEncoding encoding) {
  return fmt::Encoding{encoding.v, encoding.n, encoding.m};
}

VnmStatus convertStatus(const fmt::Status &status) {
  return status.ok() ? okStatus() : errorStatus(status.message());
}

VnmStatus invalidType(VnmElementType type) {
  return errorStatus("invalid element type " +
                     std::to_string(static_cast<int>(type)));
}

} // namespace

const char *vnmFormatGetElementTypeName(VnmElementType type) {
  std::optional<fmt::ElementType> converted = convertType(type);
  return converted ? fmt::getElementTypeName(*converted) : "invalid";
}

bool vnmFormatParseElementType(VnmStringRef name, VnmElementType *type) {
  std::optional<fmt::ElementType> parsed = fmt::parseElementType(
      std::string_view(name.data ? name.data : "", name.length));
  if (!parsed || !type)
    return false;
  switch (*parsed) {
  case fmt::ElementType::F16:
    *type = VnmElementTypeF16;
    return true;
  case fmt::ElementType::BF16:
    *type = VnmElementTypeBF16;
    return true;
  case fmt::ElementType::F32:
    *type = VnmElementTypeF32;
    return true;
  case fmt::ElementType::I8:
    *type = VnmElementTypeI8;
    return true;
  case fmt::ElementType::I4:
    *type = VnmElementTypeI4;
    return true;
  }
  return false;
}

int64_t vnmFormatGetElementByteSize(VnmElementType type) {
  std::optional<fmt::ElementType> converted = convertType(type);
  return converted ? fmt::getElementByteSize(*converted) : 0;
}

VnmStatus vnmFormatValidateEncoding(VnmEncoding encoding) {
  return convertStatus(fmt::validateEncoding(convertEncoding(encoding)));
}

VnmStatus vnmFormatGetStorageShape(VnmEncoding encoding, VnmElementType type,
                                   int64_t rows, int64_t cols,
                                   VnmStorageShape *shape) {
  if (!shape)
    return errorStatus(
        "vnmFormatGetStorageShape: the shape out-parameter is null");
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  fmt::StorageShape out;
  fmt::Status status = fmt::getStorageShape(convertEncoding(encoding),
                                            *converted, rows, cols, out);
  if (!status.ok())
    return convertStatus(status);
  shape->rows = out.rows;
  shape->cols = out.cols;
  shape->groups = out.groups;
  shape->blocks = out.blocks;
  shape->compressedCols = out.compressedCols;
  shape->denseCount = out.denseCount;
  shape->denseBytes = out.denseBytes;
  shape->valueCount = out.valueCount;
  shape->valueBytes = out.valueBytes;
  shape->colidxCount = out.colidxCount;
  shape->metaCount = out.metaCount;
  shape->paddedRows = out.paddedRows;
  shape->paddedGroups = out.paddedGroups;
  shape->paddedCompressedCols = out.paddedCompressedCols;
  shape->rowTiles = out.rowTiles;
  shape->kTiles = out.kTiles;
  shape->fragValueCount = out.fragValueCount;
  shape->fragValueBytes = out.fragValueBytes;
  shape->fragMetaWords = out.fragMetaWords;
  return okStatus();
}

VnmStatus vnmFormatPrune(VnmEncoding encoding, VnmElementType type,
                         const void *dense, int64_t rows, int64_t cols,
                         void *pruned, int keepNonFinite) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  return convertStatus(fmt::prune(
      convertEncoding(encoding), *converted, dense, rows, cols, pruned,
      keepNonFinite ? fmt::NonFinite::Keep : fmt::NonFinite::Reject));
}

VnmStatus vnmFormatCompress(VnmEncoding encoding, VnmElementType type,
                            const void *dense, int64_t rows, int64_t cols,
                            void *values, uint8_t *colidx, uint8_t *meta,
                            int keepNonFinite) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  return convertStatus(fmt::compress(
      convertEncoding(encoding), *converted, dense, rows, cols, values, colidx,
      meta, keepNonFinite ? fmt::NonFinite::Keep : fmt::NonFinite::Reject));
}

VnmStatus vnmFormatDecompress(VnmEncoding encoding, VnmElementType type,
                              const void *values, const uint8_t *colidx,
                              const uint8_t *meta, int64_t rows, int64_t cols,
                              void *dense) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  return convertStatus(fmt::decompress(convertEncoding(encoding), *converted,
                                       values, colidx, meta, rows, cols,
                                       dense));
}

VnmStatus vnmFormatVerifyStorage(VnmEncoding encoding, VnmElementType type,
                                 const void *values, const uint8_t *colidx,
                                 const uint8_t *meta, int64_t rows,
                                 int64_t cols) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  return convertStatus(fmt::verifyStorage(convertEncoding(encoding), *converted,
                                          values, colidx, meta, rows, cols));
}

VnmStatus vnmFormatPackFragments(VnmEncoding encoding, VnmElementType type,
                                 const void *values, const uint8_t *meta,
                                 int64_t rows, int64_t cols, void *fragValues,
                                 uint32_t *fragMeta) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  return convertStatus(fmt::packFragments(convertEncoding(encoding), *converted,
                                          values, meta, rows, cols, fragValues,
                                          fragMeta));
}

VnmStatus vnmFormatUnpackFragments(VnmEncoding encoding, VnmElementType type,
                                   const void *fragValues,
                                   const uint32_t *fragMeta, int64_t rows,
                                   int64_t cols, void *values, uint8_t *meta) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted)
    return invalidType(type);
  return convertStatus(fmt::unpackFragments(convertEncoding(encoding),
                                            *converted, fragValues, fragMeta,
                                            rows, cols, values, meta));
}

namespace {
/// The class `fragmentClass` names for `type`, or nothing for an unknown
/// value.
std::optional<fmt::FragmentClass> convertClass(VnmFragmentClass fragmentClass,
                                               fmt::ElementType type) {
  switch (static_cast<int>(fragmentClass)) {
  case VnmFragmentClassNatural:
    return fmt::getNaturalFragmentClass(type);
  case VnmFragmentClass16Bit:
    return fmt::FragmentClass::SixteenBit;
  case VnmFragmentClass8Bit:
    return fmt::FragmentClass::EightBit;
  }
  return std::nullopt;
}

VnmStatus invalidClass(VnmFragmentClass fragmentClass) {
  return errorStatus("invalid fragment class " +
                     std::to_string(static_cast<int>(fragmentClass)));
}
} // namespace

namespace {
/// The element type and fragment class a call names, or the status that
/// refuses them (in `refusal`).
std::optional<std::pair<fmt::ElementType, fmt::FragmentClass>>
convertTypeAndClass(VnmElementType type, VnmFragmentClass fragmentClass,
                    VnmStatus &refusal) {
  std::optional<fmt::ElementType> converted = convertType(type);
  if (!converted) {
    refusal = invalidType(type);
    return std::nullopt;
  }
  std::optional<fmt::FragmentClass> cls =
      convertClass(fragmentClass, *converted);
  if (!cls) {
    refusal = invalidClass(fragmentClass);
    return std::nullopt;
  }
  return std::make_pair(*converted, *cls);
}
} // namespace

VnmStatus vnmFormatPackFragmentsAs(VnmEncoding encoding, VnmElementType type,
                                   VnmFragmentClass fragmentClass,
                                   const void *values, const uint8_t *meta,
                                   int64_t rows, int64_t cols, void *fragValues,
                                   uint32_t *fragMeta) {
  VnmStatus refusal;
  auto converted = convertTypeAndClass(type, fragmentClass, refusal);
  if (!converted)
    return refusal;
  return convertStatus(fmt::packFragments(
      convertEncoding(encoding), converted->first, converted->second, values,
      meta, rows, cols, fragValues, fragMeta));
}

VnmStatus vnmFormatUnpackFragmentsAs(VnmEncoding encoding, VnmElementType type,
                                     VnmFragmentClass fragmentClass,
                                     const void *fragValues,
                                     const uint32_t *fragMeta, int64_t rows,
                                     int64_t cols, void *values,
                                     uint8_t *meta) {
  VnmStatus refusal;
  auto converted = convertTypeAndClass(type, fragmentClass, refusal);
  if (!converted)
    return refusal;
  return convertStatus(fmt::unpackFragments(
      convertEncoding(encoding), converted->first, converted->second,
      fragValues, fragMeta, rows, cols, values, meta));
}

VnmStatus vnmFormatGetQuantizeScaleShape(int64_t rows, int64_t cols,
                                         int32_t axis, int64_t groupSize,
                                         int64_t *scaleRows,
                                         int64_t *scaleCols) {
  if (!scaleRows || !scaleCols)
    return errorStatus(
        "vnmFormatGetQuantizeScaleShape: a shape out-parameter is null");
  int64_t outRows, outCols;
  fmt::Status status = fmt::getQuantizeScaleShape(
      rows, cols, fmt::QuantizeGrouping{axis, groupSize}, outRows, outCols);
  if (!status.ok())
    return convertStatus(status);
  *scaleRows = outRows;
  *scaleCols = outCols;
  return okStatus();
}

VnmStatus vnmFormatQuantize(VnmElementType source, const void *dense,
                            int64_t rows, int64_t cols, VnmElementType target,
                            int32_t axis, int64_t groupSize, int8_t *quantized,
                            float *scales) {
  std::optional<fmt::ElementType> convertedSource = convertType(source);
  if (!convertedSource)
    return invalidType(source);
  std::optional<fmt::ElementType> convertedTarget = convertType(target);
  if (!convertedTarget)
    return invalidType(target);
  return convertStatus(
      fmt::quantize(*convertedSource, dense, rows, cols, *convertedTarget,
                    fmt::QuantizeGrouping{axis, groupSize}, quantized, scales));
}

VnmStatus vnmFormatDequantize(const int8_t *quantized, int64_t rows,
                              int64_t cols, VnmElementType target, int32_t axis,
                              int64_t groupSize, const float *scales,
                              float *dense) {
  std::optional<fmt::ElementType> converted = convertType(target);
  if (!converted)
    return invalidType(target);
  return convertStatus(fmt::dequantize(quantized, rows, cols, *converted,
                                       fmt::QuantizeGrouping{axis, groupSize},
                                       scales, dense));
}
