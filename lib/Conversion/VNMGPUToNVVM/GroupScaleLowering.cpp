//===- GroupScaleLowering.cpp - per-group weight scales to NVVM -----------===//
//
// At the end of a scale group the thread multiplies each of its partial
// sums by its row's scale of the group and adds it to the accumulator, then
// zeroes the partial sums: one uniform branch per k-tile pair, two scale
// loads per m16 tile inside it.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

struct GroupScaleLowering : OpConversionPattern<GroupScaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupScaleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelIRBuilder kb(rewriter, op.getLoc());
    Location loc = op.getLoc();
    AccType type = op.getAcc().getType();
    WarpTiles tiles =
        getWarpTiles(type.getLayout(), type.getRows(), type.getCols());
    ValueRange acc = adaptor.getAcc(), part = adaptor.getPart();
    Value row0 = adaptor.getRow().front(), pair = adaptor.getPair().front();
    Value scales = adaptor.getScales().front();
    int64_t perGroup = op.getPairsPerGroupAttr().getInt();
    int64_t rows = op.getRowsAttr().getInt();
    Value endsGroup = arith::OrIOp::create(
        rewriter, loc,
        kb.eq(kb.remu(kb.add(pair, kb.c32(1)), kb.c32(perGroup)), kb.c32(0)),
        kb.eq(pair, kb.c32(op.getLastPairAttr().getInt())));
    SmallVector<Type> resultTypes(2 * acc.size(), kb.f32());
    auto branch = scf::IfOp::create(rewriter, loc, resultTypes, endsGroup,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
      ThreadCoordinates at = getThreadCoordinates(kb, type.getLayout());
      Value group = kb.divu(pair, kb.c32(perGroup));
      SmallVector<Value> folded(acc.begin(), acc.end());
      for (int64_t mt = 0; mt < tiles.m; ++mt)
        for (int half = 0; half < 2; ++half) {
          // Registers 2 half, 2 half + 1 of each n8 tile: row g + 8 half.
          Value row = kb.minu(getAccumulatorRow(kb, at, tiles, row0, mt, half),
                              kb.c32(rows - 1));
          Value index =
              kb.add(kb.mul(row, kb.c32(op.getGroupsAttr().getInt())), group);
          Value scale =
              kb.load(kb.f32(), kb.elementAddress(scales, index, 4), 4);
          for (int64_t nt = 0; nt < tiles.n; ++nt)
            for (int i = 0; i < 2; ++i) {
              int64_t r = (mt * tiles.n + nt) * 4 + 2 * half + i;
              folded[r] = arith::AddFOp::create(
                  rewriter, loc, acc[r],
                  arith::MulFOp::create(rewriter, loc, scale, part[r]));
            }
        }
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getF32FloatAttr(0.0));
      folded.append(part.size(), zero);
      scf::YieldOp::create(rewriter, loc, folded);
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
      SmallVector<Value> unchanged(acc.begin(), acc.end());
      unchanged.append(part.begin(), part.end());
      scf::YieldOp::create(rewriter, loc, unchanged);
    }
    ValueRange results = branch.getResults();
    rewriter.replaceOpWithMultiple(
        op, {results.take_front(acc.size()), results.drop_front(acc.size())});
    return success();
  }
};

} // namespace

void lowering::populateGroupScalePatterns(TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<GroupScaleLowering>(converter, patterns.getContext());
}
