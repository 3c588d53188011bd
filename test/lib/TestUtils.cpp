//===- TestUtils.cpp - helpers for the CPU integration tests --------------===//
//
// Random inputs and result comparison for programs run by mlir-runner. The
// seed is fresh for every process (std::random_device) unless VNM_TEST_SEED
// is set, and is printed so that a failure can be replayed.
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

#define VNM_TEST_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
std::mt19937_64 &generator() {
  static std::mt19937_64 rng = [] {
    uint64_t seed = std::random_device{}();
    if (const char *env = std::getenv("VNM_TEST_SEED"))
      seed = std::strtoull(env, nullptr, 10);
    std::printf("vnm-test: seed %llu\n", (unsigned long long)seed);
    return std::mt19937_64(seed);
  }();
  return rng;
}
} // namespace

/// Fills a matrix with values of magnitude in [0.25, 1.25) and random sign:
/// never zero, so a kept entry can be told from a dropped one in dense
/// reference computations.
VNM_TEST_EXPORT void
_mlir_ciface_vnm_test_fill_random(StridedMemRefType<float, 2> *m) {
  std::uniform_real_distribution<float> magnitude(0.25f, 1.25f);
  std::bernoulli_distribution negative(0.5);
  for (int64_t i = 0; i < m->sizes[0]; ++i)
    for (int64_t j = 0; j < m->sizes[1]; ++j) {
      float x = magnitude(generator());
      m->data[m->offset + i * m->strides[0] + j * m->strides[1]] =
          negative(generator()) ? -x : x;
    }
}

/// Sets the last row (`axis` 0) or last column (`axis` 1) to NaN: a test
/// that hands the op only the rest of the matrix (a slice) then fails if the
/// op reads one row or column past what it was given.
VNM_TEST_EXPORT void
_mlir_ciface_vnm_test_poison_edge(StridedMemRefType<float, 2> *m,
                                  int64_t axis) {
  int64_t rows = m->sizes[0], cols = m->sizes[1];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if ((axis == 0 && i == rows - 1) || (axis == 1 && j == cols - 1))
        m->data[m->offset + i * m->strides[0] + j * m->strides[1]] = NAN;
}

/// Compares `actual` with `expected` elementwise: passes when
/// max |actual - expected| <= tolerance * max(1, max |expected|). Shapes must
/// agree. Prints one line that FileCheck reads.
VNM_TEST_EXPORT void
_mlir_ciface_vnm_test_compare(int64_t id, StridedMemRefType<float, 2> *actual,
                              StridedMemRefType<float, 2> *expected,
                              double tolerance) {
  if (actual->sizes[0] != expected->sizes[0] ||
      actual->sizes[1] != expected->sizes[1]) {
    std::printf("vnm-compare %lld: FAIL (shape %lldx%lld vs %lldx%lld)\n",
                (long long)id, (long long)actual->sizes[0],
                (long long)actual->sizes[1], (long long)expected->sizes[0],
                (long long)expected->sizes[1]);
    return;
  }
  double maxErr = 0, maxRef = 0;
  bool finite = true;
  for (int64_t i = 0; i < actual->sizes[0]; ++i)
    for (int64_t j = 0; j < actual->sizes[1]; ++j) {
      double a = actual->data[actual->offset + i * actual->strides[0] +
                              j * actual->strides[1]];
      double e = expected->data[expected->offset + i * expected->strides[0] +
                                j * expected->strides[1]];
      finite &= std::isfinite(a) && std::isfinite(e);
      maxErr = std::fmax(maxErr, std::fabs(a - e));
      maxRef = std::fmax(maxRef, std::fabs(e));
    }
  double bound = tolerance * std::fmax(1.0, maxRef);
  bool pass = finite && maxErr <= bound;
  std::printf("vnm-compare %lld: %s (%lldx%lld, max abs error %.3g, max |ref| "
              "%.3g, bound %.3g)\n",
              (long long)id, pass ? "PASS" : "FAIL",
              (long long)actual->sizes[0], (long long)actual->sizes[1], maxErr,
              maxRef, bound);
  std::fflush(stdout);
}
