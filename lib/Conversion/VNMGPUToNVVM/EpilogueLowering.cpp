//===- EpilogueLowering.cpp - the block's epilogue to NVVM ----------------===//
//
// Each thread finishes the accumulators it holds (rows g and g + 8 of each
// m16 tile, columns 2t and 2t + 1 of each n8 tile): scales, + previous Y,
// + bias, activation, all in f32, then one conversion; a column pair is
// stored with one 4- or 8-byte store, a lone last column alone, predicated
// on R and N. A transposed epilogue (y[N][R]) stores each element alone.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// The activation on an f32 value.
Value activate(KernelIRBuilder &kb, Activation activation, Value x) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  switch (activation) {
  case Activation::none:
    return x;
  case Activation::relu:
    return arith::MaximumFOp::create(b, loc, x, f32Constant(b, loc, 0));
  case Activation::gelu: {
    // gelu(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
    // with tanh(u) = 1 - 2 / (exp(2u) + 1) and exp(2u) = 2^(2u log2 e)
    // from the hardware's ex2: no libdevice, and exact at +-inf.
    auto c = [&](double v) { return f32Constant(b, loc, v); };
    Value x3 =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value u = arith::MulFOp::create(
        b, loc, c(0.7978845608028654),
        arith::AddFOp::create(b, loc, x,
                              arith::MulFOp::create(b, loc, c(0.044715), x3)));
    Value exponent =
        arith::MulFOp::create(b, loc, u, c(2.0 * 1.4426950408889634));
    Value e = NVVM::InlinePtxOp::create(b, loc, TypeRange{kb.f32()},
                                        ValueRange{exponent}, ValueRange{},
                                        "ex2.approx.f32 $0, $1;", Value())
                  .getResult(0);
    // div.full (2 ulp) instead of the IEEE division's long sequence: the
    // epilogue runs once per output element.
    Value quotient =
        NVVM::InlinePtxOp::create(
            b, loc, TypeRange{kb.f32()},
            ValueRange{arith::AddFOp::create(b, loc, e, c(1.0))}, ValueRange{},
            "div.full.f32 $0, 0f40000000, $1;", Value())
            .getResult(0);
    Value tanh = arith::SubFOp::create(b, loc, c(1.0), quotient);
    return arith::MulFOp::create(b, loc,
                                 arith::MulFOp::create(b, loc, c(0.5), x),
                                 arith::AddFOp::create(b, loc, c(1.0), tanh));
  }
  }
  llvm_unreachable("unknown activation");
}

