//===- SampledStoreLowering.cpp - the SDDMM store of a pattern's entries --===//
//
// For each row and group of the tile inside R x G, and each kept entry of
// them: the entry's metadata picks one of the group's four tile columns,
// whose accumulator is rounded once to the values' type and stored at the
// entry's place in the logical storage. A metadata entry above 3 would read
// another group's column: it fails with a message instead.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "CodeGen.h"

#include "../VNMToLoops/Arithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

LogicalResult vnm::gpu_loops::lowerSampledStore(vnm_gpu::SampledStoreOp op,
                                                const TileStorage &storage) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  CodeGen cg(b, loc);
  Value acc = storage.bufferOf(op.getAcc());
  Type valueType = cast<MemRefType>(op.getValues().getType()).getElementType();
  RankedTensorType matrix = op.getMatrix();
  EncodingAttr encoding = getVNMEncoding(matrix);
  int64_t groups = encoding.getNumGroups(matrix.getDimSize(1));
  int64_t kept = encoding.getN();
  Value firstRow = cg.toIndex(op.getRow());
  Value firstGroup = cg.toIndex(op.getGroup());
  Value rows = cg.index(matrix.getDimSize(0));
  Value groupCount = cg.index(groups);
  std::string metaMessage = describeFailure(op, "accesses meta out of bounds");
  std::string valuesMessage =
      describeFailure(op, "accesses values out of bounds");
  std::string selectorMessage =
      describeFailure(op, "reads a metadata entry above 3");
  ArrayRef<int64_t> tile = cast<MemRefType>(acc.getType()).getShape();

  cg.forEach({tile[0], tile[1] / 4, kept}, [&](ValueRange iv) {
    Value row = cg.add(firstRow, iv[0]);
    Value group = cg.add(firstGroup, iv[1]);
    cg.ifThen(cg.logicalAnd(cg.ult(row, rows), cg.ult(group, groupCount)), [&] {
      Value entry =
          cg.add(cg.mul(cg.add(cg.mul(row, groupCount), group), cg.index(kept)),
                 iv[2]);
      Value selector = cg.toIndex(arith::ExtUIOp::create(
          b, loc, b.getI32Type(),
          cg.loadChecked(op.getMeta(), entry, metaMessage)));
      cg.check(cg.ult(selector, cg.index(4)), selectorMessage);
      Value column = cg.add(cg.mul(iv[1], cg.index(4)), selector);
      Value x = cg.load(acc, {iv[0], column});
      cg.storeChecked(loops::narrow(b, loc, x, valueType), op.getValues(),
                      entry, valuesMessage);
    });
  });
  return success();
}
