//===- ConvertVNMGPUToLoops.cpp - the convert-vnm-gpu-to-loops pass -------===//
//
// Turns each kernel whose body is a vnm_gpu tile program into a host
// function that runs the body once per thread block, with the tile ops as
// loops on whole tiles. A tile program describes a block as a whole, so the
// only GPU notions it may use are the block's position in the grid, the
// grid's size and block barriers (no-ops here: one block runs at a time).
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "Lowerings.h"
#include "TileStorage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace vnm {
#define GEN_PASS_DEF_CONVERTVNMGPUTOLOOPS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

namespace {

bool isTileProgram(mlir::gpu::GPUFuncOp func) {
  return func
      .walk([](Operation *op) {
        return isTileOp(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// What of a kernel the CPU cannot run, as a diagnostic.
LogicalResult checkKernel(mlir::gpu::GPUFuncOp kernel) {
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitOpError("holds a tile program in more than one block; "
                              "the CPU execution of tile programs needs "
                              "structured control flow (scf)");
  for (Type type : kernel.getArgumentTypes())
    if (isTileType(type) || isa<vnm_gpu::RingType>(type))
      return kernel.emitOpError("takes a tile or ring argument (")
             << type << "); tile values live inside one kernel";
  WalkResult walk = kernel.getBody().walk([](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (isa_and_nonnull<mlir::gpu::GPUDialect>(dialect)) {
      if (isa<mlir::gpu::BlockIdOp, mlir::gpu::GridDimOp, mlir::gpu::BarrierOp,
              mlir::gpu::ReturnOp>(op))
        return WalkResult::advance();
      op->emitOpError("has no meaning in a tile program run on the CPU, "
                      "which works on whole block tiles (only gpu.block_id, "
                      "gpu.grid_dim, gpu.barrier and gpu.return are)");
      return WalkResult::interrupt();
    }
    if (isa_and_nonnull<NVVM::NVVMDialect, LLVM::LLVMDialect>(dialect)) {
      op->emitOpError("is GPU code inside a tile program; the CPU execution "
                      "of tile programs runs vnm_gpu ops and target-neutral "
                      "dialects only");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// @<kernel>_cpu(<kernel arguments>, %grid_x, %grid_y): the kernel body,
/// cloned into loops over the grid's blocks (y inner).
func::FuncOp buildHost(ModuleOp module, mlir::gpu::GPUFuncOp kernel,
                       StringRef name) {
  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<Type> argTypes(kernel.getArgumentTypes());
  argTypes.append({b.getIndexType(), b.getIndexType()});
  auto host =
      func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  host->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  Block *entry = host.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value gridX = entry->getArgument(kernel.getNumArguments());
  Value gridY = entry->getArgument(kernel.getNumArguments() + 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Grid y innermost: the K splits of a tile (consecutive blocks along y,
  // one cluster) run one after another, as vnm_gpu.reduce_k_splits needs.
  auto columnsOfBlocks = scf::ForOp::create(b, loc, zero, gridX, one);
  b.setInsertionPoint(columnsOfBlocks.getBody()->getTerminator());
  auto blocksOfColumn = scf::ForOp::create(b, loc, zero, gridY, one);
  b.setInsertionPoint(blocksOfColumn.getBody()->getTerminator());

  IRMapping mapping;
  for (auto [kernelArg, hostArg] :
       llvm::zip(kernel.getArguments(), entry->getArguments()))
    mapping.map(kernelArg, hostArg);
  for (Operation &op : kernel.getBody().front().without_terminator())
    b.clone(op, mapping);

  Value blockIds[3] = {columnsOfBlocks.getInductionVar(),
                       blocksOfColumn.getInductionVar(), Value()};
  Value gridDims[3] = {gridX, gridY, Value()};
  SmallVector<Operation *> gpuOps;
  blocksOfColumn.getBody()->walk([&](Operation *op) {
    if (isa<mlir::gpu::BlockIdOp, mlir::gpu::GridDimOp, mlir::gpu::BarrierOp>(
            op))
      gpuOps.push_back(op);
  });
  for (Operation *op : gpuOps) {
    OpBuilder at(op);
    if (auto id = dyn_cast<mlir::gpu::BlockIdOp>(op)) {
      auto dim = static_cast<unsigned>(id.getDimension());
      id.replaceAllUsesWith(
          blockIds[dim] ? blockIds[dim]
                        : arith::ConstantIndexOp::create(at, op->getLoc(), 0));
    } else if (auto size = dyn_cast<mlir::gpu::GridDimOp>(op)) {
      auto dim = static_cast<unsigned>(size.getDimension());
      size.replaceAllUsesWith(
          gridDims[dim] ? gridDims[dim]
                        : arith::ConstantIndexOp::create(at, op->getLoc(), 1));
    }
    op->erase();
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  return host;
}

LogicalResult lowerTileOp(Operation *op, const TileStorage &storage) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](vnm_gpu::AllocRingOp x) { return lowerAllocRing(x, storage); })
      .Case([&](vnm_gpu::GatherOp x) { return lowerGather(x, storage); })
      .Case([&](vnm_gpu::CopyTileOp x) { return lowerCopyTile(x, storage); })
      .Case([&](vnm_gpu::TmaCopyTileOp x) {
        return lowerTmaCopyTile(x, storage);
      })
      .Case([&](vnm_gpu::WaitOp x) { return lowerWait(x, storage); })
      .Case([&](vnm_gpu::LoadBOp x) { return lowerLoadB(x, storage); })
      .Case(
          [&](vnm_gpu::LoadColLocOp x) { return lowerLoadColLoc(x, storage); })
      .Case([&](vnm_gpu::LoadSparseAOp x) {
        return lowerLoadSparseA(x, storage);
      })
      .Case([&](vnm_gpu::StageSparseAOp x) {
        return lowerStageSparseA(x, storage);
      })
      .Case([&](vnm_gpu::LoadStagedAOp x) {
        return lowerLoadStagedA(x, storage);
      })
      .Case([&](vnm_gpu::MmaSpOp x) { return lowerMmaSp(x, storage); })
      .Case([&](vnm_gpu::WgmmaSpOp x) { return lowerWgmmaSp(x, storage); })
      .Case([&](vnm_gpu::ZeroOp x) { return lowerZero(x, storage); })
      .Case([&](vnm_gpu::ReduceKSplitsOp x) {
        return lowerReduceKSplits(x, storage);
      })
      .Case(
          [&](vnm_gpu::GroupScaleOp x) { return lowerGroupScale(x, storage); })
      .Case([&](vnm_gpu::EpilogueOp x) { return lowerEpilogue(x, storage); })
      .Case([&](vnm_gpu::SampledStoreOp x) {
        return lowerSampledStore(x, storage);
      })
      .Default([](Operation *other) {
        return other->emitOpError(
            "has no CPU lowering in convert-vnm-gpu-to-loops");
      });
}

/// Runs `split`'s regions in lockstep, one valid schedule of its protocol:
/// for each pair, the produce region, a wait that lands its copies into
/// each B ring (and clears their read flags: the consumers released every
/// older slot), then the consume region. Staged A fragments land when
/// staged.
void expandInLockstep(vnm_gpu::ProduceConsumeOp split) {
  OpBuilder b(split);
  Location loc = split.getLoc();
  SetVector<Value> rings;
  split.getProduce().walk([&](Operation *op) {
    if (auto gather = dyn_cast<vnm_gpu::GatherOp>(op))
      rings.insert(gather.getRing());
    if (auto copy = dyn_cast<vnm_gpu::CopyTileOp>(op))
      rings.insert(copy.getRing());
    if (auto copy = dyn_cast<vnm_gpu::TmaCopyTileOp>(op))
      rings.insert(copy.getRing());
  });
  Value stages = arith::ConstantIntOp::create(b, loc, split.getStages(), 32);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  auto loop = scf::ForOp::create(
      b, loc, split.getLower(), split.getUpper(), one, split.getInits(),
      [&](OpBuilder &nb, Location loc, Value pair, ValueRange carried) {
        Value slot = arith::RemUIOp::create(
            nb, loc, arith::SubIOp::create(nb, loc, pair, split.getLower()),
            stages);
        IRMapping produce;
        produce.map(split.getProduce().getArgument(0), pair);
        produce.map(split.getProduce().getArgument(1), slot);
        for (Operation &op : split.getProduce().front().without_terminator())
          nb.clone(op, produce);
        for (Value ring : rings)
          vnm_gpu::WaitOp::create(nb, loc, ring, nb.getI64IntegerAttr(0),
                                  UnitAttr());
        IRMapping consume;
        consume.map(split.getConsume().getArgument(0), pair);
        consume.map(split.getConsume().getArgument(1), slot);
        for (auto [arg, value] : llvm::zip(
                 split.getConsume().getArguments().drop_front(2), carried))
          consume.map(arg, value);
        for (Operation &op : split.getConsume().front().without_terminator())
          nb.clone(op, consume);
        SmallVector<Value> yielded;
        for (Value value :
             split.getConsume().front().getTerminator()->getOperands())
          yielded.push_back(consume.lookupOrDefault(value));
        scf::YieldOp::create(nb, loc, yielded);
      });
  split.replaceAllUsesWith(loop.getResults());
  split.erase();
}

/// Lowers every tile op of `host` (built by buildHost) in place.
LogicalResult lowerTileProgram(func::FuncOp host) {
  TileStorage storage(host);
  auto &blockLoops = host.getBody().front();
  auto rowsOfBlocks = cast<scf::ForOp>(*llvm::find_if(
      blockLoops, [](Operation &op) { return isa<scf::ForOp>(op); }));
  Block *body = cast<scf::ForOp>(rowsOfBlocks.getBody()->front()).getBody();
  SmallVector<vnm_gpu::ProduceConsumeOp> splits;
  body->walk([&](vnm_gpu::ProduceConsumeOp split) { splits.push_back(split); });
  for (vnm_gpu::ProduceConsumeOp split : splits)
    expandInLockstep(split);
  if (failed(storage.assign(body)))
    return failure();
  SmallVector<Operation *> tileOps;
  body->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isTileOp(op))
      tileOps.push_back(op);
  });
  for (Operation *op : tileOps)
    if (failed(lowerTileOp(op, storage)))
      return failure();
  // Users come after their definitions in pre-order: erase them first.
  for (Operation *op : llvm::reverse(tileOps))
    op->erase();
  storage.erasePlaceholders();
  return success();
}

/// Removes `kernel` and what refers to it: the `vnm.gpu_kernel` links of
/// host ops, and its gpu.module once empty.
void eraseKernel(ModuleOp module, mlir::gpu::GPUFuncOp kernel) {
  auto gpuModule = kernel->getParentOfType<mlir::gpu::GPUModuleOp>();
  auto reference = SymbolRefAttr::get(
      gpuModule.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getNameAttr())});
  module.walk([&](Operation *op) {
    if (op->getAttr("vnm.gpu_kernel") == reference)
      op->removeAttr("vnm.gpu_kernel");
  });
  kernel.erase();
  if (gpuModule.getBody()->empty())
    gpuModule.erase();
}

struct ConvertVNMGPUToLoopsPass
    : public vnm::impl::ConvertVNMGPUToLoopsBase<ConvertVNMGPUToLoopsPass> {
  using ConvertVNMGPUToLoopsBase::ConvertVNMGPUToLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<mlir::gpu::GPUFuncOp> kernels;
    WalkResult walk = module.walk([&](mlir::gpu::GPUFuncOp func) {
      if (!isTileProgram(func))
        return WalkResult::advance();
      if (!func.isKernel()) {
        func.emitOpError("holds a tile program but is not a kernel; a tile "
                         "program is the body of a gpu.func with `kernel`");
        return WalkResult::interrupt();
      }
      kernels.push_back(func);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    for (mlir::gpu::GPUFuncOp kernel : kernels) {
      if (failed(checkKernel(kernel)))
        return signalPassFailure();
      std::string name = (kernel.getName() + "_cpu").str();
      if (module.lookupSymbol(name)) {
        kernel.emitOpError("runs on the CPU as @")
            << name << ", but the module already has a symbol of that name";
        return signalPassFailure();
      }
      func::FuncOp host = buildHost(module, kernel, name);
      if (failed(lowerTileProgram(host))) {
        host.erase();
        return signalPassFailure();
      }
    }
    if (keepKernels)
      return;
    for (mlir::gpu::GPUFuncOp kernel : kernels)
      eraseKernel(module, kernel);
    if (module.getOps<mlir::gpu::GPUModuleOp>().empty())
      module->removeAttr(mlir::gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace
