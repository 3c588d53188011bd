//===- SplitReduceLowering.cpp - K splits summed through a cluster --------===//
//
// The K splits of a tile run as one cluster (sm_90). The last rank's ring,
// free once the K loops are done, takes the sum: in each round it stores
// as many of its accumulator registers as the ring holds (register i of
// thread t at word i * threads + t, so that a warp's 32 words are
// consecutive), the cluster synchronizes, the other ranks add theirs with
// `red.shared::cluster` through `mapa`, the cluster synchronizes again, and
// the last rank reads the sums back. Each thread touches only its own
// words, so the next round's stores need no further barrier.
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
    int64_t perRound = std::min<int64_t>(
        op.getRing().getType().getTotalBytes() / (4 * threads),
        static_cast<int64_t>(acc.size()));
    if (perRound < 1)
      return rewriter.notifyMatchFailure(op, "the ring holds no round");
    bool isFloat = isa<FloatType>(type.getElementType());
    Value last = kb.eq(rank, kb.c32(splits - 1));
    Value notLast = arith::XOrIOp::create(
        rewriter, loc, last,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    Value tid = kb.threadIdX();
    Value base = kb.sharedAddress(ring);
    // The last rank's ring in the shared window of the cluster.
    Value remote =
        LLVM::InlineAsmOp::create(
            rewriter, loc, kb.i32(), ValueRange{base, kb.c32(splits - 1)},
            "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r",
            /*has_side_effects=*/false, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/{},
            /*operand_attrs=*/{})
            .getResult(0);
    std::string add = isFloat ? "red.shared::cluster.add.f32 [$0], $1;"
                              : "red.shared::cluster.add.u32 [$0], $1;";
    StringRef constraints = isFloat ? "r,f" : "r,r";
    // Every thread of the block is done reading the ring.
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> results(acc.begin(), acc.end());
    for (int64_t start = 0; start < static_cast<int64_t>(acc.size());
         start += perRound) {
      int64_t count =
          std::min<int64_t>(perRound, static_cast<int64_t>(acc.size()) - start);
      auto offset = [&](int64_t i) {
        return kb.mul(kb.add(kb.c32(i * threads), tid), kb.c32(4));
      };
      kb.ifThen(last, [&] {
        for (int64_t i = 0; i < count; ++i)
          kb.store(acc[start + i], kb.offsetBytes(ring, offset(i)), 4);
      });
      syncCluster(kb);
      kb.ifThen(notLast, [&] {
        for (int64_t i = 0; i < count; ++i)
          kb.ptx(add, {kb.add(remote, offset(i)), acc[start + i]}, constraints);
      });
      syncCluster(kb);
      for (int64_t i = 0; i < count; ++i) {
        Value sum = kb.load(acc[start + i].getType(),
                            kb.offsetBytes(ring, offset(i)), 4);
        results[start + i] = kb.select(last, sum, acc[start + i]);
      }
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
