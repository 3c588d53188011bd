//===- ProduceConsumeLowering.cpp - the producer/consumer split on sm_90a -===//
//
// vnm_gpu.produce_consume becomes the warp-specialized loop that
// docs/hopper.md section 6 measured on the H200, still at the level of tile
// ops (the copy, fragment and MMA ops inside are lowered by their own
// patterns afterwards):
//
// * one mbarrier pair per slot in shared memory (`<kernel>_mbarriers`):
//   `full` completes when the producer has announced the slot's bytes and
//   all of them have landed; `empty` when every consumer thread released
//   the slot;
// * the producers (the block's last threads) lower their registers
//   (setmaxnreg.dec) and one of them runs the produce region per pair:
//   wait until the slot's previous use was released, announce the bytes
//   (mbarrier.arrive.expect_tx), issue the region's TMA and bulk copies,
//   which complete the full barrier by bytes;
// * the consumers raise theirs (setmaxnreg.inc) and run the consume region
//   per pair after the slot's full barrier, unrolled by two so that a
//   pair's A registers are loaded only after the MMAs that read the same
//   registers two pairs earlier have retired; the slot of pair p is
//   released after the region of pair p + 1, whose last MMA waited for all
//   groups but its own (produce_consume C7);
// * the ops after produce_consume (the epilogue) run in the consumers'
//   branch, after a wait for every MMA group.
//
// Phases: pair i (counted from `lower`) uses slot i mod S in round i / S;
// the full barrier of a slot completes once per round (parity round & 1);
// the producer reuses the slot in round r >= 1 after the empty barrier's
// phase r - 1 (parity (r - 1) & 1).
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

Value lowering::getSlotBarrier(KernelIRBuilder &kb, Operation *op,
                               int64_t stages, Value slot, bool empty) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto module = func->getParentOfType<gpu::GPUModuleOp>();
  std::string name = (func.getName() + "_mbarriers").str();
  OpBuilder &b = kb.builder();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(func);
    LLVM::GlobalOp::create(
        b, kb.location(), LLVM::LLVMArrayType::get(b.getI64Type(), 2 * stages),
        /*isConstant=*/false, LLVM::Linkage::Internal, name, Attribute(),
        /*alignment=*/8, kSharedSpace);
  }
  Value base = LLVM::AddressOfOp::create(
      b, kb.location(),
      LLVM::LLVMPointerType::get(b.getContext(), kSharedSpace), name);
  Value index = empty ? kb.add(slot, kb.c32(stages)) : slot;
  return kb.add(kb.sharedAddress(base), kb.mul(index, kb.c32(8)));
}

namespace {

/// Waits until the phase of parity `parity` of the mbarrier at `barrier`
/// has completed.
void waitForPhase(KernelIRBuilder &kb, Value barrier, Value parity) {
  kb.ptx("{\n.reg .pred done;\nwait:\n"
         "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
         "@!done bra wait;\n}",
         {barrier, parity}, "r,r");
}

void arrive(KernelIRBuilder &kb, Value barrier) {
  kb.ptx("mbarrier.arrive.shared::cta.b64 _, [$0];", {barrier}, "r");
}

/// The bytes the produce region's copies land in one slot, or a failure
/// naming the first op that the sm_90a protocol cannot issue from one
/// producer thread.
FailureOr<int64_t> getProducedBytes(ProduceConsumeOp split) {
  int64_t bytes = 0;
  for (Operation &op : split.getProduce().front().without_terminator()) {
    if (auto copy = dyn_cast<TmaCopyTileOp>(op)) {
      bytes += copy.getRing().getType().getSlotBytes();
      continue;
    }
    if (auto stage = dyn_cast<StageSparseAOp>(op)) {
      if (stage.getLayout())
        return stage.emitOpError(
            "with a copy layout (cp.async by the producer threads) has no "
            "sm_90a lowering: without one it is bulk-copied by one thread");
      bytes += stage.getRing().getType().getSlotBytes();
      continue;
    }
    if (isMemoryEffectFree(&op) && op.getNumRegions() == 0)
      continue;
    return op.emitOpError(
        "has no sm_90a lowering in the produce region of "
        "vnm_gpu.produce_consume: one producer thread issues "
        "vnm_gpu.tma_copy_tile and vnm_gpu.stage_sparse_a (bulk) copies");
  }
  return bytes;
}

/// Clones `region`'s block at the builder's position with its arguments
/// mapped to `args`; returns the values it yields.
SmallVector<Value> inlineRegion(OpBuilder &b, Region &region, ValueRange args) {
  IRMapping mapping;
  mapping.map(region.getArguments(), args);
  for (Operation &op : region.front().without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value value : region.front().getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

void setMaxRegisters(KernelIRBuilder &kb, int64_t registers, bool increase) {
  kb.ptx((Twine("setmaxnreg.") + (increase ? "inc" : "dec") +
          ".sync.aligned.u32 " + Twine(registers) + ";")
             .str(),
         {}, "");
}

} // namespace

LogicalResult lowering::expandProduceConsume(gpu::GPUFuncOp func) {
  ProduceConsumeOp split;
  func.walk([&](ProduceConsumeOp op) { split = op; });
  if (!split)
    return success();
  FailureOr<int64_t> bytes = getProducedBytes(split);
  if (failed(bytes))
    return failure();
  std::optional<int64_t> consumers = split.getConsumerThreads();
  if (!consumers)
    return split.emitOpError("needs the kernel's known block size on sm_90a "
                             "(it splits the block by thread index)");
  WgmmaSpOp lastMma;
  split.getConsume().walk([&](WgmmaSpOp mma) { lastMma = mma; });
  if (lastMma && *lastMma.getPending() > 1)
    return lastMma.emitOpError(
        "leaves more than one group running at the end of a consume region: "
        "the sm_90a protocol releases a pair's slot after the next pair");

  OpBuilder b(split);
  KernelIRBuilder kb(b, split.getLoc());
  Location loc = split.getLoc();
  int64_t stages = split.getStages();
  Value tid = kb.threadIdX();
  auto barrier = [&](Value slot, bool empty) {
    return getSlotBarrier(kb, split, stages, slot, empty);
  };

  // One thread initializes the barriers; the fence makes them visible to
  // the async proxy (the copies complete on them), the block barrier to
  // every thread.
  kb.ifThen(kb.eq(tid, kb.c32(0)), [&] {
    for (int64_t s = 0; s < stages; ++s) {
      kb.ptx("mbarrier.init.shared::cta.b64 [$0], $1;",
             {barrier(kb.c32(s), false), kb.c32(1)}, "r,r");
      kb.ptx("mbarrier.init.shared::cta.b64 [$0], $1;",
             {barrier(kb.c32(s), true), kb.c32(*consumers)}, "r,r");
    }
  });
  kb.ptx("fence.mbarrier_init.release.cluster;", {}, "");
  gpu::BarrierOp::create(b, loc);

  Value lower = split.getLower(), upper = split.getUpper();
  Value cStages = kb.c32(stages);
  auto ifOp = scf::IfOp::create(b, loc, kb.ult(tid, kb.c32(*consumers)),
                                /*withElseRegion=*/true);

  // Producers.
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  setMaxRegisters(kb, split.getProducerRegisters(), /*increase=*/false);
  kb.ifThen(kb.eq(tid, kb.c32(*consumers)), [&] {
    scf::ForOp::create(
        b, loc, lower, upper, kb.c32(1), ValueRange(),
        [&](OpBuilder &nb, Location, Value pair, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value index = arith::SubIOp::create(b, loc, pair, lower);
          Value slot = kb.remu(index, cStages);
          Value round = kb.divu(index, cStages);
          kb.ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          index, cStages),
                    [&] {
                      Value parity =
                          kb.bitXor(kb.bitAnd(round, kb.c32(1)), kb.c32(1));
                      waitForPhase(kb, barrier(slot, true), parity);
                    });
          kb.ptx("mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;",
                 {barrier(slot, false), kb.c32(*bytes)}, "r,r");
          inlineRegion(b, split.getProduce(), {pair, slot});
          scf::YieldOp::create(b, loc);
        });
  });

