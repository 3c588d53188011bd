//===- SplitReduceLowering.cpp - K splits summed on the CPU ---------------===//
//
// The CPU runs one block at a time, so the ranks of a K-split cluster run
// one after another (the host's loops put grid y innermost): each adds its
// partial tile to a sum kept across blocks, and the last rank takes the
// sum. A rank out of order stops the program, so that a launch whose grid
// breaks the clusters up cannot pass for a correct one.
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"
#include "Lowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::gpu_loops;

LogicalResult vnm::gpu_loops::lowerReduceKSplits(vnm_gpu::ReduceKSplitsOp op,
                                                 const TileStorage &storage) {
  OpBuilder b(op);
  CodeGen cg(b, op.getLoc());
  Location loc = op.getLoc();
  TileStorage::ClusterSum cluster = storage.clusterSumOf(op);
  Value acc = storage.bufferOf(op.getAcc());
  Value result = storage.bufferOf(op.getResult());
  int64_t splits = op.getSplitsAttr().getInt();
  Value rank = cg.toIndex(op.getRank());
  Value expected = arith::IndexCastOp::create(
      b, loc, b.getIndexType(), cg.load(cluster.nextRank, cg.index(0)));
  cg.check(cg.eq(rank, expected),
           describeFailure(op, "runs a rank out of order: the ranks of a "
                               "cluster must run 0, 1, ... in consecutive "
                               "blocks along grid y"));
  Value first = cg.eq(rank, cg.index(0));
  Value last = cg.eq(rank, cg.index(splits - 1));
  Type element = op.getAcc().getType().getElementType();
  bool isFloat = isa<FloatType>(element);
  cg.forEach(cast<MemRefType>(acc.getType()).getShape(), [&](ValueRange iv) {
    Value own = cg.load(acc, iv);
    Value previous = cg.load(cluster.sum, iv);
    Value added =
        isFloat ? arith::AddFOp::create(b, loc, previous, own).getResult()
                : arith::AddIOp::create(b, loc, previous, own).getResult();
    Value sum = cg.select(first, own, added);
    cg.store(sum, cluster.sum, iv);
    cg.store(cg.select(last, sum, own), result, iv);
  });
  Value next = cg.remu(cg.add(rank, cg.index(1)), cg.index(splits));
  cg.store(arith::IndexCastOp::create(b, loc, b.getI64Type(), next),
           cluster.nextRank, cg.index(0));
  return success();
}
