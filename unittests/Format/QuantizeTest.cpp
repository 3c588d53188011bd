//===- QuantizeTest.cpp - Symmetric quantization --------------------------===//

#include "TestData.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

constexpr QuantizeGrouping kPerRow{0, 0};

std::vector<float> scaleBuffer(int64_t rows, int64_t cols,
                               QuantizeGrouping grouping) {
  int64_t scaleRows = -1, scaleCols = -1;
  Status s = getQuantizeScaleShape(rows, cols, grouping, scaleRows, scaleCols);
  EXPECT_TRUE(s.ok()) << s.message();
  return std::vector<float>(static_cast<size_t>(scaleRows * scaleCols), -7.0f);
}

void expectError(const Status &s, const std::string &fragment) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
}

TEST(QuantizeTest, ScaleShapes) {
  auto shape = [](int64_t rows, int64_t cols, int axis, int64_t g) {
    int64_t scaleRows = -1, scaleCols = -1;
    Status s =
        getQuantizeScaleShape(rows, cols, {axis, g}, scaleRows, scaleCols);
    EXPECT_TRUE(s.ok()) << s.message();
    return std::make_pair(scaleRows, scaleCols);
  };
  using P = std::pair<int64_t, int64_t>;
  EXPECT_EQ(shape(5, 7, -1, 0), P(1, 1));
  EXPECT_EQ(shape(5, 7, 0, 0), P(5, 1));
  EXPECT_EQ(shape(5, 7, 0, 3), P(5, 3));
  EXPECT_EQ(shape(5, 7, 0, 7), P(5, 1));
  EXPECT_EQ(shape(5, 7, 0, 100), P(5, 1));
  EXPECT_EQ(shape(5, 7, 1, 0), P(1, 7));
  EXPECT_EQ(shape(5, 7, 1, 2), P(3, 7));
  EXPECT_EQ(shape(0, 7, 1, 0), P(1, 7));
  EXPECT_EQ(shape(0, 7, 1, 4), P(0, 7));
  EXPECT_EQ(shape(5, 0, 0, 0), P(5, 1));
  EXPECT_EQ(shape(5, 0, 0, 4), P(5, 0));
  EXPECT_EQ(shape(0, 0, -1, 0), P(1, 1));
}

// Worked by hand: row 0 has amax 254, so scale 2 and x / scale = 1.5, 2.5,
// -0.5, -1.5, 127, which round half to even to 2, 2, 0, -2, 127; row 1 is
// all zeros (scale 1).
TEST(QuantizeTest, HandCheckedPerRowI8) {
  const float dense[10] = {3, 5, -1, -3, 254, 0, -0.0f, 0, 0, 0};
  int8_t q[10];
  float scales[2];
  Status s = quantize(ElementType::F32, dense, 2, 5, ElementType::I8, kPerRow,
                      q, scales);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(std::vector<int8_t>(q, q + 10),
            (std::vector<int8_t>{2, 2, 0, -2, 127, 0, 0, 0, 0, 0}));
  EXPECT_EQ(scales[0], 2.0f);
  EXPECT_EQ(scales[1], 1.0f);

  float back[10];
  ASSERT_TRUE(dequantize(q, 2, 5, ElementType::I8, kPerRow, scales, back).ok());
  EXPECT_EQ(std::vector<float>(back, back + 10),
            (std::vector<float>{4, 4, 0, -4, 254, 0, 0, 0, 0, 0}));
}

// F16 per column in chunks of two rows (3 x 2: the second chunk is one row).
// Column 0: rows 0-1 have amax 7 (scale 1; -3.5 rounds to -4), row 2 has
// amax 0.5 (scale 0.5f / 7). Column 1: amax 14 (scale 2; 0.5 rounds to 0),
// then -14 alone (scale 2).
TEST(QuantizeTest, HandCheckedPerColumnGroupsI4) {
  const float values[6] = {7, 14, -3.5f, 1, 0.5f, -14};
  uint16_t dense[6];
  for (int i = 0; i < 6; ++i)
    dense[i] = floatToF16Bits(values[i]);
  const QuantizeGrouping grouping{1, 2};
  int8_t q[6];
  float scales[4];
  Status s = quantize(ElementType::F16, dense, 3, 2, ElementType::I4, grouping,
                      q, scales);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(std::vector<int8_t>(q, q + 6),
            (std::vector<int8_t>{7, 7, -4, 0, 7, -7}));
  EXPECT_EQ(scales[0], 1.0f);
  EXPECT_EQ(scales[1], 2.0f);
  EXPECT_EQ(scales[2], 0.5f / 7.0f);
  EXPECT_EQ(scales[3], 2.0f);
}

