//===- CarryRingSlots.cpp - ring slots as counters of a pipelined loop ----===//
//
// A pipelined K loop names its ring slots as (i + c) mod S for the stage
// offsets c. S is the ring's depth, 3 by default: a remainder by 3 costs
// about ten instructions per slot and iteration on the GPU. Each such
// remainder becomes a counter carried by the loop instead, advanced by one
// add and one compare-and-select.
//
//===----------------------------------------------------------------------===//

#include "CarryRingSlots.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace {

/// The value of `v` if it is an integer constant, or a sum or product of
/// constants (the pipeliner leaves its stage offsets unfolded).
std::optional<int64_t> getFoldedConstant(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *op = v.getDefiningOp();
  if (!op || !isa<arith::AddIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<int64_t> x = getFoldedConstant(op->getOperand(0));
  std::optional<int64_t> y = getFoldedConstant(op->getOperand(1));
  if (!x || !y)
    return std::nullopt;
  return isa<arith::AddIOp>(op) ? *x + *y : *x * *y;
}

/// c if `v` is iv + c (through index casts), else std::nullopt.
std::optional<int64_t> getOffsetFromIV(Value v, Value iv) {
  if (v == iv)
    return 0;
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return getOffsetFromIV(op->getOperand(0), iv);
  if (!isa<arith::AddIOp>(op))
    return std::nullopt;
  for (int side = 0; side < 2; ++side)
    if (std::optional<int64_t> base = getOffsetFromIV(op->getOperand(side), iv))
      if (std::optional<int64_t> c =
              getFoldedConstant(op->getOperand(1 - side)))
        return *base + *c;
  return std::nullopt;
}

/// The remainders (iv + offset) mod depth of the loop body that one
/// counter replaces.
struct SlotRemainder {
  SmallVector<arith::RemUIOp> ops;
  int64_t offset, depth;
  Type type;
};

} // namespace

scf::ForOp vnm::kernel::carryRingSlots(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return loop;
  Value iv = loop.getInductionVar();
  SmallVector<SlotRemainder> remainders;
  loop.getBody()->walk([&](arith::RemUIOp op) {
    if (op->getParentOp() != loop)
      return;
    std::optional<int64_t> depth = getConstantIntValue(op.getRhs());
    std::optional<int64_t> offset = getOffsetFromIV(op.getLhs(), iv);
    // A remainder by a power of two is one AND already.
    if (!depth || !offset || *depth <= 1 || llvm::isPowerOf2_64(*depth) ||
        *offset < 0)
      return;
    for (SlotRemainder &r : remainders)
      if (r.offset == *offset && r.depth == *depth && r.type == op.getType()) {
        r.ops.push_back(op);
        return;
      }
    remainders.push_back({{op}, *offset, *depth, op.getType()});
  });
  if (remainders.empty())
    return loop;

  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  for (const SlotRemainder &r : remainders) {
    Type type = r.type;
    Value first = arith::AddIOp::create(
        rewriter, loc, loop.getLowerBound(),
        arith::ConstantIndexOp::create(rewriter, loc, r.offset));
    if (type != first.getType())
      first = arith::IndexCastUIOp::create(rewriter, loc, type, first);
    Value depth = arith::ConstantOp::create(
        rewriter, loc, type, rewriter.getIntegerAttr(type, r.depth));
    inits.push_back(arith::RemUIOp::create(rewriter, loc, first, depth));
  }
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> counters) {
        SmallVector<Value> next;
        for (auto [r, counter] : llvm::zip(remainders, counters)) {
          Type type = counter.getType();
          auto constant = [&](int64_t value) -> Value {
            return arith::ConstantOp::create(b, loc, type,
                                             b.getIntegerAttr(type, value));
          };
          Value advanced =
              arith::AddIOp::create(b, loc, counter, constant(*step % r.depth));
          Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                              advanced, constant(r.depth));
          Value wrapped =
              arith::SubIOp::create(b, loc, advanced, constant(r.depth));
          next.push_back(
              arith::SelectOp::create(b, loc, wraps, wrapped, advanced));
        }
        return next;
      }));
  ValueRange counters = newLoop.getRegionIterArgs().take_back(inits.size());
  for (auto [r, counter] : llvm::zip(remainders, counters))
    for (arith::RemUIOp op : r.ops)
      rewriter.replaceOp(op, counter);
  return newLoop;
}
