//===- QuantizeLowering.cpp - vnm.storage.quantize to loops ---------------===//
//
// The reference semantics of vnm.quantize (docs/spec.md): per scale group,
// amax = max |x| in f32, scale = amax / qmax (1 where amax = 0) and
// q = clamp(roundeven(x / scale), -qmax, qmax). The format library's
// compile-time quantization (vnm::format::quantize) follows the same rule,
// so a folded constant and a run-time quantization agree bit for bit.
//
// Non-finite inputs: maximumf propagates NaN, so a group holding a NaN gets a
// NaN scale and one holding an infinity (and no NaN) an infinite one; x /
// scale is then NaN for every entry whose quotient is undefined, and those
// entries are stored as 0 (fptosi of NaN would be poison). Every result
// computed with such a scale is NaN, never a plausible number.
//
//===----------------------------------------------------------------------===//

#include "StorageOpLowerings.h"

#include "Arithmetic.h"
#include "LoopBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::loops;

namespace {

/// The rectangle of input entries that share one scale.
struct ScaleGroup {
  Value firstRow, endRow, firstCol, endCol;
  SmallVector<Value, 2> scaleIndex;
};

struct QuantizeLowering : StorageOpLowering<StorageQuantizeOp> {
  using StorageOpLowering::StorageOpLowering;

  void lower(StorageQuantizeOp op, OpBuilder &b, ModuleOp) const override {
    Location loc = op.getLoc();
    Value input = op.getInput(), quantized = op.getQuantized();
    Value scales = op.getScales();
    Value rows = dim(b, loc, input, 0), cols = dim(b, loc, input, 1);
    assertSameSize(b, loc, dim(b, loc, quantized, 0), rows,
                   "vnm.storage.quantize: quantized rows differ from input");
    assertSameSize(b, loc, dim(b, loc, quantized, 1), cols,
                   "vnm.storage.quantize: quantized columns differ from input");
    std::optional<int64_t> axis = op.getAxis();
    std::optional<int64_t> groupSize = op.getGroupSize();
    Value zeroIndex = indexConstant(b, loc, 0);

    if (!axis) {
      quantizeGroup(op, b, loc, {zeroIndex, rows, zeroIndex, cols, {}});
      return;
    }
    // The kept axis has one scale (or one row/column of scales) per index;
    // the other one is cut into groups.
    Value kept = *axis == 0 ? rows : cols;
    Value other = *axis == 0 ? cols : rows;
    Value groupExtent =
        groupSize ? indexConstant(b, loc, *groupSize) : Value(other);
    Value groupCount =
        groupSize ? arith::CeilDivUIOp::create(b, loc, other, groupExtent)
                  : indexConstant(b, loc, 1);
    // Scale shapes: axis 0: R [x groups], axis 1: [groups x] C.
    unsigned keptScaleDim = (*axis == 1 && groupSize) ? 1 : 0;
    assertSameSize(b, loc, dim(b, loc, scales, keptScaleDim), kept,
                   "vnm.storage.quantize: scales size differs from the axis");
    if (groupSize)
      assertSameSize(b, loc, dim(b, loc, scales, 1 - keptScaleDim), groupCount,
                     "vnm.storage.quantize: scales groups differ from "
                     "ceil(size / group_size)");
    forEach(b, loc, kept, [&](OpBuilder &kb, Location kl, Value i) {
      forEach(kb, kl, groupCount, [&](OpBuilder &gb, Location gl, Value j) {
        Value first = arith::MulIOp::create(gb, gl, j, groupExtent);
        Value end = arith::MinUIOp::create(
            gb, gl, arith::AddIOp::create(gb, gl, first, groupExtent), other);
        Value next = arith::AddIOp::create(gb, gl, i, indexConstant(gb, gl, 1));
        ScaleGroup group;
        if (*axis == 0)
          group = {i, next, first, end, {}};
        else
          group = {first, end, i, next, {}};
        if (!groupSize)
          group.scaleIndex = {i};
        else if (*axis == 0)
          group.scaleIndex = {i, j};
        else
          group.scaleIndex = {j, i};
        quantizeGroup(op, gb, gl, group);
      });
    });
  }

