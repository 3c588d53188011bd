//===- SpmmTiling.h - the mma.sp spmm kernel recipe -------------*- C++ -*-===//
//
// What one mma.sp kernel computes and how it is tiled: Y = act(A * B [+ Y]
// [+ bias]) for an R x K V:N:M matrix A (f16/bf16, in the format library's
// fragment layout), a dense K x N matrix B and f32 accumulation; or, for
// W8A8, an i8 A (m16n8k64 fragments; or, for W4A8, an i4 A whose packed
// nibbles are widened to i8 in registers), an i8 B read token-major
// (x[N][K]) and i32 accumulation with a dequantizing epilogue. A token-major B
// cannot be gathered by rows (a group's kept columns are bytes inside each
// token's row): its slots hold the pair's groups whole and load_b selects the
// kept bytes (M = 8).
//
// * A thread block owns a BM x BN tile of Y (BM rows inside one V block, so
//   one column-loc serves the whole tile, unless M = 4); BM = 64 or 128,
//   BN = 128; warp tiles of 32 or 64 rows by 64 (or 32) columns.
// * The K loop walks pairs of k-tiles (a k-tile = 8 groups = one m16n8k32
//   mma.sp step); each pair's 64 gathered rows of B fill one slot of an
//   S-stage shared ring.
//
// SpmmTileProgram.cpp turns a recipe into a vnm_gpu tile program.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_SPMMTILING_H
#define VNM_LIB_CONVERSION_VNMTOGPU_SPMMTILING_H

#include "mlir/IR/MLIRContext.h"

#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include <string>

namespace vnm::kernel {

struct SpmmKernelConfig {
  // Problem (static except N).
  /// The weight's element type: f16, bf16, i8 (W8A8, W8A16) or i4 (W4A8,
  /// W4A16: packed two per fragment byte, widened in registers).
  mlir::Type elementType;
  /// rhs's element type: the weight's; i8 under an i4 weight (W4A8); f16
  /// or bf16 under a dequantized integer weight (W8A16, W4A16).
  mlir::Type rhsType;
  mlir::Type resultType; ///< f16, bf16 or f32; i32 for i8 without scales
  /// The format the kernel's fragment arrays are packed in: the op's, or
  /// V:2:4 where a V:2:M weight runs as 2:4 (as24; opM is then the op's M).
  int64_t v = 0, n = 0, m = 0;
  bool as24 = false;
  int64_t opM = 0;
  int64_t rows = 0, cols = 0; ///< R, K
  bool accumulate = false;
  bool hasBias = false;
  Activation activation = Activation::none;
  /// Integer weights: per-row weight scales (f32, R); with i8 rhs also
  /// per-token input scales (f32, N); both applied by the epilogue.
  bool hasWeightScales = false, hasInputScales = false;
  /// Per-group weight scales (R x ceil(K / groupSize)) of a dequantized
  /// weight; 0: per-row scales.
  int64_t groupSize = 0;
  int64_t scaleGroups() const { return (cols + groupSize - 1) / groupSize; }
  /// K columns of a k-tile pair: 16 groups of M.
  int64_t pairColumns() const { return kSlotRows / 4 * m; }
  /// B is read token-major: rhs holds x[N][K] with row pitch ldb (the
  /// i8 kernels, as sm_80 and sm_90 have no byte-transposing ldmatrix; the
  /// f16/bf16 kernels at M = 4 and 8 when rhs is K-contiguous).
  bool tokenMajorRhs = false;
  /// The kernel stores y transposed: out holds y[N][R] (a linear layer's
  /// token-major result, memref<RxN, strided<[1, ldc]>>).
  bool tokenMajorOut = false;

