//===- ElementType.h - Element types of V:N:M matrices ----------*- C++ -*-===//
//
// The API is type-erased (void pointers plus an ElementType) so that a C API
// and Python can call it without instantiating templates.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_ELEMENTTYPE_H
#define VNM_FORMAT_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace vnm::format {

/// F16 and BF16 are passed as uint16_t bit patterns, F32 as float, I8 as
/// int8_t. I4 is passed in a logical form of one int8_t per value, which must
/// lie in [-8, 7]; only the fragment storage packs two I4 values per byte.
enum class ElementType { F16, BF16, F32, I8, I4 };

/// False for values cast from out-of-range integers (possible through C).
bool isValidElementType(ElementType type);

/// "f16", "bf16", "f32", "i8", "i4"; "invalid" for an invalid type.
const char *getElementTypeName(ElementType type);

/// Inverse of getElementTypeName (exact, lower-case spelling).
std::optional<ElementType> parseElementType(std::string_view name);

/// Bytes per element in dense and logical storage: 2, 2, 4, 1, 1; 0 for an
/// invalid type.
int64_t getElementByteSize(ElementType type);

} // namespace vnm::format

#endif // VNM_FORMAT_ELEMENTTYPE_H
