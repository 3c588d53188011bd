//===- StagedCopyLowering.cpp - the producer's copies and staged A --------===//
//
// The copies of a produce region, issued by one producer thread, complete
// on the slot's full barrier by bytes (ProduceConsumeLowering.cpp
// announces them):
//
// * vnm_gpu.tma_copy_tile: one 2-D TMA box per 128-byte column block of
//   the slot (the ring's rows x 128 bytes), which the copy engine writes in
//   the 128-byte swizzle, or one box of 64-byte rows in the 64-byte
//   swizzle, through the tensor map the kernel parameter `src` is bound to;
// * vnm_gpu.stage_sparse_a: two 2-D TMA boxes per pair, when its arrays
//   are kernel parameters (tensor maps): the pair's values (its k-tiles
//   of 32 lanes x 16 bytes: two for f16/bf16, 1 KiB; one for i8) and
//   metadata (32 words) of all of the
//   slot's 16-row tiles, each a box of row tiles x one pair over the arrays
//   seen as row tiles x K (vnm_gpu::getStagedATensorMaps). On the H200
//   each copy costs the loop: with 16 1-D bulk copies per pair (one per row
//   tile and array) instead of these 2 the kernel ran 1.3x slower, the
//   hand-written loop 1.5x (bench/results/2026-12-04-h200-wgmma-ws-*/).
//   Arrays that are not parameters are still copied by those bulk copies.
// * vnm_gpu.stage_sparse_a with a copy layout (the mma.sp kernels'
//   staged_a, outside a produce_consume): 16-byte cp.async copies by the
//   block's threads, one commit group, landed by vnm_gpu.wait.
//
// vnm_gpu.load_staged_a reads a consumer thread's registers of the slot
// with ld.shared: its warp's 16-row tiles, in the order load_sparse_a
// returns them.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

struct TmaCopyTileLowering : OpConversionPattern<TmaCopyTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaCopyTileOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto bound = op.getSrc().getDefiningOp<UnrealizedConversionCastOp>();
    if (!bound)
      return rewriter.notifyMatchFailure(
          op, "`src` is not bound to a tensor map parameter");
    Value map = bound.getOperand(0);
    RingType ring = op.getRing().getType();
    KernelIRBuilder kb(rewriter, op.getLoc());
    Value slot = adaptor.getSlot().front();
    Value full = getSlotBarrier(kb, op, ring.getStages(), slot, false);
    Value dst = kb.add(kb.sharedAddress(adaptor.getRing().front()),
                       getSlotOffset(kb, ring, slot));
    int64_t swizzleBytes = ring.getCanonicalSwizzleBytes();
    int64_t blockElements = swizzleBytes / ring.getElementBytes();
    int64_t blockBytes = ring.getRows() * swizzleBytes;
    Value row = adaptor.getRow().front(), col = adaptor.getCol().front();
    for (int64_t j = 0; j < ring.getRowBytes() / swizzleBytes; ++j)
      kb.ptx("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
             "complete_tx::bytes [$0], [$1, {$2, $3}], [$4];",
             {kb.add(dst, kb.c32(j * blockBytes)), map,
              kb.add(col, kb.c32(j * blockElements)), row, full},
             "r,l,r,r,r");
    rewriter.eraseOp(op);
    return success();
  }
};

/// Where a slot's 16-row tiles come from in the fragment arrays: row tile
/// `j` of the slot (an i32 value) is row tile firstTile + j of the
/// matrix, its pair's values and metadata contiguous there.
struct StagedASources {
  StageSparseAOp op;
  ARingType ring;
  format::FragmentGeometry geometry;
  Value values, meta, pair, firstTile;
  int64_t valueBits;
  /// As load_sparse_a: a tile that spans V blocks may reach past the
  /// fragment arrays' rows (the last block tile of R), and reads the last
  /// row tile there. Only then is the row tile clamped: the clamp costs
  /// the producer thread registers it has few of.
  bool spansBlocks;

  Value rowTile(KernelIRBuilder &kb, Value j) const {
    Value tile = kb.add(firstTile, j);
    return spansBlocks ? kb.minu(tile, kb.c32(geometry.rowTiles - 1)) : tile;
  }
  /// The pair's value bytes of the matrix's row tile `tile`.
  Value valuesOf(KernelIRBuilder &kb, Value tile) const {
    Value kTile = kb.add(kb.mul(tile, kb.c32(geometry.kTiles)),
                         kb.mul(pair, kb.c32(ring.getKTiles())));
    return kb.offsetBytes(
        values, kb.mul(kb.zext64(kTile),
                       kb.c64(geometry.valuesPerTile() * valueBits / 8)));
  }
  /// The pair's metadata words of the matrix's row tile `tile`.
  Value metaOf(KernelIRBuilder &kb, Value tile) const {
    Value unit =
        kb.add(kb.mul(tile, kb.c32(geometry.metaUnitsPerRowTile())), pair);
    return kb.elementAddress(meta, kb.mul(unit, kb.c32(format::kWarpLanes)), 4);
  }
};

