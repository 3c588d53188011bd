//===- Quantize.cpp -------------------------------------------------------===//

#include "vnm/Format/Quantize.h"

#include "ArgumentChecks.h"
#include "CheckedMath.h"
#include "ElementTraits.h"

#include "vnm/Format/FloatBits.h"
#include "vnm/Format/StorageShape.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace vnm::format {

using namespace detail;

namespace {

/// `count` elements of `elementBytes` bytes each must be addressable.
bool fitsBytes(int64_t count, int64_t elementBytes) {
  int64_t bytes;
  return checkedMul(count, elementBytes, bytes) && fitsPointerRange(bytes);
}

Status checkTarget(ElementType target) {
  if (!isValidElementType(target))
    return Status::error("invalid target element type " +
                         std::to_string(static_cast<int>(target)));
  if (target != ElementType::I8 && target != ElementType::I4)
    return Status::error(
        std::string("the quantization target must be i8 or i4, not ") +
        getElementTypeName(target));
  return Status::success();
}

int qmaxOf(ElementType target) { return target == ElementType::I8 ? 127 : 7; }

/// Where the scale of entry (r, c) lives in the row-major scales array.
struct ScaleIndex {
  QuantizeGrouping grouping;
  int64_t scaleCols;

  int64_t rowBase(int64_t r) const {
    if (grouping.axis == 0)
      return r * scaleCols;
    if (grouping.axis == 1 && grouping.groupSize > 0)
      return r / grouping.groupSize * scaleCols;
    return 0;
  }
  int64_t colOffset(int64_t c) const {
    if (grouping.axis == 0 && grouping.groupSize > 0)
      return c / grouping.groupSize;
    if (grouping.axis == 1)
      return c;
    return 0;
  }
};

/// The sizes every entry point checks: the scale shape, and that the dense
/// matrix (`denseBytes` per element), the int8 values and the scales are
/// addressable.
Status checkShapes(int64_t rows, int64_t cols, QuantizeGrouping grouping,
                   int64_t denseBytes, int64_t &scaleRows, int64_t &scaleCols,
                   int64_t &scaleCount) {
  if (Status s =
          getQuantizeScaleShape(rows, cols, grouping, scaleRows, scaleCols);
      !s.ok())
    return s;
  const int64_t count = rows * cols; // Both are at most kMaxDimension.
  if (!fitsBytes(count, denseBytes))
    return overflow("the dense matrix");
  if (!checkedMul(scaleRows, scaleCols, scaleCount) ||
      !fitsBytes(scaleCount, sizeof(float)))
    return overflow("scales");
  return Status::success();
}

float widen(F16Traits, uint16_t bits) { return f16BitsToFloat(bits); }
float widen(BF16Traits, uint16_t bits) { return bf16BitsToFloat(bits); }
float widen(F32Traits, uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// roundeven(y) for |y| <= 127 by exact operations only (y - trunc(y) is
/// exact for such y), so that it rounds half to even whatever the
/// floating-point environment.
int8_t roundHalfEven(float y) {
  const float magnitude = std::fabs(y);
  const int whole = static_cast<int>(magnitude);
  const float fraction = magnitude - static_cast<float>(whole);
  const int rounded =
      whole + (fraction > 0.5f || (fraction == 0.5f && (whole & 1)));
  return static_cast<int8_t>(std::signbit(y) ? -rounded : rounded);
}

template <typename Traits>
Status quantizeTyped(const void *dense, int64_t rows, int64_t cols,
                     ElementType target, const ScaleIndex &index,
                     int64_t scaleCount, int8_t *quantized, float *scales) {
  using Bits = typename Traits::Bits;
  // Scales are computed aside so that a failure leaves the outputs as they
  // were.
  std::vector<float> scale(static_cast<size_t>(scaleCount), 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = index.rowBase(r);
    for (int64_t c = 0; c < cols; ++c) {
      const Bits bits = loadElement<Bits>(dense, r * cols + c);
      if (!Traits::isFinite(bits))
        return Status::error("dense[" + std::to_string(r) + "][" +
                             std::to_string(c) +
                             "] = " + Traits::describe(bits) +
                             " is NaN or infinite; quantization refuses "
                             "non-finite weights");
      float &amax = scale[static_cast<size_t>(base + index.colOffset(c))];
      amax = std::max(amax, std::fabs(widen(Traits(), bits)));
    }
  }
  const float qmax = static_cast<float>(qmaxOf(target));
  // amax / qmax can round to 0 for f32 subnormals (amax <= 63 * 2^-149 for
  // I8); the scale is then 0, as the rule gives it.
  for (float &s : scale)
    s = s > 0.0f ? s / qmax : 1.0f;

  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = index.rowBase(r);
    for (int64_t c = 0; c < cols; ++c) {
      const float x = widen(Traits(), loadElement<Bits>(dense, r * cols + c));
      const float y = x / scale[static_cast<size_t>(base + index.colOffset(c))];
      // y is NaN only for 0 / 0 (a zero in a group whose scale is 0), which
      // gives 0; an infinite y (x != 0 there) clamps to +-qmax. Clamping
      // before rounding gives the same result as after, since qmax is an
      // integer.
      quantized[r * cols + c] =
          std::isnan(y) ? 0 : roundHalfEven(std::min(std::max(y, -qmax), qmax));
    }
  }
  if (scaleCount > 0)
    std::memcpy(scales, scale.data(),
                static_cast<size_t>(scaleCount) * sizeof(float));
  return Status::success();
}

} // namespace

