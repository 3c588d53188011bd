//===- FragmentLowering.cpp - column-locs, A fragments and the MMA --------===//
//
// A sparse A tile is held densely in the *gathered* column space of its
// k-tile pair: column 4 j + q of row r is row r's kept value at position q
// of group j's four selected columns, or 0. Slot row 4 j + q of the ring
// holds the matching row of B, so the MMA of step s is the dense product of
// columns 32 s .. 32 s + 31 of A with the 32 rows of its B fragment.
//
// The fragment arrays are decoded here from the formulas of docs/format.md
// ("Fragment (target) storage", 16- and 8-bit classes), as the GPU lowering
// reads them, rather than through the format library: this is a second reading
// of the documented layout, so a disagreement between the layout the
// library packs and the one the kernels read shows up in the CPU runs.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "CodeGen.h"

#include "../VNMToLoops/Arithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

namespace {

/// The static geometry of an encoded R x K matrix's storage.
struct MatrixGeometry {
  int64_t rows, cols, v, m;
  int64_t groups() const { return (cols + m - 1) / m; }
  int64_t paddedRows() const { return (rows + v - 1) / v * v; }
  int64_t paddedGroups() const { return (groups() + 15) / 16 * 16; }
  /// 16-bit class: k-tiles of 16 compressed columns (8 groups).
  int64_t kTiles() const { return paddedGroups() / 8; }
  /// 8-bit class: k-tiles of 32 compressed columns (16 groups).
  int64_t eightBitKTiles() const { return paddedGroups() / 16; }
  int64_t rowTiles() const { return paddedRows() / 16; }

  explicit MatrixGeometry(RankedTensorType matrix) {
    EncodingAttr encoding = getVNMEncoding(matrix);
    rows = matrix.getDimSize(0);
    cols = matrix.getDimSize(1);
    v = encoding.getV();
    m = encoding.getM();
  }
};

} // namespace

LogicalResult vnm::gpu_loops::lowerLoadColLoc(vnm_gpu::LoadColLocOp op,
                                              const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  MatrixGeometry matrix(op.getMatrix());
  Value result = storage.bufferOf(op.getResult());
  // Word vb G + group of colidx (read as i32 words) holds the four offsets
  // of `group` of V block vb, offset i in byte i.
  Value block = cg.divu(cg.toIndex(op.getRow()), cg.index(matrix.v));
  Value firstWord = cg.mul(block, cg.index(matrix.groups()));
  Value firstGroup =
      cg.mul(cg.toIndex(op.getPair()), cg.index(vnm_gpu::kGroupsPerPair));
  Type i32 = b.getI32Type();
  std::string outOfBounds = describeFailure(op, "reads colidx out of bounds");
  cg.forEach({op.getResult().getType().getGroups()}, [&](ValueRange iv) {
    Value group =
        cg.minu(cg.add(firstGroup, iv[0]), cg.index(matrix.groups() - 1));
    Value word =
        cg.loadChecked(op.getColidx(), cg.add(firstWord, group), outOfBounds);
    for (int64_t i = 0; i < 4; ++i) {
      Value offset = cg.bitAnd(cg.shru(word, cg.integer(i32, 8 * i)),
                               cg.integer(i32, 255));
      cg.store(offset, result, {iv[0], cg.index(i)});
    }
  });
  return success();
}