  // Consumers: pairs p (even index) and p + 1 per iteration.
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  setMaxRegisters(kb, split.getConsumerRegisters(), /*increase=*/true);
  auto consumePair = [&](Value pair, Value index, ValueRange carried) {
    Value slot = kb.remu(index, cStages);
    Value parity = kb.bitAnd(kb.divu(index, cStages), kb.c32(1));
    waitForPhase(kb, barrier(slot, false), parity);
    SmallVector<Value> args = {pair, slot};
    llvm::append_range(args, carried);
    return inlineRegion(b, split.getConsume(), args);
  };
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, kb.c32(2), split.getInits(),
      [&](OpBuilder &nb, Location, Value pair, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value index = arith::SubIOp::create(b, loc, pair, lower);
        SmallVector<Value> first = consumePair(pair, index, carried);
        // Pair index - 1's MMAs have retired: release its slot.
        kb.ifThen(kb.ult(kb.c32(0), index), [&] {
          arrive(kb,
                 barrier(kb.remu(kb.add(index, kb.c32(stages - 1)), cStages),
                         true));
        });
        Value next = kb.add(pair, kb.c32(1));
        auto second = scf::IfOp::create(
            b, loc, TypeRange(ValueRange(first)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next,
                                  upper),
            /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(second.thenBlock());
          SmallVector<Value> sums =
              consumePair(next, kb.add(index, kb.c32(1)), first);
          arrive(kb, barrier(kb.remu(index, cStages), true));
          scf::YieldOp::create(b, loc, sums);
          b.setInsertionPointToStart(second.elseBlock());
          scf::YieldOp::create(b, loc, first);
        }
        scf::YieldOp::create(b, loc, second.getResults());
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);

  // After the op only the consumers run.
  Block *block = split->getBlock();
  Operation *terminator = block->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
           std::next(Block::iterator(ifOp)), Block::iterator(terminator))))
    op.moveBefore(ifOp.thenBlock()->getTerminator());
  split.replaceAllUsesWith(loop.getResults());
  split.erase();
  return success();
}

void lowering::bindTensorMapParameters(gpu::GPUFuncOp func) {
  SmallVector<int64_t> params;
  Block &entry = func.getBody().front();
  OpBuilder b(&entry, entry.begin());
  auto pointer = LLVM::LLVMPointerType::get(func.getContext());
  for (BlockArgument arg : entry.getArguments()) {
    if (!isTensorMapParameter(arg))
      continue;
    // The copies keep reading a memref (their own operand type) through a
    // cast that their lowering looks through to the tensor map's pointer.
    Type original = arg.getType();
    arg.setType(pointer);
    auto cast = UnrealizedConversionCastOp::create(b, func.getLoc(), original,
                                                   ValueRange{arg});
    arg.replaceAllUsesExcept(cast.getResult(0), cast);
    params.push_back(arg.getArgNumber());
  }
  if (params.empty())
    return;
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 func.getResultTypes()));
  func->setAttr(kTensorMapParamsAttrName,
                DenseI64ArrayAttr::get(func.getContext(), params));
}