/// The block's threads copy the slot's 16-byte chunks round-robin with
/// cp.async.cg: chunk c of its values (row tile c / chunks per tile), then
/// chunk c of its metadata; a slot is its row tiles' values and then their
/// metadata, each contiguous, so chunk c lands 16 c bytes into its part. A
/// thread whose chunk lies past the part copies nothing: a zero-filling
/// copy aimed at another thread's chunk would race with that copy. One
/// commit group, as a gather.
void stageByBlock(KernelIRBuilder &kb, const StagedASources &from,
                  CopyLayoutAttr layout, Value slotBase) {
  int64_t threads = layout.getThreads();
  Value tid = kb.threadIdX();
  auto copyPart = [&](int64_t partOffset, int64_t chunksPerTile,
                      function_ref<Value(Value)> tileSource) {
    int64_t chunks = from.ring.getRowTiles() * chunksPerTile;
    for (int64_t first = 0; first < chunks; first += threads) {
      Value c = kb.add(tid, kb.c32(first));
      auto copy = [&] {
        Value j = kb.divu(c, kb.c32(chunksPerTile));
        Value within = kb.remu(c, kb.c32(chunksPerTile));
        Value source = kb.offsetBytes(tileSource(from.rowTile(kb, j)),
                                      kb.mul(within, kb.c32(16)));
        Value to = kb.offsetBytes(
            slotBase, kb.add(kb.c32(partOffset), kb.mul(c, kb.c32(16))));
        NVVM::CpAsyncOp::create(kb.builder(), kb.location(), to, source, 16,
                                NVVM::LoadCacheModifierKind::CG, Value());
      };
      if (first + threads <= chunks)
        copy();
      else
        kb.ifThen(kb.ult(c, kb.c32(chunks)), copy);
    }
  };
  copyPart(0, from.ring.getValueBytesPerRowTile() / 16,
           [&](Value tile) { return from.valuesOf(kb, tile); });
  copyPart(from.ring.getMetaOffset(), ARingType::kMetaBytesPerRowTile / 16,
           [&](Value tile) { return from.metaOf(kb, tile); });
  NVVM::CpAsyncCommitGroupOp::create(kb.builder(), kb.location());
}

