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

LogicalResult
vnm::detail::verifySpmmResultElement(const ConstraintEmitter &error,
                                     int constraint, Type operandElement,
                                     Type resultElement) {
  bool isFloat = isSupportedFloatType(operandElement);
  bool valid = isFloat ? isSupportedFloatType(resultElement)
                       : resultElement.isSignlessInteger(32);
  if (!valid)
    return error(constraint)
           << "result element type must be "
           << (isFloat ? "f16, bf16 or f32 for floating-point operands"
                       : "i32 for integer operands")
           << ", got " << resultElement;
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
