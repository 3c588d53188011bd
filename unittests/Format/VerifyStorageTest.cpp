//===- VerifyStorageTest.cpp - Each consistency check of the storage ------===//

#include "TestData.h"

#include <gtest/gtest.h>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

/// A valid storage of a 20 x 13 matrix at m = 6 (G = 3, the last group has
/// one real column), built by compress.
class StorageFixture : public testing::Test {
protected:
  void build(ElementType elementType) {
    type = elementType;
    ASSERT_TRUE(getStorageShape(encoding, type, rows, cols, shape).ok());
    std::mt19937_64 rng(7);
    const Buffer dense = randomDense(type, rows * cols, DataKind::Exact, rng);
    values = Buffer(type, shape.valueCount);
    colidx.assign(shape.colidxCount, 0);
    meta.assign(shape.metaCount, 0);
    ASSERT_TRUE(compress(encoding, type, dense.data(), rows, cols,
                         values.data(), colidx.data(), meta.data())
                    .ok());
    ASSERT_TRUE(verify().ok());
  }

  Status verify() const {
    return verifyStorage(encoding, type, values.data(), colidx.data(),
                         meta.data(), rows, cols);
  }

  /// Expects verifyStorage and decompress to fail with `fragment` in the
  /// message, and decompress to leave its output untouched.
  void expectError(const std::string &fragment) const {
    const Status s = verify();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
    Buffer dense(type, rows * cols);
    for (auto &byte : dense.bytes)
      byte = 0x11;
    const Buffer before = dense;
    const Status d = decompress(encoding, type, values.data(), colidx.data(),
                                meta.data(), rows, cols, dense.data());
    EXPECT_EQ(d.message(), s.message());
    EXPECT_TRUE(dense == before);
  }

  /// Slot of value 1 of (row, last group), made to map to a padding column:
  /// the last group has one real column (offset 0), so compress has already
  /// chosen {0, 1, 2, 3}, and the pair (0, 1) puts value 1 on column 13.
  int64_t paddingSlot(int64_t row) {
    const int64_t lastGroup = shape.groups - 1;
    const uint8_t *entry =
        &colidx[((row / encoding.v) * shape.groups + lastGroup) * 4];
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(entry[i], i);
    const int64_t slot = row * shape.compressedCols + 2 * lastGroup;
    meta[slot] = 0;
    meta[slot + 1] = 1;
    values.setBits(slot + 1, 0);
    return slot + 1;
  }

  const Encoding encoding{16, 2, 6};
  const int64_t rows = 20;
  const int64_t cols = 13;
  ElementType type = ElementType::F16;
  StorageShape shape;
  Buffer values;
  std::vector<uint8_t> colidx;
  std::vector<uint8_t> meta;
};

class VerifyStorageTest : public StorageFixture,
                          public testing::WithParamInterface<ElementType> {
protected:
  void SetUp() override { build(GetParam()); }
};

class VerifyFloatStorageTest : public VerifyStorageTest {};

class VerifyI4StorageTest : public StorageFixture {
protected:
  void SetUp() override { build(ElementType::I4); }
};

TEST_P(VerifyStorageTest, ColidxOutOfRange) {
  colidx[1 * 3 * 4 + 2 * 4 + 3] = 6; // block 1, group 2, entry 3
  expectError("colidx[1][2][3] = 6 is not below m = 6");
}

TEST_P(VerifyStorageTest, ColidxNotAscending) {
  colidx[4 + 2] = colidx[4 + 1]; // block 0, group 1, entry 2
  expectError("colidx[0][1][2]");
}

TEST_P(VerifyStorageTest, MetaOutOfRange) {
  meta[3 * 6 + 4] = 4;
  expectError("meta[3][4] = 4 is not a position in 0..3");
}

TEST_P(VerifyStorageTest, MetaPairNotAscending) {
  meta[17 * 6 + 3] = meta[17 * 6 + 2];
  expectError("meta[17][3]");
}

TEST_P(VerifyStorageTest, NonzeroValueInPaddingColumn) {
  const int64_t slot = paddingSlot(18);
  ASSERT_TRUE(verify().ok());
  values.setBits(slot, type == ElementType::F32 ? 0x3f800000u : 1u);
  expectError("values[18][5]");
}

TEST_P(VerifyFloatStorageTest, NegativeZeroInPaddingColumnIsAccepted) {
  const int64_t slot = paddingSlot(18);
  values.setBits(slot, type == ElementType::F32 ? 0x80000000u : 0x8000u);
  EXPECT_TRUE(verify().ok());
}

TEST_F(VerifyI4StorageTest, I4OutOfRange) {
  values.setBits(2 * 6 + 1, static_cast<uint8_t>(int8_t(-9)));
  expectError("values[2][1] = -9 is outside the I4 range");
}

TEST_P(VerifyStorageTest, TwoNonzeroValuesWithNOne) {
  const Encoding nOne{16, 1, 6};
  for (int64_t i = 0; i < values.size(); ++i)
    values.setBits(i, 0);
  values.setBits(4 * 6 + 0, 3);
  values.setBits(4 * 6 + 1, 3);
  EXPECT_TRUE(verify().ok()); // Fine for n = 2.
  const Status s = verifyStorage(nOne, type, values.data(), colidx.data(),
                                 meta.data(), rows, cols);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("values[4][0] and values[4][1] are both nonzero"),
            std::string::npos)
      << s.message();
}

std::string typeName(const testing::TestParamInfo<ElementType> &info) {
  return getElementTypeName(info.param);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, VerifyStorageTest,
                         testing::ValuesIn(kAllTypes), typeName);
INSTANTIATE_TEST_SUITE_P(FloatTypes, VerifyFloatStorageTest,
                         testing::Values(ElementType::F16, ElementType::BF16,
                                         ElementType::F32),
                         typeName);

} // namespace
