//===- FloatBits.cpp ------------------------------------------------------===//

#include "vnm/Format/FloatBits.h"

#include <cstring>

namespace vnm::format {

namespace {

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// Shifts `value` right by `shift` (1..31) rounding to nearest, ties to even.
uint32_t shiftRightRounded(uint32_t value, unsigned shift) {
  const uint32_t kept = value >> shift;
  const uint32_t rest = value & ((uint32_t(1) << shift) - 1);
  const uint32_t half = uint32_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    return kept + 1;
  return kept;
}

} // namespace

float f16BitsToFloat(uint16_t bits) {
  const uint32_t sign = uint32_t(bits & 0x8000) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1f;
  const uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return floatOf(sign | 0x7f800000 | (mantissa << 13));
  if (exponent == 0) {
    // Subnormal: mantissa * 2^-24 is exact in float.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  return floatOf(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToF16Bits(float value) {
  const uint32_t bits = bitsOf(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) // Keep the payload's top bits, force quiet.
    return sign | 0x7e00 | static_cast<uint16_t>((magnitude >> 13) & 0x3ff);
  const int32_t exponent = static_cast<int32_t>(magnitude >> 23) - 127 + 15;
  if (exponent >= 0x1f)
    return sign | 0x7c00;
  const uint32_t mantissa = magnitude & 0x7fffff;
  if (exponent >= 1) {
    // A carry out of the mantissa correctly bumps the exponent (up to inf).
    const uint32_t combined = (uint32_t(exponent) << 23) | mantissa;
    return sign | static_cast<uint16_t>(shiftRightRounded(combined, 13));
  }
  // Subnormal result in units of 2^-24; the implicit bit is explicit here.
  const uint32_t shift = static_cast<uint32_t>(14 - exponent);
  if (shift > 24)
    return sign;
  const uint32_t full = mantissa | 0x800000;
  return sign | static_cast<uint16_t>(shiftRightRounded(full, shift));
}

float bf16BitsToFloat(uint16_t bits) { return floatOf(uint32_t(bits) << 16); }

uint16_t floatToBF16Bits(float value) {
  const uint32_t bits = bitsOf(value);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>(shiftRightRounded(bits, 16));
}

} // namespace vnm::format
