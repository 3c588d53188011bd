//===- StorageOps.cpp - the destination-style storage ops -----------------===//
//
// Storage ops take the encoded operand as its three storage arrays. They work
// on tensors (one result per `outs` operand, of its type) or on memrefs (no
// results); every check cites its constraint number in docs/spec.md.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "vnm/Dialect/VNM/IR/StorageLayout.h"

#include "OpVerification.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::detail;

/// C1: operands all ranked tensors or all memrefs; C2: on tensors, one
/// result per init with the init's type, on memrefs none.
static LogicalResult verifyStorageOpForm(Operation *op, unsigned numInits) {
  ConstraintEmitter error{op};
  bool onTensors = isa<RankedTensorType>(op->getOperand(0).getType());
  for (Type type : op->getOperandTypes()) {
    bool ok = onTensors ? isa<RankedTensorType>(type) : isa<MemRefType>(type);
    if (!ok)
      return error(1) << "operands must be all ranked tensors or all memrefs, "
                         "got "
                      << type << " next to " << op->getOperand(0).getType();
  }
  OperandRange inits =
      op->getOperands().take_back(std::min(numInits, op->getNumOperands()));
  if (onTensors) {
    if (op->getResultTypes() != TypeRange(inits.getTypes()))
      return error(2) << "on tensors the op must have one result per `outs` "
                         "operand, of the same type ("
                      << inits.getTypes() << "), got (" << op->getResultTypes()
                      << ")";
  } else if (op->getNumResults() != 0) {
    return error(2) << "on memrefs the op must have no results, got "
                    << op->getNumResults();
  }
  return success();
}

/// Memory effects: inputs are read, inits are written (and read when the op
/// accumulates into them). Tensor operands have value semantics.
static void getStorageOpEffects(
    Operation *op, unsigned numInits, bool readsInits,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  unsigned firstInit = op->getNumOperands() - numInits;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    bool isInit = operand.getOperandNumber() >= firstInit;
    if (!isInit || readsInits)
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    if (isInit)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

#define VNM_STORAGE_OP_EFFECTS(OP, READS_INITS)                                \
  void OP::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getStorageOpEffects(*this, getNumInits(), READS_INITS, effects);           \
  }

VNM_STORAGE_OP_EFFECTS(StoragePruneOp, false)
VNM_STORAGE_OP_EFFECTS(StorageCompressOp, false)
VNM_STORAGE_OP_EFFECTS(StorageDecompressOp, false)
VNM_STORAGE_OP_EFFECTS(StorageSpmmOp, getAccumulate())
VNM_STORAGE_OP_EFFECTS(StorageSddmmOp, false)
VNM_STORAGE_OP_EFFECTS(StorageQuantizeOp, false)
#undef VNM_STORAGE_OP_EFFECTS

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult StoragePruneOp::verify() {
  if (failed(verifyStorageOpForm(*this, getNumInits())))
    return failure();
  ConstraintEmitter error{*this};
  if (!isDenseMatrix(getInput().getType()))
    return error(3) << "input must be " << kDenseMatrixDescription << ", got "
                    << getInput().getType();
  auto input = cast<ShapedType>(getInput().getType());
  auto init = cast<ShapedType>(getInit().getType());
  if (init.getShape() != input.getShape() ||
      init.getElementType() != input.getElementType())
    return error(4) << "init must have the input's shape and element type, "
                       "got "
                    << init << " for input " << input;
  return success();
}

/// compress and decompress: the dense side (C3) and the storage arrays
/// describing a matrix of its shape and element type (C4).
static LogicalResult verifyDenseAndStorage(Operation *op, unsigned numInits,
                                           StringRef denseName, Type dense,
                                           EncodingAttr encoding, Value values,
                                           Value colidx, Value meta) {
  if (failed(verifyStorageOpForm(op, numInits)))
    return failure();
  ConstraintEmitter error{op};
  if (!isDenseMatrix(dense))
    return error(3) << denseName << " must be " << kDenseMatrixDescription
                    << ", got " << dense;
  auto shaped = cast<ShapedType>(dense);
  return verifyStorageArrays(
      [&]() { return op->emitOpError(); }, "C4", encoding, shaped.getDimSize(0),
      shaped.getDimSize(1), shaped.getElementType(), values.getType(),
      colidx.getType(), meta.getType());
}

