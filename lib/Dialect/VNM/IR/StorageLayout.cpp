//===- StorageLayout.cpp - storage arrays of a V:N:M matrix ---------------===//

#include "vnm/Dialect/VNM/IR/StorageLayout.h"

using namespace mlir;
using namespace vnm;

static int64_t mulDynamic(int64_t size, int64_t factor) {
  return ShapedType::isDynamic(size) ? ShapedType::kDynamic : size * factor;
}

StorageShapes vnm::getStorageShapes(EncodingAttr encoding, int64_t rows,
                                    int64_t cols) {
  int64_t groups = encoding.getNumGroups(cols);
  StorageShapes shapes;
  shapes.values = {rows, mulDynamic(groups, 2)};
  shapes.colidx = {encoding.getNumBlocks(rows), groups, 4};
  shapes.meta = {rows, mulDynamic(groups, 2)};
  return shapes;
}

Type vnm::getStorageIndexType(MLIRContext *context) {
  return IntegerType::get(context, 8);
}

SmallVector<RankedTensorType, 3>
vnm::getStorageTensorTypes(RankedTensorType encodedType) {
  EncodingAttr encoding = getVNMEncoding(encodedType);
  StorageShapes shapes = getStorageShapes(encoding, encodedType.getDimSize(0),
                                          encodedType.getDimSize(1));
  Type indexType = getStorageIndexType(encodedType.getContext());
  return {RankedTensorType::get(shapes.values, encodedType.getElementType()),
          RankedTensorType::get(shapes.colidx, indexType),
          RankedTensorType::get(shapes.meta, indexType)};
}

bool vnm::isSupportedFloatType(Type type) {
  return type && (type.isF16() || type.isBF16() || type.isF32());
}

// Null-safe: the parser verifies an encoding even when the tensor's element
// type failed to parse.
bool vnm::isSupportedElementType(Type type) {
  return type && (isSupportedFloatType(type) || type.isSignlessInteger(8) ||
                  type.isSignlessInteger(4));
}

/// True when every static dimension of `actual` equals the corresponding
/// known size in `expected`; dynamic sizes on either side are accepted.
static bool isCompatibleShape(ArrayRef<int64_t> actual,
                              ArrayRef<int64_t> expected) {
  if (actual.size() != expected.size())
    return false;
  return llvm::all_of(llvm::zip_equal(actual, expected), [](auto pair) {
    return isCompatibleSize(std::get<0>(pair), std::get<1>(pair));
  });
}

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string result;
  llvm::raw_string_ostream os(result);
  llvm::interleave(
      shape, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << "?";
        else
          os << size;
      },
      "x");
  return result;
}

namespace {
/// Checks one storage array: its rank and element type (rule `typeRule`),
/// then its shape (rule `shapeRule`).
struct ArrayCheck {
  function_ref<InFlightDiagnostic()> emitError;
  StringRef opConstraint;

  LogicalResult operator()(StringRef name, Type type, Type elementType,
                           ArrayRef<int64_t> expected, int typeRule,
                           int shapeRule, StringRef shapeFormula) const {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasRank() ||
        shaped.getRank() != static_cast<int64_t>(expected.size()) ||
        (elementType && shaped.getElementType() != elementType)) {
      InFlightDiagnostic diag = emitError();
      diag << "(" << opConstraint << "/S" << typeRule << ") " << name
           << " must be a rank-" << expected.size() << " array";
      if (elementType)
        diag << " of " << elementType;
      return diag << ", got " << type;
    }
    if (!isCompatibleShape(shaped.getShape(), expected))
      return emitError() << "(" << opConstraint << "/S" << shapeRule << ") "
                         << name << " must have shape " << formatShape(expected)
                         << " (" << shapeFormula << "), got "
                         << formatShape(shaped.getShape());
    return success();
  }
};
} // namespace

LogicalResult
vnm::verifyStorageArrays(function_ref<InFlightDiagnostic()> emitError,
                         StringRef opConstraint, EncodingAttr encoding,
                         int64_t rows, int64_t cols, Type valueElementType,
                         Type valuesType, Type colidxType, Type metaType) {
  StorageShapes shapes = getStorageShapes(encoding, rows, cols);
  Type indexType = getStorageIndexType(encoding.getContext());
  ArrayCheck check{emitError, opConstraint};
  if (failed(check("values", valuesType, valueElementType, shapes.values, 1, 2,
                   "R x 2*ceil(K/M)")) ||
      failed(check("colidx", colidxType, indexType, shapes.colidx, 3, 4,
                   "ceil(R/V) x ceil(K/M) x 4")) ||
      failed(check("meta", metaType, indexType, shapes.meta, 5, 6,
                   "R x 2*ceil(K/M)")))
    return failure();
  return success();
}
