//===- LoopBuilders.cpp - loop nests of the loop lowering -----------------===//

#include "LoopBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value vnm::loops::indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value vnm::loops::dim(OpBuilder &b, Location loc, Value memref, int64_t d) {
  return memref::DimOp::create(b, loc, memref, d);
}

void vnm::loops::assertSameSize(OpBuilder &b, Location loc, Value x, Value y,
                                StringRef message) {
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  cf::AssertOp::create(b, loc, same, message);
}

scf::ForOp vnm::loops::buildLoop(OpBuilder &b, Location loc, Value lower,
                                 Value upper, ValueRange inits, LoopBody body) {
  return scf::ForOp::create(
      b, loc, lower, upper, indexConstant(b, loc, 1), inits,
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange args) {
        scf::YieldOp::create(nested, nestedLoc,
                             body(nested, nestedLoc, iv, args));
      });
}

scf::ForOp vnm::loops::buildLoop(OpBuilder &b, Location loc, Value upper,
                                 ValueRange inits, LoopBody body) {
  return buildLoop(b, loc, indexConstant(b, loc, 0), upper, inits, body);
}

void vnm::loops::forEach(
    OpBuilder &b, Location loc, Value lower, Value upper,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  buildLoop(b, loc, lower, upper, {},
            [&](OpBuilder &nb, Location nl, Value iv, ValueRange) {
              body(nb, nl, iv);
              return SmallVector<Value>();
            });
}

void vnm::loops::forEach(
    OpBuilder &b, Location loc, Value upper,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  forEach(b, loc, indexConstant(b, loc, 0), upper, body);
}
