//===- EncodedOps.cpp - verifiers of the encoded-tensor ops ---------------===//
//
// Every check cites its constraint number in docs/spec.md.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include "vnm/Dialect/VNM/IR/StorageLayout.h"

#include "OpVerification.h"

using namespace mlir;
using namespace vnm;

#define GET_OP_CLASSES
#include "vnm/Dialect/VNM/IR/VNMOps.cpp.inc"

using namespace vnm::detail;

static constexpr llvm::StringLiteral kDenseTensorDescription =
    "a rank-2 tensor without encoding of f16, bf16, f32, i8 or i4";

/// The dense operands and results of the encoded-tensor ops are tensors.
static bool isDenseTensor(Type type) {
  return isa<RankedTensorType>(type) && isDenseMatrix(type);
}

//===----------------------------------------------------------------------===//
// PruneOp
//===----------------------------------------------------------------------===//

LogicalResult PruneOp::verify() {
  ConstraintEmitter error{*this};
  if (!isDenseTensor(getInput().getType()))
    return error(1) << "input must be " << kDenseTensorDescription << ", got "
                    << getInput().getType();
  if (getResult().getType() != getInput().getType())
    return error(2) << "result type must equal the input type "
                    << getInput().getType() << ", got "
                    << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// CompressOp / DecompressOp
//===----------------------------------------------------------------------===//

/// Shared by compress (dense -> encoded) and decompress (encoded -> dense):
/// the dense side (C1), the encoded side (C2), equal shapes (C3) and equal
/// element types (C4).
static LogicalResult verifyDenseEncodedPair(Operation *op, Type dense,
                                            StringRef denseName, Type encoded,
                                            StringRef encodedName) {
  ConstraintEmitter error{op};
  if (!isDenseTensor(dense))
    return error(1) << denseName << " must be " << kDenseTensorDescription
                    << ", got " << dense;
  if (!getVNMEncoding(encoded))
    return error(2) << encodedName
                    << " must be a tensor with a #vnm.encoding, got "
                    << encoded;
  auto denseTensor = cast<RankedTensorType>(dense);
  auto encodedTensor = cast<RankedTensorType>(encoded);
  if (denseTensor.getShape() != encodedTensor.getShape())
    return error(3) << denseName << " and " << encodedName
                    << " must have the same shape, got " << dense << " and "
                    << encoded;
  if (denseTensor.getElementType() != encodedTensor.getElementType())
    return error(4) << denseName << " and " << encodedName
                    << " must have the same element type, got " << dense
                    << " and " << encoded;
  return success();
}

LogicalResult CompressOp::verify() {
  return verifyDenseEncodedPair(*this, getInput().getType(), "input",
                                getResult().getType(), "result");
}

LogicalResult DecompressOp::verify() {
  return verifyDenseEncodedPair(*this, getResult().getType(), "result",
                                getInput().getType(), "input");
}

//===----------------------------------------------------------------------===//
// AssembleOp / DisassembleOp
//===----------------------------------------------------------------------===//

/// Shared by assemble and disassemble: the encoded side (C1), the storage
/// side being tensors (C2) and the storage rules S1-S6 (C3).
static LogicalResult verifyEncodedStoragePair(Operation *op, Type encoded,
                                              StringRef encodedName,
                                              TypeRange storage) {
  ConstraintEmitter error{op};
  EncodingAttr encoding = getVNMEncoding(encoded);
  if (!encoding)
    return error(1) << encodedName
                    << " must be a tensor with a #vnm.encoding, got "
                    << encoded;
  for (Type type : storage)
    if (!isa<RankedTensorType>(type))
      return error(2) << "storage arrays must be ranked tensors, got " << type;
  auto tensor = cast<RankedTensorType>(encoded);
  return verifyStorageArrays([&]() { return op->emitOpError(); }, "C3",
                             encoding, tensor.getDimSize(0),
                             tensor.getDimSize(1), tensor.getElementType(),
                             storage[0], storage[1], storage[2]);
}

LogicalResult AssembleOp::verify() {
  return verifyEncodedStoragePair(*this, getResult().getType(), "result",
                                  getOperandTypes());
}

LogicalResult DisassembleOp::verify() {
  return verifyEncodedStoragePair(*this, getInput().getType(), "input",
                                  getResultTypes());
}

//===----------------------------------------------------------------------===//
// SpmmOp
//===----------------------------------------------------------------------===//

LogicalResult SpmmOp::verify() {
  ConstraintEmitter error{*this};
  auto lhs = dyn_cast<RankedTensorType>(getLhs().getType());
  if (!lhs || !getVNMEncoding(lhs))
    return error(1) << "lhs must be a tensor with a #vnm.encoding, got "
                    << getLhs().getType();
  auto rhs = dyn_cast<RankedTensorType>(getRhs().getType());
  if (!isDenseTensor(getRhs().getType()) ||
      !isCompatibleSize(rhs.getDimSize(0), lhs.getDimSize(1)))
    return error(2) << "rhs must be " << kDenseTensorDescription << " with "
                    << lhs.getDimSize(1) << " (K) rows, got "
                    << getRhs().getType();
  if (failed(verifySpmmElementTypes(error, 3, lhs.getElementType(),
                                    rhs.getElementType(), isQuantized())))
    return failure();
  auto result = dyn_cast<RankedTensorType>(getResult().getType());
  if (!result || result.getRank() != 2 || result.getEncoding() ||
      !isCompatibleSize(result.getDimSize(0), lhs.getDimSize(0)) ||
      !isCompatibleSize(result.getDimSize(1), rhs.getDimSize(1)))
    return error(4) << "result must be a rank-2 tensor without encoding of "
                       "shape R x N = "
                    << lhs.getDimSize(0) << "x" << rhs.getDimSize(1) << ", got "
                    << getResult().getType();
  if (failed(verifySpmmResultElement(error, 5, rhs.getElementType(),
                                     result.getElementType(), isQuantized())))
    return failure();
  if (getAcc() && getAcc().getType() != result)
    return error(6) << "accumulator must have the result type " << result
                    << ", got " << getAcc().getType();
  if (getBias() && failed(verifySpmmBias(error, 7, result, lhs.getDimSize(0),
                                         getBias().getType())))
    return failure();
  if (failed(verifySpmmActivation(error, 8, result.getElementType(),
                                  getActivation())))
    return failure();
  Type weightScales = getWeightScales() ? getWeightScales().getType() : Type();
  Type inputScales = getInputScales() ? getInputScales().getType() : Type();
  return verifySpmmScales(error, {9, 10, 11}, /*onTensors=*/true,
                          getVNMEncoding(lhs), lhs.getElementType(),
                          rhs.getElementType(), lhs.getDimSize(0),
                          lhs.getDimSize(1), rhs.getDimSize(1), weightScales,
                          inputScales, getGroupSize());
}

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  ConstraintEmitter error{*this};
  return verifyQuantizeTypes(error, {1, 2, 3, 4}, /*onTensors=*/true,
                             getInput().getType(), getQuantized().getType(),
                             getScales().getType(), getAxis(), getGroupSize());
}

