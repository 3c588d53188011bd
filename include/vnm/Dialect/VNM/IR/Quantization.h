//===- Quantization.h - the quantization choice of a weight -----*- C++ -*-===//
//
// How a weight is quantized is named by a short string, on a matmul or spmm
// as the discardable attribute `vnm.quantization` and as the `default`
// option of vnm-quantize: "w<bits>a<bits>[-g<group size>]" with w8 or w4
// (the weight's integer type), a8 (activations quantized to i8 at run time,
// one scale per column of spmm's rhs) or a16 (activations stay floats), and
// an optional group size along K for the weight scales (one scale per row
// without it).
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNM_IR_QUANTIZATION_H
#define VNM_DIALECT_VNM_IR_QUANTIZATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace vnm {

inline constexpr llvm::StringLiteral kQuantizationAttrName = "vnm.quantization";

struct QuantizationChoice {
  /// 8 or 4.
  unsigned weightBits = 8;
  /// i8 activations with per-column scales, or float activations.
  bool quantizeActivations = false;
  /// 0: one scale per row; else the group size along K.
  int64_t groupSize = 0;

  bool operator==(const QuantizationChoice &other) const {
    return weightBits == other.weightBits &&
           quantizeActivations == other.quantizeActivations &&
           groupSize == other.groupSize;
  }
  bool operator!=(const QuantizationChoice &other) const {
    return !(*this == other);
  }
};

/// Parses "w8a8", "w4a16-g128", ...; on failure `error` says why.
std::optional<QuantizationChoice> parseQuantization(llvm::StringRef spec,
                                                    std::string &error);

} // namespace vnm

#endif // VNM_DIALECT_VNM_IR_QUANTIZATION_H
