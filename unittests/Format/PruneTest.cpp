//===- PruneTest.cpp - The pruning rule against brute force ---------------===//

#include "ReferencePrune.h"
#include "TestData.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

struct Case {
  Encoding encoding;
  ElementType type;
  int64_t rows;
  int64_t cols;
};

/// Small enough for the brute-force reference; ragged in both dimensions.
Case randomCase(std::mt19937_64 &rng, ElementType type, int64_t maxM) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c;
  c.type = type;
  c.encoding.m = pick(4, maxM);
  // Tall blocks only where the brute force stays cheap.
  const int64_t maxShift = c.encoding.m <= 8 ? 4 : c.encoding.m <= 12 ? 2 : 0;
  c.encoding.v = int64_t(16) << pick(0, maxShift);
  c.encoding.n = pick(1, 2);
  c.rows = pick(1, c.encoding.v + c.encoding.v / 2);
  c.cols = pick(1, maxM > 12 ? c.encoding.m + 3 : 3 * c.encoding.m + 3);
  return c;
}

Buffer runPrune(const Case &c, const Buffer &dense) {
  Buffer out(c.type, c.rows * c.cols);
  Status s = prune(c.encoding, c.type, dense.data(), c.rows, c.cols, out.data(),
                   NonFinite::Keep);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

void expectEqualBits(const Buffer &expected, const Buffer &actual,
                     int64_t cols) {
  ASSERT_EQ(expected.size(), actual.size());
  for (int64_t i = 0; i < expected.size(); ++i)
    ASSERT_EQ(expected.bits(i), actual.bits(i))
        << "at row " << i / cols << " column " << i % cols;
}

/// With exact sums the library must make precisely the reference's choice,
/// including every tie.
void checkAgainstReference(DataKind kind, int64_t maxM, int iterations) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < iterations; ++i) {
    for (ElementType type : kAllTypes) {
      const Case c = randomCase(rng, type, maxM);
      SCOPED_TRACE(describe(c.encoding, c.type, c.rows, c.cols));
      const Buffer dense = randomDense(type, c.rows * c.cols, kind, rng);
      const ReferenceResult expected =
          referencePrune(c.encoding, dense, c.rows, c.cols);
      expectEqualBits(expected.pruned, runPrune(c, dense), c.cols);
      if (testing::Test::HasFatalFailure())
        return;
    }
  }
}

TEST(PruneTest, MatchesBruteForceOnExactData) {
  checkAgainstReference(DataKind::Exact, 12, 150);
}

TEST(PruneTest, MatchesBruteForceOnTies) {
  checkAgainstReference(DataKind::Ties, 12, 150);
}

TEST(PruneTest, MatchesBruteForceWithNaNAndInfinity) {
  checkAgainstReference(DataKind::Specials, 12, 150);
}

TEST(PruneTest, MatchesBruteForceForWideGroups) {
  checkAgainstReference(DataKind::Exact, 32, 6);
}

TEST(PruneTest, AllZeroGroupsKeepTheFirstPositions) {
  const Encoding encoding{16, 2, 7};
  const int64_t rows = 5, cols = 9;
  Buffer dense(ElementType::F16, rows * cols);
  for (int64_t i = 0; i < dense.size(); ++i)
    dense.setBits(i, 0x8000); // -0.0
  Buffer out(ElementType::F16, rows * cols);
  ASSERT_TRUE(
      prune(encoding, ElementType::F16, dense.data(), rows, cols, out.data())
          .ok());
  // Subset {0, 1, 2, 3} in both groups; each row keeps positions 0 and 1.
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t col = 0; col < cols; ++col) {
      const bool kept = col % 7 < 2;
      EXPECT_EQ(out.bits(r * cols + col), kept ? 0x8000u : 0u)
          << r << "," << col;
    }
}

TEST(PruneTest, OptimalOnGenericFloats) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 150; ++i) {
    for (ElementType type : {ElementType::F32, ElementType::BF16}) {
      const Case c = randomCase(rng, type, 10);
      SCOPED_TRACE(describe(c.encoding, c.type, c.rows, c.cols));
      const Buffer dense =
          randomDense(type, c.rows * c.cols, DataKind::Generic, rng);
      StorageShape shape;
      ASSERT_TRUE(
          getStorageShape(c.encoding, type, c.rows, c.cols, shape).ok());
      Buffer values(type, shape.valueCount);
      std::vector<uint8_t> colidx(shape.colidxCount), meta(shape.metaCount);
      ASSERT_TRUE(compress(c.encoding, type, dense.data(), c.rows, c.cols,
                           values.data(), colidx.data(), meta.data())
                      .ok());
      const ReferenceResult expected =
          referencePrune(c.encoding, dense, c.rows, c.cols);
      for (int64_t b = 0; b < shape.blocks; ++b)
        for (int64_t g = 0; g < shape.groups; ++g) {
          std::array<int, 4> chosen, best;
          for (int k = 0; k < 4; ++k) {
            chosen[k] = colidx[(b * shape.groups + g) * 4 + k];
            best[k] = expected.colidx[(b * shape.groups + g) * 4 + k];
          }
          const double chosenScore =
              referenceScore(c.encoding, dense, c.rows, c.cols, b, g, chosen);
          const double bestScore =
              referenceScore(c.encoding, dense, c.rows, c.cols, b, g, best);
          EXPECT_GE(chosenScore, bestScore * (1 - 1e-12))
              << "block " << b << " group " << g;
        }
    }
  }
}

