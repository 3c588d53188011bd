//===- RingLowering.cpp - the ring, its copies and its reads --------------===//
//
// On the GPU a copy into a ring slot lands some time before the wait that
// covers it; on the CPU it lands exactly at that wait. A copy writes the
// slot's shadow and records its sequence number; `wait pending(P)` moves
// every recorded copy but the P most recent into the ring. The ring starts
// out as NaN, so reading a slot that nothing has landed in spoils the
// result, and three checks stop the program where the GPU would race:
//
// * a read (load_b) of a slot with a copy in flight into it;
// * a copy into a slot read since the last wait (other threads may still
//   be reading it: only the wait's barrier orders the reads before it);
// * a copy into a slot with a copy in flight into it.
//
// The copies of a block are numbered across its rings (a B ring, and an A
// ring its threads stage), as a thread's cp.async groups are: a wait lands
// those of every ring.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "CodeGen.h"

#include "../VNMToLoops/Arithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

std::string vnm::gpu_loops::describeFailure(Operation *op, StringRef what) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' at " << op->getLoc() << ": " << what;
  return text;
}

namespace {

Value stateEntry(CodeGen &cg, const RingBuffers &ring, Value position) {
  return cg.load(ring.state, position);
}

void setState(CodeGen &cg, const RingBuffers &ring, Value position,
              int64_t value) {
  cg.store(cg.integer(cg.builder().getI64Type(), value), ring.state, position);
}

Value slotIndex(CodeGen &cg, const RingBuffers &ring, Value slot,
                Operation *op) {
  Value index = cg.toIndex(slot);
  cg.check(cg.ult(index, cg.index(ring.stages())),
           describeFailure(op, "ring slot out of range"));
  return index;
}

} // namespace

Value vnm::gpu_loops::startRingCopy(CodeGen &cg, const RingBuffers &ring,
                                    Value slot, Operation *op) {
  Value index = slotIndex(cg, ring, slot, op);
  Type i64 = cg.builder().getI64Type();
  cg.check(
      cg.eq(stateEntry(cg, ring, index), cg.integer(i64, RingBuffers::kNoCopy)),
      describeFailure(op, "copies into a ring slot that a copy is still "
                          "in flight into"));
  Value readFlag = cg.add(index, cg.index(ring.readFlags()));
  cg.check(cg.eq(stateEntry(cg, ring, readFlag), cg.integer(i64, 0)),
           describeFailure(op, "overwrites a ring slot read since the last "
                               "vnm_gpu.wait"));
  return index;
}

void vnm::gpu_loops::finishRingCopy(CodeGen &cg, const RingBuffers &ring,
                                    Value slot) {
  Value counter = cg.index(0);
  Value sequence = cg.load(ring.copies, counter);
  cg.store(sequence, ring.state, slot);
  cg.store(cg.add(sequence, cg.integer(cg.builder().getI64Type(), 1)),
           ring.copies, counter);
}

namespace {

/// Element (k, column) of a row-major source with row pitch `ld`: zero for
/// rows at or past `rowBound`; for columns at or past `cols` the GPU fills
/// zeros too, but such columns only reach results the epilogue must not
/// store, so the CPU fills NaN to expose a store past the bound.
Value loadCopied(CodeGen &cg, Value source, Value k, Value rowBound,
                 Value column, Value cols, Value ld, Type element,
                 StringRef outOfBounds) {
  Value inColumns = cg.ult(column, cols);
  Value inside = cg.logicalAnd(inColumns, cg.ult(k, rowBound));
  return cg.ifElse(
      inside, element,
      [&] {
        return cg.loadChecked(source, cg.add(cg.mul(k, ld), column),
                              outOfBounds);
      },
      [&] {
        return cg.select(inColumns, cg.zero(element), cg.poison(element));
      });
}

} // namespace

LogicalResult vnm::gpu_loops::lowerAllocRing(vnm_gpu::AllocRingOp op,
                                             const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  if (!storage.hasRingBuffers(op.getRing())) {
    // A ring staged by producers: NaN until staged, like a B ring's slots.
    auto aRing = cast<vnm_gpu::ARingType>(op.getRing().getType());
    cg.fill(storage.bufferOf(op.getRing()),
            cg.poison(aRing.getTile().getElementType()));
    return success();
  }
  const RingBuffers &ring = storage.ringOf(op.getRing());
  Value poison = cg.poison(ring.elementType);
  cg.fill(ring.slots, poison);
  cg.fill(ring.shadow, poison);
  cg.forEach({ring.stages()}, [&](ValueRange slot) {
    setState(cg, ring, slot[0], RingBuffers::kNoCopy);
    setState(cg, ring, cg.add(slot[0], cg.index(ring.readFlags())), 0);
  });
  // Every ring of the block resets the count before any copy starts.
  cg.store(cg.integer(b.getI64Type(), 0), ring.copies, cg.index(0));
  return success();
}

