//===- ElementTraits.h - Per-type element access ----------------*- C++ -*-===//
//
// Buffers arrive as void pointers of unknown alignment, so elements are moved
// with memcpy. Magnitudes are doubles: F16, I8 and I4 magnitudes and their
// block sums are exact in a double, which makes the pruner's choice exact for
// those types.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_ELEMENTTRAITS_H
#define VNM_LIB_FORMAT_ELEMENTTRAITS_H

#include "vnm/Format/ElementType.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace vnm::format::detail {

/// Non-finite magnitudes are finite stand-ins so that scores stay ordered
/// sums: NaN outranks infinity, which outranks every finite value (at most
/// 2^137 summed over a block). Up to 512 of each sum exactly, and any finite
/// part is absorbed, so a score with a non-finite term only counts NaNs and
/// infinities.
inline constexpr double kInfMagnitude = 0x1p600;
inline constexpr double kNaNMagnitude = 0x1p620;

template <typename T> T loadElement(const void *base, int64_t index) {
  T value;
  std::memcpy(&value,
              static_cast<const unsigned char *>(base) + index * sizeof(T),
              sizeof(T));
  return value;
}

template <typename T> void storeElement(void *base, int64_t index, T value) {
  std::memcpy(static_cast<unsigned char *>(base) + index * sizeof(T), &value,
              sizeof(T));
}

inline std::string hexBits(uint32_t bits, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "0x%0*x", digits,
                static_cast<unsigned>(bits));
  return buffer;
}

/// 2^(e - 25) for biased exponent e >= 1, and 2^-24 for subnormals, so that
/// |x| = significand * scale[e].
inline constexpr std::array<double, 32> kF16Scale = [] {
  std::array<double, 32> scale{};
  double power = 0x1p-24;
  scale[0] = power;
  for (int e = 1; e < 32; ++e) {
    scale[e] = power;
    power *= 2;
  }
  return scale;
}();

struct F16Traits {
  using Bits = uint16_t;
  static constexpr ElementType kType = ElementType::F16;
  static double magnitude(Bits bits) {
    const unsigned exponent = (bits >> 10) & 0x1f;
    const unsigned mantissa = bits & 0x3ff;
    if (exponent == 0x1f)
      return mantissa ? kNaNMagnitude : kInfMagnitude;
    const unsigned significand = exponent ? (mantissa | 0x400) : mantissa;
    return static_cast<double>(significand) * kF16Scale[exponent];
  }
  static bool isZero(Bits bits) { return (bits & 0x7fff) == 0; }
  static bool isFinite(Bits bits) { return (bits & 0x7c00) != 0x7c00; }
  static bool inRange(Bits) { return true; }
  static std::string describe(Bits bits) { return hexBits(bits, 4); }
};

struct BF16Traits {
  using Bits = uint16_t;
  static constexpr ElementType kType = ElementType::BF16;
  static double magnitude(Bits bits) {
    if ((bits & 0x7f80) == 0x7f80)
      return (bits & 0x7f) ? kNaNMagnitude : kInfMagnitude;
    const uint32_t wide = uint32_t(bits & 0x7fff) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof(value));
    return value;
  }
  static bool isZero(Bits bits) { return (bits & 0x7fff) == 0; }
  static bool isFinite(Bits bits) { return (bits & 0x7f80) != 0x7f80; }
  static bool inRange(Bits) { return true; }
  static std::string describe(Bits bits) { return hexBits(bits, 4); }
};

struct F32Traits {
  using Bits = uint32_t;
  static constexpr ElementType kType = ElementType::F32;
  static double magnitude(Bits bits) {
    if ((bits & 0x7f800000) == 0x7f800000)
      return (bits & 0x7fffff) ? kNaNMagnitude : kInfMagnitude;
    const uint32_t absolute = bits & 0x7fffffff;
    float value;
    std::memcpy(&value, &absolute, sizeof(value));
    return value;
  }
  static bool isZero(Bits bits) { return (bits & 0x7fffffff) == 0; }
  static bool isFinite(Bits bits) { return (bits & 0x7f800000) != 0x7f800000; }
  static bool inRange(Bits) { return true; }
  static std::string describe(Bits bits) { return hexBits(bits, 8); }
};

struct I8Traits {
  using Bits = int8_t;
  static constexpr ElementType kType = ElementType::I8;
  static double magnitude(Bits value) { return std::abs(int(value)); }
  static bool isZero(Bits value) { return value == 0; }
  static bool isFinite(Bits) { return true; }
  static bool inRange(Bits) { return true; }
  static std::string describe(Bits value) { return std::to_string(value); }
};

struct I4Traits {
  using Bits = int8_t;
  static constexpr ElementType kType = ElementType::I4;
  static double magnitude(Bits value) { return std::abs(int(value)); }
  static bool isZero(Bits value) { return value == 0; }
  static bool isFinite(Bits) { return true; }
  static bool inRange(Bits value) { return value >= -8 && value <= 7; }
  static std::string describe(Bits value) { return std::to_string(value); }
};

/// Calls `fn(Traits())` for the traits of `type`, which must be valid.
template <typename Fn> auto dispatchElementType(ElementType type, Fn &&fn) {
  switch (type) {
  case ElementType::F16:
    return fn(F16Traits());
  case ElementType::BF16:
    return fn(BF16Traits());
  case ElementType::F32:
    return fn(F32Traits());
  case ElementType::I8:
    return fn(I8Traits());
  case ElementType::I4:
    break;
  }
  return fn(I4Traits());
}

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_ELEMENTTRAITS_H