TEST(PruneTest, ResultIsVNMSparse) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 40; ++i) {
    for (ElementType type : kAllTypes) {
      Case c = randomCase(rng, type, 32);
      c.rows = std::uniform_int_distribution<int64_t>(1, 300)(rng);
      c.encoding.v = int64_t(16) << (i % 5);
      SCOPED_TRACE(describe(c.encoding, c.type, c.rows, c.cols));
      const Buffer dense =
          randomDense(type, c.rows * c.cols, DataKind::Generic, rng);
      const Buffer out = runPrune(c, dense);
      const int64_t m = c.encoding.m;
      for (int64_t r0 = 0; r0 < c.rows; r0 += c.encoding.v) {
        for (int64_t c0 = 0; c0 < c.cols; c0 += m) {
          int nonzeroCols = 0;
          for (int64_t col = c0; col < std::min(c0 + m, c.cols); ++col) {
            bool any = false;
            for (int64_t r = r0; r < std::min(r0 + c.encoding.v, c.rows); ++r)
              any |= !isZeroBits(type, out.bits(r * c.cols + col));
            nonzeroCols += any;
          }
          EXPECT_LE(nonzeroCols, 4);
          for (int64_t r = r0; r < std::min(r0 + c.encoding.v, c.rows); ++r) {
            int nonzero = 0;
            for (int64_t col = c0; col < std::min(c0 + m, c.cols); ++col) {
              const uint32_t bits = out.bits(r * c.cols + col);
              if (bits != 0) {
                EXPECT_EQ(bits, dense.bits(r * c.cols + col));
              }
              nonzero += !isZeroBits(type, bits);
            }
            EXPECT_LE(nonzero, c.encoding.n);
          }
        }
      }
    }
  }
}

TEST(PruneTest, Idempotent) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  const DataKind kinds[] = {DataKind::Exact, DataKind::Ties, DataKind::Generic,
                            DataKind::Specials};
  for (int i = 0; i < 60; ++i) {
    for (ElementType type : kAllTypes) {
      for (DataKind kind : kinds) {
        const Case c = randomCase(rng, type, 32);
        SCOPED_TRACE(describe(c.encoding, c.type, c.rows, c.cols));
        const Buffer once =
            runPrune(c, randomDense(type, c.rows * c.cols, kind, rng));
        expectEqualBits(once, runPrune(c, once), c.cols);
      }
    }
  }
}

TEST(PruneTest, InPlaceMatchesOutOfPlace) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : kAllTypes) {
    const Case c = randomCase(rng, type, 16);
    SCOPED_TRACE(describe(c.encoding, c.type, c.rows, c.cols));
    Buffer data = randomDense(type, c.rows * c.cols, DataKind::Generic, rng);
    const Buffer expected = runPrune(c, data);
    ASSERT_TRUE(
        prune(c.encoding, type, data.data(), c.rows, c.cols, data.data()).ok());
    expectEqualBits(expected, data, c.cols);
  }
}

