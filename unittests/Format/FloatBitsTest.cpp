//===- FloatBitsTest.cpp - f16/bf16 conversions ---------------------------===//

#include "TestData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

float bitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

TEST(FloatBitsTest, F16KnownValues) {
  EXPECT_EQ(f16BitsToFloat(0x3c00), 1.0f);
  EXPECT_EQ(f16BitsToFloat(0xc000), -2.0f);
  EXPECT_EQ(f16BitsToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(f16BitsToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(f16BitsToFloat(0x0400), std::ldexp(1.0f, -14));
  EXPECT_TRUE(std::signbit(f16BitsToFloat(0x8000)));
  EXPECT_TRUE(std::isinf(f16BitsToFloat(0xfc00)));
  EXPECT_TRUE(std::isnan(f16BitsToFloat(0x7e00)));
}

TEST(FloatBitsTest, F16RoundTripsEveryPattern) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float value = f16BitsToFloat(static_cast<uint16_t>(h));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(f16BitsToFloat(floatToF16Bits(value))));
    } else {
      EXPECT_EQ(floatToF16Bits(value), h);
    }
  }
}

TEST(FloatBitsTest, F16RoundsToNearestEven) {
  EXPECT_EQ(floatToF16Bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToF16Bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToF16Bits(65519.0f), 0x7bff);
  EXPECT_EQ(floatToF16Bits(65520.0f), 0x7c00);
  EXPECT_EQ(floatToF16Bits(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToF16Bits(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToF16Bits(std::ldexp(3.0f, -25)), 0x0002);
  EXPECT_EQ(floatToF16Bits(-std::ldexp(1.0f, -30)), 0x8000);
  EXPECT_EQ(floatToF16Bits(1e-45f), 0x0000);
  // Between the largest subnormal and the smallest normal.
  EXPECT_EQ(floatToF16Bits(std::ldexp(2047.0f, -25)), 0x0400);
}

/// The result must be at least as close as both neighbouring f16 values.
TEST(FloatBitsTest, F16IsNearestForRandomFloats) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  // Up to just below 65520, where rounding overflows to infinity.
  std::uniform_int_distribution<uint32_t> bits(0, 0x477fefff);
  for (int i = 0; i < 100000; ++i) {
    const float value = bitsFloat(bits(rng));
    const uint16_t h = floatToF16Bits(value);
    const double error = std::fabs(double(f16BitsToFloat(h)) - value);
    for (int step : {-1, 1}) {
      const int neighbour = int(h) + step;
      if (neighbour < 0 || neighbour >= 0x7c00)
        continue;
      const double other = std::fabs(
          double(f16BitsToFloat(static_cast<uint16_t>(neighbour))) - value);
      ASSERT_LE(error, other) << value;
      if (error == other) {
        ASSERT_EQ(h % 2, 0) << value;
      }
    }
  }
}

TEST(FloatBitsTest, BF16) {
  EXPECT_EQ(bf16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bf16BitsToFloat(0xc040), -3.0f);
  EXPECT_EQ(floatToBF16Bits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBF16Bits(bitsFloat(0x3f808000)), 0x3f80); // tie to even
  EXPECT_EQ(floatToBF16Bits(bitsFloat(0x3f818000)), 0x3f82); // tie to even
  EXPECT_EQ(floatToBF16Bits(bitsFloat(0x3f808001)), 0x3f81);
  EXPECT_EQ(floatToBF16Bits(bitsFloat(0x7f7fffff)), 0x7f80);
  EXPECT_TRUE(std::isnan(bf16BitsToFloat(floatToBF16Bits(std::nanf("")))));
  EXPECT_TRUE(
      std::isnan(bf16BitsToFloat(floatToBF16Bits(bitsFloat(0x7f800001)))));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float value = bf16BitsToFloat(static_cast<uint16_t>(h));
    if (!std::isnan(value)) {
      EXPECT_EQ(floatToBF16Bits(value), h);
    }
  }
}

} // namespace
