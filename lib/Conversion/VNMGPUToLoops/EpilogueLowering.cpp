//===- EpilogueLowering.cpp - scaling, bias, activation and the store -----===//
//
// For each accumulator element inside the R x n bound, in f32: acc times the
// row and column scales, plus the previous output if accumulating, plus the
// row's bias, then the activation, rounded once to the output's type.
// Integer results (i32 accumulators, no scales, bias or activation) stay in
// i32: converting them to f32 and back would lose bits past 2^24. A
// transposed epilogue stores element (r, c) at out[c ld + r].
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "CodeGen.h"

#include "../VNMToLoops/Arithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

LogicalResult vnm::gpu_loops::lowerEpilogue(vnm_gpu::EpilogueOp op,
                                            const TileStorage &storage) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  CodeGen cg(b, loc);
  Value acc = storage.bufferOf(op.getAcc());
  Type outType = cast<MemRefType>(op.getOut().getType()).getElementType();
  bool integer = isa<IntegerType>(outType);
  Type computeType = integer ? outType : b.getF32Type();
  Value firstRow = cg.toIndex(op.getRow());
  Value firstCol = cg.toIndex(op.getCol());
  Value rows = cg.index(op.getRowsAttr().getInt());
  Value cols = cg.toIndex(op.getCols());
  Value ld = cg.toIndex(op.getLd());
  auto message = [&](StringRef buffer) {
    return describeFailure(op, ("accesses " + buffer + " out of bounds").str());
  };
  std::string outMessage = message("out"), biasMessage = message("bias"),
              rowScaleMessage = message("row_scales"),
              colScaleMessage = message("col_scales");

  cg.forEach(cast<MemRefType>(acc.getType()).getShape(), [&](ValueRange iv) {
    Value row = cg.add(firstRow, iv[0]);
    Value col = cg.add(firstCol, iv[1]);
    cg.ifThen(cg.logicalAnd(cg.ult(row, rows), cg.ult(col, cols)), [&] {
      Value x = cg.load(acc, iv);
      if (x.getType() != computeType)
        x = arith::SIToFPOp::create(b, loc, computeType, x);
      if (Value scales = op.getRowScales())
        x = arith::MulFOp::create(b, loc, x,
                                  cg.loadChecked(scales, row, rowScaleMessage));
      if (Value scales = op.getColScales())
        x = arith::MulFOp::create(b, loc, x,
                                  cg.loadChecked(scales, col, colScaleMessage));
      Value position = op.getTransposed() ? cg.add(cg.mul(col, ld), row)
                                          : cg.add(cg.mul(row, ld), col);
      if (op.getAccumulate())
        x = loops::add(
            b, loc, x,
            loops::widen(b, loc,
                         cg.loadChecked(op.getOut(), position, outMessage),
                         computeType));
      if (Value bias = op.getBias())
        x = loops::add(b, loc, x,
                       loops::widen(b, loc,
                                    cg.loadChecked(bias, row, biasMessage),
                                    computeType));
      x = loops::applyActivation(b, loc, x, op.getActivation());
      cg.storeChecked(loops::narrow(b, loc, x, outType), op.getOut(), position,
                      outMessage);
    });
  });
  return success();
}
