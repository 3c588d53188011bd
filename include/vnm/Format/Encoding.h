//===- Encoding.h - V:N:M encoding parameters -------------------*- C++ -*-===//

#ifndef VNM_FORMAT_ENCODING_H
#define VNM_FORMAT_ENCODING_H

#include "vnm/Format/Status.h"

#include <cstdint>

namespace vnm::format {

/// A V:N:M encoding: blocks of `v` rows share a choice of 4 out of every `m`
/// columns, and each row keeps `n` values of those 4 (n = 1 is stored as 2:4
/// with a zero partner).
struct Encoding {
  int64_t v;
  int64_t n;
  int64_t m;
};

inline constexpr int64_t kMinM = 4;
/// The exhaustive pruner costs C(M, 4) * V per block; 32 keeps it tractable
/// and lets a column offset fit the uint8_t colidx entries.
inline constexpr int64_t kMaxM = 32;
inline constexpr int64_t kMaxV = 256;

/// v in {16, 32, 64, 128, 256}, n in {1, 2}, 4 <= m <= 32.
Status validateEncoding(const Encoding &encoding);

} // namespace vnm::format

#endif // VNM_FORMAT_ENCODING_H
