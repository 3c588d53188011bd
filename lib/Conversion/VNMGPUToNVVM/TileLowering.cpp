//===- TileLowering.cpp - shared parts of the vnm_gpu to NVVM lowering ----===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

WarpTiles lowering::getWarpTiles(MmaLayoutAttr layout, int64_t rows,
                                 int64_t cols) {
  return {rows / layout.getWarpsM() / layout.getInstrM(),
          cols / layout.getWarpsN() / layout.getInstrN()};
}

int64_t lowering::getColLocWords(ColLocType type) {
  // Spread as B fragments: lane l holds groups 4 j + l mod 4.
  if (!type.getCopyLayout())
    return type.getGroups() / 4;
  // Spread as a copy: a thread's rows are whole groups (four rows each), or
  // part of one.
  return std::max<int64_t>(type.getCopyLayout().getRowsPerThread() / 4, 1);
}

void lowering::addTileTypeConversions(TypeConverter &converter) {
  auto i32 = [](MLIRContext *context) { return IntegerType::get(context, 32); };
  converter.addConversion([](MemRefType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kGlobalSpace);
  });
  converter.addConversion([](RingType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kSharedSpace);
  });
  converter.addConversion([](ARingType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kSharedSpace);
  });
  converter.addConversion(
      [i32](ColLocType type, SmallVectorImpl<Type> &results) {
        results.append(getColLocWords(type), i32(type.getContext()));
        return success();
      });
  converter.addConversion(
      [i32](SparseAType type, SmallVectorImpl<Type> &results) {
        WarpTiles tiles =
            getWarpTiles(type.getLayout(), type.getRows(), type.getCols());
        int64_t kTiles = type.getCols() / type.getLayout().getInstrK();
        results.append(tiles.m + kTiles * tiles.m * 4, i32(type.getContext()));
        return success();
      });
  converter.addConversion(
      [i32](BFragType type, SmallVectorImpl<Type> &results) {
        WarpTiles tiles =
            getWarpTiles(type.getLayout(), type.getRows(), type.getCols());
        results.append(tiles.n * 4, i32(type.getContext()));
        return success();
      });
  converter.addConversion([](AccType type, SmallVectorImpl<Type> &results) {
    WarpTiles tiles =
        getWarpTiles(type.getLayout(), type.getRows(), type.getCols());
    results.append(tiles.m * tiles.n * 4, type.getElementType());
    return success();
  });
}

ThreadCoordinates lowering::getThreadCoordinates(KernelIRBuilder &kb,
                                                 MmaLayoutAttr layout) {
  ThreadCoordinates c;
  c.tid = kb.threadIdX();
  c.lane = kb.bitAnd(c.tid, kb.c32(31));
  Value warp = kb.shru(c.tid, kb.c32(5));
  c.g = kb.shru(c.lane, kb.c32(2));
  c.t = kb.bitAnd(c.lane, kb.c32(3));
  c.warpM = kb.divu(warp, kb.c32(layout.getWarpsN()));
  c.warpN = kb.remu(warp, kb.c32(layout.getWarpsN()));
  return c;
}

Value lowering::getAccumulatorRow(KernelIRBuilder &kb,
                                  const ThreadCoordinates &at, WarpTiles tiles,
                                  Value firstRow, int64_t mt, int half) {
  return kb.add(firstRow, kb.add(kb.mul(at.warpM, kb.c32(tiles.m * 16)),
                                 kb.add(kb.c32(mt * 16 + 8 * half), at.g)));
}

Value lowering::getAccumulatorColumn(KernelIRBuilder &kb,
                                     const ThreadCoordinates &at,
                                     WarpTiles tiles, int64_t nt) {
  return kb.add(kb.mul(at.warpN, kb.c32(tiles.n * 8)),
                kb.add(kb.c32(nt * 8), kb.mul(at.t, kb.c32(2))));
}

CopyCoordinates lowering::getCopyCoordinates(KernelIRBuilder &kb,
                                             CopyLayoutAttr layout,
                                             int64_t rowBytes) {
  Value tid = kb.threadIdX();
  Value chunksPerRow = kb.c32(rowBytes / 16);
  return {kb.mul(kb.divu(tid, chunksPerRow), kb.c32(layout.getRowsPerThread())),
          kb.remu(tid, chunksPerRow)};
}

