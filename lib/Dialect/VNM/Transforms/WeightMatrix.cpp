//===- WeightMatrix.cpp - rearranging constant weights --------------------===//

#include "WeightMatrix.h"

#include "vnm/Dialect/VNM/IR/CheckedShape.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;

namespace {

/// One row-major matrix inside a constant's buffer.
struct MatrixView {
  int64_t rows;
  int64_t cols;
  /// Index of the matrix's first element in the buffer.
  int64_t offset;
  size_t elementBytes;

  size_t getNumBytes() const { return rows * cols * elementBytes; }
};

/// Whether `data` holds exactly the elements of `type` (a shape whose
/// byte size overflows holds none).
bool holdsShape(ArrayRef<char> data, ShapedType type, size_t elementBytes) {
  std::optional<int64_t> bytes = vnm::getCheckedNumBytes(
      type.getShape(), static_cast<int64_t>(elementBytes));
  return bytes && static_cast<uint64_t>(*bytes) == data.size();
}

/// Copies `view` of `src` into `dst`, row-major, transposed if asked.
void copyMatrix(ArrayRef<char> src, MutableArrayRef<char> dst,
                const MatrixView &view, bool transpose) {
  size_t bytes = view.elementBytes;
  for (int64_t r = 0; r < view.rows; ++r) {
    const char *srcRow = src.data() + (view.offset + r * view.cols) * bytes;
    if (!transpose) {
      std::memcpy(dst.data() + r * view.cols * bytes, srcRow,
                  view.cols * bytes);
      continue;
    }
    for (int64_t c = 0; c < view.cols; ++c)
      std::memcpy(dst.data() + (c * view.rows + r) * bytes, srcRow + c * bytes,
                  bytes);
  }
}

} // namespace

TypedAttr vnm::extractWeightMatrix(ElementsAttr attr,
                                   std::optional<int64_t> batch,
                                   bool transpose) {
  auto type = cast<ShapedType>(attr.getType());
  Type elementType = type.getElementType();
  if (!elementType.isIntOrFloat() || type.getRank() != (batch ? 3 : 2))
    return {};
  int64_t rows = type.getDimSize(type.getRank() - 2);
  int64_t cols = type.getDimSize(type.getRank() - 1);
  auto resultType = RankedTensorType::get(
      transpose ? ArrayRef<int64_t>{cols, rows} : ArrayRef<int64_t>{rows, cols},
      elementType);
  unsigned bitWidth = elementType.getIntOrFloatBitWidth();
  MatrixView view{rows, cols, batch.value_or(0) * rows * cols, 0};

  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
    if (dense.isSplat())
      return dense.resizeSplat(resultType);
    // i1 is bit-packed; every other width takes whole bytes per element.
    if (bitWidth == 1)
      return {};
    view.elementBytes = llvm::divideCeil(bitWidth, 8);
    ArrayRef<char> data = dense.getRawData();
    if (!holdsShape(data, type, view.elementBytes))
      return {};
    SmallVector<char> buffer(view.getNumBytes());
    copyMatrix(data, buffer, view, transpose);
    return DenseElementsAttr::getFromRawBuffer(resultType, buffer);
  }

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    DenseResourceElementsHandle handle = resource.getRawHandle();
    const AsmResourceBlob *blob = handle.getBlob();
    // How sub-byte elements are laid out in a resource is up to its
    // producer; only whole-byte elements have one obvious layout.
    if (!blob || bitWidth % 8 != 0)
      return {};
    view.elementBytes = bitWidth / 8;
    ArrayRef<char> data = blob->getData();
    if (!holdsShape(data, type, view.elementBytes))
      return {};
    AsmResourceBlob result = HeapAsmResourceBlob::allocate(
        view.getNumBytes(), blob->getDataAlignment());
    copyMatrix(data, result.getMutableData(), view, transpose);
    std::string key = handle.getKey().str();
    if (batch)
      key += "_b" + std::to_string(*batch);
    if (transpose)
      key += "_t";
    // The blob manager renames the key if it is taken.
    return DenseResourceElementsAttr::get(resultType, key, std::move(result));
  }
  return {};
}