struct EpilogueLowering : OpConversionPattern<EpilogueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EpilogueOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AccType accType = op.getAcc().getType();
    MmaLayoutAttr layout = accType.getLayout();
    KernelIRBuilder kb(rewriter, op.getLoc());
    OpBuilder &b = kb.builder();
    Location loc = kb.location();
    ThreadCoordinates at = getThreadCoordinates(kb, layout);
    WarpTiles tiles =
        getWarpTiles(layout, accType.getRows(), accType.getCols());
    Type resultType = cast<MemRefType>(op.getOut().getType()).getElementType();
    int64_t resultBytes = resultType.getIntOrFloatBitWidth() / 8;
    auto pairType = VectorType::get({2}, resultType);
    bool integerResult = resultType.isSignlessInteger(32);
    ValueRange acc = adaptor.getAcc();
    Value out = adaptor.getOut().front();
    Value row0 = adaptor.getRow().front(), col0 = adaptor.getCol().front();
    Value n = adaptor.getCols().front(), ldc = adaptor.getLd().front();
    auto optional = [](ValueRange range) {
      return range.empty() ? Value() : range.front();
    };
    Value bias = optional(adaptor.getBias());
    Value rowScales = optional(adaptor.getRowScales());
    Value colScales = optional(adaptor.getColScales());

    auto widen = [&](Value x) -> Value {
      if (integerResult || x.getType().isF32())
        return x;
      if (x.getType().isSignlessInteger(32))
        return arith::SIToFPOp::create(b, loc, kb.f32(), x);
      return arith::ExtFOp::create(b, loc, kb.f32(), x);
    };
    auto loadF32 = [&](Value base, Value index) -> Value {
      return kb.load(kb.f32(), kb.elementAddress(base, index, 4), 4);
    };

    for (int64_t mt = 0; mt < tiles.m; ++mt) {
      for (int half = 0; half < 2; ++half) {
        // Accumulator registers 2 half and 2 half + 1 hold row g + 8 half
        // and columns 2t, 2t + 1 of each n8 tile.
        Value row = getAccumulatorRow(kb, at, tiles, row0, mt, half);
        kb.ifThen(kb.ult(row, kb.c32(op.getRowsAttr().getInt())), [&] {
          Value biasValue, rowScale;
          if (bias)
            biasValue = widen(kb.load(resultType,
                                      kb.elementAddress(bias, row, resultBytes),
                                      resultBytes));
          if (rowScales)
            rowScale = loadF32(rowScales, row);
          Value rowOffset;
          if (!op.getTransposed())
            rowOffset = kb.mul(kb.zext64(row), kb.zext64(ldc));
          for (int64_t nt = 0; nt < tiles.n; ++nt) {
            Value col = kb.add(col0, getAccumulatorColumn(kb, at, tiles, nt));
            Value x0 = acc[(mt * tiles.n + nt) * 4 + 2 * half];
            Value x1 = acc[(mt * tiles.n + nt) * 4 + 2 * half + 1];
            auto finish = [&](Value x, Value column, Value previous) -> Value {
              // i32 accumulators into an i32 output: only the previous
              // output is added (C1: no scales, bias or activation).
              if (integerResult)
                return previous ? arith::AddIOp::create(b, loc, x, previous)
                                : x;
              x = widen(x);
              if (rowScale)
                x = arith::MulFOp::create(b, loc, x, rowScale);
              if (colScales)
                x = arith::MulFOp::create(b, loc, x,
                                          loadF32(colScales, column));
              if (previous)
                x = arith::AddFOp::create(b, loc, x, widen(previous));
              if (biasValue)
                x = arith::AddFOp::create(b, loc, x, biasValue);
              return kb.roundTo(resultType,
                                activate(kb, op.getActivation(), x));
            };
            if (op.getTransposed()) {
              // y[N][R]: the two columns are ld apart; each is stored
              // alone, a warp's lanes covering 8 consecutive rows of each.
              for (int k = 0; k < 2; ++k) {
                Value column = kb.add(col, kb.c32(k));
                kb.ifThen(kb.ult(column, n), [&] {
                  Value at = kb.offsetBytes(
                      out,
                      kb.mul(kb.add(kb.mul(kb.zext64(column), kb.zext64(ldc)),
                                    kb.zext64(row)),
                             kb.c64(resultBytes)));
                  Value previous;
                  if (op.getAccumulate())
                    previous = kb.load(resultType, at, resultBytes);
                  kb.store(finish(k ? x1 : x0, column, previous), at,
                           resultBytes);
                });
              }
              continue;
            }
            Value address =
                kb.offsetBytes(out, kb.mul(kb.add(rowOffset, kb.zext64(col)),
                                           kb.c64(resultBytes)));
            Value bothInside = kb.ult(kb.add(col, kb.c32(1)), n);
            kb.ifThenElse(
                bothInside,
                [&] {
                  Value prev0, prev1;
                  if (op.getAccumulate()) {
                    Value pair = kb.load(pairType, address, 2 * resultBytes);
                    prev0 = vector::ExtractOp::create(b, loc, pair, 0);
                    prev1 = vector::ExtractOp::create(b, loc, pair, 1);
                  }
                  Value pair = vector::FromElementsOp::create(
                      b, loc, pairType,
                      ValueRange{finish(x0, col, prev0),
                                 finish(x1, kb.add(col, kb.c32(1)), prev1)});
                  kb.store(pair, address, 2 * resultBytes);
                },
                [&] {
                  kb.ifThen(kb.ult(col, n), [&] {
                    Value prev0;
                    if (op.getAccumulate())
                      prev0 = kb.load(resultType, address, resultBytes);
                    kb.store(finish(x0, col, prev0), address, resultBytes);
                  });
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

void lowering::populateEpiloguePatterns(TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<EpilogueLowering>(converter, patterns.getContext());
}
