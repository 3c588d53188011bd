//===- NVVMPipeline.cpp - vnm-lower-to-nvvm-pipeline ----------------------===//
//
// From vnm ops on tensors to a gpu.binary of sparse-tensor-core kernels
// (PTX or cubin) plus their launch contracts.
//
//===----------------------------------------------------------------------===//

#include "vnm/Pipelines/NVVMTargets.h"
#include "vnm/Pipelines/Pipelines.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {
struct NVVMPipelineOptions : public PassPipelineOptions<NVVMPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture (sm_80, sm_90, "
                                          "sm_90a)"),
                           llvm::cl::init("sm_90")};
  // mma.sp::ordered_metadata needs PTX 8.5.
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX version (+ptx85 to +ptx90)"),
                               llvm::cl::init("+ptx85")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu-module-to-binary format: isa (PTX, no CUDA "
                     "needed), bin (cubin, needs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level"),
                            llvm::cl::init(3)};
  Option<int64_t> blockRows{
      *this, "block-rows",
      llvm::cl::desc("Rows of Y per thread block (64, 128; 0 chooses)"),
      llvm::cl::init(0)};
  Option<int64_t> blockCols{
      *this, "block-cols",
      llvm::cl::desc("Columns of Y per thread block of the wgmma.sp kernels "
                     "(128, 256; 0 chooses)"),
      llvm::cl::init(0)};
  Option<int64_t> clusterRows{
      *this, "cluster-rows",
      llvm::cl::desc("Consecutive row blocks per cluster of the wgmma.sp "
                     "kernels (1, 2, 4, 8; 0 chooses)"),
      llvm::cl::init(0)};
  Option<int64_t> warpRows{
      *this, "warp-rows",
      llvm::cl::desc("Rows of a warp tile (32, 64; 0 chooses)"),
      llvm::cl::init(0)};
  Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("Stages of the shared-memory ring (2-6; 0 chooses)"),
      llvm::cl::init(0)};
  Option<int64_t> unroll{
      *this, "unroll",
      llvm::cl::desc("Unroll factor of the mma.sp kernels' K loops (1-12; 0 "
                     "chooses: the ring's stages for 32-row warp tiles that "
                     "read B as K x N in blocks of 8 warps or with registers "
                     "left to ptxas, else 1)"),
      llvm::cl::init(0)};
  Option<int64_t> kSplits{
      *this, "k-splits",
      llvm::cl::desc("Split the mma.sp kernels' K loop over up to this many "
                     "blocks of one cluster (sm_90, 2-8; the largest count "
                     "that divides the k-tile pairs), for decode-sized N; 0 "
                     "or 1: none"),
      llvm::cl::init(0)};
  Option<int64_t> warpsN{
      *this, "warps-n",
      llvm::cl::desc("Columns of warps per block tile (2, 4; 0 chooses)"),
      llvm::cl::init(0)};
  Option<int64_t> blocksPerSM{
      *this, "blocks-per-sm",
      llvm::cl::desc("Resident blocks per SM to ask ptxas for (0 leaves "
                     "registers to ptxas; -1 chooses: 16 warps per SM)"),
      llvm::cl::init(-1)};
  Option<std::string> recipe{
      *this, "recipe",
      llvm::cl::desc("Kernel recipe: auto (the one measured fastest: on "
                     "sm_90a wgmma-sp-ws for f16/bf16 2:4 and V:2:8 with B "
                     "read as K x N, else mma.sp), mma-sp, wgmma-sp (sm_90a, "
                     "f16/bf16 weights), or wgmma-sp-ws (wgmma-sp with a "
                     "TMA producer warpgroup for M = 4; W8A8 and W4A8 2:4 "
                     "on s8 wgmma.sp)"),
      llvm::cl::init("auto")};
  Option<int64_t> as24{
      *this, "as-2-4",
      llvm::cl::desc("Run a V:2:M weight (M > 4) as 2:4 on the "
                     "warp-specialized sm_90a kernel: 1 always, 0 never, -1 "
                     "chooses (at M = 8 where N is dynamic or at least 2048)"),
      llvm::cl::init(-1)};
  Option<int64_t> stagedA{
      *this, "staged-a",
      llvm::cl::desc("Copy the mma.sp kernels' A fragments into a shared "
                     "ring with B instead of registers one pair ahead: 1 "
                     "always, 0 never, -1 chooses (as vnm-choose-config's "
                     "staged-a)"),
      llvm::cl::init(-1)};
  Option<bool> registerGather{
      *this, "register-gather",
      llvm::cl::desc("Hand x[N][K] to the f16/bf16 kernels at M = 8 too, "
                     "which select the kept values in registers "
                     "(vnm-fold-transposed-rhs)"),
      llvm::cl::init(false)};
  Option<bool> explain{
      *this, "explain",
      llvm::cl::desc("Remark on each spmm the recipe chosen and every offered "
                     "recipe's predicted L2 traffic and MMA time "
                     "(vnm-choose-config)"),
      llvm::cl::init(false)};
  Option<std::string> dumpDir{
      *this, "dump-dir",
      llvm::cl::desc("If set, write binaries and launch contracts there"),
      llvm::cl::init("")};
};
} // namespace