// With a subnormal scale, amax / scale exceeds qmax: 190 * 2^-149 / 127
// rounds to 2^-149, so the quotients are +-190, clamped to +-127 (and 10 *
// 2^-149 / 7 rounds to 2^-149 for I4: +-10 clamped to +-7).
TEST(QuantizeTest, ClampsToQmax) {
  const float tiny = std::ldexp(1.0f, -149);
  const float dense[3] = {190 * tiny, -190 * tiny, 95 * tiny};
  int8_t q[3];
  float scale;
  const QuantizeGrouping perTensor{-1, 0};
  ASSERT_TRUE(quantize(ElementType::F32, dense, 1, 3, ElementType::I8,
                       perTensor, q, &scale)
                  .ok());
  EXPECT_EQ(scale, tiny);
  EXPECT_EQ(std::vector<int8_t>(q, q + 3),
            (std::vector<int8_t>{127, -127, 95}));

  const float dense4[2] = {-10 * tiny, 5 * tiny};
  ASSERT_TRUE(quantize(ElementType::F32, dense4, 1, 2, ElementType::I4,
                       perTensor, q, &scale)
                  .ok());
  EXPECT_EQ(scale, tiny);
  EXPECT_EQ(q[0], -7);
  EXPECT_EQ(q[1], 5);
}

// 63 * 2^-149 / 127 and 3 * 2^-149 / 7 round to 0: the scale is 0, nonzero
// entries become +-qmax (x / 0 is infinite) and zeros 0 (0 / 0 is NaN).
TEST(QuantizeTest, ScaleThatUnderflowsToZero) {
  const float tiny = std::ldexp(1.0f, -149);
  const float dense[6] = {1, 2, 63 * tiny, -0.0f, -tiny, 0};
  int8_t q[6];
  float scales[2];
  ASSERT_TRUE(quantize(ElementType::F32, dense, 2, 3, ElementType::I8, kPerRow,
                       q, scales)
                  .ok());
  EXPECT_EQ(scales[0], 2.0f / 127.0f);
  EXPECT_EQ(scales[1], 0.0f);
  EXPECT_EQ(std::vector<int8_t>(q + 3, q + 6),
            (std::vector<int8_t>{0, -127, 0}));
  const float dense4[3] = {3 * tiny, 0, -2 * tiny};
  ASSERT_TRUE(quantize(ElementType::F32, dense4, 1, 3, ElementType::I4, {-1, 0},
                       q, scales)
                  .ok());
  EXPECT_EQ(scales[0], 0.0f);
  EXPECT_EQ(std::vector<int8_t>(q, q + 3), (std::vector<int8_t>{7, 0, -7}));
  // 64 * 2^-149 / 127 rounds up to 2^-149.
  const float enough[2] = {64 * tiny, 0};
  ASSERT_TRUE(quantize(ElementType::F32, enough, 1, 2, ElementType::I8, kPerRow,
                       q, scales)
                  .ok());
  EXPECT_EQ(scales[0], tiny);
  EXPECT_EQ(q[0], 64);
}

