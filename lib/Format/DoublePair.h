//===- DoublePair.h - Two-lane double arithmetic ----------------*- C++ -*-===//
//
// The subset search sums over rows with a fixed tree (even rows in lane 0,
// odd rows in lane 1) so that SSE2 can evaluate it two rows at a time and the
// scalar fallback computes bit-identical results.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_DOUBLEPAIR_H
#define VNM_LIB_FORMAT_DOUBLEPAIR_H

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define VNM_FORMAT_HAVE_SSE2 1
#endif

namespace vnm::format::detail {

#ifdef VNM_FORMAT_HAVE_SSE2

struct DoublePair {
  __m128d v;
};

/// `p` must be 16-byte aligned.
inline DoublePair loadPair(const double *p) { return {_mm_load_pd(p)}; }
inline void storePair(double *p, DoublePair x) { _mm_store_pd(p, x.v); }
inline DoublePair zeroPair() { return {_mm_setzero_pd()}; }
inline DoublePair splatPair(double x) { return {_mm_set1_pd(x)}; }
inline DoublePair addPair(DoublePair a, DoublePair b) {
  return {_mm_add_pd(a.v, b.v)};
}
// Operands are never NaN, so the SSE operand-order rules do not matter.
inline DoublePair maxPair(DoublePair a, DoublePair b) {
  return {_mm_max_pd(a.v, b.v)};
}
inline DoublePair minPair(DoublePair a, DoublePair b) {
  return {_mm_min_pd(a.v, b.v)};
}
inline double sumLanes(DoublePair x) {
  double lanes[2];
  _mm_storeu_pd(lanes, x.v);
  return lanes[0] + lanes[1];
}

#else

struct DoublePair {
  double lane[2];
};

inline DoublePair loadPair(const double *p) { return {{p[0], p[1]}}; }
inline void storePair(double *p, DoublePair x) {
  p[0] = x.lane[0];
  p[1] = x.lane[1];
}
inline DoublePair zeroPair() { return {{0.0, 0.0}}; }
inline DoublePair splatPair(double x) { return {{x, x}}; }
inline DoublePair addPair(DoublePair a, DoublePair b) {
  return {{a.lane[0] + b.lane[0], a.lane[1] + b.lane[1]}};
}
inline DoublePair maxPair(DoublePair a, DoublePair b) {
  return {{a.lane[0] > b.lane[0] ? a.lane[0] : b.lane[0],
           a.lane[1] > b.lane[1] ? a.lane[1] : b.lane[1]}};
}
inline DoublePair minPair(DoublePair a, DoublePair b) {
  return {{a.lane[0] < b.lane[0] ? a.lane[0] : b.lane[0],
           a.lane[1] < b.lane[1] ? a.lane[1] : b.lane[1]}};
}
inline double sumLanes(DoublePair x) { return x.lane[0] + x.lane[1]; }

#endif

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_DOUBLEPAIR_H
