//===- InvalidArgumentTest.cpp - Bad arguments fail without crashing ------===//

#include "TestData.h"

#include <gtest/gtest.h>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

/// Big enough for every call below (R = 16, K = 16, m = 8).
struct Buffers {
  std::vector<uint8_t> dense = std::vector<uint8_t>(16 * 16 * 4);
  std::vector<uint8_t> values = std::vector<uint8_t>(16 * 4 * 4);
  std::vector<uint8_t> colidx = std::vector<uint8_t>(8);
  std::vector<uint8_t> meta = std::vector<uint8_t>(16 * 4);
  std::vector<uint8_t> fragValues = std::vector<uint8_t>(16 * 32 * 4);
  std::vector<uint32_t> fragMeta = std::vector<uint32_t>(32);

  Buffers() {
    for (size_t i = 0; i < meta.size(); i += 2)
      meta[i + 1] = 1;
    for (size_t i = 0; i < colidx.size(); ++i)
      colidx[i] = static_cast<uint8_t>(i % 4);
  }
};

/// Runs every entry point with the given arguments; each must fail.
void expectAllFail(const Encoding &encoding, ElementType type, int64_t rows,
                   int64_t cols, const std::string &fragment) {
  Buffers b;
  StorageShape shape;
  const Status statuses[] = {
      getStorageShape(encoding, type, rows, cols, shape),
      prune(encoding, type, b.dense.data(), rows, cols, b.dense.data()),
      compress(encoding, type, b.dense.data(), rows, cols, b.values.data(),
               b.colidx.data(), b.meta.data()),
      decompress(encoding, type, b.values.data(), b.colidx.data(),
                 b.meta.data(), rows, cols, b.dense.data()),
      verifyStorage(encoding, type, b.values.data(), b.colidx.data(),
                    b.meta.data(), rows, cols),
      packFragments(encoding, type, b.values.data(), b.meta.data(), rows, cols,
                    b.fragValues.data(), b.fragMeta.data()),
      unpackFragments(encoding, type, b.fragValues.data(), b.fragMeta.data(),
                      rows, cols, b.values.data(), b.meta.data()),
  };
  for (const Status &s : statuses) {
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
  }
}

TEST(InvalidArgumentTest, BadEncodings) {
  for (int64_t v : {0, -16, 8, 48, 512})
    expectAllFail({v, 2, 8}, ElementType::F16, 16, 16, "v must be");
  for (int64_t n : {0, 3, -1})
    expectAllFail({16, n, 8}, ElementType::F16, 16, 16, "n must be");
  for (int64_t m : {0, 3, 33, -4})
    expectAllFail({16, 2, m}, ElementType::F16, 16, 16, "m must be");
}

TEST(InvalidArgumentTest, BadElementType) {
  expectAllFail({16, 2, 8}, static_cast<ElementType>(42), 16, 16,
                "invalid element type");
}

TEST(InvalidArgumentTest, BadDimensions) {
  for (ElementType type : kAllTypes) {
    expectAllFail({16, 2, 8}, type, -1, 16, "row count");
    expectAllFail({16, 2, 8}, type, 16, -5, "column count");
    expectAllFail({16, 2, 8}, type, kMaxDimension + 1, 16, "row count");
    expectAllFail({16, 2, 8}, type, 16, int64_t(1) << 40, "column count");
    expectAllFail({16, 2, 8}, type, INT64_MIN, INT64_MAX, "row count");
  }
}

TEST(InvalidArgumentTest, SizesThatOverflow) {
  // R * K * 4 bytes exceeds 2^63.
  expectAllFail({16, 2, 4}, ElementType::F32, kMaxDimension, kMaxDimension,
                "too large");
}

TEST(InvalidArgumentTest, LargestDimensionsAreAccepted) {
  StorageShape shape;
  ASSERT_TRUE(
      getStorageShape({256, 2, 32}, ElementType::I4, kMaxDimension, 1, shape)
          .ok());
  EXPECT_EQ(shape.blocks, (kMaxDimension + 255) / 256);
  EXPECT_EQ(shape.paddedRows, int64_t(1) << 31);
  ASSERT_TRUE(
      getStorageShape({16, 2, 4}, ElementType::F16, 1, kMaxDimension, shape)
          .ok());
  EXPECT_EQ(shape.groups, (kMaxDimension + 3) / 4);
}

