//===- ConvertVNMGPUToNVVM.cpp - the convert-vnm-gpu-to-nvvm pass ---------===//
//
// Lowers the tile programs of a gpu.module to NVVM: one conversion pattern
// per vnm_gpu op (files per op family), tile values become the registers
// each thread holds of them (a 1:N type conversion carried through scf
// loops), flat memref arguments become bare global pointers, so that a
// kernel's parameters are exactly what the launch contract lists.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include "TileLowering.h"

namespace vnm {
#define GEN_PASS_DEF_CONVERTVNMGPUTONVVM
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm::vnm_gpu;

namespace {

/// Moves each ldmatrix (with the extractions of its registers) down to just
/// before the first op that uses them, past ops that neither write memory
/// nor synchronize: vnm_gpu.load_b loads a whole B fragment, but each n8
/// tile of it feeds its MMAs right away, so only one tile's registers need
/// to be live at a time.
void sinkFragmentLoads(Operation *root) {
  SmallVector<NVVM::LdMatrixOp> loads;
  root->walk([&](NVVM::LdMatrixOp load) { loads.push_back(load); });
  for (NVVM::LdMatrixOp load : llvm::reverse(loads)) {
    Block *block = load->getBlock();
    // The load's own address arithmetic (ops used by nothing else) goes
    // with it.
    SmallVector<Operation *> address;
    SmallVector<Value> worklist = {load->getOperand(0)};
    while (!worklist.empty()) {
      Operation *producer = worklist.pop_back_val().getDefiningOp();
      if (!producer || producer->getBlock() != block ||
          !isMemoryEffectFree(producer) || !producer->hasOneUse() ||
          producer->getNumRegions() != 0)
        continue;
      address.push_back(producer);
      llvm::append_range(worklist, producer->getOperands());
    }
    SmallVector<Operation *> moved(address.rbegin(), address.rend());
    moved.push_back(load);
    for (Operation *user : load->getUsers())
      if (isa<LLVM::ExtractValueOp>(user) && user->getBlock() == block)
        moved.push_back(user);
    // The first op after the load that uses a moved value, or that the
    // load may not pass.
    Operation *stop = nullptr;
    for (Operation *op = load->getNextNode(); op; op = op->getNextNode()) {
      if (llvm::is_contained(moved, op))
        continue;
      bool uses = llvm::any_of(op->getOperands(), [&](Value operand) {
        return llvm::is_contained(moved, operand.getDefiningOp());
      });
      // mma.sp only touches registers (NVVM does not declare it pure).
      bool reorderable =
          isa<NVVM::LdMatrixOp, NVVM::MmaSpOp>(op) || isMemoryEffectFree(op);
      if (uses || !reorderable || op->getNumRegions() != 0) {
        stop = op;
        break;
      }
    }
    if (!stop)
      continue;
    for (Operation *op : moved)
      op->moveBefore(stop);
  }
}

/// Moves the loop-invariant, side-effect-free ops of the kernel's K loops
/// (each thread's address setup, which every op lowering computes where the
/// op stands) to the kernel's entry, ahead of its first memory access, so
/// that they are computed once and the pipelined prologue's copies of them
/// fold into these (CSE).
void hoistLoopSetup(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  Operation *firstAccess = nullptr;
  for (Operation &op : entry)
    if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0) {
      firstAccess = &op;
      break;
    }
  if (!firstAccess)
    return;
  DominanceInfo dominance(func);
  func.walk([&](scf::ForOp loop) {
    for (Operation &op :
         llvm::make_early_inc_range(loop.getBody()->without_terminator())) {
      if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
        continue;
      bool available = llvm::all_of(op.getOperands(), [&](Value operand) {
        return dominance.properlyDominates(operand, firstAccess);
      });
      if (available)
        op.moveBefore(firstAccess);
    }
  });
}

/// Computes the thread's coordinates in the kernel's MMA and copy layouts
/// and its base offsets in a ring slot (for B fragments and for copies)
/// once, at the kernel's entry; the op lowerings compute the same values
/// where they need them, and CSE folds those into these.
void emitThreadCoordinates(gpu::GPUFuncOp func) {
  MmaLayoutAttr mma;
  CopyLayoutAttr copy;
  RingType ring;
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      if (auto acc = dyn_cast<AccType>(type); acc && !mma)
        mma = acc.getLayout();
      if (auto r = dyn_cast<RingType>(type); r && !ring)
        ring = r;
    }
    if (auto gather = dyn_cast<GatherOp>(op); gather && !copy)
      copy = gather.getColloc().getType().getCopyLayout();
    if (auto tile = dyn_cast<CopyTileOp>(op); tile && !copy)
      copy = tile.getLayout();
  });
  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&func.getBody().front());
  vnm::kernel::KernelIRBuilder kb(builder, func.getLoc());
  if (mma)
    lowering::getThreadCoordinates(kb, mma);
  if (mma && ring)
    lowering::getFragmentLaneOffset(kb, ring, mma, ring.getCols());
  if (copy && ring)
    lowering::getCopyRowOffset(kb, ring, copy);
}

struct ConvertVNMGPUToNVVMPass
    : public vnm::impl::ConvertVNMGPUToNVVMBase<ConvertVNMGPUToNVVMPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    lowering::addTileTypeConversions(converter);

    // The producer/consumer split becomes its sm_90a protocol around the
    // tile ops it holds, which the patterns below lower with the others.
    WalkResult expanded = getOperation().walk([](gpu::GPUFuncOp func) {
      if (failed(lowering::expandProduceConsume(func)))
        return WalkResult::interrupt();
      lowering::bindTensorMapParameters(func);
      return WalkResult::advance();
    });
    if (expanded.wasInterrupted())
      return signalPassFailure();
    getOperation().walk(emitThreadCoordinates);
    RewritePatternSet patterns(context);
    ConversionTarget target(*context);
    target.addIllegalDialect<VNMGPUDialect>();
    target.addLegalDialect<arith::ArithDialect, LLVM::LLVMDialect,
                           NVVM::NVVMDialect, vector::VectorDialect>();
    target.addLegalOp<gpu::BarrierOp, gpu::BlockIdOp, gpu::ReturnOp>();
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType());
    });
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(patterns,
                                                                     converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    lowering::populateRingPatterns(converter, patterns);
    lowering::populateCopyPatterns(converter, patterns);
    lowering::populateFragmentPatterns(converter, patterns);
    lowering::populateMmaSpPatterns(converter, patterns);
    lowering::populateWgmmaSpPatterns(converter, patterns);
    lowering::populateStagedCopyPatterns(converter, patterns);
    lowering::populateEpiloguePatterns(converter, patterns);
    lowering::populateSampledStorePatterns(converter, patterns);
    lowering::populateGroupScalePatterns(converter, patterns);
    lowering::populateSplitReducePatterns(converter, patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // The casts that bound tensor-map parameters to their copies.
    getOperation().walk([](UnrealizedConversionCastOp cast) {
      if (cast.use_empty())
        cast.erase();
    });
    sinkFragmentLoads(getOperation());
    getOperation().walk(hoistLoopSetup);
  }
};

} // namespace
