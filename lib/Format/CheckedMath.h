//===- CheckedMath.h - Overflow-checked size arithmetic ---------*- C++ -*-===//
//
// Sizes derive from caller-supplied dimensions, so every product is checked
// instead of trusting the caller to stay within range.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_CHECKEDMATH_H
#define VNM_LIB_FORMAT_CHECKEDMATH_H

#include <cstdint>
#include <limits>

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

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_CHECKEDMATH_H
