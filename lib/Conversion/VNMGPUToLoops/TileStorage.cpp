//===- TileStorage.cpp - buffers that hold the tile values ----------------===//

#include "TileStorage.h"

#include "CodeGen.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

bool vnm::gpu_loops::isTileType(Type type) {
  return isa<vnm_gpu::SparseAType, vnm_gpu::BFragType, vnm_gpu::AccType,
             vnm_gpu::ColLocType>(type);
}

MemRefType vnm::gpu_loops::getTileBufferType(Type tileType) {
  if (auto a = dyn_cast<vnm_gpu::SparseAType>(tileType))
    return MemRefType::get({a.getRows(), a.getCols()}, a.getElementType());
  if (auto b = dyn_cast<vnm_gpu::BFragType>(tileType))
    return MemRefType::get({b.getRows(), b.getCols()}, b.getElementType());
  if (auto acc = dyn_cast<vnm_gpu::AccType>(tileType))
    return MemRefType::get({acc.getRows(), acc.getCols()},
                           acc.getElementType());
  auto colloc = cast<vnm_gpu::ColLocType>(tileType);
  return MemRefType::get({colloc.getGroups(), 4},
                         IntegerType::get(tileType.getContext(), 32));
}

TileStorage::TileStorage(func::FuncOp host)
    : host(host), allocBuilder(host.getContext()) {
  Block &entry = host.getBody().front();
  allocBuilder.setInsertionPointToStart(&entry);
  returnOp = entry.getTerminator();
}

Value TileStorage::allocate(MemRefType type) {
  Location loc = host.getLoc();
  Value buffer = memref::AllocOp::create(allocBuilder, loc, type);
  OpBuilder atReturn(returnOp);
  memref::DeallocOp::create(atReturn, loc, buffer);
  return buffer;
}

Value TileStorage::allocateCarried(Type tileType) {
  Value buffer = allocate(getTileBufferType(tileType));
  auto cast = UnrealizedConversionCastOp::create(
      allocBuilder, host.getLoc(), TypeRange{tileType}, ValueRange{buffer});
  placeholderOps.push_back(cast);
  Value placeholder = cast.getResult(0);
  buffers[placeholder] = buffer;
  return placeholder;
}

Value TileStorage::bufferOf(Value tile) const { return buffers.lookup(tile); }

TileStorage::ClusterSum
TileStorage::clusterSumOf(vnm_gpu::ReduceKSplitsOp op) const {
  return clusterSums.lookup(op);
}

const RingBuffers &TileStorage::ringOf(Value ring) const {
  return rings.find(ring)->second;
}

SmallVector<RingBuffers> TileStorage::allRings() const {
  SmallVector<RingBuffers> all;
  for (auto &entry : rings)
    all.push_back(entry.second);
  return all;
}

bool vnm::gpu_loops::isTileOp(Operation *op) {
  return isa_and_nonnull<vnm_gpu::VNMGPUDialect>(op->getDialect());
}

namespace {

bool carriesTiles(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return llvm::any_of(loop.getInitArgs().getTypes(), isTileType);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return llvm::any_of(branch.getResultTypes(), isTileType);
  return false;
}

} // namespace

LogicalResult TileStorage::checkUses(Operation *op) {
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    bool ring = isa<vnm_gpu::RingType>(type);
    if (!ring && !isTileType(type))
      continue;
    if (isTileOp(op))
      continue;
    if (ring)
      return op->emitOpError("uses a vnm_gpu ring; on the CPU only tile ops "
                             "may use one");
    auto loop = dyn_cast<scf::ForOp>(op);
    bool isInit =
        loop && operand.getOperandNumber() >= loop.getNumControlOperands();
    bool isYield =
        isa<scf::YieldOp>(op) && isa<scf::ForOp, scf::IfOp>(op->getParentOp());
    if (!isInit && !isYield)
      return op->emitOpError("takes a tile value; the CPU execution of tile "
                             "programs follows tiles through tile ops, "
                             "scf.for and scf.if only");
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments()) {
        Type type = argument.getType();
        if (!isTileType(type) && !isa<vnm_gpu::RingType>(type))
          continue;
        if (isa<scf::ForOp>(op) && isTileType(type))
          continue;
        return op->emitOpError("has a region argument of type ")
               << type << ", which the CPU execution of tile programs cannot "
               << "follow";
      }
  return success();
}

