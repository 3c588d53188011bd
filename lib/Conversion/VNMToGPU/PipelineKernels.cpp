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

/// Checks that every op of the loop body has a stage and an order, and that
/// the cp.async commit groups come from one stage and the waits from a later
/// one. Returns the number of groups a wait may leave pending in the
/// pipelined loop: those of the gathers issued after the awaited one, i.e.
/// waitStage - commitStage - 1.
FailureOr<int64_t> checkSchedule(scf::ForOp loop) {
  std::optional<int64_t> commitStage, waitStage;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!op.hasAttr(kPipelineStageAttr) || !op.hasAttr(kPipelineOrderAttr))
      return op.emitOpError("in a pipelined kernel loop has no ")
             << kPipelineStageAttr << " or " << kPipelineOrderAttr;
    int64_t stage = getTag(&op, kPipelineStageAttr);
    auto note = [&](std::optional<int64_t> &seen) -> LogicalResult {
      if (seen && *seen != stage)
        return op.emitOpError("is in pipeline stage ")
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
          SmallVector<Operation *> ops;
          for (Operation &op : forOp.getBody()->without_terminator())
            ops.push_back(&op);
          llvm::stable_sort(ops, [](Operation *x, Operation *y) {
            return getTag(x, kPipelineOrderAttr) <
                   getTag(y, kPipelineOrderAttr);
          });
          for (Operation *op : ops)
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
