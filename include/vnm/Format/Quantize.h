//===- Quantize.h - Symmetric integer quantization of weights ---*- C++ -*-===//
//
// Weights are quantized to I8 or I4 with f32 scales before compression, so
// that the integer tensor cores can run them. The rule (docs/format.md,
// "Quantization") is fixed to the bit: the compiler's loop code computes the
// same values and must agree with this library exactly.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_QUANTIZE_H
#define VNM_FORMAT_QUANTIZE_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Status.h"

#include <cstdint>

namespace vnm::format {

/// Which entries share one scale.
struct QuantizeGrouping {
  /// -1: one scale for the whole matrix; 0: scales per row; 1: per column.
  int axis = 0;
  /// 0: the whole row (axis 0) / column (axis 1) shares a scale; g > 0: a row
  /// is cut along its columns (axis 0), or a column along its rows (axis 1),
  /// into chunks of g entries (the last one ragged), one scale each. Must be
  /// 0 for axis -1.
  int64_t groupSize = 0;
};

/// Shape of the scales array (row-major): axis -1: 1 x 1; axis 0: rows x
/// ceil(cols / g) (rows x 1 for g = 0); axis 1: ceil(rows / g) x cols (1 x
/// cols for g = 0). Fails on an invalid grouping and on rows or cols outside
/// [0, kMaxDimension].
Status getQuantizeScaleShape(int64_t rows, int64_t cols,
                             QuantizeGrouping grouping, int64_t &scaleRows,
                             int64_t &scaleCols);

/// Symmetric quantization of the row-major rows x cols matrix `dense` of
/// element type `source` (F16, BF16 or F32, held as everywhere in the
/// library) to `target` (I8 or I4): the rows x cols values, one per int8_t,
/// go to `quantized` and the f32 scales (getQuantizeScaleShape) to `scales`.
/// With qmax = 127 (I8) or 7 (I4), each scale group's amax = max |x| in f32,
/// scale = amax / qmax in f32 (1 where amax = 0, and for empty groups), and
/// q = clamp(roundeven(x / scale), -qmax, qmax). The f32 divisions round to
/// nearest even: the caller must not have changed the rounding mode. Where
/// amax / qmax rounds to 0 (amax a few f32 subnormals), the scale is 0,
/// nonzero entries clamp to +-qmax and zeros (0 / 0) give 0.
///
/// Fails, writing nothing, on invalid arguments and on a NaN or infinite
/// entry (the message names its row and column).
Status quantize(ElementType source, const void *dense, int64_t rows,
                int64_t cols, ElementType target, QuantizeGrouping grouping,
                int8_t *quantized, float *scales);

/// The inverse up to rounding: dense[r][c] = float(q) * scale, one f32
/// multiplication, for every q the storage of `target` holds (I8: -128 ...
/// 127; I4: -8 ... 7, anything else is an error). Fails, writing nothing,
/// only on invalid arguments.
Status dequantize(const int8_t *quantized, int64_t rows, int64_t cols,
                  ElementType target, QuantizeGrouping grouping,
                  const float *scales, float *dense);

} // namespace vnm::format

#endif // VNM_FORMAT_QUANTIZE_H
