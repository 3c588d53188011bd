//===- SpecializeTransposes.cpp - generic transposes to linalg.transpose --===//
//
// JAX's StableHLO-to-linalg lowering writes `W.T` as a linalg.generic that
// copies its input through a permutation; vnm-sparsify recognizes a weight
// read through linalg.transpose. Upstream's linalg-specialize-generic-ops
// would recover it, but it also rewrites every other generic it recognizes,
// and in LLVM 22 it turns a batched contraction with a transposed operand
// (JAX's einsum "htd,hsd->hts", attention scores) into a linalg.batch_matmul
// that does not verify. This pass specializes transposes only.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace vnm {
#define GEN_PASS_DEF_VNMSPECIALIZETRANSPOSES
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

struct SpecializeTransposesPass
    : public vnm::impl::VNMSpecializeTransposesBase<SpecializeTransposesPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp generic : generics) {
      if (!generic.hasPureTensorSemantics())
        continue;
      std::optional<SmallVector<int64_t>> permutation =
          linalg::isaTransposeOpInterface(generic);
      if (!permutation)
        continue;
      OpBuilder builder(generic);
      auto transpose = linalg::TransposeOp::create(
          builder, generic.getLoc(), generic.getDpsInputOperand(0)->get(),
          generic.getDpsInitOperand(0)->get(), *permutation);
      transpose->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
      generic->replaceAllUsesWith(transpose->getResults());
      generic->erase();
      ++numSpecialized;
    }
  }
};

} // namespace
