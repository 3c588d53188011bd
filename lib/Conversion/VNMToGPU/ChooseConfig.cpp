//===- ChooseConfig.cpp - the vnm-choose-config pass ----------------------===//
//
// vnm-choose-config gives every spmm without a tiling (`vnm.config`) the
// kernel recipe and tiling of its chip, weight and shape, with the pass
// options' overrides; with `explain` it says why, with each recipe's
// predicted traffic and MMA time (RecipeCostModel).
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "mlir/IR/Dominance.h"

#include "RecipeCostModel.h"
#include "SpmmConfig.h"
#include "TransposedRhs.h"

namespace vnm {
#define GEN_PASS_DEF_VNMCHOOSECONFIG
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

/// Dimension `dim` of an spmm's rhs (K x N: 0 is K, 1 is N; dynamic where
/// unknown).
int64_t rhsDim(Operation *op, unsigned dim) {
  Value rhs = isa<SpmmOp>(op) ? cast<SpmmOp>(op).getRhs()
                              : cast<StorageSpmmOp>(op).getRhs();
  auto type = dyn_cast<ShapedType>(rhs.getType());
  return type && type.hasRank() && type.getRank() == 2 ? type.getDimSize(dim)
                                                       : ShapedType::kDynamic;
}

/// The recipe a tiling attribute names, with its tile.
kernel::RecipeChoice describeTiling(Attribute tiling, int64_t m) {
  kernel::RecipeChoice choice;
  if (auto hopper = dyn_cast<vnm_gpu::WgmmaSpTilingAttr>(tiling)) {
    choice.warpgroupMma = true;
    choice.name = hopper.getProducers() ? "wgmma-sp-ws" : "wgmma-sp";
    if (hopper.getAs_2_4())
      choice.name += " as-2-4";
    choice.blockRows = hopper.getBlockRows();
    choice.blockCols = hopper.getBlockCols();
    choice.gathers = m > 4 && !hopper.getAs_2_4();
    return choice;
  }
  auto mmaSp = cast<vnm_gpu::MmaSpTilingAttr>(tiling);
  choice.name = "mma-sp";
  choice.blockRows = mmaSp.getBlockRows();
  choice.blockCols = mmaSp.getBlockCols();
  choice.gathers = m > 4;
  return choice;
}

/// Bytes of one value of a weight or rhs element type (i4: half).
double valueBytes(Type type) { return type.getIntOrFloatBitWidth() / 8.0; }

/// Gives every spmm without a #vnm.config the default tiling, with the
/// pass options' overrides.
struct ChooseConfigPass
    : public vnm::impl::VNMChooseConfigBase<ChooseConfigPass> {
  using VNMChooseConfigBase::VNMChooseConfigBase;

  void runOnOperation() override {
    if (failed(checkOptions()) || failed(checkGivenTilings()))
      return signalPassFailure();
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    getOperation().walk([&](Operation *op) {
      if (isa<SpmmOp, StorageSpmmOp>(op) && !op->hasAttr("vnm.config"))
        choose(op, dominance);
    });
  }

  /// recipe=wgmma-sp or wgmma-sp-ws: an sm_90a recipe asked for by name.
  bool hopperRecipe() const {
    return recipe == "wgmma-sp" || recipe == "wgmma-sp-ws";
  }

  /// Whether M = 4 weights (and those run as 2:4) get the warp-specialized
  /// kernel: asked for by name, or recipe=auto on sm_90a.
  ///
  /// auto on sm_90a: the warp-specialized wgmma.sp kernel for 2:4, and for
  /// V:2:8 run as 2:4, whether it reads B as K x N or token-major; the
  /// mma.sp kernels otherwise. On the H200 (bench/results/2026-12-04-h200-
  /// wgmma-ws-*, 2026-12-02-h200-recipes-same-run/) the warp-specialized
  /// 2:4 kernel runs at 1.22-1.49x cuBLAS at N = 4096 and 0.75x at N = 512
  /// against 0.57-0.70x and 0.52-0.65x for mma.sp; mma.sp 2:8 runs at
  /// 0.96-1.21x (N = 4096) and the gathers of 2:16 and 2:32 as fast as the
  /// multistage wgmma.sp kernels (which spill and lose at small N). Reading
  /// x[N][K] token-major, on an H100 (bench/results/2026-12-05-h100-token-
  /// major-ws/), it ran at 1.11-1.42x cuBLAS at N = 4096 and 0.77-0.90x at
  /// N = 512, against 0.57-0.67x and 0.50x for the token-major mma.sp 2:4
  /// kernels. Tiling options of the mma.sp kernels keep auto on them.
  bool warpSpecializedRecipe() const {
    bool mmaSpTiling = blockRows || warpRows || warpsN || stages ||
                       blocksPerSM != -1 || unroll || kSplits > 1 ||
                       stagedA == 1;
    bool autoHopper = recipe == "auto" && chip == "sm_90a" && !mmaSpTiling;
    return recipe == "wgmma-sp-ws" || autoHopper;
  }

  /// The tiling the options ask for (0: chosen per op).
  kernel::TilingOptions tilingOptions() const {
    kernel::TilingOptions options;
    options.blockRows = blockRows;
    options.blockCols = blockCols;
    options.warpRows = warpRows;
    options.warpsN = warpsN;
    options.stages = stages;
    options.blocksPerSM = blocksPerSM;
    options.unroll = unroll;
    options.clusterRows = clusterRows;
    return options;
  }

  /// The options are checked once, whether or not an op needs them.
  LogicalResult checkOptions() {
    auto reject = [&](const Twine &message) -> LogicalResult {
      return getOperation().emitError("vnm-choose-config: ") << message;
    };
    bool hopper = hopperRecipe();
    if (blockRows != 0 && blockRows != 64 && blockRows != 128)
      return reject("block-rows must be 0, 64 or 128");
    if (blockCols != 0 && blockCols != 128 && blockCols != 256)
      return reject("block-cols must be 0, 128 or 256");
    if (blockCols == 256 && !hopper)
      return reject(
          "block-cols=256 needs recipe=wgmma-sp or wgmma-sp-ws (the mma.sp "
          "kernels have 128-column block tiles)");
    if (warpsN != 0 && warpsN != 2 && warpsN != 4)
      return reject("warps-n must be 0, 2 or 4");
    if (warpRows != 0 && warpRows != 32 && warpRows != 64)
      return reject("warp-rows must be 0, 32 or 64");
    if (stages != 0 && (stages < 2 || stages > 6))
      return reject("stages must be 0 or in [2, 6]");
    if (unroll < 0 || unroll > 12)
      return reject("unroll must be 0 or in [1, 12]");
    if (clusterRows != 0 && clusterRows != 1 && clusterRows != 2 &&
        clusterRows != 4 && clusterRows != 8)
      return reject("cluster-rows must be 0, 1, 2, 4 or 8");
    if (clusterRows > 1 && !hopper)
      return reject("cluster-rows needs recipe=wgmma-sp or wgmma-sp-ws (the "
                    "mma.sp kernels launch no clusters)");
    // 32 resident blocks per multiprocessor is the hardware's limit.
    if (blocksPerSM < -1 || blocksPerSM > 32)
      return reject("blocks-per-sm must be -1 (choose), 0 (ptxas's choice) "
                    "or in [1, 32]");
    if (kSplits < 0 || kSplits > 8)
      return reject("k-splits must be 0 or in [1, 8] (8: the portable "
                    "cluster size)");
    if (kSplits > 1 && chip == "sm_80")
      return reject("k-splits needs chip sm_90 or sm_90a (the splits of a "
                    "tile run as one cluster)");
    if (kSplits > 1 && hopper)
      return reject("k-splits splits the mma.sp kernels' K loop: it needs "
                    "recipe=mma-sp or auto");
    // The chip bounds the kernel recipes: mma.sp runs on sm_80 and later,
    // wgmma.sp on sm_90a (for float weights, and W8A8 and W4A8 2:4 on the
    // warp-specialized kernel; the weight-only quantized kernels are
    // mma.sp only).
    if (chip != "sm_80" && chip != "sm_90" && chip != "sm_90a")
      return reject("no spmm kernel recipe for chip '" + chip +
                    "' (sm_80, sm_90, sm_90a)");
    if (recipe != "auto" && recipe != "mma-sp" && !hopper)
      return reject("recipe '" + recipe +
                    "' must be auto, mma-sp, wgmma-sp or wgmma-sp-ws");
    if (hopper && chip != "sm_90a")
      return reject("recipe " + recipe +
                    " needs chip sm_90a (wgmma.sp is an sm_90a instruction), "
                    "got chip '" +
                    chip + "'");
    if (as24 < -1 || as24 > 1)
      return reject("as-2-4 must be -1 (choose), 0 or 1");
    if (stagedA < -1 || stagedA > 1)
      return reject("staged-a must be -1 (choose), 0 or 1");
    if (stagedA == 1 && hopper)
      return reject("staged-a stages the mma.sp kernels' A fragments: it "
                    "needs recipe=mma-sp or auto");
    if (as24 == 1 && !warpSpecializedRecipe())
      return reject("as-2-4=1 runs on the warp-specialized kernel: it needs "
                    "recipe=wgmma-sp-ws, or recipe=auto with chip=sm_90a "
                    "and no mma.sp tiling options");
    return success();
  }

  /// Tilings given by hand are checked against the chip before any op is
  /// given one: a pass that rejects an op rewrites nothing.
  LogicalResult checkGivenTilings() {
    WalkResult given = getOperation().walk([&](Operation *op) {
      auto tiling =
          dyn_cast_or_null<vnm_gpu::MmaSpTilingAttr>(op->getAttr("vnm.config"));
      if (isa<SpmmOp, StorageSpmmOp>(op) && tiling && tiling.getKSplits() > 1 &&
          chip == "sm_80") {
        op->emitError("vnm-choose-config: k_splits = ")
            << tiling.getKSplits()
            << " needs chip sm_90 or sm_90a (the splits of a tile run as one "
               "cluster), got chip 'sm_80'";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(given.wasInterrupted());
  }

  /// Gives `op` (an spmm without a tiling) the tiling of its recipe, and
  /// with `explain` the remark that compares the recipes.
  void choose(Operation *op, DominanceInfo &dominance) {
    kernel::TilingOptions options = tilingOptions();
    EncodingAttr encoding =
        isa<SpmmOp>(op) ? getVNMEncoding(cast<SpmmOp>(op).getLhs().getType())
                        : cast<StorageSpmmOp>(op).getEncoding();
    // Kernels of integer weights (W8A8, W4A8, W8A16, W4A16) tile
    // differently.
    auto weightType =
        isa<SpmmOp>(op)
            ? cast<ShapedType>(cast<SpmmOp>(op).getLhs().getType())
            : cast<ShapedType>(cast<StorageSpmmOp>(op).getValues().getType());
    Type weight = weightType.getElementType();
    // Dynamic rows (refused when the kernel is built) choose no cluster.
    int64_t rows = std::max<int64_t>(weightType.getDimSize(0), 1);
    std::optional<int64_t> groupSize =
        isa<SpmmOp>(op) ? cast<SpmmOp>(op).getGroupSize()
                        : cast<StorageSpmmOp>(op).getGroupSize();
    int64_t groupColumns = groupSize.has_value() ? *groupSize : 0;
    bool integerWeight =
        weight.isSignlessInteger(8) || weight.isSignlessInteger(4);
    // W8A8, W4A8: an integer weight by i8 rhs, the integer MMA.
    Type rhsElement = getElementTypeOrSelf(
        isa<SpmmOp>(op) ? cast<SpmmOp>(op).getRhs().getType()
                        : cast<StorageSpmmOp>(op).getRhs().getType());
    bool integerMma = integerWeight && rhsElement.isSignlessInteger(8);
    // The warp-specialized kernel copies B as a dense tile: M = 4, or a
    // V:N:M weight run as 2:4 (chosen at M = 8, where the gathers'
    // kernels are slower; at M >= 16 the gathers win).
    int64_t m = encoding.getM();
    StringRef no24;
    if (integerWeight)
      no24 = "the quantized kernels run mma.sp";
    else if (!kernel::fitsTwoFour(encoding.getN(), m))
      no24 = "only N <= 2 and M a multiple of 4 make 2:4 groups";
    // On the H200 V:2:8 as 2:4 ran at 1.17-1.46x cuBLAS at N = 4096
    // against 0.99-1.24x for mma.sp, but at 0.57-0.70x against 0.81-1.04x
    // at N = 512 and 1000 (bench/results/2026-12-04-h200-as-2-4/): a
    // static N below 2048 keeps the gather's kernel.
    int64_t n = rhsDim(op, 1);
    bool staticN = !ShapedType::isDynamic(n);
    bool smallN = staticN && n < 2048;
    bool wantsAs24 = m > 4 && (as24 == 1 || (as24 == -1 && m == 8 && !smallN));
    bool runsAs24 = wantsAs24 && no24.empty();
    // W8A8 and W4A8 2:4 run s8 wgmma.sp on it when asked for by name
    // (recipe=wgmma-sp-ws), and under recipe=auto where N is static and at
    // least 2048. On an H100 at N = 4096 it ran 1.7-2.2x the mma.sp
    // kernels' speed (W8A8 1.14-1.32x torch._int_mm against 0.65-0.78x),
    // but 0.60-0.96x their speed for W8A8 at N <= 77, where its 128 x 256
    // tiles leave the GPU under-filled
    // (bench/results/2026-12-07-h100-untested-families/ against
    // bench/results/2026-12-06-h100-default-builds-quantized.csv). N between
    // was not measured; 2048 is as-2-4's bound above.
    bool largeN = staticN && !smallN;
    bool s8WarpSpecialized = integerMma && (recipe == "wgmma-sp-ws" || largeN);
    bool warpSpecialized = warpSpecializedRecipe() && (m == 4 || runsAs24) &&
                           (!integerWeight || s8WarpSpecialized);
    // A storage spmm's rhs that is K-contiguous (x[N][K]), or that
    // vnm-fold-transposed-rhs will make so, is read token-major. The
    // warp-specialized kernel reads B by the TMA, K-major, as cheaply as
    // K x N: it is always handed x in place of a transposed copy.
    bool tokenMajor = false;
    if (auto storage = dyn_cast<StorageSpmmOp>(op)) {
      Value rhs = storage.getRhs();
      tokenMajor = kernel::isKContiguous(rhs.getType()) ||
                   ((warpSpecialized || kernel::prefersTokenMajor(
                                            getElementTypeOrSelf(rhs.getType()),
                                            m, registerGather)) &&
                    kernel::findTransposedCopy(rhs, dominance));
    }
    if (as24 == 1 && m > 4 && !no24.empty() && warpSpecializedRecipe())
      op->emitWarning("vnm-choose-config: as-2-4=1 is not applied: ") << no24;
    // The warp-specialized kernel's tile width at this N, chosen or not:
    // the explanation costs it too.
    bool narrowTiles = kernel::narrowTilesFit(n, !integerWeight, tokenMajor);
    // The mma.sp tiling, chosen or not: the explanation costs it too.
    kernel::TilingOptions mmaSpOptions = options;
    mmaSpOptions.kSplits =
        kernel::chooseKSplits(kSplits, rhsDim(op, 0), m, groupColumns);
    // Weight-only quantized kernels dequantize A in registers: staged_a
    // does not apply to them (as a given tiling, it is refused).
    bool dequantizes = integerWeight && !integerMma;
    mmaSpOptions.stagedA = dequantizes ? 0 : stagedA;
    Attribute mmaSpTiling = kernel::chooseSpmmConfig(
        &getContext(), encoding.getV(), m, integerWeight, groupSize.has_value(),
        tokenMajor, mmaSpOptions);
    Attribute tiling = mmaSpTiling;
    if (warpSpecialized || (hopperRecipe() && !integerWeight)) {
      // wgmma-sp-ws: the warp-specialized loop where B is a dense tile;
      // the gathers keep the multistage kernel.
      kernel::TilingOptions chosen = options;
      chosen.warpSpecialized = warpSpecialized;
      chosen.as24 = warpSpecialized && runsAs24;
      chosen.narrowN = warpSpecialized && narrowTiles;
      tiling = kernel::chooseWgmmaSpConfig(&getContext(), rows, encoding.getV(),
                                           m, chosen);
    }
    op->setAttr("vnm.config", tiling);
    if (!explain)
      return;
    // Every recipe the chip offers this weight, as this pass would tile
    // it (the options that name one recipe's tiling aside).
    std::vector<kernel::RecipeChoice> recipes = {
        describeTiling(mmaSpTiling, m)};
    if (chip == "sm_90a") {
      auto hopper = [&](bool ws, bool as24) {
        kernel::TilingOptions o;
        o.warpSpecialized = ws;
        o.as24 = as24;
        o.narrowN = ws && narrowTiles;
        recipes.push_back(
            describeTiling(kernel::chooseWgmmaSpConfig(&getContext(), rows,
                                                       encoding.getV(), m, o),
                           m));
      };
      if (!integerWeight)
        hopper(/*ws=*/false, /*as24=*/false);
      if (m == 4 && (!integerWeight || integerMma))
        hopper(/*ws=*/true, /*as24=*/false);
      if (m > 4 && !integerWeight && kernel::fitsTwoFour(encoding.getN(), m))
        hopper(/*ws=*/true, /*as24=*/true);
    }
    explainChoice(op, describeTiling(tiling, m), recipes, weight, rhsElement,
                  rows, m);
  }

  /// The remark of `explain`: the chosen recipe, and each recipe's
  /// predicted L2 traffic and MMA time at the op's N (4096 where N is
  /// dynamic).
  void explainChoice(Operation *op, const kernel::RecipeChoice &chosen,
                     const std::vector<kernel::RecipeChoice> &recipes,
                     Type weight, Type rhsElement, int64_t rows, int64_t m) {
    auto remark = op->emitRemark("vnm-choose-config: chose ");
    remark << chosen.name << " " << chosen.blockRows << "x" << chosen.blockCols;
    kernel::SpmmProblem problem;
    problem.rows = rows;
    problem.cols = rhsDim(op, 0);
    problem.n = rhsDim(op, 1);
    if (ShapedType::isDynamic(problem.cols)) {
      remark << "; no prediction: K is dynamic";
      return;
    }
    bool assumedN = ShapedType::isDynamic(problem.n);
    if (assumedN)
      problem.n = 4096;
    problem.m = m;
    problem.weightBytes = valueBytes(weight);
    problem.rhsBytes = valueBytes(rhsElement);
    problem.integerMma = rhsElement.isSignlessInteger(8);
    std::vector<kernel::RecipeEstimate> estimates;
    for (const kernel::RecipeChoice &recipe : recipes)
      estimates.push_back(kernel::estimateRecipe(problem, recipe));
    remark << "; predicted at N = " << problem.n
           << (assumedN ? " (assumed: N is dynamic)" : "")
           << " with the H200's rates (L2 11 TB/s; 2:4 dense-equivalent "
              "mma.sp 953, wgmma.sp 1525 TFLOP/s, s8 twice that, s8 "
              "wgmma.sp unmeasured"
           << (problem.integerMma ? "" : "; cuBLAS 750 TFLOP/s") << "):"
           << kernel::describeEstimates(
                  estimates,
                  problem.integerMma
                      ? 0.0
                      : 2.0 * double(problem.rows) * double(problem.cols) *
                            double(problem.n) / kernel::kCublasF16Rate);
  }
};

} // namespace