namespace {

/// Where the fragment arrays keep one (row, group) of a k-tile pair: the
/// metadata word and the bit of its nibble, and the value index of its
/// kept value p = 0 (p = 1 follows it).
struct FragmentPlace {
  Value word, shift, firstValue;
};

/// 16-bit class: group j of the pair is in k-tile 2 pair + s (s = j / 8),
/// in its 4-group chunk h, at nibble t. Word 4 g + 2 s + h of the pair's
/// words holds rows g (low half) and g + 8 (high half) of that chunk; the
/// compressed columns 2 (8 s + 4 h + t) + p sit in lane 4 g + t, register
/// 2 h + upper, half p.
FragmentPlace placeSixteenBit(CodeGen &cg, const MatrixGeometry &matrix,
                              Value rowTile, Value pair, Value g, Value upper,
                              Value j) {
  auto c = [&](int64_t value) { return cg.index(value); };
  Value s = cg.divu(j, c(8));
  Value h = cg.divu(cg.remu(j, c(8)), c(4));
  Value t = cg.remu(j, c(4));
  Value pairWord =
      cg.mul(cg.add(cg.mul(rowTile, c(matrix.kTiles() / 2)), pair), c(32));
  FragmentPlace place;
  place.word =
      cg.add(pairWord, cg.add(cg.mul(g, c(4)), cg.add(cg.mul(s, c(2)), h)));
  place.shift = cg.add(cg.mul(upper, c(16)), cg.mul(t, c(4)));
  Value kTile = cg.add(cg.mul(pair, c(2)), s);
  Value tile = cg.add(cg.mul(rowTile, c(matrix.kTiles())), kTile);
  Value lane = cg.add(cg.mul(g, c(4)), t);
  Value reg = cg.add(cg.mul(h, c(2)), upper);
  place.firstValue = cg.add(cg.mul(cg.add(cg.mul(tile, c(32)), lane), c(8)),
                            cg.mul(reg, c(2)));
  return place;
}

/// 8-bit class: the pair is k-tile `pair` (16 groups). Word 4 g + t of the
/// tile holds row g + 8 (t & 1), groups 8 (t >> 1) .. + 7, so group j's
/// nibble is at 4 (j % 8) of word 4 g + upper + 2 (j / 8). Its compressed
/// columns 2 j + p sit in lane 4 g + (j % 8) / 2, register
/// 2 (j / 8) + upper, byte 2 (j % 2) + p.
FragmentPlace placeEightBit(CodeGen &cg, const MatrixGeometry &matrix,
                            Value rowTile, Value pair, Value g, Value upper,
                            Value j) {
  auto c = [&](int64_t value) { return cg.index(value); };
  Value half = cg.divu(j, c(8));
  Value inHalf = cg.remu(j, c(8));
  Value tile = cg.add(cg.mul(rowTile, c(matrix.eightBitKTiles())), pair);
  FragmentPlace place;
  place.word =
      cg.add(cg.mul(tile, c(32)),
             cg.add(cg.mul(g, c(4)), cg.add(upper, cg.mul(half, c(2)))));
  place.shift = cg.mul(inHalf, c(4));
  Value lane = cg.add(cg.mul(g, c(4)), cg.divu(inHalf, c(2)));
  Value reg = cg.add(cg.mul(half, c(2)), upper);
  Value byte = cg.mul(cg.remu(j, c(2)), c(2));
  place.firstValue = cg.add(cg.mul(cg.add(cg.mul(tile, c(32)), lane), c(16)),
                            cg.add(cg.mul(reg, c(4)), byte));
  return place;
}

} // namespace

