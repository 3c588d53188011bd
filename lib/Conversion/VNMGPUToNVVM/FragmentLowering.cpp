//===- FragmentLowering.cpp - A and B fragment loads to NVVM --------------===//
//
// Sparse A: values and metadata words are read straight from global memory
// in the lane order mma.sp consumes (the format library's fragment layout
// puts each lane's registers next to each other: one 16-byte load per k-tile
// and m16 tile, one 4-byte load per m16 tile and k-tile pair), with loads
// that stay where they are issued, so that the pipeline's prefetch is kept.
// Packed i4 values are 8 bytes per lane and tile, widened to the 16 bytes
// of the s8 MMA's registers. An i8 or i4 weight under the f16 MMA (W8A16,
// W4A16) is read in the 16-bit class (8 or 4 bytes per lane and tile) and
// converted to f16/bf16 in registers.
//
// B: one ldmatrix.x4.trans per n8 tile and k-tile from the swizzled slot;
// lane l addresses row l of the k-tile. From a k-contiguous slot one
// ldmatrix.x4 without .trans; gathered from a k-contiguous slot (`via`),
// 8-byte shared loads and prmt.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include "vnm/Format/FragmentGeometry.h"
#include "vnm/Format/StorageShape.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

/// The four i8 values of `word` converted exactly to f16 or bf16
/// (`element`): two registers of two values each, in order.
std::pair<Value, Value> dequantizeBytes(KernelIRBuilder &kb, Value word,
                                        Type element) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  Value bytes = LLVM::BitcastOp::create(
      b, loc, VectorType::get({4}, b.getI8Type()), word);
  Value converted =
      arith::SIToFPOp::create(b, loc, VectorType::get({4}, element), bytes);
  Value registers = LLVM::BitcastOp::create(
      b, loc, VectorType::get({2}, kb.i32()), converted);
  return {vector::ExtractOp::create(b, loc, registers, int64_t(0)),
          vector::ExtractOp::create(b, loc, registers, int64_t(1))};
}

