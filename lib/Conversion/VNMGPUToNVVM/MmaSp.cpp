//===- MmaSp.cpp - mma.sp tiles to NVVM -----------------------------------===//
//
// The sparse MMA of the mma.sp layouts: per warp, every m16 tile times
// every n8 tile of the B fragment, mma.sp::ordered_metadata.
//
// * mma_sp_m16n8k32: f16/bf16 operands, f32 accumulators; the k-tile
//   pair's two steps share one metadata register per m16 tile (selectors
//   0 and 1).
// * mma_sp_m16n8k64: s8 operands, s32 accumulators that wrap (no
//   .satfinite, as docs/spec.md states for i32 accumulation); one step per
//   64 columns of K, selector 0 (all 32 lanes carry metadata).
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

/// f16 operands are vectors of two halves; bf16 and s8 operands stay i32
/// words.
Value toMmaOperand(KernelIRBuilder &kb, Type element, Value word) {
  if (!element.isF16())
    return word;
  return LLVM::BitcastOp::create(
      kb.builder(), kb.location(),
      VectorType::get({2}, kb.builder().getF16Type()), word);
}

struct MmaSpLowering : OpConversionPattern<MmaSpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaSpOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AccType accType = op.getAcc().getType();
    MmaLayoutAttr layout = accType.getLayout();
    bool eightBit = layout.getGeometry() == MmaGeometry::mma_sp_m16n8k64;
    KernelIRBuilder kb(rewriter, op.getLoc());
    OpBuilder &b = kb.builder();
    Location loc = kb.location();
    Type element = op.getA().getType().getElementType();
    WarpTiles tiles =
        getWarpTiles(layout, accType.getRows(), accType.getCols());
    ValueRange a = adaptor.getA(), bRegs = adaptor.getB();
    SmallVector<Value> result(adaptor.getAcc().begin(), adaptor.getAcc().end());
    int64_t step = op.getStepAttr().getInt();
    std::optional<std::array<NVVM::MMATypes, 2>> ptxTypes;
    std::optional<NVVM::MMAIntOverflow> overflow;
    if (element.isBF16())
      ptxTypes = std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                               NVVM::MMATypes::bf16};
    if (eightBit) {
      ptxTypes =
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::s8, NVVM::MMATypes::s8};
      overflow = NVVM::MMAIntOverflow::wrapped;
    }
    Type accElement = accType.getElementType();
    auto accx4 = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(4, accElement));
    // m16n8k32: step s of the pair reads the lanes of selector s; the
    // m16n8k64 word is read by all lanes, selector 0.
    Value selector = kb.c32(eightBit ? 0 : step);
    SmallVector<int64_t> shape = {16, 8, layout.getInstrK()};

    // A registers of this step: after the metadata words, 4 per m16 tile.
    SmallVector<SmallVector<Value>> aOps(tiles.m);
    for (int64_t mt = 0; mt < tiles.m; ++mt)
      for (int r = 0; r < 4; ++r)
        aOps[mt].push_back(toMmaOperand(
            kb, element, a[tiles.m + (step * tiles.m + mt) * 4 + r]));
    for (int64_t nt = 0; nt < tiles.n; ++nt) {
      SmallVector<Value> bOps;
      for (int r = 0; r < 4; ++r)
        bOps.push_back(toMmaOperand(kb, element, bRegs[nt * 4 + r]));
      for (int64_t mt = 0; mt < tiles.m; ++mt) {
        SmallVector<Value> cOps;
        for (int r = 0; r < 4; ++r)
          cOps.push_back(result[(mt * tiles.n + nt) * 4 + r]);
        auto mma =
            NVVM::MmaSpOp::create(b, loc, accx4, aOps[mt], bOps, cOps, a[mt],
                                  selector, shape, overflow, ptxTypes);
        mma.setOrderedMetadata(true);
        for (int r = 0; r < 4; ++r)
          result[(mt * tiles.n + nt) * 4 + r] =
              LLVM::ExtractValueOp::create(b, loc, mma.getRes(), r);
      }
    }
    rewriter.replaceOpWithMultiple(op, {result});
    return success();
  }
};

struct ZeroLowering : OpConversionPattern<ZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ZeroOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return failure();
    Value zero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getZeroAttr(types.front()));
    rewriter.replaceOpWithMultiple(op,
                                   {SmallVector<Value>(types.size(), zero)});
    return success();
  }
};

} // namespace

void lowering::populateMmaSpPatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<MmaSpLowering, ZeroLowering>(converter, patterns.getContext());
}