namespace {

/// The operands of an op that reads a k-tile pair's sparse A fragments
/// (load_sparse_a, stage_sparse_a).
struct SparseARead {
  mlir::Operation *op;
  RankedTensorType matrix;
  Value values, meta, row, pair;
  vnm_gpu::SparseAType type;
};

/// Decodes the fragments `read` names into the tile's CPU buffer `result`,
/// its element (r, c) stored at `prefix` followed by (r, c).
void emitSparseARead(const SparseARead &read, Value result, ValueRange prefix) {
  Operation *op = read.op;
  vnm_gpu::SparseAType type = read.type;
  bool eightBit = type.getLayout().getOperandBits() == 8;
  OpBuilder b(op);
  CodeGen cg(b, op->getLoc());
  MatrixGeometry matrix(read.matrix);
  Value firstRow = cg.toIndex(read.row);
  Value pair = cg.toIndex(read.pair);
  Type element = type.getElementType();
  Type i32 = b.getI32Type();
  Type i8 = b.getI8Type();
  // An i4 matrix's fragment bytes hold two values each (W4A8).
  bool packedNibbles = read.matrix.getElementType().isSignlessInteger(4);
  std::string valuesOutOfBounds =
      describeFailure(op, "reads values out of bounds");
  std::string metaOutOfBounds = describeFailure(op, "reads meta out of bounds");
  auto c = [&](int64_t value) { return cg.index(value); };
  // Row r of the tile, group 16 pair + j (j < 16) of the pair.
  cg.forEach({type.getRows(), 16}, [&](ValueRange iv) {
    Value row = cg.add(firstRow, iv[0]);
    Value j = iv[1];
    // Rows past the padded rows read the last row tile (never stored).
    Value rowTile = cg.minu(cg.divu(row, c(16)), c(matrix.rowTiles() - 1));
    Value x = cg.remu(row, c(16));
    Value g = cg.remu(x, c(8));
    Value upper = cg.divu(x, c(8));
    FragmentPlace place =
        eightBit ? placeEightBit(cg, matrix, rowTile, pair, g, upper, j)
                 : placeSixteenBit(cg, matrix, rowTile, pair, g, upper, j);

    Value word = cg.loadChecked(read.meta, place.word, metaOutOfBounds);
    Value shift = arith::IndexCastOp::create(b, op->getLoc(), i32, place.shift);
    Value nibble = cg.bitAnd(cg.shru(word, shift), cg.integer(i32, 15));
    Value position0 = cg.bitAnd(nibble, cg.integer(i32, 3));
    Value position1 = cg.shru(nibble, cg.integer(i32, 2));
    auto loadValue = [&](Value index) -> Value {
      if (!packedNibbles)
        return cg.loadChecked(read.values, index, valuesOutOfBounds);
      // Value e in byte e / 2, even e in bits 3:0; two's complement.
      Value byte =
          cg.loadChecked(read.values, cg.divu(index, c(2)), valuesOutOfBounds);
      Value fifteen = cg.integer(i8, 15);
      Value nibble =
          cg.select(cg.eq(cg.remu(index, c(2)), c(0)), cg.bitAnd(byte, fifteen),
                    cg.bitAnd(cg.shru(byte, cg.integer(i8, 4)), fifteen));
      return cg.select(cg.ult(nibble, cg.integer(i8, 8)), nibble,
                       cg.sub(nibble, cg.integer(i8, 16)));
    };
    // An integer weight of a 16-bit MMA is dequantized to its operand type
    // (exactly: |w| <= 127).
    auto operand = [&](Value value) -> Value {
      if (value.getType() == element)
        return value;
      return arith::SIToFPOp::create(b, op->getLoc(), element, value);
    };
    Value value0 = operand(loadValue(place.firstValue));
    Value value1 = operand(loadValue(cg.add(place.firstValue, c(1))));

    Value zero = cg.zero(element);
    for (int64_t q = 0; q < 4; ++q) {
      Value atQ = cg.integer(i32, q);
      Value kept = cg.select(cg.eq(position0, atQ), value0,
                             cg.select(cg.eq(position1, atQ), value1, zero));
      SmallVector<Value> at(prefix);
      at.append({iv[0], cg.add(cg.mul(j, c(4)), c(q))});
      cg.store(kept, result, at);
    }
  });
}

/// `slot` as an index, checked to lie in the A ring at run time.
Value getCheckedSlot(CodeGen &cg, Operation *op, Value slot,
                     vnm_gpu::ARingType ring) {
  Value index = cg.toIndex(slot);
  cg.check(cg.ult(index, cg.index(ring.getStages())),
           describeFailure(op, "ring slot out of range"));
  return index;
}

} // namespace

LogicalResult vnm::gpu_loops::lowerLoadSparseA(vnm_gpu::LoadSparseAOp op,
                                               const TileStorage &storage) {
  emitSparseARead({op, op.getMatrix(), op.getValues(), op.getMeta(),
                   op.getRow(), op.getPair(), op.getResult().getType()},
                  storage.bufferOf(op.getResult()), {});
  return success();
}

LogicalResult vnm::gpu_loops::lowerStageSparseA(vnm_gpu::StageSparseAOp op,
                                                const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  SparseARead read{op,
                   op.getMatrix(),
                   op.getValues(),
                   op.getMeta(),
                   op.getRow(),
                   op.getPair(),
                   op.getRing().getType().getTile()};
  if (storage.hasRingBuffers(op.getRing())) {
    // The block's copy: into the slot's shadow, landed by a later wait.
    const RingBuffers &ring = storage.ringOf(op.getRing());
    Value slot = startRingCopy(cg, ring, op.getSlot(), op);
    emitSparseARead(read, ring.shadow, slot);
    finishRingCopy(cg, ring, slot);
    return success();
  }
  // Staged at once: the produce_consume protocol orders the stage before
  // the consumers' read of the slot, which the CPU runs in lockstep.
  Value ring = storage.bufferOf(op.getRing());
  Value slot = getCheckedSlot(cg, op, op.getSlot(), op.getRing().getType());
  emitSparseARead(read, ring, slot);
  return success();
}