TEST(PruneTest, KeptZerosAndNegativeZerosAreBitExact) {
  // n = 2, m = 4: the only subset is all four columns. Row 0 keeps -0.0 next
  // to 1.0 because the other two entries are also zero but sit later.
  const Encoding encoding{16, 2, 4};
  const uint16_t one = floatToF16Bits(1.0f);
  Buffer dense(ElementType::F16, 2 * 4);
  const uint32_t row0[] = {0x8000, one, 0x0000, 0x8000};
  const uint32_t row1[] = {0x0000, 0x0000, 0x8000, 0x8000};
  for (int i = 0; i < 4; ++i) {
    dense.setBits(i, row0[i]);
    dense.setBits(4 + i, row1[i]);
  }
  StorageShape shape;
  ASSERT_TRUE(getStorageShape(encoding, ElementType::F16, 2, 4, shape).ok());
  Buffer values(ElementType::F16, shape.valueCount);
  std::vector<uint8_t> colidx(shape.colidxCount), meta(shape.metaCount);
  ASSERT_TRUE(compress(encoding, ElementType::F16, dense.data(), 2, 4,
                       values.data(), colidx.data(), meta.data())
                  .ok());
  EXPECT_EQ(values.bits(0), 0x8000u);
  EXPECT_EQ(values.bits(1), one);
  EXPECT_EQ(values.bits(2), 0x0000u);
  EXPECT_EQ(values.bits(3), 0x0000u);
  Buffer out(ElementType::F16, 8);
  ASSERT_TRUE(decompress(encoding, ElementType::F16, values.data(),
                         colidx.data(), meta.data(), 2, 4, out.data())
                  .ok());
  const uint32_t expected[] = {0x8000, one, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(out.bits(i), expected[i]) << i;
}

TEST(PruneTest, NaNIsNeverDroppedForANumber) {
  const uint64_t seed = testSeed();
  SCOPED_TRACE(seedTrace(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type :
       {ElementType::F16, ElementType::BF16, ElementType::F32}) {
    for (int64_t n : {1, 2}) {
      // One NaN per row, in at most 4 distinct columns per block: all fit.
      const Encoding encoding{16, n, 8};
      const int64_t rows = 40, cols = 30;
      Buffer dense = randomDense(type, rows * cols, DataKind::Generic, rng);
      const uint32_t nan = type == ElementType::F32   ? 0x7fc00001u
                           : type == ElementType::F16 ? 0x7e01u
                                                      : 0x7fc1u;
      const uint32_t inf = type == ElementType::F32   ? 0x7f800000u
                           : type == ElementType::F16 ? 0x7c00u
                                                      : 0x7f80u;
      const uint32_t sign = type == ElementType::F32 ? 0x80000000u : 0x8000u;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t g = 0; g * 8 < cols; ++g) {
          const int64_t nanCol = g * 8 + (r * 3 + g) % 4;
          const int64_t infCol = g * 8 + 4 + r % 4;
          if (nanCol < cols)
            dense.setBits(r * cols + nanCol, nan | ((r & 1) ? sign : 0u));
          if (infCol < cols)
            dense.setBits(r * cols + infCol, inf);
        }
      }
      Buffer out(type, rows * cols);
      ASSERT_TRUE(prune(encoding, type, dense.data(), rows, cols, out.data(),
                        NonFinite::Keep)
                      .ok());
      for (int64_t i = 0; i < rows * cols; ++i) {
        if (isNaNBits(type, dense.bits(i))) {
          EXPECT_EQ(out.bits(i), dense.bits(i)) << "element " << i;
        }
      }
    }
  }
}

TEST(PruneTest, NonFiniteWeightsAreRefusedUnlessKept) {
  const Encoding encoding{16, 2, 8};
  const int64_t rows = 16, cols = 16;
  const struct {
    ElementType type;
    uint32_t bits;
    const char *text;
  } specials[] = {{ElementType::F16, 0x7e00, "0x7e00"},
                  {ElementType::F16, 0xfc00, "0xfc00"},
                  {ElementType::BF16, 0x7f80, "0x7f80"},
                  {ElementType::F32, 0x7fc00001u, "0x7fc00001"}};
  for (const auto &special : specials) {
    Buffer dense(special.type, rows * cols);
    for (int64_t i = 0; i < dense.size(); ++i)
      dense.setBits(
          i, special.type == ElementType::F32
                 ? 0x3f800000u
                 : (special.type == ElementType::F16 ? 0x3c00u : 0x3f80u));
    dense.setBits(5 * cols + 9, special.bits);
    Buffer out(special.type, rows * cols);
    Status refused =
        prune(encoding, special.type, dense.data(), rows, cols, out.data());
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find(std::string("dense[5][9] = ") +
                                     special.text + " is NaN or infinite"),
              std::string::npos)
        << refused.message();
    StorageShape shape;
    ASSERT_TRUE(
        getStorageShape(encoding, special.type, rows, cols, shape).ok());
    Buffer values(special.type, shape.valueCount);
    std::vector<uint8_t> colidx(shape.colidxCount), meta(shape.metaCount);
    EXPECT_FALSE(compress(encoding, special.type, dense.data(), rows, cols,
                          values.data(), colidx.data(), meta.data())
                     .ok());
    // Kept on request: the special value outranks the ones of its block.
    ASSERT_TRUE(prune(encoding, special.type, dense.data(), rows, cols,
                      out.data(), NonFinite::Keep)
                    .ok());
    EXPECT_EQ(out.bits(5 * cols + 9), special.bits);
    EXPECT_TRUE(compress(encoding, special.type, dense.data(), rows, cols,
                         values.data(), colidx.data(), meta.data(),
                         NonFinite::Keep)
                    .ok());
  }
}

} // namespace
