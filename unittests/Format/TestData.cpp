//===- TestData.cpp -------------------------------------------------------===//

#include "TestData.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace vnm::format::test {

uint64_t testSeed() {
  if (const char *fixed = std::getenv("VNM_TEST_SEED"))
    return std::strtoull(fixed, nullptr, 0);
  std::random_device device;
  return (uint64_t(device()) << 32) ^ device();
}

std::string seedTrace(uint64_t seed) {
  return "seed " + std::to_string(seed) +
         " (rerun with VNM_TEST_SEED=" + std::to_string(seed) + ")";
}

Buffer::Buffer(ElementType type, int64_t count)
    : type(type), bytes(static_cast<size_t>(count * getElementByteSize(type))) {
}

int64_t Buffer::size() const {
  return static_cast<int64_t>(bytes.size()) / getElementByteSize(type);
}

uint32_t Buffer::bits(int64_t i) const {
  const int64_t width = getElementByteSize(type);
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + i * width, static_cast<size_t>(width));
  return value;
}

void Buffer::setBits(int64_t i, uint32_t value) {
  const int64_t width = getElementByteSize(type);
  std::memcpy(bytes.data() + i * width, &value, static_cast<size_t>(width));
}

namespace {

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float bitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint32_t encodeFloat(ElementType type, float value) {
  switch (type) {
  case ElementType::F16:
    return floatToF16Bits(value);
  case ElementType::BF16:
    return floatToBF16Bits(value);
  default:
    return floatBits(value);
  }
}

bool isFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ||
         type == ElementType::F32;
}

/// A value with few significant bits and a narrow exponent range.
float exactValue(ElementType type, std::mt19937_64 &rng) {
  switch (type) {
  case ElementType::F16:
    return std::uniform_real_distribution<float>(-8, 8)(rng);
  case ElementType::BF16:
    return std::ldexp(
        static_cast<float>(std::uniform_int_distribution<int>(-255, 255)(rng)),
        -8);
  default:
    return std::ldexp(static_cast<float>(std::uniform_int_distribution<int>(
                          -(1 << 20), 1 << 20)(rng)),
                      -20);
  }
}

} // namespace

Buffer randomDense(ElementType type, int64_t count, DataKind kind,
                   std::mt19937_64 &rng) {
  Buffer buffer(type, count);
  std::uniform_int_distribution<int> percent(0, 99);
  for (int64_t i = 0; i < count; ++i) {
    const int roll = percent(rng);
    if (!isFloat(type)) {
      const int bound = type == ElementType::I4 ? 8 : 128;
      int value = std::uniform_int_distribution<int>(-bound, bound - 1)(rng);
      if (kind == DataKind::Ties)
        value = std::uniform_int_distribution<int>(-2, 2)(rng);
      else if (roll < 10)
        value = 0;
      buffer.setBits(i, static_cast<uint8_t>(value));
      continue;
    }
    float value;
    if (kind == DataKind::Ties)
      value =
          static_cast<float>(std::uniform_int_distribution<int>(-2, 2)(rng));
    else if (kind == DataKind::Generic)
      value = std::uniform_real_distribution<float>(-1, 1)(rng);
    else
      value = exactValue(type, rng);
    if (roll < 5)
      value = 0.0f;
    else if (roll < 10)
      value = -0.0f;
    else if (kind == DataKind::Specials && roll < 12)
      value = std::nanf("");
    else if (kind == DataKind::Specials && roll < 14)
      value = roll == 12 ? INFINITY : -INFINITY;
    buffer.setBits(i, encodeFloat(type, value));
  }
  return buffer;
}

bool isZeroBits(ElementType type, uint32_t bits) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
    return (bits & 0x7fff) == 0;
  case ElementType::F32:
    return (bits & 0x7fffffff) == 0;
  default:
    return (bits & 0xff) == 0;
  }
}

static float toFloat(ElementType type, uint32_t bits) {
  switch (type) {
  case ElementType::F16:
    return f16BitsToFloat(static_cast<uint16_t>(bits));
  case ElementType::BF16:
    return bf16BitsToFloat(static_cast<uint16_t>(bits));
  case ElementType::F32:
    return bitsFloat(bits);
  default:
    return static_cast<float>(static_cast<int8_t>(bits));
  }
}

bool isNaNBits(ElementType type, uint32_t bits) {
  return isFloat(type) && std::isnan(toFloat(type, bits));
}

double referenceMagnitude(ElementType type, uint32_t bits) {
  const float value = toFloat(type, bits);
  if (std::isnan(value))
    return 0x1p620;
  if (std::isinf(value))
    return 0x1p600;
  return std::fabs(static_cast<double>(value));
}

std::string describe(const Encoding &encoding, ElementType type, int64_t rows,
                     int64_t cols) {
  return std::string(getElementTypeName(type)) +
         " v=" + std::to_string(encoding.v) +
         " n=" + std::to_string(encoding.n) +
         " m=" + std::to_string(encoding.m) + " R=" + std::to_string(rows) +
         " K=" + std::to_string(cols);
}

} // namespace vnm::format::test
