//===- SplitReduceLowering.cpp - K splits summed through a cluster --------===//
//
// The K splits of a tile run as one cluster (sm_90); every rank's ring is
// free once the K loops are done. In each round every rank stores as many
// of its accumulator registers as its ring holds into its own ring
// (register i of thread t at word i * threads + t, so that a warp's 32
// words are consecutive), the cluster synchronizes, the last rank reads
// the others' words through the cluster's shared window
// (`ld.shared::cluster` at their `mapa` addresses) and adds them to its
// own, and the cluster synchronizes again before any ring is written or
// any rank exits. The last rank pulls rather than the others pushing: a
// float add into another block's shared memory has no instruction of its
// own (ptxas makes a compare-and-swap loop of it), and plain remote loads
// are independent of each other, so their latencies overlap.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

/// barrier.cluster with release and acquire semantics: every thread of the
/// cluster arrives, and its shared-memory writes before it are visible to
/// every thread after it.
void syncCluster(KernelIRBuilder &kb) {
  kb.ptx("barrier.cluster.arrive.release.aligned;\n\t"
         "barrier.cluster.wait.acquire.aligned;",
         {}, "");
}

/// The address of the same shared-memory word in block `rank` of the
/// cluster (a 32-bit shared::cluster address).
Value mapToRank(KernelIRBuilder &kb, Value address, Value rank) {
  return kb.ptxValue(kb.i32(), "mapa.shared::cluster.u32 $0, $1, $2;",
                     {address, rank}, "=r,r,r", /*sideEffects=*/false);
}

/// A 32-bit word of another block's shared memory. It stays after the
/// cluster barrier before it (side effects), which a pure asm would not.
Value loadFromCluster(KernelIRBuilder &kb, Type type, Value address) {
  bool isFloat = isa<FloatType>(type);
  return kb.ptxValue(type,
                     isFloat ? "ld.shared::cluster.f32 $0, [$1];"
                             : "ld.shared::cluster.u32 $0, [$1];",
                     {address}, isFloat ? "=f,r" : "=r,r",
                     /*sideEffects=*/true);
}

struct ReduceKSplitsLowering : OpConversionPattern<ReduceKSplitsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceKSplitsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelIRBuilder kb(rewriter, op.getLoc());
    Location loc = op.getLoc();
    AccType type = op.getAcc().getType();
    ValueRange acc = adaptor.getAcc();
    Value ring = adaptor.getRing().front();
    Value rank = adaptor.getRank().front();
    int64_t splits = op.getSplitsAttr().getInt();
    int64_t threads = type.getLayout().getThreads();
    int64_t registers = static_cast<int64_t>(acc.size());
    int64_t perRound = std::min<int64_t>(
        op.getRing().getType().getTotalBytes() / (4 * threads), registers);
    if (perRound < 1)
      return rewriter.notifyMatchFailure(op, "the ring holds no round");
    bool isFloat = isa<FloatType>(type.getElementType());
    Value last = kb.eq(rank, kb.c32(splits - 1));
    Value tid = kb.threadIdX();
    Value base = kb.sharedAddress(ring);
    auto offset = [&](int64_t i) {
      return kb.mul(kb.add(kb.c32(i * threads), tid), kb.c32(4));
    };
    // Every thread of the block is done reading the ring.
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> results(acc.begin(), acc.end());
    for (int64_t start = 0; start < registers; start += perRound) {
      int64_t count = std::min<int64_t>(perRound, registers - start);
      for (int64_t i = 0; i < count; ++i)
        kb.store(acc[start + i], kb.offsetBytes(ring, offset(i)), 4);
      syncCluster(kb);
      SmallVector<Type> types(count, acc[start].getType());
      auto sum = scf::IfOp::create(rewriter, loc, types, last,
                                   /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&sum.getThenRegion().front());
        SmallVector<Value> sums(acc.begin() + start,
                                acc.begin() + start + count);
        for (int64_t other = 0; other + 1 < splits; ++other) {
          Value remote = mapToRank(kb, base, kb.c32(other));
          for (int64_t i = 0; i < count; ++i) {
            Value word = loadFromCluster(kb, sums[i].getType(),
                                         kb.add(remote, offset(i)));
            sums[i] = isFloat
                          ? arith::AddFOp::create(rewriter, loc, sums[i], word)
                                .getResult()
                          : arith::AddIOp::create(rewriter, loc, sums[i], word)
                                .getResult();
          }
        }
        scf::YieldOp::create(rewriter, loc, sums);
        rewriter.setInsertionPointToStart(&sum.getElseRegion().front());
        scf::YieldOp::create(
            rewriter, loc,
            ValueRange(acc.begin() + start, acc.begin() + start + count));
      }
      for (int64_t i = 0; i < count; ++i)
        results[start + i] = sum.getResult(i);
      // The last rank has read every ring before a ring is written again
      // or a rank exits.
      syncCluster(kb);
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void lowering::populateSplitReducePatterns(TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceKSplitsLowering>(converter, patterns.getContext());
}
