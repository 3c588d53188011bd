//===- SpmmTiling.cpp - the mma.sp spmm kernel recipe ---------------------===//

#include "SpmmTiling.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

std::string vnm::kernel::checkSpmmKernelConfig(const SpmmKernelConfig &config) {
  if (!config.elementType.isF16() && !config.elementType.isBF16() &&
      !config.hasIntegerWeight())
    return "the GPU spmm kernel takes f16, bf16, i8 or i4 weights";
  bool rhsFits = config.hasIntegerWeight()
                     ? config.rhsType.isSignlessInteger(8) ||
                           config.rhsType.isF16() || config.rhsType.isBF16()
                     : config.rhsType == config.elementType;
  if (!rhsFits)
    return "the GPU spmm kernel multiplies an f16 or bf16 weight by rhs of "
           "its own element type, and an i8 or i4 weight by i8 rhs (W8A8, "
           "W4A8) or f16/bf16 rhs (W8A16, W4A16)";
  if (config.dequantizesWeight() && !config.hasWeightScales)
    return "the GPU spmm kernel dequantizes an integer weight with its "
           "per-row weight scales";
  if (config.groupSize && !config.dequantizesWeight())
    return "the GPU spmm kernel takes per-group weight scales on a weight "
           "dequantized for f16/bf16 activations (W8A16, W4A16) only";
  if (config.groupSize && config.groupSize % config.pairColumns() != 0)
    return "the GPU spmm kernel folds per-group scales once per k-tile pair: "
           "the group size must be a multiple of 16 M = " +
           std::to_string(config.pairColumns()) + " columns, got " +
           std::to_string(config.groupSize);
  bool scaled = config.hasWeightScales || config.hasInputScales;
  if (!isa<FloatType>(config.resultType) &&
      !(config.isInteger() && !scaled &&
        config.resultType.isSignlessInteger(32)))
    return "the GPU spmm kernel writes f16, bf16 or f32 results (i32 from "
           "i8 operands without scales)";
  if (config.isInteger() && config.m != 4 && config.m != 8)
    return "the GPU i8 spmm kernel selects the kept bytes of token-major "
           "activations from 8-byte groups: m = 4 and m = 8 run on the GPU, "
           "other M on the CPU path";
  if (config.isInteger() && !config.tokenMajorRhs)
    return "the GPU i8 spmm kernel reads rhs token-major";
  if (config.tokenMajorRhs && !config.isInteger()) {
    if (config.warpgroupMma && !config.warpSpecialized)
      return "the multistage sm_90a wgmma.sp spmm kernel reads rhs as K x N "
             "(the warp-specialized one and the mma.sp kernels read it "
             "token-major)";
    if (!readsFloatTokenMajor(config.m))
      return "the GPU f16/bf16 spmm kernel reads token-major rhs for m = 4 "
             "and m = 8 (a slot holds each token's groups whole: " +
             std::to_string(config.blockN * config.slotCols() * 2 / 1024) +
             " KiB of shared memory per stage at m = " +
             std::to_string(config.m) + "); give it rhs as K x N";
    if (config.cols % 8 != 0)
      return "the GPU f16/bf16 spmm kernel reads token-major rhs in 16-byte "
             "chunks of each token's K values: K must be a multiple of 8, "
             "got " +
             std::to_string(config.cols) + "; give it rhs as K x N";
  }
  if (config.as24 && config.hasIntegerWeight())
    return "as_2_4 runs f16/bf16 weights as 2:4; the quantized kernels "
           "take their weight in its own format";
  if (config.as24 && (config.opM <= 4 || !fitsTwoFour(config.n, config.opM)))
    return "as_2_4 runs a V:N:M weight of N <= 2 and M a multiple of 4 "
           "above 4 as 2:4 over its original columns, got " +
           std::to_string(config.v) + ":" + std::to_string(config.n) + ":" +
           std::to_string(config.opM);
  if (config.warpgroupMma) {
    // s8 wgmma.sp: W8A8 and W4A8 (nibbles widened after staging) on the
    // warp-specialized kernel, whose B tile the TMA copies K-major (the
    // only form of 8-bit wgmma); the weight-only forms dequantize the
    // weight in registers, which only the mma.sp kernels do.
    bool s8Wgmma = config.isInteger() && config.warpSpecialized;
    if (config.hasIntegerWeight() && !s8Wgmma)
      return "the sm_90a wgmma.sp spmm kernels take f16 or bf16 weights, and "
             "i8 or i4 weights by i8 rhs (W8A8, W4A8) on the warp-specialized "
             "kernel (the weight-only quantized kernels run mma.sp: give "
             "them a #vnm_gpu.mma_sp_tiling)";
    if (config.blockM != 16 * config.warpsM || config.warpsN != 1 ||
        (config.warpsM != 4 && config.warpsM != 8) ||
        (config.blockN != 128 && config.blockN != 256))
      return "the sm_90a wgmma.sp spmm kernel supports 64- and 128-row block "
             "tiles (one or two warpgroups) of 128 or 256 columns";
    if (config.warpSpecialized && !config.identityGather())
      return "the warp-specialized sm_90a wgmma.sp kernel copies B as dense "
             "TMA tiles: it runs M = 4 (2:4) only, got M = " +
             std::to_string(config.m) +
             " (the gathers run on the multistage kernels)";
  } else if ((config.blockM != 32 * config.warpsM &&
              config.blockM != 64 * config.warpsM) ||
             config.blockN != 128 ||
             (config.warpsN != 2 && config.warpsN != 4) ||
             (config.blockM != 64 && config.blockM != 128)) {
    return "the GPU spmm kernel supports 64 x 128 and 128 x 128 block tiles "
           "of 32- or 64-row warp tiles over 2 or 4 columns of warps";
  }
  if (!blockRowsFitFormat(config.blockM, config.v, config.m))
    return "the GPU spmm kernel needs v to be a multiple of its " +
           std::to_string(config.blockM) +
           "-row block tile unless m = 4 (v = 16 and 32 run on the CPU path "
           "for now)";
  if (config.rows <= 0 || config.cols <= 0)
    return "the GPU spmm kernel needs a static, non-empty R x K operand";
  if (config.gridY() % config.clusterRows != 0)
    return "the sm_90a wgmma.sp spmm kernel launches its row blocks in "
           "clusters of " +
           std::to_string(config.clusterRows) + ": the " +
           std::to_string(config.gridY()) + " row blocks of " +
           std::to_string(config.blockM) + " of the " +
           std::to_string(config.rows) +
           " rows must be a multiple of it (cluster_rows = 1 launches no "
           "clusters)";
  if (std::string why = config.checkKSplits(); !why.empty())
    return why;
  // Staged fragments reach the MMA as they are (i4 nibbles widened only for
  // the i8 MMA): the weight-only kernels dequantize them in registers.
  if (config.stagedA && config.dequantizesWeight())
    return "staged_a stages A fragments for the MMA as they are; the "
           "weight-only quantized kernels (W8A16, W4A16) dequantize theirs "
           "in registers and load them from global memory";
  // The A ring sits in static shared memory next to B's ring, which takes
  // the block's dynamic shared memory once the two exceed the static limit.
  int64_t aRingBytes =
      stagedARingBytes(config.stages, config.blockM, config.isInteger(),
                       config.elementType.getIntOrFloatBitWidth());
  if (config.stagedA && aRingBytes > vnm_gpu::kMaxStaticSharedBytes)
    return "staged_a keeps the A ring in static shared memory (at most " +
           std::to_string(vnm_gpu::kMaxStaticSharedBytes / 1024) +
           " KiB): " + std::to_string(config.stages) + " stages of " +
           std::to_string(config.blockM) + " rows take " +
           std::to_string(aRingBytes) +
           " bytes; take fewer stages or 64-row "
           "blocks";
  // A is addressed with 32-bit element offsets; the product is checked
  // without overflowing.
  int64_t elements = 0;
  if (llvm::MulOverflow(config.rows, config.cols, elements) ||
      elements >= (int64_t(1) << 31))
    return "the GPU spmm kernel indexes A with 32-bit offsets";
  return "";
}

