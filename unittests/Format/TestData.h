//===- TestData.h - Random matrices and type-erased buffers -----*- C++ -*-===//

#ifndef VNM_UNITTESTS_FORMAT_TESTDATA_H
#define VNM_UNITTESTS_FORMAT_TESTDATA_H

#include "vnm/Format/Format.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vnm::format::test {

inline constexpr ElementType kAllTypes[] = {ElementType::F16, ElementType::BF16,
                                            ElementType::F32, ElementType::I8,
                                            ElementType::I4};

/// A fresh seed per run, or VNM_TEST_SEED to replay a failure.
uint64_t testSeed();
std::string seedTrace(uint64_t seed);

/// Bytes of `count` elements of `type`.
struct Buffer {
  ElementType type = ElementType::F16;
  std::vector<uint8_t> bytes;

  Buffer() = default;
  Buffer(ElementType type, int64_t count);
  int64_t size() const;
  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }
  /// Bit pattern widened to 32 bits (I8/I4 as their uint8_t pattern).
  uint32_t bits(int64_t i) const;
  void setBits(int64_t i, uint32_t bits);
  bool operator==(const Buffer &other) const { return bytes == other.bytes; }
};

enum class DataKind {
  /// Magnitudes whose block sums are exact in double for every type, so the
  /// library's choice must equal the reference's exactly.
  Exact,
  /// Few distinct magnitudes: many score and value ties.
  Ties,
  /// Unrestricted floats (F32, BF16 sums may round).
  Generic,
  /// Exact data with some NaN and infinity (float types).
  Specials,
};

Buffer randomDense(ElementType type, int64_t count, DataKind kind,
                   std::mt19937_64 &rng);

/// Numeric zero: +0 or -0 for floats.
bool isZeroBits(ElementType type, uint32_t bits);
bool isNaNBits(ElementType type, uint32_t bits);

/// |x| as the pruning rule ranks it: NaN above infinity above finite values.
double referenceMagnitude(ElementType type, uint32_t bits);

std::string describe(const Encoding &encoding, ElementType type, int64_t rows,
                     int64_t cols);

} // namespace vnm::format::test

#endif // VNM_UNITTESTS_FORMAT_TESTDATA_H
