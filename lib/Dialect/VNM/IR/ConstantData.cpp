//===- ConstantData.cpp - constants to and from format-library arrays -----===//

#include "ConstantData.h"

#include "vnm/Dialect/VNM/IR/CheckedShape.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <cstring>

using namespace mlir;
using vnm::format::ElementType;

std::optional<ElementType> vnm::detail::getFormatElementType(Type type) {
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isSignlessInteger(8))
    return ElementType::I8;
  if (type.isSignlessInteger(4))
    return ElementType::I4;
  return std::nullopt;
}

/// Appends `value` in the library's layout (little-endian, as the host).
static void appendBits(std::vector<uint8_t> &out, uint64_t value,
                       int64_t bytes) {
  for (int64_t i = 0; i < bytes; ++i)
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

std::optional<std::vector<uint8_t>>
vnm::detail::getConstantElements(Attribute value, ElementType elementType) {
  int64_t elementBytes = format::getElementByteSize(elementType);
  auto shaped = dyn_cast<ElementsAttr>(value);
  if (!shaped)
    return std::nullopt;
  // Checked: a splat's shape may hold more elements than bytes exist.
  std::optional<int64_t> bytes =
      getCheckedNumBytes(shaped.getShapedType().getShape(), elementBytes);
  if (!bytes || *bytes > kMaxFoldedConstantBytes)
    return std::nullopt;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    // Resource blobs hold the elements packed at their storage width; i4
    // has no agreed byte layout there, so it is not folded.
    const AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || elementType == ElementType::I4 ||
        static_cast<int64_t>(blob->getData().size()) != *bytes)
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    return std::vector<uint8_t>(data.begin(), data.end());
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return std::nullopt;
  std::vector<uint8_t> out;
  out.reserve(*bytes);
  if (isa<FloatType>(dense.getElementType())) {
    for (const APFloat &element : dense.getValues<APFloat>())
      appendBits(out, element.bitcastToAPInt().getZExtValue(), elementBytes);
  } else {
    // Integers are sign-extended into their byte (i4 -> int8).
    for (const APInt &element : dense.getValues<APInt>())
      appendBits(out, static_cast<uint64_t>(element.getSExtValue()),
                 elementBytes);
  }
  return out;
}

DenseElementsAttr vnm::detail::makeConstant(RankedTensorType type,
                                            ElementType elementType,
                                            const std::vector<uint8_t> &data) {
  Type element = type.getElementType();
  if (auto floatType = dyn_cast<FloatType>(element)) {
    int64_t bytes = format::getElementByteSize(elementType);
    SmallVector<APFloat> values;
    values.reserve(data.size() / bytes);
    for (size_t i = 0; i < data.size(); i += bytes) {
      uint64_t bits = 0;
      std::memcpy(&bits, &data[i], bytes);
      values.emplace_back(floatType.getFloatSemantics(),
                          APInt(bytes * 8, bits));
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  values.reserve(data.size());
  for (uint8_t byte : data)
    values.push_back(APInt(width, static_cast<int8_t>(byte), /*isSigned=*/true,
                           /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, values);
}