  /// An integer MMA (W8A8, W4A8): i8 rhs.
  bool isInteger() const { return rhsType.isSignlessInteger(8); }
  bool hasIntegerWeight() const {
    return elementType.isSignlessInteger(8) || elementType.isSignlessInteger(4);
  }
  /// An integer weight dequantized to the f16/bf16 MMA in registers
  /// (W8A16, W4A16).
  bool dequantizesWeight() const { return hasIntegerWeight() && !isInteger(); }
  /// The MMA's operand type: rhs's (i8 under both integer weights of the
  /// integer MMA, f16/bf16 under a dequantized one).
  mlir::Type operandType() const { return rhsType; }
  /// The element type of the fragment values array: i8 bytes for i8 and
  /// i4 weights (two i4 values per byte).
  mlir::Type fragmentStorageType() const {
    return hasIntegerWeight()
               ? mlir::IntegerType::get(elementType.getContext(), 8)
               : elementType;
  }

  // Tiling.
  int64_t blockM = 64, blockN = 128, warpsM = 2, warpsN = 2, stages = 3;
  /// Resident blocks per multiprocessor to ask ptxas for (0: its choice).
  int64_t minBlocksPerSM = 0;
  /// The factor vnm-unroll-kernel-loops unrolls the K loop by (1: none).
  int64_t unroll = 1;
  /// Consecutive row blocks launched as one cluster (sm_90a; 1: none).
  int64_t clusterRows = 1;
  /// Blocks that share one tile's K loop (sm_90; 1: none): consecutive
  /// along grid y, one cluster, each running kTilePairs() / kSplits pairs.
  int64_t kSplits = 1;
  /// A fragments and metadata copied into a shared A ring with B's slot
  /// and read from there (staged_a), instead of loaded from global memory
  /// one pair ahead into registers.
  bool stagedA = false;

