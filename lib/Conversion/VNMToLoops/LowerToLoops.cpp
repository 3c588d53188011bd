//===- LowerToLoops.cpp - the vnm-lower-to-loops pass ---------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "StorageOpLowerings.h"

namespace vnm {
#define GEN_PASS_DEF_VNMLOWERTOLOOPS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {
struct LowerToLoopsPass
    : public vnm::impl::VNMLowerToLoopsBase<LowerToLoopsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    VNMLowerToLoopsBase::getDependentDialects(registry);
    registry.insert<cf::ControlFlowDialect, LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    // Every vnm op must be a storage op on memrefs by now; say which step is
    // missing rather than leaving it behind.
    WalkResult walk = getOperation().walk([](Operation *op) {
      if (!isa_and_nonnull<vnm::VNMDialect>(op->getDialect()))
        return WalkResult::advance();
      if (op->getNumResults() == 0 &&
          isa<vnm::StoragePruneOp, vnm::StorageCompressOp,
              vnm::StorageDecompressOp, vnm::StorageSpmmOp, vnm::StorageSddmmOp,
              vnm::StorageQuantizeOp>(op))
        return WalkResult::advance();
      op->emitError() << "vnm-lower-to-loops needs vnm storage ops on "
                         "memrefs; run --vnm-expand-storage and "
                         "bufferization first";
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    vnm::loops::populateStorageOpLoweringPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
