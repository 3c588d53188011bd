//===- ElementType.cpp ----------------------------------------------------===//

#include "vnm/Format/ElementType.h"

namespace vnm::format {

bool isValidElementType(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::F32:
  case ElementType::I8:
  case ElementType::I4:
    return true;
  }
  return false;
}

const char *getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::I8:
    return "i8";
  case ElementType::I4:
    return "i4";
  }
  return "invalid";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (ElementType type : {ElementType::F16, ElementType::BF16,
                           ElementType::F32, ElementType::I8, ElementType::I4})
    if (name == getElementTypeName(type))
      return type;
  return std::nullopt;
}

int64_t getElementByteSize(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::F32:
    return 4;
  case ElementType::I8:
  case ElementType::I4:
    return 1;
  }
  return 0;
}

} // namespace vnm::format
