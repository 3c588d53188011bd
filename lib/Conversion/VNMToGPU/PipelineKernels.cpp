//===- PipelineKernels.cpp - software pipelining of tile-program K loops --===//
//
// vnm-lower-to-gpu emits each kernel's K loop as a plain sequence per
// iteration (column-locs, copy into a ring slot, A fragments, wait,
// B fragments and MMAs). This pass gives each tile op a pipeline stage
// from its kind and the ring's depth S, hands that schedule to upstream's
// scf loop pipeliner (which issues every stage s of iteration
// i + (maxStage - s) in one loop body, with a prologue and an epilogue),
// and sets the waits' pending counts, which depend on how many copies the
// schedule keeps in flight.
//
//===----------------------------------------------------------------------===//

#include "KernelLoops.h"
#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

namespace vnm {
#define GEN_PASS_DEF_VNMPIPELINEKERNELS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm::vnm_gpu;
using vnm::kernel::isKernelLoop;

namespace {

/// Where an op goes in the pipelined loop: its stage, and its place in the
/// loop body (ops are ordered by it, then as they stand).
struct Placement {
  int64_t stage;
  int64_t order;
};

/// The placement of each kind of tile op for a ring of `stages` slots.
/// Iteration i of the pipelined loop reads the column-locs of pair
/// i + S (of pair i + 1 for a token-major gather), loads the A fragments
/// of pair i + 1, waits for the copy of pair
/// i, copies pair i + S - 1 into the slot that pair i - 1 was read from
/// (the wait's barrier guarantees every thread is done with it), and
/// computes pair i. Global loads come first so that their latency overlaps
/// the wait.
std::optional<Placement> placeTileOp(Operation *op, int64_t stages) {
  // Column-locs a gather uses go S stages ahead of their pair; those a
  // load_b selects through go one stage ahead, with the A fragments, so
  // that only four selectors per lane cross the loop's back edge.
  if (isa<LoadColLocOp>(op)) {
    bool selectsInLoadB = llvm::any_of(
        op->getUsers(), [](Operation *user) { return isa<LoadBOp>(user); });
    return selectsInLoadB ? Placement{stages - 1, 1} : Placement{0, 0};
  }
  if (isa<GatherOp, CopyTileOp, StageSparseAOp>(op))
    return Placement{1, 3};
  if (isa<LoadSparseAOp>(op))
    return Placement{stages - 1, 1};
  if (isa<WaitOp>(op))
    return Placement{stages, 2};
  // A staged with B is read from its slot after the wait, with the MMAs.
  if (isa<LoadStagedAOp, LoadBOp, MmaSpOp, WgmmaSpOp, GroupScaleOp>(op))
    return Placement{stages, 4};
  return std::nullopt;
}

/// Places every op of the loop body. Tile ops are placed by kind; a
/// side-effect-free op goes with its users, and is cloned for each further
/// stage that uses it, so that only loaded data crosses stages (an index
/// is cheaper to recompute than to carry).
FailureOr<DenseMap<Operation *, Placement>> placeBody(scf::ForOp loop,
                                                      int64_t stages) {
  DenseMap<Operation *, Placement> place;
  Block *body = loop.getBody();
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    if (std::optional<Placement> fixed = placeTileOp(op, stages)) {
      place[op] = *fixed;
      continue;
    }
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return op->emitOpError("in a kernel K loop is neither a vnm_gpu tile op "
                             "nor free of side effects, so it cannot be "
                             "pipelined");
    // Users by stage (the earliest order of each).
    std::map<int64_t, SmallVector<OpOperand *>> usesByStage;
    std::map<int64_t, int64_t> orderOfStage;
    for (OpOperand &use : op->getUses()) {
      Operation *user = body->findAncestorOpInBlock(*use.getOwner());
      if (!user || user == body->getTerminator())
        return op->emitOpError("in a kernel K loop feeds the loop's yield or "
                               "a value outside it; only tile ops may");
      Placement p = place.lookup(user);
      usesByStage[p.stage].push_back(&use);
      auto [it, inserted] = orderOfStage.try_emplace(p.stage, p.order);
      if (!inserted)
        it->second = std::min(it->second, p.order);
    }
    if (usesByStage.empty()) {
      op->erase(); // Dead, and so in no stage.
      continue;
    }
    auto first = usesByStage.begin();
    place[op] = {first->first, orderOfStage[first->first]};
    for (auto it = std::next(first); it != usesByStage.end(); ++it) {
      OpBuilder builder(op);
      Operation *copy = builder.clone(*op);
      for (OpOperand *use : it->second)
        use->set(copy->getResult(cast<OpResult>(use->get()).getResultNumber()));
      place[copy] = {it->first, orderOfStage[it->first]};
    }
  }
  return place;
}

/// The body's ops in pipelined order: by order, then as they stand (a
/// sort on both keys rather than a stable sort, whose libstdc++ form uses
/// the deprecated std::get_temporary_buffer).
SmallVector<Operation *>
scheduledOps(scf::ForOp loop, const DenseMap<Operation *, Placement> &place) {
  SmallVector<std::pair<int64_t, Operation *>> keyed;
  for (Operation &op : loop.getBody()->without_terminator())
    keyed.push_back({place.lookup(&op).order, &op});
  DenseMap<Operation *, size_t> position;
  for (auto [index, entry] : llvm::enumerate(keyed))
    position[entry.second] = index;
  llvm::sort(keyed, [&](const auto &x, const auto &y) {
    return x.first != y.first ? x.first < y.first
                              : position[x.second] < position[y.second];
  });
  SmallVector<Operation *> ops;
  for (auto &entry : keyed)
    ops.push_back(entry.second);
  return ops;
}

/// Checks the schedule: every value an op reads from another op of the
/// body comes from an earlier stage, or from the same stage earlier in the
/// pipelined order; a loop-carried value is yielded by an op of the same
/// or an earlier stage than its readers; the copies come from one stage
/// and the waits from one later stage. Returns the number of copies a wait
/// may leave pending in the pipelined loop: those of the iterations issued
/// after the awaited one, (waitStage - copyStage - 1) times the copies of
/// one iteration (B's, and A's where the block stages it).
FailureOr<int64_t>
checkSchedule(scf::ForOp loop, const DenseMap<Operation *, Placement> &place) {
  Block *body = loop.getBody();
  SmallVector<Operation *> ops = scheduledOps(loop, place);
  DenseMap<Operation *, size_t> position;
  for (auto [index, op] : llvm::enumerate(ops))
    position[op] = index;
  auto yielded = loop.getYieldedValues();
  for (Operation *op : ops) {
    int64_t stage = place.lookup(op).stage;
    WalkResult walk = op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        auto argument = dyn_cast<BlockArgument>(operand);
        if (argument && argument.getOwner() == body &&
            argument.getArgNumber() > 0) {
          Operation *producer =
              yielded[argument.getArgNumber() - 1].getDefiningOp();
          producer =
              producer ? body->findAncestorOpInBlock(*producer) : nullptr;
          if (producer && place.lookup(producer).stage > stage) {
            op->emitOpError("in pipeline stage ")
                << stage << " reads a loop-carried value that stage "
                << place.lookup(producer).stage << " yields";
            return WalkResult::interrupt();
          }
          continue;
        }
        Operation *definition = operand.getDefiningOp();
        Operation *producer =
            definition ? body->findAncestorOpInBlock(*definition) : nullptr;
        if (!producer || producer == op)
          continue;
        int64_t producerStage = place.lookup(producer).stage;
        if (producerStage > stage ||
            (producerStage == stage && position[producer] > position[op])) {
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
  std::optional<int64_t> copyStage, waitStage;
  int64_t copies = 0;
  for (Operation *op : ops) {
    if (!isa<GatherOp, CopyTileOp, StageSparseAOp, WaitOp>(op))
      continue;
    std::optional<int64_t> &seen = isa<WaitOp>(op) ? waitStage : copyStage;
    if (seen && *seen != place.lookup(op).stage)
      return op->emitOpError("kernel K loop needs all its ring copies in one "
                             "stage and all its waits in one");
    seen = place.lookup(op).stage;
    copies += !isa<WaitOp>(op);
  }
  if (!copyStage || !waitStage || *waitStage <= *copyStage)
    return loop.emitOpError("kernel K loop needs its ring copies in an "
                            "earlier stage than its waits");
  return (*waitStage - *copyStage - 1) * copies;
}

struct PipelineKernelsPass
    : public vnm::impl::VNMPipelineKernelsBase<PipelineKernelsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      func.walk([&](scf::ForOp loop) {
        if (isKernelLoop(loop))
          loops.push_back(loop);
      });
    });
    for (scf::ForOp loop : loops)
      if (failed(pipeline(loop)))
        return signalPassFailure();
  }

  LogicalResult pipeline(scf::ForOp loop) {
    SmallVector<int64_t> depths;
    for (WaitOp wait : loop.getBody()->getOps<WaitOp>())
      depths.push_back(wait.getRing().getType().getStages());
    if (llvm::any_of(depths, [&](int64_t s) { return s != depths.front(); }))
      return loop.emitOpError("kernel K loop waits for rings of different "
                              "depths");
    FailureOr<DenseMap<Operation *, Placement>> place =
        placeBody(loop, depths.front());
    if (failed(place))
      return failure();
    FailureOr<int64_t> pendingCopies = checkSchedule(loop, *place);
    if (failed(pendingCopies))
      return failure();

    scf::PipeliningOption options;
    options.getScheduleFn =
        [&](scf::ForOp forOp,
            std::vector<std::pair<Operation *, unsigned>> &schedule) {
          for (Operation *op : scheduledOps(forOp, *place))
            schedule.emplace_back(
                op, static_cast<unsigned>(place->lookup(op).stage));
        };
    // In the loop, a wait leaves the later copies in flight; in the
    // epilogue no copies follow, so it waits for all of them.
    int64_t pending = *pendingCopies;
    options.annotateFn = [pending](Operation *op,
                                   scf::PipeliningOption::PipelinerPart part,
                                   unsigned) {
      auto wait = dyn_cast<WaitOp>(op);
      if (!wait)
        return;
      bool inKernel = part == scf::PipeliningOption::PipelinerPart::Kernel;
      wait.setPending(inKernel ? pending : 0);
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
