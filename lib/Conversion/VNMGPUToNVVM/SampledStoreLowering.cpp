//===- SampledStoreLowering.cpp - the SDDMM store of a pattern's entries --===//
//
// A thread holds columns 2t and 2t + 1 of each n8 tile: two of the four
// selected columns of one group (positions 2 (t & 1) and 2 (t & 1) + 1, as
// the warp's tiles start at multiples of 8 columns). For each row it holds
// below R and each of its groups below G, it reads the N metadata entries of
// (row, group) and stores, rounded once, the accumulator an entry names
// when it is one of its two positions; the other thread of the group
// stores the rest. A metadata entry above 3 names neither: nothing is stored.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

struct SampledStoreLowering : OpConversionPattern<SampledStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SampledStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AccType accType = op.getAcc().getType();
    MmaLayoutAttr layout = accType.getLayout();
    KernelIRBuilder kb(rewriter, op.getLoc());
    OpBuilder &b = kb.builder();
    Location loc = kb.location();
    ThreadCoordinates at = getThreadCoordinates(kb, layout);
    WarpTiles tiles =
        getWarpTiles(layout, accType.getRows(), accType.getCols());
    Type valueType =
        cast<MemRefType>(op.getValues().getType()).getElementType();
    int64_t valueBytes = valueType.getIntOrFloatBitWidth() / 8;
    RankedTensorType matrix = op.getMatrix();
    EncodingAttr encoding = getVNMEncoding(matrix);
    int64_t groups = encoding.getNumGroups(matrix.getDimSize(1));
    int64_t kept = encoding.getN();
    ValueRange acc = adaptor.getAcc();
    Value values = adaptor.getValues().front();
    Value meta = adaptor.getMeta().front();
    Value row0 = adaptor.getRow().front();
    Value group0 = adaptor.getGroup().front();
    // The thread's first position in each of its groups.
    Value first = kb.mul(kb.bitAnd(at.t, kb.c32(1)), kb.c32(2));

    for (int64_t mt = 0; mt < tiles.m; ++mt) {
      for (int half = 0; half < 2; ++half) {
        Value row = getAccumulatorRow(kb, at, tiles, row0, mt, half);
        kb.ifThen(kb.ult(row, kb.c32(matrix.getDimSize(0))), [&] {
          for (int64_t nt = 0; nt < tiles.n; ++nt) {
            // Columns 2t, 2t + 1 of n8 tile nt are in group column / 4 of
            // the tile.
            Value column = getAccumulatorColumn(kb, at, tiles, nt);
            Value group = kb.add(group0, kb.shru(column, kb.c32(2)));
            Value x0 = acc[(mt * tiles.n + nt) * 4 + 2 * half];
            Value x1 = acc[(mt * tiles.n + nt) * 4 + 2 * half + 1];
            kb.ifThen(kb.ult(group, kb.c32(groups)), [&] {
              Value firstEntry = kb.mul(
                  kb.add(kb.mul(row, kb.c32(groups)), group), kb.c32(kept));
              for (int64_t s = 0; s < kept; ++s) {
                Value entry = kb.add(firstEntry, kb.c32(s));
                Value selector = arith::ExtUIOp::create(
                    b, loc, kb.i32(),
                    kb.load(b.getI8Type(), kb.elementAddress(meta, entry, 1),
                            1));
                Value isFirst = kb.eq(selector, first);
                Value isSecond = kb.eq(selector, kb.add(first, kb.c32(1)));
                kb.ifThen(arith::OrIOp::create(b, loc, isFirst, isSecond), [&] {
                  kb.store(kb.roundTo(valueType, kb.select(isFirst, x0, x1)),
                           kb.elementAddress(values, entry, valueBytes),
                           valueBytes);
                });
              }
            });
          }
        });
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateSampledStorePatterns(TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<SampledStoreLowering>(converter, patterns.getContext());
}