LogicalResult StorageCompressOp::verify() {
  return verifyDenseAndStorage(*this, getNumInits(), "input",
                               getInput().getType(), getEncoding(), getValues(),
                               getColidx(), getMeta());
}

LogicalResult StorageDecompressOp::verify() {
  return verifyDenseAndStorage(*this, getNumInits(), "init",
                               getInit().getType(), getEncoding(), getValues(),
                               getColidx(), getMeta());
}

LogicalResult StorageSpmmOp::verify() {
  if (failed(verifyStorageOpForm(*this, getNumInits())))
    return failure();
  ConstraintEmitter error{*this};
  if (!isDenseMatrix(getRhs().getType()))
    return error(3) << "rhs must be " << kDenseMatrixDescription << ", got "
                    << getRhs().getType();
  auto rhs = cast<ShapedType>(getRhs().getType());
  auto init = cast<ShapedType>(getInit().getType());
  if (init.getRank() != 2 ||
      !isCompatibleSize(init.getDimSize(1), rhs.getDimSize(1)))
    return error(4) << "init must be rank 2 with " << rhs.getDimSize(1)
                    << " (N) columns, got " << init;
  int64_t rows = init.getDimSize(0);
  bool dequantized = static_cast<bool>(getWeightScales());
  Type weightElement = cast<ShapedType>(getValues().getType()).getElementType();
  if (failed(verifySpmmElementTypes(error, 9, weightElement,
                                    rhs.getElementType(), dequantized)))
    return failure();
  if (failed(verifyStorageArrays([&]() { return emitOpError(); }, "C5",
                                 getEncoding(), rows, rhs.getDimSize(0),
                                 weightElement, getValues().getType(),
                                 getColidx().getType(), getMeta().getType())))
    return failure();
  if (failed(verifySpmmResultElement(error, 6, rhs.getElementType(),
                                     init.getElementType(), dequantized)))
    return failure();
  if (getBias() &&
      failed(verifySpmmBias(error, 7, init, rows, getBias().getType())))
    return failure();
  if (failed(verifySpmmActivation(error, 8, init.getElementType(),
                                  getActivation())))
    return failure();
  Type weightScales = getWeightScales() ? getWeightScales().getType() : Type();
  Type inputScales = getInputScales() ? getInputScales().getType() : Type();
  return verifySpmmScales(error, {10, 11, 12}, isa<RankedTensorType>(init),
                          getEncoding(), weightElement, rhs.getElementType(),
                          rows, rhs.getDimSize(0), rhs.getDimSize(1),
                          weightScales, inputScales, getGroupSize());
}

LogicalResult StorageQuantizeOp::verify() {
  if (failed(verifyStorageOpForm(*this, getNumInits())))
    return failure();
  ConstraintEmitter error{*this};
  return verifyQuantizeTypes(error, {3, 4, 5, 6},
                             isa<RankedTensorType>(getInput().getType()),
                             getInput().getType(), getQuantized().getType(),
                             getScales().getType(), getAxis(), getGroupSize());
}

LogicalResult StorageSddmmOp::verify() {
  if (failed(verifyStorageOpForm(*this, getNumInits())))
    return failure();
  ConstraintEmitter error{*this};
  if (failed(verifySddmmOperands(error, 3, getLhs().getType(),
                                 getRhs().getType(), ShapedType::kDynamic,
                                 ShapedType::kDynamic)))
    return failure();
  int64_t rows = cast<ShapedType>(getLhs().getType()).getDimSize(0);
  int64_t cols = cast<ShapedType>(getRhs().getType()).getDimSize(1);
  if (failed(verifyStorageArrays([&]() { return emitOpError(); }, "C4",
                                 getEncoding(), rows, cols, Type(),
                                 getInit().getType(), getColidx().getType(),
                                 getMeta().getType())))
    return failure();
  Type valueElement = cast<ShapedType>(getInit().getType()).getElementType();
  if (!isSupportedFloatType(valueElement))
    return error(5) << "init (values) element type must be f16, bf16 or f32, "
                       "got "
                    << valueElement;
  return verifySddmmPatternEncoding(error, 6, getEncoding());
}
