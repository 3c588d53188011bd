//===- UnrollKernelLoops.cpp - unroll pipelined K loops by the ring depth -===//
//
// A pipelined K loop reads ring slot i mod S and fills slot
// (i + S - 1) mod S in iteration i. Unrolled by a multiple of S from a
// start that is a multiple of S, every copy of the body has fixed slots:
// the remainders fold to constants here, and the slot addresses become
// immediate offsets of the shared-memory instructions. The leftover
// iterations of the static trip count are unrolled completely.
//
//===----------------------------------------------------------------------===//

#include "KernelLoops.h"
#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

namespace vnm {
#define GEN_PASS_DEF_VNMUNROLLKERNELLOOPS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm::vnm_gpu;
using vnm::kernel::isKernelLoop;

namespace {

/// A non-negative integer constant, or std::nullopt.
std::optional<int64_t> getNonNegativeConstant(Value value) {
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)) || constant.isNegative() ||
      constant.getActiveBits() > 62)
    return std::nullopt;
  return constant.getSExtValue();
}

/// The remainder modulo `modulus` that `value` has in every iteration of
/// the loops around it, where it is built by additions, multiplications
/// and casts from non-negative constants and from induction variables of
/// loops that start at and step by multiples of the modulus; std::nullopt
/// where that is not known. The values are iteration numbers, far from
/// any integer width's wrap-around.
std::optional<int64_t> getInvariantRemainder(Value value, int64_t modulus) {
  if (std::optional<int64_t> constant = getNonNegativeConstant(value))
    return *constant % modulus;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    if (!loop || argument != loop.getInductionVar())
      return std::nullopt;
    std::optional<int64_t> lower = getNonNegativeConstant(loop.getLowerBound());
    std::optional<int64_t> step = getNonNegativeConstant(loop.getStep());
    if (!lower || !step || *lower % modulus || *step % modulus)
      return std::nullopt;
    return 0;
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(op))
    return getInvariantRemainder(op->getOperand(0), modulus);
  if (!isa<arith::AddIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<int64_t> lhs =
      getInvariantRemainder(op->getOperand(0), modulus);
  std::optional<int64_t> rhs =
      getInvariantRemainder(op->getOperand(1), modulus);
  if (!lhs || !rhs)
    return std::nullopt;
  return (isa<arith::AddIOp>(op) ? *lhs + *rhs : *lhs * *rhs) % modulus;
}

/// Replaces each unsigned remainder in `func` whose value is the same in
/// every iteration by that constant.
void foldInvariantRemainders(gpu::GPUFuncOp func) {
  SmallVector<arith::RemUIOp> remainders;
  func.walk([&](arith::RemUIOp op) { remainders.push_back(op); });
  IRRewriter rewriter(func.getContext());
  for (arith::RemUIOp op : remainders) {
    std::optional<int64_t> modulus = getNonNegativeConstant(op.getRhs());
    if (!modulus || *modulus == 0)
      continue;
    std::optional<int64_t> remainder =
        getInvariantRemainder(op.getLhs(), *modulus);
    if (!remainder)
      continue;
    rewriter.setInsertionPoint(op);
    rewriter.replaceOp(op,
                       arith::ConstantOp::create(
                           rewriter, op.getLoc(),
                           rewriter.getIntegerAttr(op.getType(), *remainder)));
  }
}

struct UnrollKernelLoopsPass
    : public vnm::impl::VNMUnrollKernelLoopsBase<UnrollKernelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> funcs;
    getOperation().walk([&](gpu::GPUFuncOp func) { funcs.push_back(func); });
    for (gpu::GPUFuncOp func : funcs)
      if (failed(unrollKernel(func)))
        return signalPassFailure();
  }

  LogicalResult unrollKernel(gpu::GPUFuncOp func) {
    int64_t unroll = factor;
    if (unroll < 0)
      return func.emitOpError("vnm-unroll-kernel-loops: factor must be >= 0, "
                              "got ")
             << unroll;
    if (!unroll) {
      Attribute attr = func->getAttr(kUnrollAttrName);
      auto value = dyn_cast_if_present<IntegerAttr>(attr);
      if (attr && (!value || value.getInt() < 1))
        return func.emitOpError("has ")
               << kUnrollAttrName << " = " << attr
               << "; the K loop's unroll factor must be an integer >= 1";
      unroll = value ? value.getInt() : 1;
    }
    if (unroll == 1)
      return success();
    // The pipeliner leaves the loop bounds as arithmetic on constants:
    // folding them (with no other rewrite) makes the trip count static.
    (void)applyPatternsGreedily(func, FrozenRewritePatternSet());
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (isKernelLoop(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->getSExtValue() < unroll)
        continue;
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, unroll);
      if (failed(unrolled))
        return loop.emitOpError("could not be unrolled by ") << unroll;
      if (unrolled->epilogueLoopOp &&
          failed(loopUnrollFull(*unrolled->epilogueLoopOp)))
        return loop.emitOpError("leftover iterations could not be unrolled");
    }
    foldInvariantRemainders(func);
    return success();
  }
};

} // namespace