struct LoadSparseALowering : OpConversionPattern<LoadSparseAOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadSparseAOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SparseAType type = op.getResult().getType();
    MmaLayoutAttr layout = type.getLayout();
    RankedTensorType matrix = op.getMatrix();
    EncodingAttr encoding = getVNMEncoding(matrix);
    std::optional<format::FragmentGeometry> found =
        getFragmentGeometry(matrix, layout);
    if (!found)
      return rewriter.notifyMatchFailure(
          op, "no fragment storage of the matrix in the MMA's class");
    const format::FragmentGeometry &geometry = *found;

    KernelIRBuilder kb(rewriter, op.getLoc());
    ThreadCoordinates at = getThreadCoordinates(kb, layout);
    WarpTiles tiles = getWarpTiles(layout, type.getRows(), type.getCols());
    Value row = adaptor.getRow().front(), pair = adaptor.getPair().front();
    Value values = adaptor.getValues().front();
    Value meta = adaptor.getMeta().front();
    Type weight = matrix.getElementType();
    bool packedNibbles = weight.isSignlessInteger(4);
    int64_t elementBytes =
        packedNibbles ? 1 : weight.getIntOrFloatBitWidth() / 8;
    // An integer weight under a 16-bit MMA: bytes dequantized to f16/bf16.
    Type dequantizeTo;
    if (weight.isInteger() && layout.getOperandBits() == 16)
      dequantizeTo = type.getElementType();

    // One metadata word per m16 tile, then 4 A registers per (k-tile of
    // the pair, m16 tile).
    SmallVector<Value> words;
    SmallVector<Value> rowTile(tiles.m);
    // The fragment arrays hold whole V blocks. A tile of an M = 4 kernel
    // may span V blocks and reach past them: its rows there are never
    // stored, so they read the last row tile.
    bool clamped = type.getRows() > encoding.getV();
    for (int64_t mt = 0; mt < tiles.m; ++mt) {
      Value firstRow = kb.add(
          row, kb.add(kb.mul(at.warpM, kb.c32(tiles.m * 16)), kb.c32(mt * 16)));
      rowTile[mt] = kb.shru(firstRow, kb.c32(4));
      if (clamped)
        rowTile[mt] = kb.minu(rowTile[mt], kb.c32(geometry.rowTiles - 1));
    }
    // The address of an array's element `pairIndex + constant` in the
    // thread's lanes of row tile mt, where `laneIndex(mt)` is the first of
    // them: the thread's part, the pair's and the constant are separate
    // 64-bit offsets, so that the loop's strength reduction sees the
    // pair's as a multiple of the induction variable, and an unrolled
    // loop's copies address one pointer with immediate offsets. Unclamped,
    // the warp's row tiles are consecutive (its first row is a multiple of
    // 16), so tile mt is a constant past tile 0.
    auto fragmentAddress = [&](Value array, int64_t bytes,
                               function_ref<Value(int64_t mt)> laneIndex,
                               int64_t rowTileElements, int64_t mt,
                               Value pairIndex, int64_t constant) {
      Value thread =
          clamped
              ? kb.elementAddress(array, laneIndex(mt), bytes)
              : kb.offsetBytes(kb.elementAddress(array, laneIndex(0), bytes),
                               kb.c64(mt * rowTileElements * bytes));
      return kb.offsetBytes(kb.elementAddress(thread, pairIndex, bytes),
                            kb.c64(constant * bytes));
    };
    int64_t metaRowTileWords =
        geometry.metaUnitsPerRowTile() * format::kWarpLanes;
    for (int64_t mt = 0; mt < tiles.m; ++mt) {
      auto laneWord = [&](int64_t t) {
        return kb.add(kb.mul(rowTile[t], kb.c32(metaRowTileWords)), at.lane);
      };
      Value pairWord = kb.mul(pair, kb.c32(format::kWarpLanes));
      words.push_back(kb.loadWordsHere(
          fragmentAddress(meta, 4, laneWord, metaRowTileWords, mt, pairWord, 0),
          1)[0]);
    }
    int64_t kTiles = type.getCols() / layout.getInstrK();
    int64_t rowTileValues = geometry.kTiles * geometry.valuesPerTile();
    for (int64_t kk = 0; kk < kTiles; ++kk) {
      Value kTile = kb.add(kb.mul(pair, kb.c32(kTiles)), kb.c32(kk));
      for (int64_t mt = 0; mt < tiles.m; ++mt) {
        if (!packedNibbles && !dequantizeTo) {
          auto laneIndex = [&](int64_t t) {
            return kb.add(kb.mul(rowTile[t], kb.c32(rowTileValues)),
                          kb.mul(at.lane, kb.c32(geometry.valuesPerLane)));
          };
          Value pairIndex =
              kb.mul(pair, kb.c32(kTiles * geometry.valuesPerTile()));
          llvm::append_range(
              words,
              kb.loadWordsHere(fragmentAddress(values, elementBytes, laneIndex,
                                               rowTileValues, mt, pairIndex,
                                               kk * geometry.valuesPerTile()),
                               4));
          continue;
        }
        Value tile =
            kb.add(kb.mul(rowTile[mt], kb.c32(geometry.kTiles)), kTile);
        Value elementIndex =
            kb.add(kb.mul(tile, kb.c32(geometry.valuesPerTile())),
                   kb.mul(at.lane, kb.c32(geometry.valuesPerLane)));
        // The lane's values as i8 words (4 per word): i4's packed bytes
        // widened, i8 as stored.
        int64_t storedBytes = geometry.valuesPerLane / (packedNibbles ? 2 : 1);
        Value byteIndex =
            packedNibbles ? kb.shru(elementIndex, kb.c32(1)) : elementIndex;
        SmallVector<Value> bytes;
        for (Value stored : kb.loadWordsHere(
                 kb.elementAddress(values, byteIndex, 1), storedBytes / 4)) {
          if (!packedNibbles) {
            bytes.push_back(stored);
            continue;
          }
          auto [low, high] = widenNibbles(kb, stored);
          bytes.append({low, high});
        }
        if (!dequantizeTo) {
          llvm::append_range(words, bytes);
          continue;
        }
        for (Value word : bytes) {
          auto [low, high] = dequantizeBytes(kb, word, dequantizeTo);
          words.append({low, high});
        }
      }
    }
    rewriter.replaceOpWithMultiple(op, {words});
    return success();
  }
};

