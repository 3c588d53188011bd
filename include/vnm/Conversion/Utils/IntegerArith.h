//===- IntegerArith.h - integer arithmetic of the lowerings -----*- C++ -*-===//
//
// The index and thread arithmetic that the tile ops' lowerings build, the
// CPU loops (on `index` values) and NVVM (on i32) alike: one place for the
// arith ops both make, at one builder and location.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_CONVERSION_UTILS_INTEGERARITH_H
#define VNM_CONVERSION_UTILS_INTEGERARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace vnm {

class IntegerArith {
public:
  IntegerArith(mlir::OpBuilder &builder, mlir::Location loc)
      : b(builder), loc(loc) {}

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location() const { return loc; }

  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddIOp::create(b, loc, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return mlir::arith::SubIOp::create(b, loc, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return mlir::arith::MulIOp::create(b, loc, x, y);
  }
  mlir::Value divu(mlir::Value x, mlir::Value y) {
    return mlir::arith::DivUIOp::create(b, loc, x, y);
  }
  mlir::Value remu(mlir::Value x, mlir::Value y) {
    return mlir::arith::RemUIOp::create(b, loc, x, y);
  }
  mlir::Value minu(mlir::Value x, mlir::Value y) {
    return mlir::arith::MinUIOp::create(b, loc, x, y);
  }
  mlir::Value shru(mlir::Value x, mlir::Value y) {
    return mlir::arith::ShRUIOp::create(b, loc, x, y);
  }
  /// Bitwise on integers, logical on i1.
  mlir::Value bitAnd(mlir::Value x, mlir::Value y) {
    return mlir::arith::AndIOp::create(b, loc, x, y);
  }
  mlir::Value bitOr(mlir::Value x, mlir::Value y) {
    return mlir::arith::OrIOp::create(b, loc, x, y);
  }
  mlir::Value bitXor(mlir::Value x, mlir::Value y) {
    return mlir::arith::XOrIOp::create(b, loc, x, y);
  }
  mlir::Value ult(mlir::Value x, mlir::Value y) {
    return compare(mlir::arith::CmpIPredicate::ult, x, y);
  }
  mlir::Value slt(mlir::Value x, mlir::Value y) {
    return compare(mlir::arith::CmpIPredicate::slt, x, y);
  }
  mlir::Value sge(mlir::Value x, mlir::Value y) {
    return compare(mlir::arith::CmpIPredicate::sge, x, y);
  }
  mlir::Value eq(mlir::Value x, mlir::Value y) {
    return compare(mlir::arith::CmpIPredicate::eq, x, y);
  }
  mlir::Value select(mlir::Value condition, mlir::Value x, mlir::Value y) {
    return mlir::arith::SelectOp::create(b, loc, condition, x, y);
  }

protected:
  mlir::Value compare(mlir::arith::CmpIPredicate predicate, mlir::Value x,
                      mlir::Value y) {
    return mlir::arith::CmpIOp::create(b, loc, predicate, x, y);
  }

  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace vnm

#endif // VNM_CONVERSION_UTILS_INTEGERARITH_H
