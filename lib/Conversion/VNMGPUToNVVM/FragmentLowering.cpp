//===- FragmentLowering.cpp - A and B fragment loads to NVVM --------------===//
//
// Sparse A: values and metadata words are read straight from global memory
// in the lane order mma.sp consumes (the format library's fragment layout
// puts each lane's registers next to each other: one 16-byte load per k-tile
// and m16 tile, one 4-byte load per m16 tile and k-tile pair), with loads
// that stay where they are issued, so that the pipeline's prefetch is kept.
//
// B: one ldmatrix.x4.trans per n8 tile and k-tile from the swizzled slot;
// lane l addresses row l of the k-tile.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "vnm/Format/FragmentGeometry.h"
#include "vnm/Format/StorageShape.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

/// The fragment geometry of an encoded f16 or bf16 matrix type.
std::optional<format::FragmentGeometry> getGeometry(RankedTensorType matrix) {
  Type element = matrix.getElementType();
  if (!element.isF16() && !element.isBF16())
    return std::nullopt;
  format::ElementType type =
      element.isF16() ? format::ElementType::F16 : format::ElementType::BF16;
  EncodingAttr encoding = getVNMEncoding(matrix);
  format::StorageShape shape;
  if (!format::getStorageShape(
           {encoding.getV(), encoding.getN(), encoding.getM()}, type,
           matrix.getDimSize(0), matrix.getDimSize(1), shape)
           .ok())
    return std::nullopt;
  return format::getFragmentGeometry(type, shape);
}

struct LoadSparseALowering : OpConversionPattern<LoadSparseAOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadSparseAOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SparseAType type = op.getResult().getType();
    MmaLayoutAttr layout = type.getLayout();
    if (layout.getGeometry() != MmaGeometry::mma_sp_m16n8k32)
      return rewriter.notifyMatchFailure(op, "only the m16n8k32 fragments "
                                             "are lowered");
    RankedTensorType matrix = op.getMatrix();
    EncodingAttr encoding = getVNMEncoding(matrix);
    std::optional<format::FragmentGeometry> found = getGeometry(matrix);
    if (!found)
      return rewriter.notifyMatchFailure(op, "no f16/bf16 fragment storage");
    const format::FragmentGeometry &geometry = *found;

    KernelIRBuilder kb(rewriter, op.getLoc());
    ThreadCoordinates at = getThreadCoordinates(kb, layout);
    WarpTiles tiles = getWarpTiles(layout, type.getRows(), type.getCols());
    Value row = adaptor.getRow().front(), pair = adaptor.getPair().front();
    Value values = adaptor.getValues().front();
    Value meta = adaptor.getMeta().front();
    int64_t elementBytes = matrix.getElementType().getIntOrFloatBitWidth() / 8;

    // One metadata word per m16 tile, then 4 A registers per (k-tile of
    // the pair, m16 tile).
    SmallVector<Value> words;
    SmallVector<Value> rowTile(tiles.m);
    for (int64_t mt = 0; mt < tiles.m; ++mt) {
      Value firstRow = kb.add(
          row, kb.add(kb.mul(at.warpM, kb.c32(tiles.m * 16)), kb.c32(mt * 16)));
      // The fragment arrays hold whole V blocks. A tile of an M = 4 kernel
      // may span V blocks and reach past them: its rows there are never
      // stored, so they read the last row tile.
      rowTile[mt] = kb.shru(firstRow, kb.c32(4));
      if (type.getRows() > encoding.getV())
        rowTile[mt] = kb.minu(rowTile[mt], kb.c32(geometry.rowTiles - 1));
      Value unit = kb.add(
          kb.mul(rowTile[mt], kb.c32(geometry.metaUnitsPerRowTile())), pair);
      Value word = kb.add(kb.mul(unit, kb.c32(format::kWarpLanes)), at.lane);
      words.push_back(kb.loadWordsHere(kb.elementAddress(meta, word, 4), 1)[0]);
    }
    int64_t kTiles = type.getCols() / layout.getInstrK();
    for (int64_t kk = 0; kk < kTiles; ++kk) {
      Value kTile = kb.add(kb.mul(pair, kb.c32(kTiles)), kb.c32(kk));
      for (int64_t mt = 0; mt < tiles.m; ++mt) {
        Value tile =
            kb.add(kb.mul(rowTile[mt], kb.c32(geometry.kTiles)), kTile);
        Value elementIndex =
            kb.add(kb.mul(tile, kb.c32(geometry.valuesPerTile())),
                   kb.mul(at.lane, kb.c32(geometry.valuesPerLane)));
        llvm::append_range(
            words,
            kb.loadWordsHere(
                kb.elementAddress(values, elementIndex, elementBytes), 4));
      }
    }
    rewriter.replaceOpWithMultiple(op, {words});
    return success();
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
    if (layout.getGeometry() != MmaGeometry::mma_sp_m16n8k32)
      return rewriter.notifyMatchFailure(op, "only the m16n8k32 fragments "
                                             "are lowered");
    if (failed(checkLowerableRing(op, ring, rewriter)))
      return failure();
    KernelIRBuilder kb(rewriter, op.getLoc());
    OpBuilder &b = kb.builder();
    Location loc = kb.location();
    WarpTiles tiles = getWarpTiles(layout, type.getRows(), type.getCols());
    // Lane l addresses row l of the k-tile at the warp's first n8 chunk;
    // chunk nt of the warp is then at offset ^ (16 nt) (nt only touches
    // bits the warp's first chunk leaves clear).
    Value laneOffset = getFragmentLaneOffset(kb, ring, layout, type.getCols());
    Value slotOffset =
        kb.add(getSlotOffset(kb, ring, adaptor.getSlot().front()), laneOffset);
    auto words4 = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(4, kb.i32()));
    SmallVector<Value> registers;
    for (int64_t nt = 0; nt < tiles.n; ++nt) {
      Value offset =
          kb.add(kb.bitXor(slotOffset, kb.c32(16 * nt)),
                 kb.c32(op.getOffsetAttr().getInt() * ring.getRowBytes()));
      Value regs = NVVM::LdMatrixOp::create(
          b, loc, words4, kb.offsetBytes(adaptor.getRing().front(), offset), 4,
          NVVM::MMALayout::col,
          NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
          NVVM::LdStMatrixEltType::B16);
      for (int r = 0; r < 4; ++r)
        registers.push_back(LLVM::ExtractValueOp::create(b, loc, regs, r));
    }
    rewriter.replaceOpWithMultiple(op, {registers});
    return success();
  }
};

} // namespace

void lowering::populateFragmentPatterns(TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<LoadSparseALowering, LoadBLowering>(converter,
                                                   patterns.getContext());
}