LogicalResult vnm::gpu_loops::lowerLoadStagedA(vnm_gpu::LoadStagedAOp op,
                                               const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Value result = storage.bufferOf(op.getResult());
  Value ring, slot;
  if (storage.hasRingBuffers(op.getRing())) {
    // Staged by the block: the slot's copy must have landed at a wait.
    const RingBuffers &buffers = storage.ringOf(op.getRing());
    ring = buffers.slots;
    slot = readRingSlot(cg, buffers, op.getSlot(), op);
  } else {
    ring = storage.bufferOf(op.getRing());
    slot = getCheckedSlot(cg, op, op.getSlot(), op.getRing().getType());
  }
  cg.forEach(cast<MemRefType>(result.getType()).getShape(), [&](ValueRange iv) {
    cg.store(cg.load(ring, {slot, iv[0], iv[1]}), result, iv);
  });
  return success();
}

LogicalResult vnm::gpu_loops::lowerMmaSp(vnm_gpu::MmaSpOp op,
                                         const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Location loc = op.getLoc();
  Value a = storage.bufferOf(op.getA());
  Value bFrag = storage.bufferOf(op.getB());
  Value acc = storage.bufferOf(op.getAcc());
  Value result = storage.bufferOf(op.getResult());
  Type accType = op.getAcc().getType().getElementType();
  int64_t depth = op.getB().getType().getRows();
  Value firstColumn = cg.index(op.getStepAttr().getInt() * depth);
  cg.forEach(cast<MemRefType>(result.getType()).getShape(), [&](ValueRange iv) {
    Value sum = cg.reduce(depth, cg.load(acc, iv), [&](Value k, Value partial) {
      Value x = loops::widen(
          b, loc, cg.load(a, {iv[0], cg.add(firstColumn, k)}), accType);
      Value y = loops::widen(b, loc, cg.load(bFrag, {k, iv[1]}), accType);
      return loops::add(b, loc, partial, loops::mul(b, loc, x, y));
    });
    cg.store(sum, result, iv);
  });
  return success();
}

LogicalResult vnm::gpu_loops::lowerZero(vnm_gpu::ZeroOp op,
                                        const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Value result = storage.bufferOf(op.getResult());
  cg.fill(result, cg.zero(op.getResult().getType().getElementType()));
  return success();
}

LogicalResult vnm::gpu_loops::lowerGroupScale(vnm_gpu::GroupScaleOp op,
                                              const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Location loc = op.getLoc();
  Value acc = storage.bufferOf(op.getAcc());
  Value part = storage.bufferOf(op.getPart());
  Value result = storage.bufferOf(op.getResult());
  Value resultPart = storage.bufferOf(op.getResultPart());
  Value pair = cg.toIndex(op.getPair());
  Value firstRow = cg.toIndex(op.getRow());
  int64_t perGroup = op.getPairsPerGroupAttr().getInt();
  int64_t rows = op.getRowsAttr().getInt();
  Value ends = arith::OrIOp::create(
      b, loc,
      cg.eq(cg.remu(cg.add(pair, cg.index(1)), cg.index(perGroup)),
            cg.index(0)),
      cg.eq(pair, cg.index(op.getLastPairAttr().getInt())));
  Value group = cg.divu(pair, cg.index(perGroup));
  std::string outOfBounds = describeFailure(op, "reads scales out of bounds");
  Value zero = cg.zero(b.getF32Type());
  cg.forEach(cast<MemRefType>(result.getType()).getShape(), [&](ValueRange iv) {
    Value sum = cg.load(acc, iv), partial = cg.load(part, iv);
    Value folded = cg.ifElse(
        ends, b.getF32Type(),
        [&] {
          // Rows past R take row R - 1's scale (never stored).
          Value row = cg.minu(cg.add(firstRow, iv[0]), cg.index(rows - 1));
          Value index =
              cg.add(cg.mul(row, cg.index(op.getGroupsAttr().getInt())), group);
          Value scale = cg.loadChecked(op.getScales(), index, outOfBounds);
          return arith::AddFOp::create(
              b, loc, sum, arith::MulFOp::create(b, loc, scale, partial));
        },
        [&] { return sum; });
    cg.store(folded, result, iv);
    cg.store(cg.select(ends, zero, partial), resultPart, iv);
  });
  return success();
}