/// One ldmatrix.x4 of four 8x8 b16 matrices at this lane's `offset` in the
/// ring, `transposed` or not; its four registers.
void loadMatrices(KernelIRBuilder &kb, Value ring, Value offset,
                  bool transposed, SmallVectorImpl<Value> &registers) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  auto words4 = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, kb.i32()));
  Value regs = NVVM::LdMatrixOp::create(
      b, loc, words4, kb.offsetBytes(ring, offset), 4,
      transposed ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  for (int r = 0; r < 4; ++r)
    registers.push_back(LLVM::ExtractValueOp::create(b, loc, regs, r));
}

/// What a gathering B load (`via`) needs of its lane and slot: lane l's
/// token in the first n8 tile of its warp (l / 4 of it), the slot's byte
/// offset, whether moving 8 tokens keeps the swizzle phase (a whole
/// swizzle span of rows divides 8), and the step's first group.
struct GatherSetup {
  RingType ring;
  WarpTiles tiles;
  ThreadCoordinates at;
  Value slotBase, shared, firstRow;
  bool eightRowsKeepPhase;
  int64_t firstGroup;

  GatherSetup(KernelIRBuilder &kb, LoadBOp op,
              OpConversionPattern<LoadBOp>::OneToNOpAdaptor adaptor)
      : ring(op.getRing().getType()) {
    BFragType type = op.getResult().getType();
    MmaLayoutAttr layout = type.getLayout();
    tiles = getWarpTiles(layout, type.getRows(), type.getCols());
    at = getThreadCoordinates(kb, layout);
    slotBase = getSlotOffset(kb, ring, adaptor.getSlot().front());
    shared = adaptor.getRing().front();
    firstRow = kb.add(kb.mul(at.warpN, kb.c32(tiles.n * 8)), at.g);
    SwizzleAttr swizzle = ring.getSwizzle();
    eightRowsKeepPhase =
        8 % (swizzle.getPeriod() * swizzle.getRowsPerPhase()) == 0;
    firstGroup = op.getOffsetAttr().getInt() / 4;
  }
};