RingBuffers TileStorage::allocateRing(vnm_gpu::RingType type, int64_t stages,
                                      ArrayRef<int64_t> slotShape,
                                      Type element) {
  SmallVector<int64_t> shape = {stages};
  llvm::append_range(shape, slotShape);
  auto slotType = MemRefType::get(shape, element);
  Type i64 = IntegerType::get(host.getContext(), 64);
  if (!copies)
    copies = allocate(MemRefType::get({1}, i64));
  RingBuffers ring;
  ring.type = type;
  ring.slots = allocate(slotType);
  ring.shadow = allocate(slotType);
  ring.state = allocate(MemRefType::get({2 * stages}, i64));
  ring.copies = copies;
  ring.slotShape.assign(slotShape.begin(), slotShape.end());
  ring.elementType = element;
  ring.stageCount = stages;
  return ring;
}

LogicalResult TileStorage::assignResults(Operation *op) {
  for (Value result : op->getResults()) {
    Type type = result.getType();
    if (auto ringType = dyn_cast<vnm_gpu::RingType>(type)) {
      if (!isa<vnm_gpu::AllocRingOp>(op))
        return op->emitOpError("yields a vnm_gpu ring; on the CPU a ring "
                               "comes from vnm_gpu.alloc_ring only");
      rings[result] = allocateRing(ringType, ringType.getStages(),
                                   {ringType.getRows(), ringType.getCols()},
                                   ringType.getElementType());
      continue;
    }
    if (auto aRing = dyn_cast<vnm_gpu::ARingType>(type)) {
      if (!isa<vnm_gpu::AllocRingOp>(op))
        return op->emitOpError("yields a vnm_gpu A ring; on the CPU a ring "
                               "comes from vnm_gpu.alloc_ring only");
      // Each slot holds the staged tile as load_sparse_a's buffer holds it.
      MemRefType tile = getTileBufferType(aRing.getTile());
      bool stagedByBlock = llvm::any_of(result.getUsers(), [](Operation *user) {
        auto stage = dyn_cast<vnm_gpu::StageSparseAOp>(user);
        return stage && stage.getLayout();
      });
      if (stagedByBlock) {
        rings[result] = allocateRing(vnm_gpu::RingType(), aRing.getStages(),
                                     {tile.getDimSize(0), tile.getDimSize(1)},
                                     tile.getElementType());
        continue;
      }
      buffers[result] = allocate(MemRefType::get(
          {aRing.getStages(), tile.getDimSize(0), tile.getDimSize(1)},
          tile.getElementType()));
      continue;
    }
    if (auto reduce = dyn_cast<vnm_gpu::ReduceKSplitsOp>(op)) {
      // The sum outlives the block: the cluster's ranks run one after
      // another.
      ClusterSum cluster{allocate(getTileBufferType(type)),
                         allocate(MemRefType::get(
                             {1}, IntegerType::get(op->getContext(), 64)))};
      CodeGen cg(allocBuilder, host.getLoc());
      cg.store(cg.integer(allocBuilder.getI64Type(), 0), cluster.nextRank,
               cg.index(0));
      clusterSums[reduce] = cluster;
    }
    if (!isTileType(type) || isa<scf::ForOp, scf::IfOp>(op))
      continue;
    if (!isTileOp(op))
      return op->emitOpError("yields a tile value; the CPU execution of tile "
                             "programs follows tiles through tile ops, "
                             "scf.for and scf.if only");
    buffers[result] = allocate(getTileBufferType(type));
  }
  return success();
}

void TileStorage::copyYielded(scf::YieldOp yield, ArrayRef<Value> into,
                              Block *carrier) {
  OpBuilder b(yield);
  CodeGen cg(b, yield.getLoc());
  // A yield that passes one iter_arg of its own loop on to another position
  // (as a pipelined loop does with tiles loaded two iterations ahead) reads
  // a buffer the other copies may overwrite: those go through a temporary.
  SmallVector<std::pair<Value, Value>> direct, staged;
  for (auto [position, target] : llvm::enumerate(into)) {
    if (!target)
      continue;
    Value yielded = yield.getOperand(position);
    Value source = bufferOf(yielded);
    if (source == target)
      continue;
    auto argument = dyn_cast<BlockArgument>(yielded);
    if (carrier && argument && argument.getOwner() == carrier) {
      Value temporary = allocate(cast<MemRefType>(target.getType()));
      cg.copy(source, temporary);
      staged.emplace_back(temporary, target);
      continue;
    }
    direct.emplace_back(source, target);
  }
  for (auto [source, target] :
       llvm::concat<std::pair<Value, Value>>(direct, staged))
    cg.copy(source, target);
}

void TileStorage::assignCarried(Operation *op) {
  Carried &carried = carriedBy[op];
  for (auto [position, result] : llvm::enumerate(op->getResults())) {
    carried.placeholders.push_back(Value());
    carried.targets.push_back(Value());
    if (!isTileType(result.getType()))
      continue;
    Value placeholder = allocateCarried(result.getType());
    carried.placeholders.back() = placeholder;
    carried.targets.back() = buffers[result] = bufferOf(placeholder);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      buffers[loop.getRegionIterArgs()[position]] = bufferOf(placeholder);
  }
}

