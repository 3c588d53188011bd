//===- FragmentLayoutTest.cpp - Fragment formulas and padding checks ------===//
//
// The expected fragments are built in the opposite direction from the
// library: from each logical element to its lane and register, by inverting
// the formulas of docs/format.md.
//
//===----------------------------------------------------------------------===//

#include "TestData.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

bool isEightBit(ElementType type) {
  return type == ElementType::I8 || type == ElementType::I4;
}

/// Random but valid logical values and meta (colidx plays no part).
struct Logical {
  Buffer values;
  std::vector<uint8_t> meta;
};

Logical randomLogical(ElementType type, const StorageShape &shape,
                      std::mt19937_64 &rng) {
  static const uint8_t pairs[6][2] = {{0, 1}, {0, 2}, {0, 3},
                                      {1, 2}, {1, 3}, {2, 3}};
  Logical logical{randomDense(type, shape.valueCount, DataKind::Exact, rng),
                  std::vector<uint8_t>(shape.metaCount)};
  for (int64_t i = 0; i < shape.metaCount; i += 2) {
    const auto &pair = pairs[std::uniform_int_distribution<int>(0, 5)(rng)];
    logical.meta[i] = pair[0];
    logical.meta[i + 1] = pair[1];
  }
  return logical;
}

/// Index of the fragment value holding Ac[row][col].
int64_t expectedValueIndex(ElementType type, const StorageShape &shape,
                           int64_t row, int64_t col) {
  const int64_t rt = row / 16, x = row % 16, g = x % 8, rowHalf = x / 8;
  if (isEightBit(type)) {
    const int64_t kt = col / 32, y = col % 32;
    const int64_t colHalf = y / 16, t = (y % 16) / 4, b = y % 4;
    const int64_t j = 4 * (2 * colHalf + rowHalf) + b;
    return ((rt * shape.kTiles + kt) * 32 + 4 * g + t) * 16 + j;
  }
  const int64_t kt = col / 16, y = col % 16;
  const int64_t colHalf = y / 8, t = (y % 8) / 2, h = y % 2;
  const int64_t j = 2 * (2 * colHalf + rowHalf) + h;
  return ((rt * shape.kTiles + kt) * 32 + 4 * g + t) * 8 + j;
}

/// Word and bit of the nibble of (row, group).
std::pair<int64_t, int> expectedNibble(ElementType type,
                                       const StorageShape &shape, int64_t row,
                                       int64_t group) {
  const int64_t rt = row / 16, x = row % 16, g = x % 8, rowHalf = x / 8;
  if (isEightBit(type)) {
    const int64_t kt = group / 16, chunk = (group % 16) / 8, q = group % 8;
    const int64_t t = 2 * chunk + rowHalf;
    return {(rt * shape.kTiles + kt) * 32 + 4 * g + t, int(4 * q)};
  }
  const int64_t kt = group / 8, p = kt / 2, s = kt % 2;
  const int64_t h = (group % 8) / 4, q = group % 4;
  return {(rt * (shape.kTiles / 2) + p) * 32 + 4 * g + 2 * s + h,
          int(16 * rowHalf + 4 * q)};
}

struct ExpectedFragments {
  std::vector<uint8_t> values;
  std::vector<uint32_t> meta;
};

ExpectedFragments expectedFragments(ElementType type, const StorageShape &shape,
                                    const Logical &logical) {
  ExpectedFragments frag{std::vector<uint8_t>(shape.fragValueBytes),
                         std::vector<uint32_t>(shape.fragMetaWords)};
  Buffer wide(type == ElementType::I4 ? ElementType::I8 : type,
              shape.fragValueCount);
  for (int64_t row = 0; row < shape.rows; ++row)
    for (int64_t col = 0; col < shape.compressedCols; ++col)
      wide.setBits(expectedValueIndex(type, shape, row, col),
                   logical.values.bits(row * shape.compressedCols + col));
  if (type == ElementType::I4) {
    for (int64_t i = 0; i < shape.fragValueCount; ++i)
      frag.values[i / 2] |=
          static_cast<uint8_t>((wide.bits(i) & 0xf) << (i % 2 ? 4 : 0));
  } else {
    frag.values = wide.bytes;
  }
  for (int64_t row = 0; row < shape.paddedRows; ++row)
    for (int64_t group = 0; group < shape.paddedGroups; ++group) {
      uint32_t nibble = 0x4;
      if (row < shape.rows && group < shape.groups) {
        const int64_t slot = row * shape.compressedCols + 2 * group;
        nibble = logical.meta[slot] | logical.meta[slot + 1] << 2;
      }
      const auto [word, bit] = expectedNibble(type, shape, row, group);
      EXPECT_EQ((frag.meta[word] >> bit) & 0xf, 0u) << "nibble assigned twice";
      frag.meta[word] |= nibble << bit;
    }
  return frag;
}

struct Packed {
  std::vector<uint8_t> values;
  std::vector<uint32_t> meta;
};