  int64_t threads() const {
    return 32 * warpsM * warpsN + kProducerThreads * warpSpecialized;
  }
  /// The sm_90a kernel: one wgmma.sp m64nNk32 per warpgroup and K step, B
  /// read from the ring through a descriptor (warps = [4 W, 1]).
  bool warpgroupMma = false;
  /// The sm_90a warp-specialized kernel: a producer warpgroup after the
  /// computing ones fills the ring (vnm_gpu.produce_consume).
  bool warpSpecialized = false;
  static constexpr int64_t kProducerThreads = 128;
  /// Takes the tiling of a #vnm_gpu.wgmma_sp_tiling.
  void applyConfig(vnm_gpu::WgmmaSpTilingAttr config) {
    warpgroupMma = true;
    blockM = config.getBlockRows();
    blockN = config.getBlockCols();
    warpsM = 4 * config.getWarpgroups();
    warpsN = 1;
    stages = config.getStages();
    warpSpecialized = config.getProducers() != 0;
    minBlocksPerSM = 0;
    clusterRows = config.getClusterRows();
    // Every group of four original columns holds at most two of a V:2:M
    // row's nonzeros: packed as V:2:4 the weight needs no gather of B.
    as24 = config.getAs_2_4();
    if (as24)
      m = 4;
  }
  /// Takes the tiling of a #vnm_gpu.mma_sp_tiling.
  void applyConfig(vnm_gpu::MmaSpTilingAttr config) {
    blockM = config.getBlockRows();
    blockN = config.getBlockCols();
    warpsM = config.getWarpsM();
    warpsN = config.getWarpsN();
    stages = config.getStages();
    minBlocksPerSM = config.getBlocksPerSM();
    unroll = config.getUnroll();
    clusterRows = 1;
    kSplits = config.getKSplits();
    stagedA = config.getStagedA();
  }
  int64_t groups() const { return (cols + m - 1) / m; }
  /// With M = 4 every group keeps all four of its columns (colidx is 0 1 2 3
  /// throughout), so pair p's gathered rows are B's rows 64 p .. 64 p + 63
  /// for every V block: B is copied as a dense tile and block tiles may
  /// span V blocks.
  bool identityGather() const { return m == 4; }
  /// k-tiles holding data (8 groups each).
  int64_t dataKTiles() const { return (groups() + 7) / 8; }
  int64_t kTilePairs() const { return (dataKTiles() + 1) / 2; }
  /// Rows of B one ring slot holds: a k-tile pair's 16 groups x 4 columns.
  static constexpr int64_t kSlotRows = 64;
  /// K bytes per token of a token-major slot: the pair's 16 groups whole
  /// (M columns each), of which load_b selects 4 per group when M > 4.
  int64_t slotCols() const { return kSlotRows / 4 * m; }
  int64_t gridY() const { return (rows + blockM - 1) / blockM; }
  /// k-tile pairs of each K split.
  int64_t pairsPerSplit() const { return kTilePairs() / kSplits; }
  /// Why kSplits cannot split the K loop (equal parts of whole scale
  /// groups), or an empty string.
  std::string checkKSplits() const;
};

/// Whether the f16/bf16 mma.sp kernels read a token-major rhs at this M: a
/// slot holds each token's k-tile pair whole (M = 4) or its 16 groups
/// whole (M = 8: 32 KiB per stage; 64 KiB and more beyond).
inline bool readsFloatTokenMajor(int64_t m) { return m == 4 || m == 8; }

/// Whether a kernel with `rhs` elements at this M is best handed a
/// token-major rhs in place of a transposed copy of x[N][K] (what
/// vnm-fold-transposed-rhs does, and what vnm-choose-config tiles for):
/// the i8 kernels read nothing else; the f16/bf16 ones at M = 4, whose K
/// loop issues fewer instructions than the K x N kernel's; at M = 8 only
/// with `registerGather`, as their B loads select the kept values in
/// registers (17-18 SASS instructions per HMMA against 5.4-6.6,
/// bench/results/2026-12-03-sass-loop-report-token-major.csv).
inline bool prefersTokenMajor(mlir::Type rhs, int64_t m, bool registerGather) {
  return rhs.isSignlessInteger(8) || m == 4 || (registerGather && m == 8);
}

/// Whether a V:N:M weight is also a 2:4 matrix over its original columns
/// (at most two nonzeros in every group of four): N <= 2 and M a multiple
/// of 4. The warp-specialized sm_90a kernel can then run it as 2:4
/// (as_2_4).
inline bool fitsTwoFour(int64_t n, int64_t m) { return n <= 2 && m % 4 == 0; }

/// Bytes of the A ring of staged_a: per stage and 16-row tile, the pair's
/// kSlotRows columns of K in instruction-deep k-tiles (the s8 MMA's i4
/// weights stay packed nibbles) and their metadata words, as
/// vnm_gpu::ARingType sizes the ring it builds.
inline int64_t stagedARingBytes(int64_t stages, int64_t blockRows,
                                bool integerMma, int64_t weightBits) {
  using vnm_gpu::ARingType;
  int64_t operandBits = integerMma ? 8 : 16;
  int64_t kTiles = SpmmKernelConfig::kSlotRows /
                   vnm_gpu::MmaLayoutAttr::instrKForOperandBits(operandBits);
  int64_t valueBytesPerRowTile =
      kTiles * ARingType::kTileValueBytes(operandBits, weightBits);
  return stages * ARingType::slotBytes(blockRows / 16, valueBytesPerRowTile);
}

/// Whether a block tile of `blockRows` rows fits the V:N:M format: inside
/// one V block, or anywhere when M = 4 (see identityGather).
bool blockRowsFitFormat(int64_t blockRows, int64_t v, int64_t m);

/// Tiling asked for by pass options; 0 (-1 for blocksPerSM) chooses.
struct TilingOptions {
  int64_t blockRows = 0, blockCols = 0, warpRows = 0, warpsN = 0, stages = 0,
          blocksPerSM = -1, unroll = 0;
  /// The warp-specialized sm_90a kernel (a producer warpgroup).
  bool warpSpecialized = false;
  /// Row blocks per cluster of the sm_90a kernels; 0 chooses.
  int64_t clusterRows = 0;
  /// The warp-specialized kernel runs a V:2:M weight as 2:4.
  bool as24 = false;
  /// K splits of the mma.sp kernels (1: none).
  int64_t kSplits = 1;
  /// The mma.sp kernels stage A through a shared ring (staged_a): 1
  /// always, 0 never, -1 chooses.
  int64_t stagedA = -1;
  /// The warp-specialized kernel's N is static and small
  /// (narrowTilesFit): 128-column tiles unless block columns are given.
  bool narrowN = false;
};

/// Whether the warp-specialized kernel of a float weight that reads its
/// rhs K x N, at N (dynamic where unknown), takes 128-column tiles instead
/// of 256: where N is static and at most 1024, 128 x 256 tiles leave the
/// GPU under-filled. On an H100, 128 columns ran 1.27-1.50x faster at
/// N = 512 and 1000, and 0.71-0.79x as fast at N = 4096
/// (bench/results/2026-12-07-h100-wgmma-ws-128-columns/); N between, the
/// quantized kernels and token-major rhs were not measured so.
bool narrowTilesFit(int64_t n, bool floatWeight, bool tokenMajorRhs);

/// The tiling vnm-choose-config gives a matrix in the V:N:M format;
/// nonzero block rows, warp rows and warps n, and blocks per SM >= 0 (0:
/// registers left to ptxas) override it.
///
/// 128-row tiles where the format allows them (half the gather traffic per
/// row; as fast as 64-row tiles or faster on the H200), else 64-row tiles;
/// 32 x 64 warp tiles (two columns of warps); 16 warps per multiprocessor
/// (128 registers per thread), or 8 with 64-row warp tiles.
/// bench/results/ANALYSIS.md has the numbers. The kernels of integer
/// weights (`quantized`: W8A8, W4A8, W8A16, W4A16) take 64-row tiles (for
/// the i8 MMA faster on the H200 at every bench shape; twice the blocks at
/// decode sizes) and leave registers to ptxas: at 128 registers their
/// scaling epilogue or weight widening spills. With per-group scales
/// (`groupScales`: a second set of accumulators) the warp tiles are 32 x 32
/// (four columns of warps): at 32 x 64 they spill. A float weight whose
/// kernel reads rhs token-major at M > 4 (`tokenMajorRhs`: a slot holds
/// the pair's groups whole, a 96 KiB ring at 3 stages) leaves registers to
/// ptxas too: the ring's shared memory allows two blocks per
/// multiprocessor, so a cap for 16 warps would only spill.
/// The sm_90a tiling of a float (f16/bf16) weight: 64 rows per warpgroup,
/// two warpgroups (128-row tiles, one gathered B tile for both) where the
/// format allows, 128 columns (m64n128k32), 4 stages (3 of 32 KiB at 256
/// columns); nonzero block rows, block columns, stages and cluster rows
/// override it (the other options are the mma.sp kernels'). The
/// warp-specialized kernel of a weight of `rows` rows launches pairs of
/// row blocks as clusters where their number is even; the multistage one
/// none unless asked for.
vnm_gpu::WgmmaSpTilingAttr chooseWgmmaSpConfig(mlir::MLIRContext *context,
                                               int64_t rows, int64_t v,
                                               int64_t m,
                                               const TilingOptions &options);
vnm_gpu::MmaSpTilingAttr chooseSpmmConfig(mlir::MLIRContext *context, int64_t v,
                                          int64_t m, bool quantized,
                                          bool groupScales, bool tokenMajorRhs,
                                          const TilingOptions &options);

/// The K splits of an mma.sp kernel of K columns in groups of M (dynamic
/// K: 1) with per-group scales of `groupSize` columns (0: none): the
/// largest count up to `maxSplits` that divides the k-tile pairs into
/// equal parts of whole scale groups; 1 where `maxSplits` <= 1.
int64_t chooseKSplits(int64_t maxSplits, int64_t cols, int64_t m,
                      int64_t groupSize);

/// Why `config` cannot be generated, or an empty string.
std::string checkSpmmKernelConfig(const SpmmKernelConfig &config);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_SPMMTILING_H