LogicalResult vnm::gpu_loops::lowerGather(vnm_gpu::GatherOp op,
                                          const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  const RingBuffers &ring = storage.ringOf(op.getRing());
  RankedTensorType matrix = op.getMatrix();
  int64_t m = getVNMEncoding(matrix).getM();
  Value slot = startRingCopy(cg, ring, op.getSlot(), op);
  Value colloc = storage.bufferOf(op.getColloc());
  Value firstGroup =
      cg.mul(cg.toIndex(op.getPair()), cg.index(vnm_gpu::kGroupsPerPair));
  Value col = cg.toIndex(op.getCol());
  Value cols = cg.toIndex(op.getCols());
  Value ld = cg.toIndex(op.getLd());
  Value rowBound = cg.index(matrix.getDimSize(1));
  Type element = ring.elementType;
  std::string outOfBounds = describeFailure(op, "reads rhs out of bounds");
  int64_t groups = op.getColloc().getType().getGroups();
  // Slot row 4 j + i is row (16 pair + j) M + colloc[j][i] of rhs.
  cg.forEach({groups, 4, ring.type.getCols()}, [&](ValueRange iv) {
    Value j = iv[0], i = iv[1], c = iv[2];
    Value offset = cg.toIndex(cg.load(colloc, {j, i}));
    Value k = cg.add(cg.mul(cg.add(firstGroup, j), cg.index(m)), offset);
    Value value = loadCopied(cg, op.getRhs(), k, rowBound, cg.add(col, c), cols,
                             ld, element, outOfBounds);
    cg.store(value, ring.shadow, {slot, cg.add(cg.mul(j, cg.index(4)), i), c});
  });
  finishRingCopy(cg, ring, slot);
  return success();
}

namespace {

/// The copy of a dense tile of `src` (rows from `row`, columns from `col`,
/// pitch `ld`) into `slot`: elements past `rowBound` are zeros, and so are
/// those of `chunkElements`-element chunks that start at or past `cols` (a
/// chunk that straddles `cols` is read whole, inside `ld`).
template <typename CopyOp>
LogicalResult lowerDenseCopy(CopyOp op, const TileStorage &storage,
                             int64_t chunkElements) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  const RingBuffers &ring = storage.ringOf(op.getRing());
  Value slot = startRingCopy(cg, ring, op.getSlot(), op);
  Value row = cg.toIndex(op.getRow());
  Value col = cg.toIndex(op.getCol());
  Value cols = cg.toIndex(op.getCols());
  Value ld = cg.toIndex(op.getLd());
  Value rowBound = cg.toIndex(op.getRowBound());
  Type element = ring.elementType;
  std::string outOfBounds = describeFailure(op, "reads src out of bounds");
  cg.forEach({ring.type.getRows(), ring.type.getCols()}, [&](ValueRange iv) {
    Value k = cg.add(row, iv[0]);
    Value column = cg.add(col, iv[1]);
    Value chunkStart =
        cg.add(col, cg.mul(cg.divu(iv[1], cg.index(chunkElements)),
                           cg.index(chunkElements)));
    Value inside = cg.logicalAnd(cg.ult(chunkStart, cols), cg.ult(k, rowBound));
    Value value = cg.ifElse(
        inside, element,
        [&] {
          return cg.loadChecked(op.getSrc(), cg.add(cg.mul(k, ld), column),
                                outOfBounds);
        },
        [&] { return cg.zero(element); });
    cg.store(value, ring.shadow, {slot, iv[0], iv[1]});
  });
  finishRingCopy(cg, ring, slot);
  return success();
}

} // namespace

LogicalResult vnm::gpu_loops::lowerCopyTile(vnm_gpu::CopyTileOp op,
                                            const TileStorage &storage) {
  // As cp.async copies: 16-byte chunks.
  return lowerDenseCopy(op, storage,
                        16 / op.getRing().getType().getElementBytes());
}

LogicalResult vnm::gpu_loops::lowerTmaCopyTile(vnm_gpu::TmaCopyTileOp op,
                                               const TileStorage &storage) {
  // The TMA bounds each element.
  return lowerDenseCopy(op, storage, 1);
}

