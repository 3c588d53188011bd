//===- PipelineKernels.cpp - software pipelining of generated K loops -----===//
//
// vnm-lower-to-gpu emits each kernel's K loop as a plain sequence per
// iteration (load, gather into a ring slot, wait for it, compute) whose ops
// carry a pipeline stage and an order. This pass hands that schedule to
// upstream's scf loop pipeliner, which issues every stage s of iteration
// i + (maxStage - s) in the same loop body, with a prologue and an epilogue.
// It also sets the cp.async wait counts, which depend on how many gathers
// the schedule keeps in flight.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "SpmmKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace vnm {
#define GEN_PASS_DEF_VNMPIPELINEKERNELS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm::kernel;

namespace {

int64_t getTag(Operation *op, StringRef name) {
  return cast<IntegerAttr>(op->getAttr(name)).getInt();
}

bool isTaggedLoop(scf::ForOp loop) {
  return llvm::any_of(loop.getBody()->without_terminator(), [](Operation &op) {
    return op.hasAttr(kPipelineStageAttr);
  });
}

/// The loop body's ops in pipelined order (by order tag, then as they stand).
SmallVector<Operation *> scheduledOps(scf::ForOp loop) {
  SmallVector<Operation *> ops;
  for (Operation &op : loop.getBody()->without_terminator())
    ops.push_back(&op);
  llvm::stable_sort(ops, [](Operation *x, Operation *y) {
    return getTag(x, kPipelineOrderAttr) < getTag(y, kPipelineOrderAttr);
  });
  return ops;
}

/// More stages would copy the loop body that many times into the prologue
/// and epilogue; the kernels use at most 7 (a 6-stage ring).
constexpr int64_t kMaxPipelineStage = 16;

/// Checks the schedule: every op of the loop body has a stage (at most
/// kMaxPipelineStage) and an order; every value an op reads from another op
/// of the body comes from an earlier stage, or from the same stage earlier
/// in the pipelined order; a loop-carried value is yielded by an op of the
/// same or an earlier stage than its readers; the cp.async commit groups
/// come from one stage and the waits from a later one. Returns the number
/// of groups a wait may leave pending in the pipelined loop: those of the
/// gathers issued after the awaited one, i.e. waitStage - commitStage - 1.
FailureOr<int64_t> checkSchedule(scf::ForOp loop) {
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    if (!op.hasAttr(kPipelineStageAttr) || !op.hasAttr(kPipelineOrderAttr))
      return op.emitOpError("in a pipelined kernel loop has no ")
             << kPipelineStageAttr << " or " << kPipelineOrderAttr;
    if (getTag(&op, kPipelineStageAttr) > kMaxPipelineStage)
      return op.emitOpError("is in pipeline stage ")
             << getTag(&op, kPipelineStageAttr) << ", beyond the "
             << kMaxPipelineStage << " a kernel loop may have";
  }
  DenseMap<Operation *, std::pair<int64_t, size_t>> place;
  SmallVector<Operation *> ops = scheduledOps(loop);
  for (auto [position, op] : llvm::enumerate(ops))
    place[op] = {getTag(op, kPipelineStageAttr), position};
  auto topLevel = [&](Operation *op) {
    return body->findAncestorOpInBlock(*op);
  };
  auto yielded = loop.getYieldedValues();
  for (Operation *op : ops) {
    auto [stage, position] = place[op];
    WalkResult walk = op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        auto argument = dyn_cast<BlockArgument>(operand);
        if (argument && argument.getOwner() == body &&
            argument.getArgNumber() > 0) {
          Value next = yielded[argument.getArgNumber() - 1];
          Operation *producer =
              next.getDefiningOp() ? topLevel(next.getDefiningOp()) : nullptr;
          if (producer && place.count(producer) &&
              place[producer].first > stage) {
            op->emitOpError("in pipeline stage ")
                << stage << " reads a loop-carried value that stage "
                << place[producer].first << " yields";
            return WalkResult::interrupt();
          }
          continue;
        }
        Operation *definition = operand.getDefiningOp();
        Operation *producer = definition ? topLevel(definition) : nullptr;
        if (!producer || producer == op || !place.count(producer))
          continue;
        auto [producerStage, producerPosition] = place[producer];
        if (producerStage > stage ||
            (producerStage == stage && producerPosition > position)) {
          op->emitOpError("in pipeline stage ")
              << stage << " reads a value of an op in stage " << producerStage
              << (producerStage == stage ? " that comes later in the order"
                                         : "");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }

  std::optional<int64_t> commitStage, waitStage;
  for (Operation *op : ops) {
    int64_t stage = place[op].first;
    auto note = [&](std::optional<int64_t> &seen) -> LogicalResult {
      if (seen && *seen != stage)
        return op->emitOpError("is in pipeline stage ")
               << stage << ", but an op like it is in stage " << *seen;
      seen = stage;
      return success();
    };
    if (isa<NVVM::CpAsyncCommitGroupOp>(op) && failed(note(commitStage)))
      return failure();
    if (isa<NVVM::CpAsyncWaitGroupOp>(op) && failed(note(waitStage)))
      return failure();
  }
  if (!commitStage || !waitStage || *waitStage <= *commitStage)
    return loop.emitOpError("pipelined kernel loop needs its cp.async "
                            "commits in an earlier stage than its waits");
  return *waitStage - *commitStage - 1;
}

struct PipelineKernelsPass
    : public vnm::impl::VNMPipelineKernelsBase<PipelineKernelsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](mlir::gpu::GPUFuncOp func) {
      func.walk([&](scf::ForOp loop) {
        if (isTaggedLoop(loop))
          loops.push_back(loop);
      });
    });
    for (scf::ForOp loop : loops) {
      if (failed(pipeline(loop)))
        return signalPassFailure();
    }
    // The tags have served; hoisted ops and the fallback loop carry them too.
    getOperation().walk([](Operation *op) {
      op->removeAttr(kPipelineStageAttr);
      op->removeAttr(kPipelineOrderAttr);
    });
  }

  LogicalResult pipeline(scf::ForOp loop) {
    FailureOr<int64_t> pendingGroups = checkSchedule(loop);
    if (failed(pendingGroups))
      return failure();
    // Loop-invariant address arithmetic leaves the loop first, so that it
    // is computed once instead of being carried between stages.
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));

    scf::PipeliningOption options;
    options.getScheduleFn =
        [](scf::ForOp forOp,
           std::vector<std::pair<Operation *, unsigned>> &schedule) {
          for (Operation *op : scheduledOps(forOp))
            schedule.emplace_back(
                op, static_cast<unsigned>(getTag(op, kPipelineStageAttr)));
        };
    // In the loop, a wait leaves the later gathers in flight; in the
    // epilogue no gathers follow, so it waits for everything.
    int64_t pending = *pendingGroups;
    options.annotateFn = [pending](Operation *op,
                                   scf::PipeliningOption::PipelinerPart part,
                                   unsigned) {
      auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op);
      if (!wait)
        return;
      bool inKernel = part == scf::PipeliningOption::PipelinerPart::Kernel;
      wait.setN(inKernel ? pending : 0);
    };
    IRRewriter rewriter(loop.getContext());
    rewriter.setInsertionPoint(loop);
    bool modified = false;
    if (succeeded(scf::pipelineForLoop(rewriter, loop, options, &modified)))
      return success();
    // Fewer iterations than stages: the plain loop stays, and is correct.
    if (modified)
      return loop.emitOpError("software pipelining failed half way");
    return success();
  }
};

} // namespace
