//===- RuntimeCalls.cpp - calls into the vnm CPU runtime ------------------===//

#include "RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

StringRef vnm::loops::getRuntimeSuffix(Type elementType) {
  if (elementType.isF16())
    return "f16";
  if (elementType.isBF16())
    return "bf16";
  if (elementType.isF32())
    return "f32";
  if (elementType.isSignlessInteger(8))
    return "i8";
  return "i4";
}

/// The runtime takes any strided view: cast to the fully dynamic layout so
/// one declaration serves every caller.
static Value castToDynamicLayout(OpBuilder &builder, Location loc,
                                 Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> shape(type.getRank(), ShapedType::kDynamic);
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(builder.getContext(),
                                       ShapedType::kDynamic, strides);
  auto dynamicType = MemRefType::get(shape, type.getElementType(), layout,
                                     type.getMemorySpace());
  if (dynamicType == type)
    return memref;
  return memref::CastOp::create(builder, loc, dynamicType, memref);
}

void vnm::loops::callRuntime(OpBuilder &builder, Location loc, ModuleOp module,
                             StringRef name, ValueRange memrefs,
                             ValueRange scalars) {
  SmallVector<Value> operands;
  for (Value memref : memrefs)
    operands.push_back(castToDynamicLayout(builder, loc, memref));
  llvm::append_range(operands, scalars);
  std::string symbol = ("vnm_rt_" + name).str();
  auto type = builder.getFunctionType(ValueRange(operands).getTypes(), {});
  if (!module.lookupSymbol<func::FuncOp>(symbol)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(builder, loc, symbol, type);
    decl.setPrivate();
    // Memref descriptors are passed by pointer to `_mlir_ciface_<symbol>`.
    decl->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  builder.getUnitAttr());
  }
  func::CallOp::create(builder, loc, symbol, TypeRange(), operands);
}

SmallVector<Value, 3> vnm::loops::getEncodingScalars(OpBuilder &builder,
                                                     Location loc,
                                                     EncodingAttr encoding) {
  auto i64 = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 64);
  };
  return {i64(encoding.getV()), i64(encoding.getN()), i64(encoding.getM())};
}

Value vnm::loops::getDimAsI64(OpBuilder &builder, Location loc, Value memref,
                              int64_t dim) {
  Value size = memref::DimOp::create(builder, loc, memref, dim);
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), size);
}