LogicalResult vnm::gpu_loops::lowerWait(vnm_gpu::WaitOp op,
                                        const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Type i64 = b.getI64Type();
  // Copies numbered below `limit` are all but the `pending` most recent,
  // whichever ring they fill.
  Value limit =
      cg.sub(cg.load(storage.ringOf(op.getRing()).copies, cg.index(0)),
             cg.integer(i64, op.getPendingAttr().getInt()));
  for (const RingBuffers &ring : storage.allRings())
    cg.forEach({ring.stages()}, [&](ValueRange iv) {
      Value slot = iv[0];
      Value sequence = stateEntry(cg, ring, slot);
      Value lands = cg.logicalAnd(cg.sge(sequence, cg.integer(i64, 0)),
                                  cg.slt(sequence, limit));
      cg.ifThen(lands, [&] {
        cg.forEach(ring.slotShape, [&](ValueRange at) {
          SmallVector<Value> index = {slot};
          llvm::append_range(index, at);
          cg.store(cg.load(ring.shadow, index), ring.slots, index);
        });
        setState(cg, ring, slot, RingBuffers::kNoCopy);
      });
      // The barrier: every read issued before the wait is done.
      setState(cg, ring, cg.add(slot, cg.index(ring.readFlags())), 0);
    });
  return success();
}

Value vnm::gpu_loops::readRingSlot(CodeGen &cg, const RingBuffers &ring,
                                   Value slot, Operation *op) {
  Value index = slotIndex(cg, ring, slot, op);
  cg.check(cg.eq(stateEntry(cg, ring, index),
                 cg.integer(cg.builder().getI64Type(), RingBuffers::kNoCopy)),
           describeFailure(op, "reads a ring slot whose copy has not landed "
                               "(no vnm_gpu.wait since the copy leaves it "
                               "pending)"));
  setState(cg, ring, cg.add(index, cg.index(ring.readFlags())), 1);
  return index;
}

LogicalResult vnm::gpu_loops::lowerLoadB(vnm_gpu::LoadBOp op,
                                         const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  const RingBuffers &ring = storage.ringOf(op.getRing());
  Value slot = readRingSlot(cg, ring, op.getSlot(), op);
  Value result = storage.bufferOf(op.getResult());
  int64_t offset = op.getOffsetAttr().getInt();
  bool transposed = op.getKContiguous();
  Value colloc = op.getColloc() ? storage.bufferOf(op.getColloc()) : Value();
  int64_t m = 0;
  std::string outsideGroup =
      describeFailure(op, "gathers through a column-loc offset not below M");
  if (colloc)
    m = ring.type.getCols() /
        cast<vnm_gpu::ColLocType>(op.getColloc().getType()).getGroups();
  cg.forEach(cast<MemRefType>(result.getType()).getShape(), [&](ValueRange iv) {
    // Element (k, n) of B is slot element (k, n), or (n, k) when the slot
    // holds B transposed; gathered (`via`), row k = 4 q + i of B is column
    // q M + colloc[q][i] of the slot.
    Value k = cg.add(iv[0], cg.index(offset));
    if (colloc) {
      Value q = cg.divu(k, cg.index(4));
      Value i = cg.remu(k, cg.index(4));
      Value column = cg.toIndex(cg.load(colloc, {q, i}));
      cg.check(cg.ult(column, cg.index(m)), outsideGroup);
      k = cg.add(cg.mul(q, cg.index(m)), column);
    }
    Value element = transposed ? cg.load(ring.slots, {slot, iv[1], k})
                               : cg.load(ring.slots, {slot, k, iv[1]});
    cg.store(element, result, iv);
  });
  return success();
}

LogicalResult vnm::gpu_loops::lowerWgmmaSp(vnm_gpu::WgmmaSpOp op,
                                           const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Location loc = op.getLoc();
  const RingBuffers &ring = storage.ringOf(op.getRing());
  Value slot = readRingSlot(cg, ring, op.getSlot(), op);
  Value a = storage.bufferOf(op.getA());
  Value acc = storage.bufferOf(op.getAcc());
  Value result = storage.bufferOf(op.getResult());
  Type accType = op.getAcc().getType().getElementType();
  int64_t depth = op.getAcc().getType().getLayout().getInstrK();
  Value firstColumn = cg.index(op.getStepAttr().getInt() * depth);
  Value firstRow = cg.index(op.getOffsetAttr().getInt());
  // B is the slot's rows offset .. offset + depth - 1, K by N, read from
  // shared memory by the MMA itself; or, in a transposed slot, the
  // transpose of its columns offset .. offset + depth - 1.
  bool transposed = op.getKContiguous();
  cg.forEach(cast<MemRefType>(result.getType()).getShape(), [&](ValueRange iv) {
    Value sum = cg.reduce(depth, cg.load(acc, iv), [&](Value k, Value partial) {
      Value x = loops::widen(
          b, loc, cg.load(a, {iv[0], cg.add(firstColumn, k)}), accType);
      Value kInSlot = cg.add(firstRow, k);
      Value y =
          loops::widen(b, loc,
                       transposed ? cg.load(ring.slots, {slot, iv[1], kInSlot})
                                  : cg.load(ring.slots, {slot, kInSlot, iv[1]}),
                       accType);
      return loops::add(b, loc, partial, loops::mul(b, loc, x, y));
    });
    cg.store(sum, result, iv);
  });
  return success();
}
