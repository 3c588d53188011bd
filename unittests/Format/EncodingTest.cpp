//===- EncodingTest.cpp - Encoding validation and storage sizes -----------===//

#include "TestData.h"

#include <gtest/gtest.h>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

TEST(EncodingTest, ValidParameters) {
  for (int64_t v : {16, 32, 64, 128, 256})
    for (int64_t n : {1, 2})
      for (int64_t m = 4; m <= 32; ++m)
        EXPECT_TRUE(validateEncoding({v, n, m}).ok()) << v << n << m;
}

TEST(EncodingTest, InvalidParameters) {
  EXPECT_FALSE(validateEncoding({24, 2, 8}).ok());
  EXPECT_FALSE(validateEncoding({16, 4, 8}).ok());
  EXPECT_FALSE(validateEncoding({16, 2, 2}).ok());
  const Status s = validateEncoding({16, 2, 64});
  EXPECT_EQ(s.message(), "invalid encoding: m must be in [4, 32] (got 64)");
}

TEST(StorageShapeTest, RaggedShape) {
  // R = 100, K = 70, V:N:M = 16:2:8.
  StorageShape s;
  ASSERT_TRUE(getStorageShape({16, 2, 8}, ElementType::F16, 100, 70, s).ok());
  EXPECT_EQ(s.groups, 9);
  EXPECT_EQ(s.blocks, 7);
  EXPECT_EQ(s.compressedCols, 18);
  EXPECT_EQ(s.denseCount, 7000);
  EXPECT_EQ(s.denseBytes, 14000);
  EXPECT_EQ(s.valueCount, 1800);
  EXPECT_EQ(s.valueBytes, 3600);
  EXPECT_EQ(s.colidxCount, 7 * 9 * 4);
  EXPECT_EQ(s.metaCount, 1800);
  EXPECT_EQ(s.paddedRows, 112);
  EXPECT_EQ(s.paddedGroups, 16);
  EXPECT_EQ(s.paddedCompressedCols, 32);
  EXPECT_EQ(s.rowTiles, 7);
  EXPECT_EQ(s.kTiles, 2);
  EXPECT_EQ(s.fragValueCount, 112 * 32);
  EXPECT_EQ(s.fragValueBytes, 112 * 32 * 2);
  EXPECT_EQ(s.fragMetaWords, 112 * 16 / 8);

  ASSERT_TRUE(getStorageShape({16, 2, 8}, ElementType::I4, 100, 70, s).ok());
  EXPECT_EQ(s.valueBytes, 1800);
  EXPECT_EQ(s.kTiles, 1);
  EXPECT_EQ(s.fragValueBytes, 112 * 32 / 2);
  EXPECT_EQ(s.fragMetaWords, 112 * 16 / 8);
}

TEST(StorageShapeTest, PaddingToSixteenGroups) {
  StorageShape s;
  ASSERT_TRUE(getStorageShape({32, 1, 4}, ElementType::F32, 33, 68, s).ok());
  EXPECT_EQ(s.groups, 17);
  EXPECT_EQ(s.paddedGroups, 32);
  EXPECT_EQ(s.kTiles, 4);
  EXPECT_EQ(s.paddedRows, 64);
  EXPECT_EQ(s.fragValueBytes, 64 * 64 * 4);
}

} // namespace