//===----------------------------------------------------------------------===//
// SddmmOp
//===----------------------------------------------------------------------===//

LogicalResult SddmmOp::verify() {
  ConstraintEmitter error{*this};
  auto pattern = dyn_cast<RankedTensorType>(getPattern().getType());
  if (!pattern || !getVNMEncoding(pattern))
    return error(1) << "pattern must be a tensor with a #vnm.encoding, got "
                    << getPattern().getType();
  if (!isa<RankedTensorType>(getLhs().getType()) ||
      !isa<RankedTensorType>(getRhs().getType()))
    return error(2) << "lhs and rhs must be ranked tensors, got "
                    << getLhs().getType() << " and " << getRhs().getType();
  if (failed(verifySddmmOperands(error, 2, getLhs().getType(),
                                 getRhs().getType(), pattern.getDimSize(0),
                                 pattern.getDimSize(1))))
    return failure();
  auto result = dyn_cast<RankedTensorType>(getResult().getType());
  if (!result || getVNMEncoding(result) != getVNMEncoding(pattern) ||
      result.getShape() != pattern.getShape())
    return error(3) << "result must be a tensor with the pattern's shape and "
                       "encoding, got "
                    << getResult().getType();
  if (!isSupportedFloatType(result.getElementType()))
    return error(4) << "result element type must be f16, bf16 or f32, got "
                    << result.getElementType();
  return verifySddmmPatternEncoding(error, 5, getVNMEncoding(pattern));
}