/// The passes of `vnm-lower-to-nvvm-pipeline` for `options`.
static std::string getNVVMPipelineText(const NVVMPipelineOptions &options) {
  std::string text = llvm::formatv(
      "canonicalize,"
      "vnm-expand-storage,"
      "one-shot-bufferize{{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "vnm-choose-config{{chip={0} block-rows={4} warp-rows={7} warps-n={5} "
      "stages={8} blocks-per-sm={6} recipe={9} block-cols={10} "
      "register-gather={11} cluster-rows={12} as-2-4={13} unroll={14} "
      "k-splits={15} explain={16} staged-a={17}},"
      "vnm-fold-transposed-rhs{{register-gather={11}},"
      "vnm-fold-transposed-result,"
      "vnm-lower-to-gpu,"
      "vnm-pipeline-kernels,vnm-unroll-kernel-loops,"
      "gpu.module(convert-vnm-gpu-to-nvvm,loop-invariant-code-motion,cse,"
      "convert-scf-to-cf,"
      "convert-gpu-to-nvvm,vnm-mark-tensor-map-params,convert-nvvm-to-llvm,"
      "canonicalize,cse,"
      "reconcile-unrealized-casts),"
      "nvvm-attach-target{{chip={0} features={1} O={2}},"
      "gpu-module-to-binary{{format={3}}",
      std::string(options.chip), std::string(options.features),
      unsigned(options.optLevel), std::string(options.format),
      int64_t(options.blockRows), int64_t(options.warpsN),
      int64_t(options.blocksPerSM), int64_t(options.warpRows),
      int64_t(options.stages), std::string(options.recipe),
      int64_t(options.blockCols), bool(options.registerGather),
      int64_t(options.clusterRows), int64_t(options.as24),
      int64_t(options.unroll), int64_t(options.kSplits), bool(options.explain),
      int64_t(options.stagedA));
  if (!options.dumpDir.empty())
    text += ",vnm-dump-kernels{output-dir=" + options.dumpDir + "}";
  return text;
}

/// Why the options cannot make a pipeline, or std::nullopt. Everything
/// that would otherwise reach LLVM (and abort the process there) or make
/// the pipeline text unparsable is checked here.
static std::optional<std::string>
checkOptions(const NVVMPipelineOptions &options) {
  if (std::optional<std::string> reason =
          vnm::checkNVVMTarget(options.chip, options.features))
    return reason;
  StringRef recipe = options.recipe;
  bool hopper = recipe == "wgmma-sp" || recipe == "wgmma-sp-ws";
  if (recipe != "auto" && recipe != "mma-sp" && !hopper)
    return ("recipe '" + recipe +
            "' must be auto, mma-sp, wgmma-sp or wgmma-sp-ws")
        .str();
  if (hopper && options.chip != "sm_90a")
    return "recipe " + recipe.str() +
           " needs chip sm_90a (wgmma.sp is an sm_90a instruction), got chip "
           "'" +
           options.chip + "'";
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin")
    return ("format '" + format + "' must be isa, bin or fatbin").str();
  if (options.optLevel > 3)
    return llvm::formatv("opt-level {0} must be in [0, 3]",
                         unsigned(options.optLevel))
        .str();
  return std::nullopt;
}

void vnm::registerNVVMPipeline() {
  // Registered with its error handler, unlike PassPipelineRegistration,
  // whose builder cannot fail: invalid options are then a diagnostic of the
  // pipeline's parse (in vnm-opt, the C API and Python), not an abort.
  registerPassPipeline(
      "vnm-lower-to-nvvm-pipeline",
      "Compile vnm.spmm to sparse-tensor-core kernels (mma.sp) in a "
      "gpu.binary, with launch contracts",
      [](OpPassManager &pm, StringRef optionText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        NVVMPipelineOptions options;
        if (failed(options.parseFromString(optionText)))
          return failure();
        if (std::optional<std::string> reason = checkOptions(options))
          return errorHandler("vnm-lower-to-nvvm-pipeline: " + *reason);
        std::string text = getNVVMPipelineText(options);
        std::string parseErrors;
        llvm::raw_string_ostream errorStream(parseErrors);
        if (failed(parsePassPipeline(text, pm, errorStream)))
          return errorHandler("vnm-lower-to-nvvm-pipeline: the options make "
                              "an invalid pipeline '" +
                              text + "': " + StringRef(parseErrors).trim());
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(NVVMPipelineOptions());
      });
}
