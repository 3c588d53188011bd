//===- OpVerification.cpp - checks shared by vnm op verifiers -------------===//

#include "OpVerification.h"

#include "vnm/Dialect/VNM/IR/StorageLayout.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::detail;

const char *const vnm::detail::kDenseMatrixDescription =
    "a rank-2 array without encoding of f16, bf16, f32, i8 or i4";

bool vnm::detail::isDenseMatrix(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() || shaped.getRank() != 2)
    return false;
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && tensor.getEncoding())
    return false;
  return isSupportedElementType(shaped.getElementType());
}

static bool isQuantizedWeightType(Type type) {
  return type.isSignlessInteger(8) || type.isSignlessInteger(4);
}

LogicalResult
vnm::detail::verifySpmmElementTypes(const ConstraintEmitter &error,
                                    int constraint, Type weightElement,
                                    Type inputElement, bool dequantized) {
  if (weightElement == inputElement)
    return success();
  if (isQuantizedWeightType(weightElement) &&
      (inputElement.isSignlessInteger(8) ||
       (dequantized && isSupportedFloatType(inputElement))))
    return success();
  return error(constraint)
         << "lhs and rhs must have the same element type, or lhs i8/i4 with "
            "an i8 rhs, or lhs i8/i4 with weight scales and an f16, bf16 or "
            "f32 rhs; got "
         << weightElement << " and " << inputElement;
}

LogicalResult
vnm::detail::verifySpmmResultElement(const ConstraintEmitter &error,
                                     int constraint, Type inputElement,
                                     Type resultElement, bool dequantized) {
  bool floatResult = dequantized || isSupportedFloatType(inputElement);
  bool valid = floatResult ? isSupportedFloatType(resultElement)
                           : resultElement.isSignlessInteger(32);
  if (!valid)
    return error(constraint)
           << "result element type must be "
           << (floatResult ? (dequantized ? "f16, bf16 or f32 when the op "
                                            "dequantizes (weight scales)"
                                          : "f16, bf16 or f32 for "
                                            "floating-point operands")
                           : "i32 for integer operands")
           << ", got " << resultElement;
  return success();
}

/// Whether `type` is an f32 array of the kind `onTensors` names (a tensor
/// without encoding, or a memref) with the rank of `shape` and sizes
/// compatible with it.
static bool isScaleArray(Type type, bool onTensors, ArrayRef<int64_t> shape) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() || !shaped.getElementType().isF32())
    return false;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!onTensors || tensor.getEncoding())
      return false;
  } else if (onTensors || !isa<MemRefType>(type)) {
    return false;
  }
  if (shaped.getRank() != static_cast<int64_t>(shape.size()))
    return false;
  for (auto [actual, expected] : llvm::zip(shaped.getShape(), shape))
    if (!isCompatibleSize(actual, expected))
      return false;
  return true;
}

static std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "a scalar (rank 0)";
  std::string text;
  for (int64_t size : shape) {
    if (!text.empty())
      text += "x";
    text += ShapedType::isDynamic(size) ? "?" : std::to_string(size);
  }
  return text;
}

static int64_t ceilDivOrDynamic(int64_t size, int64_t divisor) {
  if (ShapedType::isDynamic(size))
    return ShapedType::kDynamic;
  return (size + divisor - 1) / divisor;
}

LogicalResult vnm::detail::verifySpmmScales(
    const ConstraintEmitter &error, SpmmScaleConstraints constraints,
    bool onTensors, EncodingAttr encoding, Type weightElement,
    Type inputElement, int64_t rows, int64_t cols, int64_t n, Type weightScales,
    Type inputScales, std::optional<int64_t> groupSize) {
  const char *kind = onTensors ? "tensor" : "memref";
  if (weightScales) {
    if (!isQuantizedWeightType(weightElement))
      return error(constraints.weightScales)
             << "weight scales need an i8 or i4 lhs, got " << weightElement;
    auto shaped = dyn_cast<ShapedType>(weightScales);
    bool grouped = shaped && shaped.hasRank() && shaped.getRank() == 2;
    if (grouped != groupSize.has_value())
      return error(constraints.groupSize)
             << "group_size must be given exactly when the weight scales "
                "are rank 2 (per row and group), got "
             << weightScales
             << (groupSize ? " with a group_size" : " without a group_size");
    if (groupSize && (*groupSize <= 0 || *groupSize % encoding.getM() != 0))
      return error(constraints.groupSize)
             << "group_size must be a positive multiple of M = "
             << encoding.getM() << ", got " << *groupSize;
    SmallVector<int64_t, 2> expected = {rows};
    if (groupSize)
      expected.push_back(ceilDivOrDynamic(cols, *groupSize));
    if (!isScaleArray(weightScales, onTensors, expected))
      return error(constraints.weightScales)
             << "weight scales must be an f32 " << kind << " of shape "
             << formatShape(expected)
             << (groupSize ? " (R x ceil(K / group_size))" : " (R)") << ", got "
             << weightScales;
  } else if (groupSize) {
    return error(constraints.groupSize) << "group_size needs weight scales";
  }
  if (inputScales) {
    if (!weightScales || !inputElement.isSignlessInteger(8))
      return error(constraints.inputScales)
             << "input scales need an i8 rhs and weight scales, got rhs "
                "element type "
             << inputElement << (weightScales ? "" : " and no weight scales");
    if (!isScaleArray(inputScales, onTensors, {}) &&
        !isScaleArray(inputScales, onTensors, {n}))
      return error(constraints.inputScales)
             << "input scales must be an f32 " << kind
             << " of rank 0 (per tensor) or of shape " << formatShape({n})
             << " (one per column of rhs), got " << inputScales;
  }
  return success();
}