std::string SpmmKernelConfig::checkKSplits() const {
  if (kSplits <= 1)
    return "";
  if (kTilePairs() % kSplits != 0)
    return "the GPU spmm kernel splits its K loop of " +
           std::to_string(kTilePairs()) +
           " k-tile pairs into equal parts: k_splits = " +
           std::to_string(kSplits) + " must divide it";
  if (groupSize && pairsPerSplit() * pairColumns() % groupSize != 0)
    return "the GPU spmm kernel folds per-group scales inside each K "
           "split: a split's " +
           std::to_string(pairsPerSplit() * pairColumns()) +
           " columns must be a multiple of the group size " +
           std::to_string(groupSize);
  return "";
}

int64_t vnm::kernel::chooseKSplits(int64_t maxSplits, int64_t cols, int64_t m,
                                   int64_t groupSize) {
  if (cols <= 0 || m <= 0)
    return 1;
  SpmmKernelConfig shape;
  shape.cols = cols;
  shape.m = m;
  shape.groupSize = groupSize;
  for (shape.kSplits = maxSplits; shape.kSplits > 1; --shape.kSplits)
    if (shape.checkKSplits().empty())
      return shape.kSplits;
  return 1;
}

bool vnm::kernel::narrowTilesFit(int64_t n, bool floatWeight,
                                 bool tokenMajorRhs) {
  return floatWeight && !tokenMajorRhs && !ShapedType::isDynamic(n) &&
         n <= 1024;
}