struct LoadBLowering : OpConversionPattern<LoadBOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadBOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BFragType type = op.getResult().getType();
    RingType ring = op.getRing().getType();
    MmaLayoutAttr layout = type.getLayout();
    if (failed(checkLowerableRing(op, ring, rewriter)))
      return failure();
    KernelIRBuilder kb(rewriter, op.getLoc());
    WarpTiles tiles = getWarpTiles(layout, type.getRows(), type.getCols());
    // A constant slot (a K loop unrolled by the ring depth) is the
    // immediate offset of every ldmatrix; a variable one joins the lane's
    // swizzled offset, as the copies' (CopyLowering.cpp).
    Value slot = adaptor.getSlot().front();
    Value slotOffset = getSlotOffset(kb, ring, slot);
    bool constantSlot = matchPattern(slot, m_Constant());
    Value shared = constantSlot
                       ? kb.offsetBytes(adaptor.getRing().front(), slotOffset)
                       : adaptor.getRing().front();
    Value slotBase = constantSlot ? kb.c32(0) : slotOffset;
    int64_t offset = op.getOffsetAttr().getInt();
    SmallVector<Value> registers;
    if (op.getColloc()) {
      if (failed(loadGathered(kb, op, adaptor, rewriter, registers)))
        return failure();
    } else if (!op.getKContiguous()) {
      // K x N slot, ldmatrix .trans: lane l addresses row l of the k-step
      // at the warp's first n8 chunk; chunk nt of the warp is then at
      // offset ^ (16 nt) (nt only touches bits the warp's first chunk
      // leaves clear).
      Value laneOffset = kb.add(
          slotBase, getFragmentLaneOffset(kb, ring, layout, type.getCols()));
      for (int64_t nt = 0; nt < tiles.n; ++nt)
        loadMatrices(kb, shared,
                     kb.add(kb.bitXor(laneOffset, kb.c32(16 * nt)),
                            kb.c32(offset * ring.getRowBytes())),
                     /*transposed=*/true, registers);
    } else {
      // N x K slot (k contiguous), ldmatrix without .trans: lane l
      // addresses token n0 + (l & 7) of n8 tile nt at the 16-byte chunk
      // (l >> 3) of the k-step; matrix j is then its K bytes 16 j .. 16 j
      // + 15 (8-bit) or K values 8 j .. 8 j + 7 (16-bit), register b[j].
      ThreadCoordinates at = getThreadCoordinates(kb, layout);
      Value firstRow = kb.add(kb.mul(at.warpN, kb.c32(tiles.n * 8)),
                              kb.bitAnd(at.lane, kb.c32(7)));
      Value chunk = kb.add(kb.c32(offset * ring.getElementBytes() / 16),
                           kb.shru(at.lane, kb.c32(3)));
      SwizzleAttr swizzle = ring.getSwizzle();
      // Moving 8 rows keeps the swizzle phase when a whole swizzle span of
      // rows divides 8.
      bool eightRowsKeepPhase =
          8 % (swizzle.getPeriod() * swizzle.getRowsPerPhase()) == 0;
      Value laneOffset =
          kb.add(slotBase, getSwizzledOffset(kb, ring, firstRow, chunk));
      for (int64_t nt = 0; nt < tiles.n; ++nt) {
        Value at8 =
            eightRowsKeepPhase
                ? kb.add(laneOffset, kb.c32(8 * nt * ring.getRowBytes()))
                : kb.add(slotBase,
                         getSwizzledOffset(kb, ring,
                                           kb.add(firstRow, kb.c32(8 * nt)),
                                           chunk));
        loadMatrices(kb, shared, at8, /*transposed=*/false, registers);
      }
    }
    rewriter.replaceOpWithMultiple(op, {registers});
    return success();
  }

  /// `via`: the slot's rows are tokens holding the pair's groups whole (M
  /// elements each). 8-bit: B register j of lane l (token l / 4 of its n8
  /// tile) is its step's group q = offset / 4 + 4 j + l mod 4: 8 bytes at q
  /// M, of which the column-loc's prmt selector keeps 4; one 8-byte shared
  /// load and one prmt per register.
  LogicalResult loadGathered(KernelIRBuilder &kb, LoadBOp op,
                             OneToNOpAdaptor adaptor,
                             ConversionPatternRewriter &rewriter,
                             SmallVectorImpl<Value> &registers) const {
    RingType ring = op.getRing().getType();
    ColLocType colloc = op.getColloc().getType();
    int64_t m = ring.getCols() / colloc.getGroups();
    if (ring.getElementBytes() == 2)
      return loadGatheredHalves(kb, op, adaptor, registers);
    if (m != 8 || ring.getElementBytes() != 1)
      return rewriter.notifyMatchFailure(
          op, "load_b via selects from 8-byte groups (i8, M = 8) only");
    GatherSetup g(kb, op, adaptor);
    ValueRange selectors = adaptor.getColloc();
    Type words2 = VectorType::get({2}, kb.i32());
    for (int64_t nt = 0; nt < g.tiles.n; ++nt) {
      Value tokenRow = kb.add(g.firstRow, kb.c32(8 * nt));
      for (int64_t j = 0; j < 4; ++j) {
        // Group q's bytes: chunk q M / 16, byte (q M) mod 16 of it.
        Value byte =
            kb.mul(kb.add(g.at.t, kb.c32(g.firstGroup + 4 * j)), kb.c32(m));
        Value chunk = kb.shru(byte, kb.c32(4));
        Value inChunk = kb.bitAnd(byte, kb.c32(15));
        Value rowOffset =
            g.eightRowsKeepPhase
                ? kb.add(getSwizzledOffset(kb, ring, g.firstRow, chunk),
                         kb.c32(8 * nt * ring.getRowBytes()))
                : getSwizzledOffset(kb, ring, tokenRow, chunk);
        Value address = kb.offsetBytes(
            g.shared, kb.add(g.slotBase, kb.add(rowOffset, inChunk)));
        Value bytes = kb.load(words2, address, 8);
        Value lo = vector::ExtractOp::create(kb.builder(), kb.location(), bytes,
                                             int64_t(0));
        Value hi = vector::ExtractOp::create(kb.builder(), kb.location(), bytes,
                                             int64_t(1));
        registers.push_back(kb.permuteBytes(lo, hi, selectors[j]));
      }
    }
    return success();
  }

  /// `via` for 16-bit elements: B register j of lane l (token l / 4 of its
  /// n8 tile) holds the step's compressed rows 8 j + 2 (l mod 4) and the
  /// next, kept columns 2 (l mod 2) and 2 (l mod 2) + 1 of group q = offset
  /// / 4 + 2 j + (l mod 4) / 2; the column-loc word (offset / 4 + 2 j) / 4
  /// holds their offsets in the group. The two columns' shared offsets
  /// are the same for every n8 tile (eight tokens keep the swizzle phase);
  /// two 2-byte shared loads and one prmt per register.
  LogicalResult loadGatheredHalves(KernelIRBuilder &kb, LoadBOp op,
                                   OneToNOpAdaptor adaptor,
                                   SmallVectorImpl<Value> &registers) const {
    RingType ring = op.getRing().getType();
    int64_t m = ring.getCols() / op.getColloc().getType().getGroups();
    GatherSetup g(kb, op, adaptor);
    ValueRange words = adaptor.getColloc();
    // The lane's column of its group q within the slot row, in elements.
    Value laneGroupColumn = kb.mul(kb.shru(g.at.t, kb.c32(1)), kb.c32(m));
    auto columnOffset = [&](Value tokenRow, Value column) {
      Value byte = kb.mul(column, kb.c32(2));
      return kb.add(
          getSwizzledOffset(kb, ring, tokenRow, kb.shru(byte, kb.c32(4))),
          kb.bitAnd(byte, kb.c32(15)));
    };
    auto loadHalf = [&](Value offset) {
      Value half =
          kb.load(kb.builder().getI16Type(),
                  kb.offsetBytes(g.shared, kb.add(g.slotBase, offset)), 2);
      return arith::ExtUIOp::create(kb.builder(), kb.location(), kb.i32(), half)
          .getResult();
    };
    // The shared offsets of register j's two columns in the lane's token
    // of the first n8 tile.
    SmallVector<std::array<Value, 2>> columns(4), firstOffsets(4);
    for (int64_t j = 0; j < 4; ++j) {
      int64_t wordGroup = g.firstGroup / 2 + j;
      Value word = words[wordGroup / 2];
      int64_t firstByte = 2 * (wordGroup % 2);
      Value groupColumn =
          kb.add(kb.c32((g.firstGroup + 2 * j) * m), laneGroupColumn);
      for (int h = 0; h < 2; ++h) {
        columns[j][h] = kb.add(
            groupColumn,
            kb.bitAnd(kb.shru(word, kb.c32(8 * (firstByte + h))), kb.c32(255)));
        firstOffsets[j][h] = columnOffset(g.firstRow, columns[j][h]);
      }
    }
    for (int64_t nt = 0; nt < g.tiles.n; ++nt) {
      Value tokenRow = kb.add(g.firstRow, kb.c32(8 * nt));
      for (int64_t j = 0; j < 4; ++j) {
        Value halves[2];
        for (int h = 0; h < 2; ++h)
          halves[h] = loadHalf(g.eightRowsKeepPhase
                                   ? kb.add(firstOffsets[j][h],
                                            kb.c32(8 * nt * ring.getRowBytes()))
                                   : columnOffset(tokenRow, columns[j][h]));
        registers.push_back(
            kb.permuteBytes(halves[0], halves[1], kb.c32(0x5410)));
      }
    }
    return success();
  }
};

} // namespace

void lowering::populateFragmentPatterns(TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<LoadSparseALowering, LoadBLowering>(converter,
                                                   patterns.getContext());
}