TEST(QuantizeTest, EmptyGroupsHaveScaleOne) {
  std::vector<float> scales = scaleBuffer(0, 3, {1, 0});
  ASSERT_EQ(scales.size(), 3u);
  ASSERT_TRUE(quantize(ElementType::F16, nullptr, 0, 3, ElementType::I8, {1, 0},
                       nullptr, scales.data())
                  .ok());
  EXPECT_EQ(scales, std::vector<float>(3, 1.0f));
  float scale = 0;
  ASSERT_TRUE(quantize(ElementType::BF16, nullptr, 0, 0, ElementType::I4,
                       {-1, 0}, nullptr, &scale)
                  .ok());
  EXPECT_EQ(scale, 1.0f);
  // No scales at all: nothing is needed.
  ASSERT_TRUE(quantize(ElementType::F32, nullptr, 0, 3, ElementType::I8, {1, 2},
                       nullptr, nullptr)
                  .ok());
  ASSERT_TRUE(
      dequantize(nullptr, 0, 3, ElementType::I8, {1, 0}, scales.data(), nullptr)
          .ok());
}

/// An independent formulation: the quotients in double, rounded once to
/// float (exact for division, since 53 >= 2 * 24 + 2), nearbyint in the
/// default rounding mode, and per-entry group indices by division.
void referenceQuantize(const std::vector<float> &x, int64_t rows, int64_t cols,
                       QuantizeGrouping grouping, int qmax, int64_t scaleCols,
                       std::vector<int8_t> &q, std::vector<float> &scales) {
  auto group = [&](int64_t r, int64_t c) -> int64_t {
    const int64_t g = grouping.groupSize;
    if (grouping.axis == 0)
      return r * scaleCols + (g ? c / g : 0);
    if (grouping.axis == 1)
      return (g ? r / g : 0) * scaleCols + c;
    return 0;
  };
  std::vector<double> amax(scales.size(), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double &a = amax[group(r, c)];
      a = std::max(a, std::fabs(double(x[r * cols + c])));
    }
  for (size_t i = 0; i < scales.size(); ++i)
    scales[i] = amax[i] > 0 ? float(amax[i] / qmax) : 1.0f;
  q.resize(x.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const float y =
          float(double(x[r * cols + c]) / double(scales[group(r, c)]));
      const double rounded = std::nearbyint(double(y));
      q[r * cols + c] = static_cast<int8_t>(
          std::min<double>(std::max<double>(rounded, -qmax), qmax));
    }
}

TEST(QuantizeTest, MatchesReferenceOnRandomData) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iteration = 0; iteration < 300; ++iteration) {
    const ElementType source = std::array<ElementType, 3>{
        ElementType::F16, ElementType::BF16, ElementType::F32}[pick(0, 2)];
    const ElementType target = pick(0, 1) ? ElementType::I8 : ElementType::I4;
    const int64_t rows = pick(0, 12), cols = pick(0, 12);
    QuantizeGrouping grouping{static_cast<int>(pick(-1, 1)), 0};
    if (grouping.axis != -1 && pick(0, 1))
      grouping.groupSize = pick(1, 5);
    SCOPED_TRACE(std::string(getElementTypeName(source)) + " -> " +
                 getElementTypeName(target) + ", " + std::to_string(rows) +
                 " x " + std::to_string(cols) + ", axis " +
                 std::to_string(grouping.axis) + ", group size " +
                 std::to_string(grouping.groupSize));

    Buffer dense(source, rows * cols);
    std::vector<float> wide(static_cast<size_t>(rows * cols));
    // Within f16's range for f16 (65504 is its largest value).
    const float range = std::ldexp(
        1.0f, static_cast<int>(source == ElementType::F16 ? pick(-14, 15)
                                                          : pick(-40, 40)));
    for (int64_t i = 0; i < rows * cols; ++i) {
      float value =
          pick(0, 9) ? std::uniform_real_distribution<float>(-range, range)(rng)
                     : 0.0f;
      uint32_t bits;
      if (source == ElementType::F16) {
        bits = floatToF16Bits(value);
        wide[i] = f16BitsToFloat(static_cast<uint16_t>(bits));
      } else if (source == ElementType::BF16) {
        bits = floatToBF16Bits(value);
        wide[i] = bf16BitsToFloat(static_cast<uint16_t>(bits));
      } else {
        std::memcpy(&bits, &value, sizeof(bits));
        wide[i] = value;
      }
      dense.setBits(i, bits);
    }

    int64_t scaleRows, scaleCols;
    ASSERT_TRUE(
        getQuantizeScaleShape(rows, cols, grouping, scaleRows, scaleCols).ok());
    std::vector<int8_t> q(static_cast<size_t>(rows * cols), 99), expectedQ;
    std::vector<float> scales(static_cast<size_t>(scaleRows * scaleCols)),
        expectedScales(scales.size());
    Status s = quantize(source, dense.data(), rows, cols, target, grouping,
                        q.data(), scales.data());
    ASSERT_TRUE(s.ok()) << s.message();
    referenceQuantize(wide, rows, cols, grouping,
                      target == ElementType::I8 ? 127 : 7, scaleCols, expectedQ,
                      expectedScales);
    ASSERT_EQ(q, expectedQ);
    // Compared bit for bit (memcmp of an empty vector's null data is UB).
    if (!scales.empty()) {
      ASSERT_EQ(0, std::memcmp(scales.data(), expectedScales.data(),
                               scales.size() * sizeof(float)));
    }

    std::vector<float> back(q.size());
    ASSERT_TRUE(dequantize(q.data(), rows, cols, target, grouping,
                           scales.data(), back.data())
                    .ok());
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t g = grouping.groupSize;
        const int64_t group =
            grouping.axis == 0   ? r * scaleCols + (g ? c / g : 0)
            : grouping.axis == 1 ? (g ? r / g : 0) * scaleCols + c
                                 : 0;
        ASSERT_EQ(back[r * cols + c], float(q[r * cols + c]) * scales[group]);
      }
  }
}