bool vnm::kernel::blockRowsFitFormat(int64_t blockRows, int64_t v, int64_t m) {
  return m == 4 || v % blockRows == 0;
}

vnm_gpu::MmaSpTilingAttr vnm::kernel::chooseSpmmConfig(
    MLIRContext *context, int64_t v, int64_t m, bool quantized,
    bool groupScales, bool tokenMajorRhs, const TilingOptions &options) {
  // Quantized kernels: 64-row tiles; for the i8 MMA 1.3-2x faster than
  // 128-row ones on the H200 at 4096^3 and 11008 x 4096 x 4096 (M = 4 and
  // 8, V = 64 and 128; bench/results/2026-12-02-h200-w8a8-gather.md).
  int64_t blockRows = options.blockRows;
  if (!blockRows)
    blockRows = !quantized && blockRowsFitFormat(128, v, m) ? 128 : 64;
  int64_t warpRows = options.warpRows ? options.warpRows : 32;
  int64_t warpsN = options.warpsN ? options.warpsN : groupScales ? 4 : 2;
  // Gathers (M > 4) of float weights, read K x N over all of K, in 64-row
  // blocks of 32-row warp tiles take A through the ring (below) with two
  // stages, unless other stages are asked for: three stages of both rings
  // cost a block per multiprocessor (3 instead of 4).
  bool floatKxN = !quantized && !tokenMajorRhs && options.kSplits <= 1;
  bool stagedGathersIn64RowBlocks =
      floatKxN && options.stagedA != 0 && m > 4 && blockRows == 64 &&
      warpRows == 32 && warpsN == 2 &&
      (options.stages == 0 || options.stages == 2);
  int64_t stages = options.stages               ? options.stages
                   : stagedGathersIn64RowBlocks ? 2
                                                : 3;
  int64_t warps = blockRows / warpRows * warpsN;
  // 16 warps per multiprocessor (128 registers per thread): left alone,
  // ptxas takes up to 190 registers and fits 12 warps or fewer, which
  // measured up to 15% slower (bench/results/ANALYSIS.md). 64-row warp
  // tiles hold 128 accumulators per thread: 8 warps.
  int64_t blocksPerSM = options.blocksPerSM;
  bool wholeGroupSlots = tokenMajorRhs && m > 4 && readsFloatTokenMajor(m);
  if (blocksPerSM < 0 && (quantized || wholeGroupSlots))
    blocksPerSM = 0;
  // The pipelined K loop unrolled by the ring depth: every ring slot is a
  // constant, so its shared-memory addresses are immediate offsets, and the
  // A fragments and metadata of the copies share one pointer. At 4096^2
  // the loops issue 2.5-3.3 SASS instructions per HMMA instead of 5.2-6.4,
  // within the same 128 registers (bench/results/2026-12-06-sass-unrolled/).
  // The registers stay capped at 16 warps per multiprocessor: the same
  // loops with registers left to ptxas (126-194, down to 8 warps) ran at a
  // median 0.93-0.95x of the rolled ones on an H100, 0.60-0.62x for 2:8
  // V = 128, whose 130 registers halved the blocks
  // (bench/results/2026-12-06-h100-unrolled/). Capped, unrolled loops ran
  // as fast as rolled ones over the case matrix (median 1.00-1.01x, two runs
  // on an H100), per (V, M) at 0.92-1.15x in blocks of 8 warps (1.00-1.15x
  // at V = 128) but 0.92-0.99x in blocks of 4 warps (64-row tiles at V = 64,
  // M > 4, four blocks per multiprocessor;
  // bench/results/2026-12-06-h100-unroll-default/): those stay rolled. At
  // M = 4 (no gather) the blocks of 4 warps unroll too: rolled, ptxas
  // carries the next pair's A fragments in registers with moves that wait
  // for their loads, exposing the global-load latency once or twice per
  // pair (bench/results/2026-12-07-h100-block-rows-64-ncu/); unrolled they
  // ran 1.10-1.18x faster than the old emitter's rolled loops and a median
  // 1.25x faster than the tile programs' on an H100, in all 17 cases
  // (bench/results/2026-12-07-h100-block-rows-64-unrolled/). Rolled too are
  // loops with 64-row warp tiles, whose 128 accumulators fill half the
  // registers, and where B is read token-major (x[N][K]): unrolled, those
  // spill inside the loop at 128 registers, or at 255 where the M = 8
  // kernels select B fragments in registers. Where ptxas chooses the
  // registers (blocks_per_sm = 0, as for the quantized kernels) the loop is
  // unrolled: the quantized kernels were validated so on an H100, but not
  // yet timed against their rolled loops side by side.
  int64_t unroll = options.unroll;
  if (!unroll)
    unroll = warpRows == 32 && !tokenMajorRhs &&
                     (warps >= 8 || blocksPerSM == 0 || m == 4)
                 ? stages
                 : 1;
  if (blocksPerSM < 0)
    blocksPerSM = std::max<int64_t>((warpRows == 64 ? 8 : 16) / warps, 1);
  // A through the ring (staged_a) where measured faster on an H100
  // (bench/results/2026-12-07-h100-staged-a/ and
  // 2026-12-07-h100-staged-a-repeat/), each against the kernels without it
  // in the same run:
  // - 64-row warp tiles, whose rolled loops carried A in registers next to
  //   their 128 accumulators: 1.06-1.12x the old emitter's kernels; the 2:4
  //   ragged 1000 x 4000 case was 0.95-0.97x without it;
  // - gathers in 64-row blocks with two stages: medians 1.04-1.06x in three
  //   runs (V = 64, M = 8-32);
  // - gathers at M = 8 and 16 in 128-row blocks (8 warps, unrolled by the
  //   three stages): medians 1.03-1.07x in three runs. At M = 32 the A
  //   ring makes ptxas spill; at M = 4 (no gather) it measured 0.88-0.95x.
  // The A ring must fit static shared memory. The quantized, token-major
  // and split-K kernels were not measured with it.
  bool stagedGathersIn128RowBlocks = floatKxN && (m == 8 || m == 16) &&
                                     blockRows == 128 && warpRows == 32 &&
                                     warpsN == 2 && stages == 3;
  // Of 16-bit float weights on the f16/bf16 MMA, the only ones it stages.
  int64_t ringBytes = stagedARingBytes(stages, blockRows,
                                       /*integerMma=*/false, /*weightBits=*/16);
  bool stagedA =
      options.stagedA == 1 ||
      (options.stagedA == -1 && ringBytes <= vnm_gpu::kMaxStaticSharedBytes &&
       ((warpRows == 64 && floatKxN) || stagedGathersIn64RowBlocks ||
        stagedGathersIn128RowBlocks));
  return vnm_gpu::MmaSpTilingAttr::get(
      context, blockRows, 128, blockRows / warpRows, warpsN, stages,
      blocksPerSM, unroll, options.kSplits, stagedA);
}