struct StageSparseALowering : OpConversionPattern<StageSparseAOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StageSparseAOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ARingType ring = op.getRing().getType();
    RankedTensorType matrix = op.getMatrix();
    std::optional<format::FragmentGeometry> geometry =
        getFragmentGeometry(matrix, ring.getTile().getLayout());
    if (!geometry)
      return rewriter.notifyMatchFailure(op,
                                         "no fragment storage of the matrix");
    KernelIRBuilder kb(rewriter, op.getLoc());
    Value slot = adaptor.getSlot().front();
    int64_t tileRows = ring.getTile().getRows();
    int64_t coveredTiles =
        llvm::divideCeil(matrix.getDimSize(0), tileRows) * tileRows / 16;
    StagedASources from{
        op, ring, *geometry, adaptor.getValues().front(),
        adaptor.getMeta().front(), adaptor.getPair().front(),
        kb.shru(adaptor.getRow().front(), kb.c32(4)),
        // Values are addressed by byte: an i4 matrix packs two per byte.
        matrix.getElementType().getIntOrFloatBitWidth(),
        tileRows > getVNMEncoding(matrix).getV() &&
            coveredTiles > geometry->rowTiles};
    if (std::optional<CopyLayoutAttr> layout = op.getLayout()) {
      stageByBlock(kb, from, *layout,
                   kb.offsetBytes(adaptor.getRing().front(),
                                  kb.mul(slot, kb.c32(ring.getSlotBytes()))));
      rewriter.eraseOp(op);
      return success();
    }
    Value full = getSlotBarrier(kb, op, ring.getStages(), slot, false);
    Value dst = kb.add(kb.sharedAddress(adaptor.getRing().front()),
                       kb.mul(slot, kb.c32(ring.getSlotBytes())));
    auto valuesMap = op.getValues().getDefiningOp<UnrealizedConversionCastOp>();
    auto metaMap = op.getMeta().getDefiningOp<UnrealizedConversionCastOp>();
    if (valuesMap && metaMap) {
      // Rows of the boxes past the arrays' row tiles (the last block tile
      // of R) read as zeros; the epilogue stores none of their rows.
      std::optional<StagedATensorMaps> maps = getStagedATensorMaps(op);
      if (!maps)
        return rewriter.notifyMatchFailure(op, "no tensor maps of the arrays");
      auto box = [&](Value to, Value map, int64_t wordsPerPair) {
        kb.ptx("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [$0], [$1, {$2, $3}], [$4];",
               {to, map, kb.mul(from.pair, kb.c32(wordsPerPair)),
                from.firstTile, full},
               "r,l,r,r,r");
      };
      box(dst, valuesMap.getOperand(0), maps->valueBoxWords);
      box(kb.add(dst, kb.c32(ring.getMetaOffset())), metaMap.getOperand(0),
          maps->metaBoxWords);
      rewriter.eraseOp(op);
      return success();
    }
    auto bulk = [&](Value to, Value source, int64_t bytes) {
      kb.ptx("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
             "bytes [$0], [$1], $2, [$3];",
             {to, source, kb.c32(bytes), full}, "r,l,r,r");
    };
    for (int64_t j = 0; j < ring.getRowTiles(); ++j) {
      Value tile = from.rowTile(kb, kb.c32(j));
      bulk(kb.add(dst, kb.c32(j * ring.getValueBytesPerRowTile())),
           from.valuesOf(kb, tile), ring.getValueBytesPerRowTile());
      bulk(kb.add(dst, kb.c32(ring.getMetaOffset() +
                              j * ARingType::kMetaBytesPerRowTile)),
           from.metaOf(kb, tile), ARingType::kMetaBytesPerRowTile);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct LoadStagedALowering : OpConversionPattern<LoadStagedAOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadStagedAOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ARingType ring = op.getRing().getType();
    SparseAType type = op.getResult().getType();
    MmaLayoutAttr layout = type.getLayout();
    KernelIRBuilder kb(rewriter, op.getLoc());
    OpBuilder &b = kb.builder();
    Location loc = kb.location();
    ThreadCoordinates at = getThreadCoordinates(kb, layout);
    WarpTiles tiles = getWarpTiles(layout, type.getRows(), type.getCols());
    Value slot = kb.offsetBytes(
        adaptor.getRing().front(),
        kb.mul(adaptor.getSlot().front(), kb.c32(ring.getSlotBytes())));
    SmallVector<Value> rowTile;
    for (int64_t mt = 0; mt < tiles.m; ++mt)
      rowTile.push_back(kb.add(kb.mul(at.warpM, kb.c32(tiles.m)), kb.c32(mt)));
    SmallVector<Value> words;
    for (int64_t mt = 0; mt < tiles.m; ++mt) {
      Value offset = kb.add(
          kb.c32(ring.getMetaOffset()),
          kb.add(kb.mul(rowTile[mt], kb.c32(ARingType::kMetaBytesPerRowTile)),
                 kb.mul(at.lane, kb.c32(4))));
      words.push_back(kb.load(kb.i32(), kb.offsetBytes(slot, offset), 4));
    }
    // A lane's 16 bytes per k-tile, or 8 of packed nibbles widened to its
    // four i8 registers.
    bool packed = ring.getValueBits() == 4;
    int64_t laneBytes = ring.getKTileValueBytes() / 32;
    auto vector = VectorType::get({laneBytes / 4}, kb.i32());
    int64_t kTiles = type.getCols() / layout.getInstrK();
    for (int64_t kk = 0; kk < kTiles; ++kk)
      for (int64_t mt = 0; mt < tiles.m; ++mt) {
        Value offset =
            kb.add(kb.mul(rowTile[mt], kb.c32(ring.getValueBytesPerRowTile())),
                   kb.add(kb.c32(kk * ring.getKTileValueBytes()),
                          kb.mul(at.lane, kb.c32(laneBytes))));
        Value loaded = kb.load(vector, kb.offsetBytes(slot, offset), laneBytes);
        for (int64_t r = 0; r < laneBytes / 4; ++r) {
          Value word =
              LLVM::ExtractElementOp::create(b, loc, loaded, kb.c32(r));
          if (!packed) {
            words.push_back(word);
            continue;
          }
          auto [low, high] = widenNibbles(kb, word);
          words.append({low, high});
        }
      }
    rewriter.replaceOpWithMultiple(op, {words});
    return success();
  }
};

} // namespace

void lowering::populateStagedCopyPatterns(TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<TmaCopyTileLowering, StageSparseALowering, LoadStagedALowering>(
      converter, patterns.getContext());
}