TEST(QuantizeTest, NonFiniteEntriesAreErrors) {
  float dense[6] = {1, 2, 3, 4, 5, 6};
  int8_t q[6] = {9, 9, 9, 9, 9, 9};
  float scales[2] = {-7, -7};
  dense[4] = NAN;
  expectError(quantize(ElementType::F32, dense, 2, 3, ElementType::I8, kPerRow,
                       q, scales),
              "dense[1][1] = 0x7fc00000 is NaN or infinite");
  dense[4] = 5;
  dense[2] = -INFINITY;
  expectError(quantize(ElementType::F32, dense, 2, 3, ElementType::I4, kPerRow,
                       q, scales),
              "dense[0][2] = 0xff800000 is NaN or infinite");
  const uint16_t halves[2] = {0x3c00, 0x7c00};
  expectError(quantize(ElementType::F16, halves, 1, 2, ElementType::I8, kPerRow,
                       q, scales),
              "dense[0][1] = 0x7c00 is NaN or infinite");
  const uint16_t brains[2] = {0x7fc1, 0x3f80};
  expectError(quantize(ElementType::BF16, brains, 1, 2, ElementType::I8,
                       kPerRow, q, scales),
              "dense[0][0] = 0x7fc1 is NaN or infinite");
  EXPECT_EQ(std::vector<int8_t>(q, q + 6), std::vector<int8_t>(6, 9));
  EXPECT_EQ(scales[0], -7.0f);
  EXPECT_EQ(scales[1], -7.0f);
}