vnm_gpu::WgmmaSpTilingAttr
vnm::kernel::chooseWgmmaSpConfig(MLIRContext *context, int64_t rows, int64_t v,
                                 int64_t m, const TilingOptions &options) {
  int64_t clusterRows = options.clusterRows;
  if (options.warpSpecialized) {
    // The loop measured faster than cuBLAS for 2:4 on the H200: two
    // computing warpgroups of 64 x 256 and a producer, four stages of B
    // (32 KiB each) and A (9 KiB each) (docs/hopper.md section 6). Two
    // consecutive row blocks, which read the same B tiles, run as one
    // cluster where the row blocks pair up: a median 1.07-1.16x at N = 4096
    // faster (docs/hopper.md section 7). At a small static N the tiles
    // are 128 columns wide (narrowTilesFit).
    int64_t blockRows = options.blockRows ? options.blockRows : 128;
    int64_t blockCols = options.blockCols ? options.blockCols
                        : options.narrowN ? 128
                                          : 256;
    int64_t stages = options.stages ? options.stages : 4;
    if (!clusterRows)
      clusterRows = llvm::divideCeil(rows, blockRows) % 2 == 0 ? 2 : 1;
    return vnm_gpu::WgmmaSpTilingAttr::get(
        context, blockRows, blockCols, blockRows / 64, stages,
        /*producers=*/1, clusterRows, options.as24);
  }
  int64_t blockRows = options.blockRows;
  if (!blockRows)
    blockRows = blockRowsFitFormat(128, v, m) ? 128 : 64;
  // Four stages of 16 KiB: each pair's MMAs are waited for before its slot
  // is refilled, so the copies run further ahead than the mma.sp kernels'.
  int64_t blockCols = options.blockCols ? options.blockCols : 128;
  int64_t stages = options.stages ? options.stages : blockCols == 256 ? 3 : 4;
  // The multistage kernels were not measured in clusters.
  if (!clusterRows)
    clusterRows = 1;
  return vnm_gpu::WgmmaSpTilingAttr::get(context, blockRows, blockCols,
                                         blockRows / 64, stages,
                                         /*producers=*/0, clusterRows,
                                         /*as_2_4=*/false);
}
