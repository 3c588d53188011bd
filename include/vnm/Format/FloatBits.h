//===- FloatBits.h - Half-precision bit pattern conversions -----*- C++ -*-===//
//
// F16 and BF16 travel as raw bit patterns because C++17 has no portable half
// types; these conversions give magnitudes to the pruner and let callers and
// tests build inputs.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_FLOATBITS_H
#define VNM_FORMAT_FLOATBITS_H

#include <cstdint>

namespace vnm::format {

/// Exact: every binary16 value is a float.
float f16BitsToFloat(uint16_t bits);
/// Round to nearest, ties to even; overflow gives infinity, NaN stays NaN.
uint16_t floatToF16Bits(float value);

/// Exact: every bfloat16 value is a float.
float bf16BitsToFloat(uint16_t bits);
/// Round to nearest, ties to even; NaN stays NaN.
uint16_t floatToBF16Bits(float value);

} // namespace vnm::format

#endif // VNM_FORMAT_FLOATBITS_H
