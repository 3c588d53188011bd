//===- WidenMath.cpp - 16-bit float math ops computed in f32 --------------===//
//
// The CPU pipeline calls libm for math ops (erf, tanh, exp, ...), and libm
// has only f32 and f64 functions: a math op on f16 or bf16 is computed in
// f32 and rounded once.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace vnm {
#define GEN_PASS_DEF_VNMWIDENMATH
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

struct WidenMathPass : public vnm::impl::VNMWidenMathBase<WidenMathPass> {
  void runOnOperation() override {
    SmallVector<Operation *> narrow;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
          op->getNumResults() == 1 &&
          isNarrowFloat(op->getResult(0).getType()) &&
          llvm::all_of(op->getOperandTypes(), isNarrowFloat))
        narrow.push_back(op);
    });
    for (Operation *op : narrow) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      Type wide = builder.getF32Type();
      Type type = op->getResult(0).getType();
      OperationState state(loc, op->getName());
      for (Value operand : op->getOperands())
        state.addOperands(
            arith::ExtFOp::create(builder, loc, wide, operand).getResult());
      state.addTypes(wide);
      state.addAttributes(op->getAttrs());
      Operation *widened = builder.create(state);
      Value result =
          arith::TruncFOp::create(builder, loc, type, widened->getResult(0));
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