Value lowering::getSwizzledOffset(KernelIRBuilder &kb, RingType ring, Value row,
                                  Value chunk) {
  SwizzleAttr swizzle = ring.getSwizzle();
  Value swizzled = chunk;
  if (swizzle.getPeriod() > 1) {
    Value phase = row;
    if (swizzle.getRowsPerPhase() > 1)
      phase = kb.shru(row, kb.c32(llvm::Log2_64(swizzle.getRowsPerPhase())));
    swizzled =
        kb.bitXor(chunk, kb.bitAnd(phase, kb.c32(swizzle.getPeriod() - 1)));
  }
  // The swizzle permutes chunks of swizzle.getChunkBytes(); a copy chunk of
  // 16 bytes is a whole number of them (or the swizzle chunk is 16).
  int64_t blocks = swizzle.getColumnBlocks();
  if (blocks == 1)
    return kb.add(kb.mul(row, kb.c32(ring.getRowBytes())),
                  kb.mul(swizzled, kb.c32(16)));
  // Column blocks: block b of every row is stored after blocks 0..b-1 of
  // all rows. The period divides a block's chunks (ring C4), so the XOR
  // keeps a chunk in its block.
  int64_t blockBytes = ring.getRowBytes() / blocks;
  Value block = kb.divu(swizzled, kb.c32(blockBytes / 16));
  Value inBlock = kb.remu(swizzled, kb.c32(blockBytes / 16));
  return kb.add(
      kb.mul(block, kb.c32(ring.getRows() * blockBytes)),
      kb.add(kb.mul(row, kb.c32(blockBytes)), kb.mul(inBlock, kb.c32(16))));
}

Value lowering::moveSwizzledRows(KernelIRBuilder &kb, RingType ring,
                                 Value offset, int64_t dr) {
  int64_t period = ring.getSwizzle().getPeriod();
  int64_t phases = dr / ring.getSwizzle().getRowsPerPhase();
  Value moved = offset;
  if (period > 1 && phases % period != 0)
    moved = kb.bitXor(moved, kb.c32(16 * (phases % period)));
  // Rows are a block's width apart (the whole row without column blocks).
  if (dr != 0)
    moved = kb.add(moved, kb.c32(dr * ring.getRowBytes() /
                                 ring.getSwizzle().getColumnBlocks()));
  return moved;
}

Value lowering::getSlotOffset(KernelIRBuilder &kb, RingType ring, Value slot) {
  return kb.mul(slot, kb.c32(ring.getSlotBytes()));
}

Value lowering::getFragmentLaneOffset(KernelIRBuilder &kb, RingType ring,
                                      MmaLayoutAttr layout, int64_t cols) {
  ThreadCoordinates at = getThreadCoordinates(kb, layout);
  WarpTiles tiles = getWarpTiles(layout, layout.getInstrK(), cols);
  Value warpChunk = kb.mul(at.warpN, kb.c32(tiles.n));
  return getSwizzledOffset(kb, ring, at.lane, warpChunk);
}

Value lowering::getCopyRowOffset(KernelIRBuilder &kb, RingType ring,
                                 CopyLayoutAttr layout) {
  CopyCoordinates at = getCopyCoordinates(kb, layout, ring.getRowBytes());
  return getSwizzledOffset(kb, ring, at.firstRow, at.chunk);
}

LogicalResult
lowering::checkLowerableRing(Operation *op, RingType ring,
                             ConversionPatternRewriter &rewriter) {
  if (ring.getSwizzle().getChunkBytes() != 16)
    return rewriter.notifyMatchFailure(
        op, "the NVVM lowering swizzles 16-byte chunks only");
  return success();
}

// The even and odd nibbles are spread to bytes and interleaved by prmt; a
// nibble v becomes ((v ^ 8) + 0x78) ^ 0x80 = v - 16 [v >= 8], bytewise
// without carries.
std::pair<Value, Value> lowering::widenNibbles(KernelIRBuilder &kb,
                                               Value word) {
  Value even = kb.bitAnd(word, kb.c32(0x0F0F0F0F));
  Value odd = kb.bitAnd(kb.shru(word, kb.c32(4)), kb.c32(0x0F0F0F0F));
  auto signExtend = [&](Value bytes) {
    Value biased =
        kb.add(kb.bitXor(bytes, kb.c32(0x08080808)), kb.c32(0x78787878));
    return kb.bitXor(biased, kb.c32(static_cast<int32_t>(0x80808080)));
  };
  return {signExtend(kb.permuteBytes(even, odd, kb.c32(0x5140))),
          signExtend(kb.permuteBytes(even, odd, kb.c32(0x7362)))};
}
