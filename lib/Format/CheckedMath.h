//===- CheckedMath.h - Overflow-checked size arithmetic ---------*- C++ -*-===//
//
// Sizes derive from caller-supplied dimensions, so every product is checked
// instead of trusting the caller to stay within range.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_CHECKEDMATH_H
#define VNM_LIB_FORMAT_CHECKEDMATH_H

#include "vnm/Format/Status.h"
#include "vnm/Format/StorageShape.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace vnm::format::detail {

/// Both operands must be non-negative. Returns false on overflow.
inline bool checkedMul(int64_t a, int64_t b, int64_t &out) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a)
    return false;
  out = a * b;
  return true;
}

/// `a` >= 0, `b` > 0; cannot overflow.
inline int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/// `a` >= 0, `b` > 0. Returns false on overflow.
inline bool checkedRoundUp(int64_t a, int64_t b, int64_t &out) {
  return checkedMul(ceilDiv(a, b), b, out);
}

/// Byte sizes must also be addressable as ptrdiff_t on the host.
inline bool fitsPointerRange(int64_t bytes) {
  return static_cast<uint64_t>(bytes) <= static_cast<uint64_t>(PTRDIFF_MAX);
}

/// A row or column count the library accepts: [0, kMaxDimension].
inline Status checkDimension(const char *what, int64_t value) {
  if (value < 0 || value > kMaxDimension)
    return Status::error(std::string("invalid ") + what + ": " +
                         std::to_string(value) + " is outside [0, " +
                         std::to_string(kMaxDimension) + "]");
  return Status::success();
}

/// The error for a size whose computation overflowed.
inline Status overflow(const char *what) {
  return Status::error(std::string("matrix too large: the size of ") + what +
                       " overflows");
}

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_CHECKEDMATH_H