  /// Folds `body(r, c, carried)` over the group's rectangle.
  static Value foldGroup(
      OpBuilder &b, Location loc, const ScaleGroup &group, Value init,
      function_ref<Value(OpBuilder &, Location, Value, Value, Value)> body) {
    scf::ForOp outer = buildLoop(
        b, loc, group.firstRow, group.endRow, {init},
        [&](OpBuilder &rb, Location rl, Value r, ValueRange rowArgs) {
          scf::ForOp inner = buildLoop(
              rb, rl, group.firstCol, group.endCol, rowArgs,
              [&](OpBuilder &cb, Location cl, Value c, ValueRange colArgs) {
                return SmallVector<Value>{body(cb, cl, r, c, colArgs[0])};
              });
          return SmallVector<Value>(inner.getResults());
        });
    return outer.getResult(0);
  }

  /// Runs `body(r, c)` over the group's rectangle.
  static void
  forEachInGroup(OpBuilder &b, Location loc, const ScaleGroup &group,
                 function_ref<void(OpBuilder &, Location, Value, Value)> body) {
    forEach(b, loc, group.firstRow, group.endRow,
            [&](OpBuilder &rb, Location rl, Value r) {
              forEach(rb, rl, group.firstCol, group.endCol,
                      [&](OpBuilder &cb, Location cl, Value c) {
                        body(cb, cl, r, c);
                      });
            });
  }

  static void quantizeGroup(StorageQuantizeOp op, OpBuilder &b, Location loc,
                            const ScaleGroup &group) {
    Type f32 = b.getF32Type();
    auto quantizedType = cast<MemRefType>(op.getQuantized().getType());
    Type target = quantizedType.getElementType();
    double qmax = target.isSignlessInteger(4) ? 7.0 : 127.0;
    auto constant = [&](OpBuilder &cb, Location cl, double value) -> Value {
      return arith::ConstantOp::create(cb, cl, cb.getF32FloatAttr(value));
    };
    auto loadInput = [&](OpBuilder &lb, Location ll, Value r, Value c) {
      return widen(
          lb, ll,
          memref::LoadOp::create(lb, ll, op.getInput(), ValueRange{r, c}), f32);
    };

    Value amax = foldGroup(
        b, loc, group, zero(b, loc, f32),
        [&](OpBuilder &mb, Location ml, Value r, Value c, Value max) -> Value {
          Value magnitude =
              math::AbsFOp::create(mb, ml, loadInput(mb, ml, r, c));
          return arith::MaximumFOp::create(mb, ml, max, magnitude);
        });
    // oeq is false for NaN, so a NaN amax gives a NaN scale.
    Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         amax, zero(b, loc, f32));
    Value scale = arith::SelectOp::create(
        b, loc, isZero, constant(b, loc, 1.0),
        arith::DivFOp::create(b, loc, amax, constant(b, loc, qmax)));
    memref::StoreOp::create(b, loc, scale, op.getScales(), group.scaleIndex);

    forEachInGroup(
        b, loc, group, [&](OpBuilder &qb, Location ql, Value r, Value c) {
          Value quotient =
              arith::DivFOp::create(qb, ql, loadInput(qb, ql, r, c), scale);
          Value rounded = math::RoundEvenOp::create(qb, ql, quotient);
          Value clamped = arith::MinimumFOp::create(
              qb, ql,
              arith::MaximumFOp::create(qb, ql, rounded,
                                        constant(qb, ql, -qmax)),
              constant(qb, ql, qmax));
          Value isNaN = arith::CmpFOp::create(qb, ql, arith::CmpFPredicate::UNO,
                                              quotient, quotient);
          Value safe = arith::SelectOp::create(qb, ql, isNaN, zero(qb, ql, f32),
                                               clamped);
          Value q = arith::FPToSIOp::create(qb, ql, target, safe);
          memref::StoreOp::create(qb, ql, q, op.getQuantized(),
                                  ValueRange{r, c});
        });
  }
};

} // namespace

void vnm::loops::populateQuantizeLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<QuantizeLowering>(patterns.getContext());
}