Packed pack(const Encoding &encoding, ElementType type,
            const StorageShape &shape, const Logical &logical) {
  Packed packed{std::vector<uint8_t>(shape.fragValueBytes),
                std::vector<uint32_t>(shape.fragMetaWords)};
  Status s = packFragments(encoding, type, logical.values.data(),
                           logical.meta.data(), shape.rows, shape.cols,
                           packed.values.data(), packed.meta.data());
  EXPECT_TRUE(s.ok()) << s.message();
  return packed;
}

Status unpack(const Encoding &encoding, ElementType type,
              const StorageShape &shape, const Packed &packed) {
  Buffer values(type, shape.valueCount);
  std::vector<uint8_t> meta(shape.metaCount);
  return unpackFragments(encoding, type, packed.values.data(),
                         packed.meta.data(), shape.rows, shape.cols,
                         values.data(), meta.data());
}

TEST(FragmentLayoutTest, MatchesTheFormulas) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  // (R, K, m): 2G = 64 exactly; ragged rows and groups; more than one tile
  // pair; a single group.
  const int64_t cases[][3] = {
      {32, 256, 8}, {20, 250, 8}, {48, 1000, 7}, {17, 3, 4}, {64, 4096, 32}};
  for (ElementType type : kAllTypes) {
    for (const auto &c : cases) {
      const Encoding encoding{16, 2, c[2]};
      SCOPED_TRACE(describe(encoding, type, c[0], c[1]));
      StorageShape shape;
      ASSERT_TRUE(getStorageShape(encoding, type, c[0], c[1], shape).ok());
      const Logical logical = randomLogical(type, shape, rng);
      const ExpectedFragments expected =
          expectedFragments(type, shape, logical);
      const Packed packed = pack(encoding, type, shape, logical);
      EXPECT_TRUE(packed.values == expected.values);
      EXPECT_TRUE(packed.meta == expected.meta);
    }
  }
}

TEST(FragmentLayoutTest, SizesOfBothClasses) {
  StorageShape shape;
  ASSERT_TRUE(
      getStorageShape({16, 2, 8}, ElementType::F16, 32, 256, shape).ok());
  EXPECT_EQ(shape.compressedCols, 64);
  EXPECT_EQ(shape.kTiles, 4);
  EXPECT_EQ(shape.fragValueBytes, 32 * 64 * 2);
  EXPECT_EQ(shape.fragMetaWords, 2 * 2 * 32); // 2 row tiles x 2 k-tile pairs
  ASSERT_TRUE(
      getStorageShape({16, 2, 8}, ElementType::I4, 32, 256, shape).ok());
  EXPECT_EQ(shape.kTiles, 2);
  EXPECT_EQ(shape.fragValueBytes, 32 * 64 / 2);
  EXPECT_EQ(shape.fragMetaWords, 2 * 2 * 32); // 2 row tiles x 2 k-tiles
  // One group still occupies a full k-tile pair; F32 has 4-byte elements.
  ASSERT_TRUE(getStorageShape({16, 2, 8}, ElementType::F32, 17, 3, shape).ok());
  EXPECT_EQ(shape.paddedRows, 32);
  EXPECT_EQ(shape.paddedCompressedCols, 32);
  EXPECT_EQ(shape.kTiles, 2);
  EXPECT_EQ(shape.fragValueBytes, 32 * 32 * 4);
}

TEST(FragmentLayoutTest, HandComputedWords) {
  // F16, one 16 x 16-group tile pair. Everything is the pair (0, 1) except
  // row 0 group 0 = (2, 3) and row 9 group 13 = (1, 3).
  const Encoding encoding{16, 2, 4};
  StorageShape shape;
  ASSERT_TRUE(getStorageShape(encoding, ElementType::F16, 16, 64, shape).ok());
  Logical logical{Buffer(ElementType::F16, shape.valueCount),
                  std::vector<uint8_t>(shape.metaCount)};
  for (int64_t i = 0; i < shape.metaCount; i += 2) {
    logical.meta[i] = 0;
    logical.meta[i + 1] = 1;
  }
  logical.meta[0] = 2;
  logical.meta[1] = 3;
  logical.meta[9 * 32 + 26] = 1;
  logical.meta[9 * 32 + 27] = 3;
  // Ac[9][5] is lane 4 * 1 + 2 = 6, register j = 2 * (0 + 1) + 1 = 3.
  logical.values.setBits(9 * 32 + 5, 0x1234);
  const Packed packed = pack(encoding, ElementType::F16, shape, logical);
  ASSERT_EQ(packed.meta.size(), 32u);
  EXPECT_EQ(packed.meta[0], 0x4444444Eu);
  // Row 9 is g = 1 in the upper half; group 13 is k-tile 1 (s = 1), chunk
  // h = 1, nibble 1: word 4 + 2 + 1 = 7, bits 16 + 4.
  EXPECT_EQ(packed.meta[7], 0x44D44444u);
  for (int w = 1; w < 32; ++w) {
    if (w != 7) {
      EXPECT_EQ(packed.meta[w], 0x44444444u) << w;
    }
  }
  uint16_t value;
  std::memcpy(&value, packed.values.data() + 2 * (6 * 8 + 3), 2);
  EXPECT_EQ(value, 0x1234);
}

