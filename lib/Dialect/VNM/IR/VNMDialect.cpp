//===- VNMDialect.cpp - vnm dialect and attributes ------------------------===//

#include "vnm/Dialect/VNM/IR/Quantization.h"
#include "vnm/Dialect/VNM/IR/VNM.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "vnm/Dialect/VNM/IR/StorageLayout.h"
#include "vnm/Format/StorageShape.h"

using namespace mlir;
using namespace vnm;

#include "vnm/Dialect/VNM/IR/VNMOpsDialect.cpp.inc"

#include "vnm/Dialect/VNM/IR/VNMEnums.cpp.inc"

#include "vnm/Dialect/VNM/IR/VNMAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "vnm/Dialect/VNM/IR/VNMAttrs.cpp.inc"

void VNMDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "vnm/Dialect/VNM/IR/VNMAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "vnm/Dialect/VNM/IR/VNMOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// EncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult EncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t v, int64_t n, int64_t m) {
  // V must be a multiple of the 16-row MMA tile so that a tile never straddles
  // two column-locs; larger blocks amortize the column gather less well.
  if (v != 16 && v != 32 && v != 64 && v != 128 && v != 256)
    return emitError() << "#vnm.encoding (C1): v must be one of 16, 32, 64, "
                          "128, 256, got "
                       << v;
  if (n != 1 && n != 2)
    return emitError() << "#vnm.encoding (C2): n must be 1 or 2, got " << n;
  // Four columns are selected per group, so M >= 4; pruning is exhaustive over
  // C(M, 4) column subsets, which bounds M at 32.
  if (m < 4 || m > 32)
    return emitError() << "#vnm.encoding (C3): m must be in [4, 32], got " << m;
  return success();
}

LogicalResult EncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "#vnm.encoding (C4): the encoded tensor must have "
                          "rank 2 (rows x columns), got rank "
                       << shape.size();
  // The storage arrays of an encoded matrix are sized from its shape; with a
  // dynamic K a decompressed matrix's width could not be recovered from them.
  if (ShapedType::isDynamicShape(shape))
    return emitError() << "#vnm.encoding (C5): the encoded tensor must have a "
                          "static shape, got "
                       << (ShapedType::isDynamic(shape[0]) ? "?" : "R") << "x"
                       << (ShapedType::isDynamic(shape[1]) ? "?" : "K");
  // Every storage size and the kernels' 32-bit column offsets follow from
  // R and K within the format library's limit; beyond it, sizes such as
  // R * K would not even fit int64_t.
  for (int64_t dim = 0; dim < 2; ++dim)
    if (shape[dim] > format::kMaxDimension)
      return emitError() << "#vnm.encoding (C7): " << (dim == 0 ? "R" : "K")
                         << " = " << shape[dim]
                         << " exceeds the format's limit of "
                         << format::kMaxDimension << " (2^31 - 1)";
  if (!elementType)
    return emitError() << "#vnm.encoding (C6): the encoded tensor has no "
                          "element type";
  if (!isSupportedElementType(elementType))
    return emitError() << "#vnm.encoding (C6): element type must be f16, "
                          "bf16, f32, i8 or i4, got "
                       << elementType;
  return success();
}

int64_t EncodingAttr::getNumGroups(int64_t cols) const {
  if (ShapedType::isDynamic(cols))
    return ShapedType::kDynamic;
  return llvm::divideCeil(cols, getM());
}

int64_t EncodingAttr::getNumBlocks(int64_t rows) const {
  if (ShapedType::isDynamic(rows))
    return ShapedType::kDynamic;
  return llvm::divideCeil(rows, getV());
}

EncodingAttr vnm::getVNMEncoding(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return {};
  return dyn_cast_or_null<EncodingAttr>(tensorType.getEncoding());
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult VNMDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  if (attribute.getName() == kQuantizationAttrName)
    return verifyOperationAttribute(op, attribute);
  if (attribute.getName() != "vnm.encoding")
    return op->emitError() << "unknown vnm argument attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<EncodingAttr>(attribute.getValue()))
    return op->emitError() << "'vnm.encoding' on argument " << argIndex
                           << " must be a #vnm.encoding<...>, got "
                           << attribute.getValue();
  return success();
}

LogicalResult VNMDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  if (name == "vnm.encoding") {
    if (!isa<EncodingAttr>(value))
      return op->emitError()
             << "'vnm.encoding' must be a #vnm.encoding<...>, got " << value;
    return success();
  }
  if (name == "vnm.config") {
    if (!isa<KernelTilingAttrInterface>(value))
      return op->emitError() << "'vnm.config' must be a kernel tiling "
                                "attribute (such as "
                                "#vnm_gpu.mma_sp_tiling<...>), got "
                             << value;
    if (!isa<SpmmOp, StorageSpmmOp>(op))
      return op->emitError() << "'vnm.config' applies to vnm.spmm and "
                                "vnm.storage.spmm only";
    return success();
  }
  if (name == kQuantizationAttrName) {
    auto spec = dyn_cast<StringAttr>(value);
    if (!spec)
      return op->emitError() << "'vnm.quantization' must be a string such as "
                                "\"w8a8\", got "
                             << value;
    std::string error;
    if (!parseQuantization(spec.getValue(), error))
      return op->emitError() << "'vnm.quantization': " << error;
    return success();
  }
  if (name == "vnm.gpu_kernel") {
    if (!isa<SymbolRefAttr>(value))
      return op->emitError()
             << "'vnm.gpu_kernel' must be a symbol reference, got " << value;
    return success();
  }
  if (name == "vnm.launch_contracts") {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array || !llvm::all_of(array, [](Attribute contract) {
          auto dict = dyn_cast<DictionaryAttr>(contract);
          return dict && dict.getAs<StringAttr>("kernel");
        }))
      return op->emitError() << "'vnm.launch_contracts' must be an array of "
                                "dictionaries naming their kernel";
    return success();
  }
  if (name == "vnm.pipeline_stage" || name == "vnm.pipeline_order") {
    auto integer = dyn_cast<IntegerAttr>(value);
    if (!integer || !integer.getType().isSignlessInteger(64) ||
        integer.getInt() < 0)
      return op->emitError()
             << "'" << name << "' must be a non-negative i64, got " << value;
    return success();
  }
  return op->emitError() << "unknown vnm attribute '" << name << "'";
}
