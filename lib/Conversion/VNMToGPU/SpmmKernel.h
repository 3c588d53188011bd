//===- SpmmKernel.h - the generated V:N:M sparse-tensor-core SpMM -*- C++ -*-=//
//
// One kernel computes Y = act(A * B [+ Y] [+ bias]) for an R x K V:N:M
// matrix A (f16/bf16, in the format library's fragment layout), a dense
// K x N matrix B and f32 accumulation:
//
// * a thread block owns a BM x BN tile of Y (BM rows inside one V block, so
//   one column-loc serves the whole tile, unless M = 4); BM = 64 or 128
//   (half the gather traffic per row), BN = 128; warp tiles of 32 or 64
//   rows by 64 (or 32) columns;
// * the K loop walks pairs of k-tiles (a k-tile = 8 groups = one m16n8k32
//   mma.sp step); each pair's 64 gathered rows of B (row g*M + colidx[g][j]
//   for the tile's groups g) are copied to shared memory with 16-byte
//   cp.async into slot p % S of an S-stage ring (static shared memory up
//   to 48 KiB, dynamic beyond), zero-filled past K and N.
//   The loop is emitted plain, each op tagged with its pipeline stage;
//   vnm-pipeline-kernels (PipelineKernels.cpp) overlaps the stages;
// * shared rows are XOR-swizzled by 16-byte chunk so that the transposing
//   ldmatrix.x4 that loads B fragments hits 8 distinct bank groups;
// * A fragments and metadata words are read straight from global memory in
//   the lane order mma.sp consumes (one 16-byte and one 4-byte load per lane),
//   one pair ahead once pipelined; a k-tile pair shares one metadata register
//   (selectors 0 and 1);
// * the epilogue adds the accumulator and bias, applies the activation,
//   converts, and stores pairs of columns, predicated on R and N.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_SPMMKERNEL_H
#define VNM_LIB_CONVERSION_VNMTOGPU_SPMMKERNEL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include <string>

namespace vnm::kernel {

struct SpmmKernelConfig {
  // Problem (static except N).
  mlir::Type elementType; ///< f16 or bf16
  mlir::Type resultType;  ///< f16, bf16 or f32
  int64_t v = 0, n = 0, m = 0;
  int64_t rows = 0, cols = 0; ///< R, K
  bool accumulate = false;
  bool hasBias = false;
  Activation activation = Activation::none;

  // Tiling.
  int64_t blockM = 64, blockN = 128, warpsM = 2, warpsN = 2, stages = 3;
  /// Resident blocks per multiprocessor to ask ptxas for (0: its choice).
  int64_t minBlocksPerSM = 0;

  int64_t threads() const { return 32 * warpsM * warpsN; }
  /// Takes the tiling of a #vnm.config.
  void applyConfig(ConfigAttr config) {
    blockM = config.getBlockRows();
    blockN = config.getBlockCols();
    warpsM = config.getWarpsM();
    warpsN = config.getWarpsN();
    stages = config.getStages();
    minBlocksPerSM = config.getBlocksPerSM();
  }
  int64_t groups() const { return (cols + m - 1) / m; }
  /// Rows of the fragment arrays: R padded to whole V blocks.
  int64_t paddedRows() const { return (rows + v - 1) / v * v; }
  /// With M = 4 every group keeps all four of its columns (colidx is 0 1 2 3
  /// throughout), so pair p's gathered rows are B's rows 64 p .. 64 p + 63
  /// for every V block: the gather needs no colidx and block tiles may span
  /// V blocks.
  bool identityGather() const { return m == 4; }
  /// k-tiles holding data (8 groups each) and k-tiles of the fragment
  /// arrays (groups padded to 16, so always even).
  int64_t dataKTiles() const { return (groups() + 7) / 8; }
  int64_t fragmentKTiles() const { return (groups() + 15) / 16 * 2; }
  int64_t kTilePairs() const { return (dataKTiles() + 1) / 2; }
  int64_t stageBytes() const { return 64 * blockN * 2; }
  int64_t sharedBytes() const { return stages * stageBytes(); }
  /// Rings beyond 48 KiB live in dynamic shared memory (the host opts in).
  static constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
  bool dynamicShared() const { return sharedBytes() > kMaxStaticSharedBytes; }
  int64_t gridY() const { return (rows + blockM - 1) / blockM; }
};

/// Whether a block tile of `blockRows` rows fits the V:N:M format: inside
/// one V block, or anywhere when M = 4 (see identityGather).
bool blockRowsFitFormat(int64_t blockRows, int64_t v, int64_t m);

/// Tiling asked for by pass options; 0 (-1 for blocksPerSM) chooses.
struct TilingOptions {
  int64_t blockRows = 0, warpRows = 0, warpsN = 0, stages = 0, blocksPerSM = -1;
};

/// The tiling vnm-choose-config gives a matrix in the V:N:M format;
/// nonzero block rows, warp rows and warps n, and blocks per SM >= 0 (0:
/// registers left to ptxas) override it.
///
/// 128-row tiles where the format allows them (half the gather traffic per
/// row; as fast as 64-row tiles or faster on the H200), else 64-row tiles;
/// 32 x 64 warp tiles (two columns of warps); 16 warps per multiprocessor
/// (128 registers per thread), or 8 with 64-row warp tiles.
/// bench/results/ANALYSIS.md has the numbers.
ConfigAttr chooseSpmmConfig(mlir::MLIRContext *context, int64_t v, int64_t m,
                            const TilingOptions &options);

/// Why `config` cannot be generated, or an empty string.
std::string checkSpmmKernelConfig(const SpmmKernelConfig &config);

/// Discardable attributes vnm-lower-to-gpu puts on the ops of a kernel's K
/// loop: the software-pipeline stage of each op, and its place in the
/// pipelined loop body (ops are ordered by it, then by their original
/// order). vnm-pipeline-kernels consumes and removes them.
inline constexpr llvm::StringLiteral kPipelineStageAttr = "vnm.pipeline_stage";
inline constexpr llvm::StringLiteral kPipelineOrderAttr = "vnm.pipeline_order";

/// One kernel parameter: a global pointer or an i32.
struct KernelParameter {
  const char *name;
  bool isPointer;
};

/// Kernel parameters, in order: fragment values, fragment metadata words,
/// colidx (logical, u8), B, Y, bias (may be null), then i32 N, ldb, ldc
/// (row strides in elements, multiples of 8). The kernel's signature and
/// its launch contract are both built from this list.
llvm::ArrayRef<KernelParameter> getSpmmKernelParameters();

/// Builds the kernel `name` into `module`, and the shared buffer it uses.
mlir::gpu::GPUFuncOp buildSpmmKernel(mlir::OpBuilder &builder,
                                     mlir::gpu::GPUModuleOp module,
                                     llvm::StringRef name,
                                     const SpmmKernelConfig &config);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_SPMMKERNEL_H