TEST(FragmentLayoutTest, UnpackRejectsNonzeroPaddingValues) {
  for (ElementType type : kAllTypes) {
    SCOPED_TRACE(getElementTypeName(type));
    const Encoding encoding{16, 2, 8};
    StorageShape shape; // 20 rows pad to 32; 10 groups pad to 16.
    ASSERT_TRUE(getStorageShape(encoding, type, 20, 75, shape).ok());
    std::mt19937_64 rng(1);
    const Logical logical = randomLogical(type, shape, rng);
    const Packed packed = pack(encoding, type, shape, logical);
    ASSERT_TRUE(unpack(encoding, type, shape, packed).ok());
    const int64_t width = getElementByteSize(type);
    const std::pair<int64_t, int64_t> paddingSlots[] = {{25, 3}, {2, 20}};
    for (auto [row, col] : paddingSlots) {
      Packed bad = packed;
      const int64_t index = expectedValueIndex(type, shape, row, col);
      if (type == ElementType::I4)
        bad.values[index / 2] |= static_cast<uint8_t>(index % 2 ? 0x10 : 0x01);
      else
        bad.values[index * width + width - 1] = 0x40;
      const Status s = unpack(encoding, type, shape, bad);
      EXPECT_FALSE(s.ok());
      EXPECT_NE(s.message().find("padding"), std::string::npos) << s.message();
    }
    // -0 is numeric zero and accepted in float padding.
    if (type == ElementType::F32 || type == ElementType::F16) {
      Packed negativeZero = packed;
      const int64_t index = expectedValueIndex(type, shape, 25, 3);
      negativeZero.values[index * width + width - 1] = 0x80;
      EXPECT_TRUE(unpack(encoding, type, shape, negativeZero).ok());
    }
  }
}

TEST(FragmentLayoutTest, UnpackRejectsBadNibbles) {
  for (ElementType type : {ElementType::BF16, ElementType::I8}) {
    SCOPED_TRACE(getElementTypeName(type));
    const Encoding encoding{16, 2, 8};
    StorageShape shape;
    ASSERT_TRUE(getStorageShape(encoding, type, 20, 75, shape).ok());
    std::mt19937_64 rng(2);
    const Packed packed =
        pack(encoding, type, shape, randomLogical(type, shape, rng));
    auto withNibble = [&](int64_t row, int64_t group, uint32_t nibble) {
      Packed bad = packed;
      const auto [word, bit] = expectedNibble(type, shape, row, group);
      bad.meta[word] = (bad.meta[word] & ~(0xfu << bit)) | nibble << bit;
      return unpack(encoding, type, shape, bad);
    };
    for (uint32_t nibble : {0x0u, 0x5u, 0xAu, 0xFu, 0x1u, 0x6u, 0xBu}) {
      const Status s = withNibble(3, 4, nibble);
      EXPECT_FALSE(s.ok()) << nibble;
      EXPECT_NE(s.message().find("not a strictly ascending pair"),
                std::string::npos)
          << s.message();
    }
    for (uint32_t nibble : {0x4u, 0x8u, 0xCu, 0x9u, 0xDu, 0xEu})
      EXPECT_TRUE(withNibble(3, 4, nibble).ok()) << nibble;
    // Padding rows and padding groups must hold exactly 0x4.
    for (auto [row, group] : {std::pair<int64_t, int64_t>{30, 2}, {5, 12}}) {
      const Status s = withNibble(row, group, 0x8);
      EXPECT_FALSE(s.ok());
      EXPECT_NE(s.message().find("padding"), std::string::npos) << s.message();
    }
  }
}

TEST(FragmentLayoutTest, PackRejectsBadMetaAndI4Range) {
  const Encoding encoding{16, 2, 8};
  StorageShape shape;
  ASSERT_TRUE(getStorageShape(encoding, ElementType::I4, 16, 16, shape).ok());
  std::mt19937_64 rng(3);
  Packed out{std::vector<uint8_t>(shape.fragValueBytes),
             std::vector<uint32_t>(shape.fragMetaWords)};
  auto packLogical = [&](const Logical &logical) {
    return packFragments(encoding, ElementType::I4, logical.values.data(),
                         logical.meta.data(), 16, 16, out.values.data(),
                         out.meta.data());
  };
  const Logical good = randomLogical(ElementType::I4, shape, rng);
  ASSERT_TRUE(packLogical(good).ok());

  Logical badMeta = good;
  badMeta.meta[5] = badMeta.meta[4];
  Status s = packLogical(badMeta);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("meta[1][1]"), std::string::npos) << s.message();

  Logical badValue = good;
  badValue.values.setBits(6, static_cast<uint8_t>(int8_t(8)));
  s = packLogical(badValue);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("values[1][2] = 8"), std::string::npos)
      << s.message();
}

} // namespace
