//===- CaseData.h - inputs and dense reference of a case --------*- C++ -*-===//
//
// Fresh random inputs for one case, laid out as the kernel's launch
// contract wants them (fragment arrays from the format library, colidx as
// 32-bit words, B and Y with row pitches ldb and ldc), and the dense
// float64 reference of the pruned matrix computed here, independently of
// every lowering.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_UNITTESTS_TILEPROGRAM_CASEDATA_H
#define VNM_UNITTESTS_TILEPROGRAM_CASEDATA_H

#include "SpmmCase.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vnm::tile_test {

/// A flat buffer of f16, bf16 (bit patterns), f32, i8 or i32 elements.
class ElementBuffer {
public:
  ElementBuffer(const std::string &type, int64_t size);

  double get(int64_t i) const;
  /// Stores `value` rounded to the element type (nearest even).
  void set(int64_t i, double value);
  uint32_t bits(int64_t i) const;
  void setBits(int64_t i, uint32_t bits);
  int64_t size() const { return count; }
  void *data() { return bytes.data(); }
  /// A NaN whose payload no arithmetic produces: what a buffer holds where
  /// nothing may be written or read.
  uint32_t poisonBits() const;

private:
  std::string type;
  int64_t count;
  int64_t elementBytes;
  std::vector<uint8_t> bytes;
};

struct CaseData {
  // Kernel inputs.
  ElementBuffer fragValues, rhs, out, bias;
  std::vector<uint32_t> fragMeta, colidxWords;
  /// The quantized (W8A8) cases' per-row weight and per-token input scales.
  std::vector<float> weightScales, inputScales;
  // The reference (R x N) and a bound on the rounding error of each element.
  std::vector<double> expected, tolerance;
  /// Elements of `out` past R x ldc that must stay untouched.
  int64_t guardElements = 0;
  uint64_t seed = 0;

  /// Fresh data for `c` from `seed`; fails if the format library rejects
  /// the case.
  static llvm::Expected<CaseData> generate(const SpmmCase &c, uint64_t seed);

  /// Empty if `out` holds the reference inside R x N and its poison
  /// everywhere else; else what is wrong, with the first offending
  /// elements.
  std::string check(const SpmmCase &c) const;

private:
  explicit CaseData(const SpmmCase &c);
};

/// A seed from the environment (VNM_TILE_SEED) to reproduce a failure, or
/// a fresh one.
uint64_t chooseSeed();

} // namespace vnm::tile_test

#endif // VNM_UNITTESTS_TILEPROGRAM_CASEDATA_H
