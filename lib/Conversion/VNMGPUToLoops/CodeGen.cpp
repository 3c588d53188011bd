//===- CodeGen.cpp - scalar and loop building blocks ----------------------===//

#include "CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace vnm::gpu_loops;

Value CodeGen::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value CodeGen::constant(Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value CodeGen::integer(Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value CodeGen::poison(Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getQNaN(floatType.getFloatSemantics())));
  unsigned width = type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
}

Value CodeGen::zero(Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value CodeGen::toIndex(Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

Value CodeGen::logicalAnd(Value x, Value y) { return bitAnd(x, y); }

Value CodeGen::load(Value memref, ValueRange indices) {
  return memref::LoadOp::create(b, loc, memref, indices);
}

void CodeGen::store(Value value, Value memref, ValueRange indices) {
  memref::StoreOp::create(b, loc, value, memref, indices);
}

void CodeGen::check(Value condition, StringRef message) {
  cf::AssertOp::create(b, loc, condition, message);
}

Value CodeGen::loadChecked(Value memref, Value position, StringRef message) {
  check(ult(position, memref::DimOp::create(b, loc, memref, 0)), message);
  return load(memref, position);
}

void CodeGen::storeChecked(Value value, Value memref, Value position,
                           StringRef message) {
  check(ult(position, memref::DimOp::create(b, loc, memref, 0)), message);
  store(value, memref, position);
}

void CodeGen::forEach(ArrayRef<int64_t> shape,
                      function_ref<void(ValueRange)> body) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> ivs;
  for (int64_t extent : shape) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(extent), index(1));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    ivs.push_back(loop.getInductionVar());
  }
  body(ivs);
}

Value CodeGen::reduce(int64_t count, Value init,
                      function_ref<Value(Value, Value)> step) {
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(count), index(1), ValueRange{init},
      [&](OpBuilder &nested, Location, Value k, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(nested.getInsertionBlock());
        scf::YieldOp::create(b, loc, step(k, carried[0]));
      });
  return loop.getResult(0);
}

void CodeGen::ifThen(Value condition, function_ref<void()> body) {
  auto op = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op.thenBlock()->getTerminator());
  body();
}

Value CodeGen::ifElse(Value condition, Type type,
                      function_ref<Value()> thenValue,
                      function_ref<Value()> elseValue) {
  auto op = scf::IfOp::create(b, loc, TypeRange{type}, condition,
                              /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(op.thenBlock());
  scf::YieldOp::create(b, loc, thenValue());
  b.setInsertionPointToEnd(op.elseBlock());
  scf::YieldOp::create(b, loc, elseValue());
  return op.getResult(0);
}

void CodeGen::copy(Value from, Value to) {
  auto type = cast<MemRefType>(from.getType());
  forEach(type.getShape(),
          [&](ValueRange ivs) { store(load(from, ivs), to, ivs); });
}

void CodeGen::fill(Value memref, Value value) {
  auto type = cast<MemRefType>(memref.getType());
  forEach(type.getShape(), [&](ValueRange ivs) { store(value, memref, ivs); });
}
