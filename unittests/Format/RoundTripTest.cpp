//===- RoundTripTest.cpp - compress/decompress and pack/unpack ------------===//

#include "ReferencePrune.h"
#include "TestData.h"

#include <gtest/gtest.h>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

struct Storage {
  Buffer values;
  std::vector<uint8_t> colidx;
  std::vector<uint8_t> meta;
};

struct Fragments {
  std::vector<uint8_t> values;
  std::vector<uint32_t> meta;
};

/// Covers the awkward shapes: K < 4, K < M, K % M != 0, R % V != 0.
int64_t randomCols(std::mt19937_64 &rng, int64_t m) {
  switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
  case 0:
    return std::uniform_int_distribution<int64_t>(1, 3)(rng);
  case 1:
    return std::uniform_int_distribution<int64_t>(1, m)(rng);
  default:
    return std::uniform_int_distribution<int64_t>(1, 5 * m + 7)(rng);
  }
}

void checkRoundTrips(const Encoding &encoding, ElementType type, int64_t rows,
                     int64_t cols, DataKind kind, std::mt19937_64 &rng) {
  SCOPED_TRACE(describe(encoding, type, rows, cols));
  StorageShape shape;
  ASSERT_TRUE(getStorageShape(encoding, type, rows, cols, shape).ok());
  const Buffer dense = randomDense(type, rows * cols, kind, rng);
  Buffer pruned(type, rows * cols);
  // Specials (NaN, infinities) round-trip when kept on request.
  ASSERT_TRUE(prune(encoding, type, dense.data(), rows, cols, pruned.data(),
                    NonFinite::Keep)
                  .ok());

  Storage storage{Buffer(type, shape.valueCount),
                  std::vector<uint8_t>(shape.colidxCount),
                  std::vector<uint8_t>(shape.metaCount)};
  Status s =
      compress(encoding, type, dense.data(), rows, cols, storage.values.data(),
               storage.colidx.data(), storage.meta.data(), NonFinite::Keep);
  ASSERT_TRUE(s.ok()) << s.message();
  s = verifyStorage(encoding, type, storage.values.data(),
                    storage.colidx.data(), storage.meta.data(), rows, cols);
  ASSERT_TRUE(s.ok()) << s.message();

  Buffer restored(type, rows * cols);
  s = decompress(encoding, type, storage.values.data(), storage.colidx.data(),
                 storage.meta.data(), rows, cols, restored.data());
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(restored == pruned) << "decompress(compress(x)) != prune(x)";
  ASSERT_TRUE(referenceDecompress(encoding, type, storage.values,
                                  storage.colidx, storage.meta, rows,
                                  cols) == pruned);

  Fragments frag{std::vector<uint8_t>(shape.fragValueBytes),
                 std::vector<uint32_t>(shape.fragMetaWords)};
  s = packFragments(encoding, type, storage.values.data(), storage.meta.data(),
                    rows, cols, frag.values.data(), frag.meta.data());
  ASSERT_TRUE(s.ok()) << s.message();
  Storage unpacked{Buffer(type, shape.valueCount),
                   {},
                   std::vector<uint8_t>(shape.metaCount)};
  s = unpackFragments(encoding, type, frag.values.data(), frag.meta.data(),
                      rows, cols, unpacked.values.data(), unpacked.meta.data());
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(unpacked.values == storage.values);
  ASSERT_TRUE(unpacked.meta == storage.meta);
}

TEST(RoundTripTest, EveryGroupWidth) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (int repeat = 0; repeat < 3; ++repeat) {
    for (int64_t m = kMinM; m <= kMaxM; ++m) {
      for (ElementType type : kAllTypes) {
        const Encoding encoding{int64_t(16) << ((m + repeat) % 5),
                                1 + (m + int(type) + repeat) % 2, m};
        const int64_t rows =
            std::uniform_int_distribution<int64_t>(1, 2 * encoding.v + 5)(rng);
        checkRoundTrips(encoding, type, rows, randomCols(rng, m),
                        DataKind::Generic, rng);
        if (HasFatalFailure())
          return;
      }
    }
  }
}

TEST(RoundTripTest, EveryBlockHeightAndN) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  const int64_t widths[] = {4, 5, 7, 8, 12, 16, 31};
  for (int64_t v : {16, 32, 64, 128, 256, 16, 32, 64, 128, 256}) {
    for (int64_t n : {1, 2}) {
      for (ElementType type : kAllTypes) {
        for (DataKind kind : {DataKind::Generic, DataKind::Specials}) {
          const int64_t m =
              widths[std::uniform_int_distribution<int>(0, 6)(rng)];
          const int64_t rows =
              std::uniform_int_distribution<int64_t>(1, v + 40)(rng);
          checkRoundTrips({v, n, m}, type, rows, randomCols(rng, m), kind, rng);
          if (HasFatalFailure())
            return;
        }
      }
    }
  }
}

TEST(RoundTripTest, EmptyMatrices) {
  for (ElementType type : kAllTypes) {
    for (auto [rows, cols] :
         {std::pair<int64_t, int64_t>{0, 0}, {0, 9}, {7, 0}}) {
      const Encoding encoding{16, 2, 8};
      StorageShape shape;
      ASSERT_TRUE(getStorageShape(encoding, type, rows, cols, shape).ok());
      EXPECT_EQ(shape.valueCount, 0);
      EXPECT_EQ(shape.fragValueBytes, 0);
      EXPECT_TRUE(prune(encoding, type, nullptr, rows, cols, nullptr).ok());
      EXPECT_TRUE(compress(encoding, type, nullptr, rows, cols, nullptr,
                           nullptr, nullptr)
                      .ok());
      EXPECT_TRUE(decompress(encoding, type, nullptr, nullptr, nullptr, rows,
                             cols, nullptr)
                      .ok());
      EXPECT_TRUE(packFragments(encoding, type, nullptr, nullptr, rows, cols,
                                nullptr, nullptr)
                      .ok());
      EXPECT_TRUE(unpackFragments(encoding, type, nullptr, nullptr, rows, cols,
                                  nullptr, nullptr)
                      .ok());
    }
  }
}

TEST(RoundTripTest, StoragePairsAreAscendingAndNOneHasAZeroPartner) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : kAllTypes) {
    const Encoding encoding{32, 1, 6};
    const int64_t rows = 50, cols = 20;
    const Buffer dense = randomDense(type, rows * cols, DataKind::Exact, rng);
    StorageShape shape;
    ASSERT_TRUE(getStorageShape(encoding, type, rows, cols, shape).ok());
    Buffer values(type, shape.valueCount);
    std::vector<uint8_t> colidx(shape.colidxCount), meta(shape.metaCount);
    ASSERT_TRUE(compress(encoding, type, dense.data(), rows, cols,
                         values.data(), colidx.data(), meta.data())
                    .ok());
    for (int64_t i = 0; i < shape.metaCount; i += 2) {
      EXPECT_LT(meta[i], meta[i + 1]);
      EXPECT_TRUE(isZeroBits(type, values.bits(i)) ||
                  isZeroBits(type, values.bits(i + 1)));
      // The partner is the first position other than the kept one, +0.
      if (!isZeroBits(type, values.bits(i + 1))) {
        EXPECT_EQ(meta[i], 0);
      }
      if (!isZeroBits(type, values.bits(i))) {
        EXPECT_EQ(meta[i], 0);
        EXPECT_EQ(meta[i + 1], 1);
      }
    }
    for (int64_t i = 0; i < shape.colidxCount; i += 4)
      for (int k = 1; k < 4; ++k)
        EXPECT_LT(colidx[i + k - 1], colidx[i + k]);
  }
}

} // namespace
