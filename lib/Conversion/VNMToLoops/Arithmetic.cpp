//===- Arithmetic.cpp - element arithmetic of the loop lowering -----------===//

#include "Arithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

Type vnm::loops::getAccumulatorType(Type elementType) {
  if (isa<FloatType>(elementType))
    return Float32Type::get(elementType.getContext());
  return IntegerType::get(elementType.getContext(), 32);
}

Value vnm::loops::widen(OpBuilder &b, Location loc, Value value, Type accType) {
  Type type = value.getType();
  if (type == accType)
    return value;
  if (isa<FloatType>(accType))
    return arith::ExtFOp::create(b, loc, accType, value);
  return arith::ExtSIOp::create(b, loc, accType, value);
}

Value vnm::loops::convert(OpBuilder &b, Location loc, Value value,
                          Type accType) {
  if (isa<IntegerType>(value.getType()) && isa<FloatType>(accType))
    return arith::SIToFPOp::create(b, loc, accType, value);
  return widen(b, loc, value, accType);
}

Value vnm::loops::narrow(OpBuilder &b, Location loc, Value value,
                         Type resultType) {
  if (value.getType() == resultType)
    return value;
  return arith::TruncFOp::create(b, loc, resultType, value);
}

Value vnm::loops::add(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value vnm::loops::mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value vnm::loops::zero(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value vnm::loops::applyActivation(OpBuilder &b, Location loc, Value x,
                                  Activation activation) {
  Type type = x.getType();
  switch (activation) {
  case Activation::none:
    return x;
  case Activation::relu:
    if (isa<FloatType>(type))
      return arith::MaximumFOp::create(b, loc, x, zero(b, loc, type));
    return arith::MaxSIOp::create(b, loc, x, zero(b, loc, type));
  case Activation::gelu: {
    auto constant = [&](double value) -> Value {
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
    };
    Value cube =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value inner = arith::AddFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, constant(0.044715), cube));
    Value scaled =
        arith::MulFOp::create(b, loc, constant(0.7978845608028654), inner);
    Value onePlusTanh = arith::AddFOp::create(
        b, loc, constant(1.0), math::TanhOp::create(b, loc, scaled));
    return arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, constant(0.5), x), onePlusTanh);
  }
  }
  llvm_unreachable("unknown activation");
}