TEST(InvalidArgumentTest, NullPointers) {
  const Encoding e{16, 2, 8};
  const ElementType t = ElementType::F32;
  Buffers b;
  auto expectNull = [](const Status &s, const char *name) {
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find(std::string(name) + " is null"),
              std::string::npos)
        << s.message();
  };
  expectNull(prune(e, t, nullptr, 16, 16, b.dense.data()), "dense");
  expectNull(prune(e, t, b.dense.data(), 16, 16, nullptr), "prunedDense");
  expectNull(compress(e, t, nullptr, 16, 16, b.values.data(), b.colidx.data(),
                      b.meta.data()),
             "dense");
  expectNull(compress(e, t, b.dense.data(), 16, 16, nullptr, b.colidx.data(),
                      b.meta.data()),
             "values");
  expectNull(compress(e, t, b.dense.data(), 16, 16, b.values.data(), nullptr,
                      b.meta.data()),
             "colidx");
  expectNull(compress(e, t, b.dense.data(), 16, 16, b.values.data(),
                      b.colidx.data(), nullptr),
             "meta");
  expectNull(decompress(e, t, nullptr, b.colidx.data(), b.meta.data(), 16, 16,
                        b.dense.data()),
             "values");
  expectNull(decompress(e, t, b.values.data(), nullptr, b.meta.data(), 16, 16,
                        b.dense.data()),
             "colidx");
  expectNull(decompress(e, t, b.values.data(), b.colidx.data(), nullptr, 16, 16,
                        b.dense.data()),
             "meta");
  expectNull(decompress(e, t, b.values.data(), b.colidx.data(), b.meta.data(),
                        16, 16, nullptr),
             "dense");
  expectNull(
      verifyStorage(e, t, nullptr, b.colidx.data(), b.meta.data(), 16, 16),
      "values");
  expectNull(packFragments(e, t, nullptr, b.meta.data(), 16, 16,
                           b.fragValues.data(), b.fragMeta.data()),
             "values");
  expectNull(packFragments(e, t, b.values.data(), nullptr, 16, 16,
                           b.fragValues.data(), b.fragMeta.data()),
             "meta");
  expectNull(packFragments(e, t, b.values.data(), b.meta.data(), 16, 16,
                           nullptr, b.fragMeta.data()),
             "fragValues");
  expectNull(packFragments(e, t, b.values.data(), b.meta.data(), 16, 16,
                           b.fragValues.data(), nullptr),
             "fragMeta");
  expectNull(unpackFragments(e, t, nullptr, b.fragMeta.data(), 16, 16,
                             b.values.data(), b.meta.data()),
             "fragValues");
  expectNull(unpackFragments(e, t, b.fragValues.data(), nullptr, 16, 16,
                             b.values.data(), b.meta.data()),
             "fragMeta");
  expectNull(unpackFragments(e, t, b.fragValues.data(), b.fragMeta.data(), 16,
                             16, nullptr, b.meta.data()),
             "values");
  expectNull(unpackFragments(e, t, b.fragValues.data(), b.fragMeta.data(), 16,
                             16, b.values.data(), nullptr),
             "meta");
}

TEST(InvalidArgumentTest, I4OutOfRangeInDense) {
  const Encoding e{16, 2, 8};
  std::vector<int8_t> dense(16 * 10, 1);
  dense[3 * 10 + 7] = 8;
  std::vector<int8_t> out(dense.size(), 42);
  StorageShape shape;
  ASSERT_TRUE(getStorageShape(e, ElementType::I4, 16, 10, shape).ok());
  std::vector<int8_t> values(shape.valueCount);
  std::vector<uint8_t> colidx(shape.colidxCount), meta(shape.metaCount);
  for (const Status &s :
       {prune(e, ElementType::I4, dense.data(), 16, 10, out.data()),
        compress(e, ElementType::I4, dense.data(), 16, 10, values.data(),
                 colidx.data(), meta.data())}) {
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("dense[3][7] = 8 is outside the I4 range"),
              std::string::npos)
        << s.message();
  }
  EXPECT_EQ(out, std::vector<int8_t>(dense.size(), 42)) << "output written";
}

} // namespace