TEST(QuantizeTest, InvalidArguments) {
  std::vector<float> dense(16, 1.0f), scales(16, -7.0f), out(16, -7.0f);
  std::vector<int8_t> q(16, 9);
  auto run = [&](ElementType source, int64_t rows, int64_t cols,
                 ElementType target, QuantizeGrouping grouping) {
    return quantize(source, dense.data(), rows, cols, target, grouping,
                    q.data(), scales.data());
  };
  auto runBack = [&](int64_t rows, int64_t cols, ElementType target,
                     QuantizeGrouping grouping) {
    return dequantize(q.data(), rows, cols, target, grouping, scales.data(),
                      out.data());
  };
  const ElementType f32 = ElementType::F32, i8 = ElementType::I8;

  expectError(run(ElementType::I8, 4, 4, i8, kPerRow),
              "source must be f16, bf16 or f32, not i8");
  expectError(run(ElementType::I4, 4, 4, i8, kPerRow), "not i4");
  expectError(run(static_cast<ElementType>(42), 4, 4, i8, kPerRow),
              "invalid source element type 42");
  expectError(run(f32, 4, 4, ElementType::F16, kPerRow),
              "target must be i8 or i4, not f16");
  expectError(run(f32, 4, 4, static_cast<ElementType>(-1), kPerRow),
              "invalid target element type -1");
  expectError(runBack(4, 4, ElementType::BF16, kPerRow),
              "target must be i8 or i4, not bf16");

  for (int axis : {-2, 2, 7}) {
    expectError(run(f32, 4, 4, i8, {axis, 0}), "invalid quantization axis");
    expectError(runBack(4, 4, i8, {axis, 0}), "invalid quantization axis");
  }
  expectError(run(f32, 4, 4, i8, {0, -1}), "invalid quantization group size");
  expectError(runBack(4, 4, i8, {1, -3}), "invalid quantization group size");
  expectError(run(f32, 4, 4, i8, {-1, 2}), "with axis -1");
  expectError(runBack(4, 4, i8, {-1, 2}), "with axis -1");

  expectError(run(f32, -1, 4, i8, kPerRow), "invalid row count");
  expectError(run(f32, 4, -1, i8, kPerRow), "invalid column count");
  expectError(run(f32, kMaxDimension + 1, 1, i8, kPerRow), "invalid row count");
  expectError(runBack(4, INT64_MIN, i8, kPerRow), "invalid column count");
  // kMaxDimension^2 f32 values need 2^64 bytes.
  expectError(run(f32, kMaxDimension, kMaxDimension, i8, kPerRow), "too large");
  expectError(runBack(kMaxDimension, kMaxDimension, i8, kPerRow), "too large");

  int64_t scaleRows, scaleCols;
  expectError(getQuantizeScaleShape(4, 4, {3, 0}, scaleRows, scaleCols),
              "invalid quantization axis");
  expectError(getQuantizeScaleShape(-4, 4, kPerRow, scaleRows, scaleCols),
              "invalid row count");

  expectError(
      quantize(f32, nullptr, 4, 4, i8, kPerRow, q.data(), scales.data()),
      "dense is null but must hold 16 elements");
  expectError(
      quantize(f32, dense.data(), 4, 4, i8, kPerRow, nullptr, scales.data()),
      "quantized is null");
  expectError(quantize(f32, dense.data(), 4, 4, i8, {1, 3}, q.data(), nullptr),
              "scales is null but must hold 8 elements");
  expectError(dequantize(nullptr, 4, 4, i8, kPerRow, scales.data(), out.data()),
              "quantized is null");
  expectError(dequantize(q.data(), 4, 4, i8, kPerRow, nullptr, out.data()),
              "scales is null");
  expectError(dequantize(q.data(), 4, 4, i8, kPerRow, scales.data(), nullptr),
              "dense is null");

  EXPECT_EQ(q, std::vector<int8_t>(16, 9)) << "output written";
  EXPECT_EQ(scales, std::vector<float>(16, -7.0f)) << "output written";
  EXPECT_EQ(out, std::vector<float>(16, -7.0f)) << "output written";
}

TEST(QuantizeTest, DequantizeAcceptsWhatTheStorageHolds) {
  const int8_t q8[4] = {-128, 127, -127, 0};
  const float scale = 0.5f;
  float out[4];
  ASSERT_TRUE(dequantize(q8, 1, 4, ElementType::I8, {-1, 0}, &scale, out).ok());
  EXPECT_EQ(out[0], -64.0f);
  EXPECT_EQ(out[1], 63.5f);

  const int8_t q4[4] = {-8, 7, 0, -7};
  ASSERT_TRUE(dequantize(q4, 1, 4, ElementType::I4, {-1, 0}, &scale, out).ok());
  EXPECT_EQ(out[0], -4.0f);

  const int8_t bad[4] = {0, 1, 8, 0};
  float untouched[4] = {3, 3, 3, 3};
  expectError(
      dequantize(bad, 2, 2, ElementType::I4, {-1, 0}, &scale, untouched),
      "quantized[1][0] = 8 is outside the I4 range [-8, 7]");
  EXPECT_EQ(untouched[0], 3.0f) << "output written";
}

} // namespace