Status getQuantizeScaleShape(int64_t rows, int64_t cols,
                             QuantizeGrouping grouping, int64_t &scaleRows,
                             int64_t &scaleCols) {
  if (Status s = checkDimension("row count", rows); !s.ok())
    return s;
  if (Status s = checkDimension("column count", cols); !s.ok())
    return s;
  if (grouping.axis < -1 || grouping.axis > 1)
    return Status::error("invalid quantization axis " +
                         std::to_string(grouping.axis) +
                         ": expected -1 (per tensor), 0 (per row) or 1 (per "
                         "column)");
  if (grouping.groupSize < 0)
    return Status::error("invalid quantization group size " +
                         std::to_string(grouping.groupSize) +
                         ": expected 0 (whole rows or columns) or a positive "
                         "size");
  if (grouping.axis == -1 && grouping.groupSize != 0)
    return Status::error(
        "quantization group size " + std::to_string(grouping.groupSize) +
        " with axis -1: a per-tensor scale takes group size 0");
  const int64_t g = grouping.groupSize;
  switch (grouping.axis) {
  case 0:
    scaleRows = rows;
    scaleCols = g > 0 ? ceilDiv(cols, g) : 1;
    break;
  case 1:
    scaleRows = g > 0 ? ceilDiv(rows, g) : 1;
    scaleCols = cols;
    break;
  default:
    scaleRows = 1;
    scaleCols = 1;
    break;
  }
  return Status::success();
}

Status quantize(ElementType source, const void *dense, int64_t rows,
                int64_t cols, ElementType target, QuantizeGrouping grouping,
                int8_t *quantized, float *scales) {
  if (!isValidElementType(source))
    return Status::error("invalid source element type " +
                         std::to_string(static_cast<int>(source)));
  if (source != ElementType::F16 && source != ElementType::BF16 &&
      source != ElementType::F32)
    return Status::error(
        std::string("the quantization source must be f16, bf16 or f32, not ") +
        getElementTypeName(source));
  if (Status s = checkTarget(target); !s.ok())
    return s;
  int64_t scaleRows, scaleCols, scaleCount;
  if (Status s = checkShapes(rows, cols, grouping, getElementByteSize(source),
                             scaleRows, scaleCols, scaleCount);
      !s.ok())
    return s;
  const int64_t count = rows * cols;
  if (Status s = checkBuffers({{dense, count, "dense"},
                               {quantized, count, "quantized"},
                               {scales, scaleCount, "scales"}});
      !s.ok())
    return s;
  const ScaleIndex index{grouping, scaleCols};
  switch (source) {
  case ElementType::F16:
    return quantizeTyped<F16Traits>(dense, rows, cols, target, index,
                                    scaleCount, quantized, scales);
  case ElementType::BF16:
    return quantizeTyped<BF16Traits>(dense, rows, cols, target, index,
                                     scaleCount, quantized, scales);
  default:
    return quantizeTyped<F32Traits>(dense, rows, cols, target, index,
                                    scaleCount, quantized, scales);
  }
}

Status dequantize(const int8_t *quantized, int64_t rows, int64_t cols,
                  ElementType target, QuantizeGrouping grouping,
                  const float *scales, float *dense) {
  if (Status s = checkTarget(target); !s.ok())
    return s;
  int64_t scaleRows, scaleCols, scaleCount;
  if (Status s = checkShapes(rows, cols, grouping, sizeof(float), scaleRows,
                             scaleCols, scaleCount);
      !s.ok())
    return s;
  const int64_t count = rows * cols;
  if (Status s = checkBuffers({{quantized, count, "quantized"},
                               {scales, scaleCount, "scales"},
                               {dense, count, "dense"}});
      !s.ok())
    return s;
  if (target == ElementType::I4)
    for (int64_t i = 0; i < count; ++i)
      if (!I4Traits::inRange(quantized[i]))
        return Status::error("quantized[" + std::to_string(i / cols) + "][" +
                             std::to_string(i % cols) +
                             "] = " + std::to_string(quantized[i]) +
                             " is outside the I4 range [-8, 7]");
  const ScaleIndex index{grouping, scaleCols};
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = index.rowBase(r);
    for (int64_t c = 0; c < cols; ++c)
      dense[r * cols + c] = static_cast<float>(quantized[r * cols + c]) *
                            scales[base + index.colOffset(c)];
  }
  return Status::success();
}

} // namespace vnm::format