/// Rebuilds `yield` without the operands carried through buffers (those
/// with a `target`).
static void dropCarriedOperands(scf::YieldOp yield, ArrayRef<Value> target) {
  SmallVector<Value> yielded;
  for (auto [position, value] : llvm::enumerate(yield.getOperands()))
    if (!target[position])
      yielded.push_back(value);
  OpBuilder b(yield);
  scf::YieldOp::create(b, yield.getLoc(), yielded);
  yield.erase();
}

/// Replaces the results of `old` (then erased): a carried tile by its
/// placeholder buffer, every other result by the next of `kept`.
void TileStorage::replaceCarriedResults(Operation *old, ValueRange kept,
                                        ArrayRef<Value> placeholder) {
  auto keptResult = kept.begin();
  for (auto [position, result] : llvm::enumerate(old->getResults())) {
    buffers.erase(result);
    result.replaceAllUsesWith(placeholder[position] ? placeholder[position]
                                                    : *keptResult++);
  }
  old->erase();
}

void TileStorage::rewriteFor(scf::ForOp loop) {
  ArrayRef<Value> placeholder = carriedBy[loop].placeholders;
  ArrayRef<Value> target = carriedBy[loop].targets;

  OpBuilder b(loop);
  CodeGen cg(b, loop.getLoc());
  SmallVector<Value> inits;
  for (auto [position, init] : llvm::enumerate(loop.getInitArgs())) {
    if (target[position])
      cg.copy(bufferOf(init), target[position]);
    else
      inits.push_back(init);
  }
  Block *body = loop.getBody();
  copyYielded(cast<scf::YieldOp>(body->getTerminator()), target, body);

  auto rebuilt = scf::ForOp::create(
      b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), inits, [](OpBuilder &, Location, Value, ValueRange) {},
      loop.getUnsignedCmp());
  rebuilt->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  SmallVector<Value> arguments = {rebuilt.getInductionVar()};
  auto kept = rebuilt.getRegionIterArgs().begin();
  for (auto [position, argument] : llvm::enumerate(loop.getRegionIterArgs())) {
    buffers.erase(argument);
    arguments.push_back(placeholder[position] ? placeholder[position]
                                              : *kept++);
  }
  IRRewriter rewriter(loop.getContext());
  rewriter.mergeBlocks(body, rebuilt.getBody(), arguments);

  dropCarriedOperands(cast<scf::YieldOp>(rebuilt.getBody()->getTerminator()),
                      target);
  replaceCarriedResults(loop, rebuilt->getResults(), placeholder);
}

void TileStorage::rewriteIf(scf::IfOp op) {
  ArrayRef<Value> placeholder = carriedBy[op].placeholders;
  ArrayRef<Value> target = carriedBy[op].targets;
  SmallVector<Type> keptTypes;
  for (Type type : op.getResultTypes())
    if (!isTileType(type))
      keptTypes.push_back(type);
  for (Block *block : {op.thenBlock(), op.elseBlock()})
    copyYielded(cast<scf::YieldOp>(block->getTerminator()), target, nullptr);

  OpBuilder b(op);
  auto rebuilt = scf::IfOp::create(b, op.getLoc(), keptTypes, op.getCondition(),
                                   /*withElseRegion=*/true);
  rebuilt->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rebuilt.getThenRegion().takeBody(op.getThenRegion());
  rebuilt.getElseRegion().takeBody(op.getElseRegion());
  for (Block *block : {rebuilt.thenBlock(), rebuilt.elseBlock()})
    dropCarriedOperands(cast<scf::YieldOp>(block->getTerminator()), target);
  replaceCarriedResults(op, rebuilt->getResults(), placeholder);
}

LogicalResult TileStorage::assign(Block *body) {
  SmallVector<Operation *> carriers;
  WalkResult walk = body->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failed(checkUses(op)) || failed(assignResults(op)))
      return WalkResult::interrupt();
    if (carriesTiles(op))
      carriers.push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Every carried position gets its buffer before any op is rewritten: an
  // outer loop's yield may copy from an inner loop's result, and an inner
  // loop's init may be an outer loop's iter_arg. Rewriting an op moves the
  // ops inside it without recreating them.
  for (Operation *op : carriers)
    assignCarried(op);
  for (Operation *op : carriers) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      rewriteFor(loop);
    else
      rewriteIf(cast<scf::IfOp>(op));
  }
  return success();
}

void TileStorage::erasePlaceholders() {
  for (Operation *op : llvm::reverse(placeholderOps))
    op->erase();
  placeholderOps.clear();
}