LogicalResult vnm::detail::verifyQuantizeTypes(
    const ConstraintEmitter &error, QuantizeConstraints constraints,
    bool onTensors, Type input, Type quantized, Type scales,
    std::optional<int64_t> axis, std::optional<int64_t> groupSize) {
  auto isArray = [&](Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return onTensors && !tensor.getEncoding();
    return !onTensors && isa<MemRefType>(type);
  };
  auto inputShaped = dyn_cast<ShapedType>(input);
  if (!isArray(input) || inputShaped.getRank() != 2 ||
      !isSupportedFloatType(inputShaped.getElementType()))
    return error(constraints.input)
           << "input must be a rank-2 " << (onTensors ? "tensor" : "memref")
           << " without encoding of f16, bf16 or f32, got " << input;
  auto quantizedShaped = dyn_cast<ShapedType>(quantized);
  if (!isArray(quantized) || quantizedShaped.getRank() != 2 ||
      !isQuantizedWeightType(quantizedShaped.getElementType()) ||
      !isCompatibleSize(quantizedShaped.getDimSize(0),
                        inputShaped.getDimSize(0)) ||
      !isCompatibleSize(quantizedShaped.getDimSize(1),
                        inputShaped.getDimSize(1)))
    return error(constraints.quantized)
           << "quantized must have the input's shape and element type i8 or "
              "i4, got "
           << quantized << " for input " << input;
  if (axis && *axis != 0 && *axis != 1)
    return error(constraints.grouping)
           << "axis must be 0 (scales per row) or 1 (per column), got "
           << *axis;
  if (groupSize && (!axis || *groupSize <= 0))
    return error(constraints.grouping)
           << "group_size must be positive and needs an axis, got "
           << *groupSize << (axis ? "" : " without an axis");
  SmallVector<int64_t, 2> expected;
  if (axis) {
    int64_t kept = inputShaped.getDimSize(*axis);
    int64_t other = inputShaped.getDimSize(1 - *axis);
    if (!groupSize)
      expected = {kept};
    else if (*axis == 0)
      expected = {kept, ceilDivOrDynamic(other, *groupSize)};
    else
      expected = {ceilDivOrDynamic(other, *groupSize), kept};
  }
  if (!isScaleArray(scales, onTensors, expected))
    return error(constraints.scales)
           << "scales must be an f32 " << (onTensors ? "tensor" : "memref")
           << " of shape " << formatShape(expected) << ", got " << scales;
  return success();
}

LogicalResult vnm::detail::verifySpmmBias(const ConstraintEmitter &error,
                                          int constraint, ShapedType result,
                                          int64_t rows, Type bias) {
  auto shaped = dyn_cast<ShapedType>(bias);
  bool resultIsTensor = isa<RankedTensorType>(result);
  if (!shaped || !shaped.hasRank() || shaped.getRank() != 1 ||
      shaped.getElementType() != result.getElementType() ||
      !isCompatibleSize(shaped.getDimSize(0), rows) ||
      isa<RankedTensorType>(shaped) != resultIsTensor ||
      (resultIsTensor && cast<RankedTensorType>(shaped).getEncoding())) {
    InFlightDiagnostic diag = error(constraint);
    diag << "bias must be a rank-1 " << (resultIsTensor ? "tensor" : "memref")
         << " of ";
    if (ShapedType::isDynamic(rows))
      diag << "R";
    else
      diag << rows << " (R)";
    return diag << " elements of " << result.getElementType() << ", got "
                << bias;
  }
  return success();
}

LogicalResult vnm::detail::verifySpmmActivation(const ConstraintEmitter &error,
                                                int constraint,
                                                Type resultElement,
                                                Activation activation) {
  if (activation == Activation::gelu && !isSupportedFloatType(resultElement))
    return error(constraint)
           << "the gelu activation needs a floating-point result, got "
           << resultElement;
  return success();
}

LogicalResult vnm::detail::verifySddmmOperands(const ConstraintEmitter &error,
                                               int constraint, Type lhs,
                                               Type rhs, int64_t rows,
                                               int64_t cols) {
  auto isFloatMatrix = [](Type type) {
    return isDenseMatrix(type) &&
           isSupportedFloatType(cast<ShapedType>(type).getElementType());
  };
  if (!isFloatMatrix(lhs) || !isFloatMatrix(rhs))
    return error(constraint)
           << "lhs and rhs must be rank-2 arrays without encoding of f16, "
              "bf16 or f32, got "
           << lhs << " and " << rhs;
  auto lhsShaped = cast<ShapedType>(lhs);
  auto rhsShaped = cast<ShapedType>(rhs);
  if (lhsShaped.getElementType() != rhsShaped.getElementType() ||
      !isCompatibleSize(lhsShaped.getDimSize(0), rows) ||
      !isCompatibleSize(rhsShaped.getDimSize(1), cols) ||
      !isCompatibleSize(lhsShaped.getDimSize(1), rhsShaped.getDimSize(0)))
    return error(constraint)
           << "lhs and rhs must share one element type and be shaped R x D "
              "and D x K (R x K = "
           << (ShapedType::isDynamic(rows) ? std::string("?")
                                           : std::to_string(rows))
           << "x"
           << (ShapedType::isDynamic(cols) ? std::string("?")
                                           : std::to_string(cols))
           << "), got " << lhs << " and " << rhs;
  return success();
}

LogicalResult
vnm::detail::verifySddmmPatternEncoding(const ConstraintEmitter &error,
                                        int constraint, EncodingAttr encoding) {
  if (encoding.getN() != 2)
    return error(constraint)
           << "the pattern's encoding must have n = 2 (an n = 1 pattern "
              "does not say which of its two stored positions is kept), got "
              "n = "
           << encoding.getN();
  return success();
}
