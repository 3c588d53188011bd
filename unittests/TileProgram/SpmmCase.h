//===- SpmmCase.h - one case of the tile-program execution tests -*- C++ -*-=//
//
// A case is one vnm.storage.spmm (static R and K, N at run time) and the
// tiling its kernel is generated with: the scaled-down counterpart of a
// case of bench/cases.py.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_UNITTESTS_TILEPROGRAM_SPMMCASE_H
#define VNM_UNITTESTS_TILEPROGRAM_SPMMCASE_H

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace vnm::tile_test {

/// Where a case's tile program comes from.
enum class ProgramSource {
  /// vnm-lower-to-gpu and vnm-pipeline-kernels on the case's spmm.
  Generated,
  /// Written out by HandWrittenKernel: the K loop as a plain sequence.
  HandPlain,
  /// Written out by HandWrittenKernel: software-pipelined, S - 1 gathers in
  /// flight, waits with pending(S - 2).
  HandPipelined,
  /// Written out by HandWrittenKernel: a vnm_gpu.produce_consume split of
  /// the block (a producer warpgroup that copies B and stages A, wgmma.sp
  /// consumers), chip sm_90a.
  HandWarpSpecialized,
};

struct SpmmCase {
  int64_t rows = 0, cols = 0, n = 0; ///< R, K and the run-time N
  int64_t v = 64, m = 8;
  /// f16 or bf16; i8 for W8A8 (an i8 weight and i8 token-major
  /// activations x[N][K]).
  std::string element = "f16";
  /// The weight's element type when it differs from `element`: i4 for
  /// W4A8 (element i8), packed two per fragment byte.
  std::string weight;
  /// f16, bf16 or f32; i32 for i8 without scales.
  std::string result = "f16";
  bool accumulate = false, bias = false;
  std::string activation = "none"; ///< none, relu or gelu
  int64_t blockRows = 64, warpRows = 32, warpsN = 2, stages = 3;
  /// The K loop's unroll factor asked of vnm-choose-config (0: its choice).
  int64_t unroll = 0;
  /// The K splits asked of vnm-choose-config (0: none): consecutive blocks
  /// along grid y sum one tile's partial K loops.
  int64_t kSplits = 0;
  /// A fragments through a shared ring with B (staged-a=1): copied by the
  /// block's threads, landed by the waits, read from the ring.
  bool stagedA = false;
  /// The chip vnm-choose-config tiles for: sm_90a runs the wgmma.sp recipe
  /// (recipe=wgmma-sp; block rows and stages apply, warp options not).
  std::string chip = "sm_90";
  /// The sm_90a recipe: wgmma-sp, or wgmma-sp-ws (a producer warpgroup
  /// copying B by the TMA, for M = 4).
  std::string recipe = "wgmma-sp";
  /// Columns per block tile of the wgmma.sp kernels (0: the default 128).
  int64_t blockCols = 0;
  /// wgmma-sp-ws: the V:2:M weight runs as 2:4 over its original columns
  /// (as-2-4=1): pruned as V:2:M, its fragments packed as V:2:4.
  bool as24 = false;
  /// M of the format the fragment arrays are packed in.
  int64_t packedM() const { return as24 ? 4 : m; }
  /// Weight-only kernels: per-group weight scales over groups of this many
  /// K columns (0: per-row scales).
  int64_t groupSize = 0;
  int64_t scaleGroups() const {
    return groupSize ? (cols + groupSize - 1) / groupSize : 1;
  }
  /// Row pitches beyond the smallest multiple of 8 >= N, in elements.
  int64_t extraLdb = 0, extraLdc = 0;
  ProgramSource source = ProgramSource::HandPipelined;

  /// f16/bf16 rhs read token-major, x[N][K] (K a multiple of 8); the i8
  /// kernels always read it so.
  bool tokenMajor = false;

  bool integer() const { return element == "i8"; }
  bool tokenMajorRhs() const { return integer() || tokenMajor; }
  const std::string &weightType() const {
    return weight.empty() ? element : weight;
  }
  /// i8 into a float result: per-row weight and per-token input scales.
  bool quantized() const { return integer() && result != "i32"; }
  /// An i8/i4 weight times f16/bf16 rhs (W8A16, W4A16): per-row weight
  /// scales only, the weight packed in the 16-bit fragment class.
  bool weightOnly() const { return !integer() && weightType() != element; }
  /// B's row pitch: over N for K x N (f16, bf16), over K for the
  /// token-major x[N][K] (16-byte rows).
  int64_t ldb() const {
    if (integer())
      return (cols + 15) / 16 * 16 + extraLdb;
    return tokenMajor ? (cols + 7) / 8 * 8 + extraLdb
                      : (n + 7) / 8 * 8 + extraLdb;
  }
  /// y stored token-major, y[N][R] (the transposed epilogue of a linear
  /// layer's result); generated programs only.
  bool tokenMajorOut = false;
  /// Y's storage: R rows of N, or N rows of R when token-major, each in a
  /// pitch of ldc (the smallest multiple of 8 >= its length, + extraLdc).
  int64_t outRows() const { return tokenMajorOut ? n : rows; }
  int64_t outCols() const { return tokenMajorOut ? rows : n; }
  int64_t ldc() const { return (outCols() + 7) / 8 * 8 + extraLdc; }
  /// Where element (r, j) of the R x N result lies in Y's storage.
  int64_t outIndex(int64_t r, int64_t j) const {
    return tokenMajorOut ? j * ldc() + r : r * ldc() + j;
  }
  /// A name usable as a GoogleTest parameter name and on a command line.
  std::string name() const;
};

/// How GoogleTest prints a case: by its name.
inline void PrintTo(const SpmmCase &c, std::ostream *os) { *os << c.name(); }

/// The case matrix of the ctest suite.
std::vector<SpmmCase> getCaseMatrix();

/// The case of that name in the matrix, or null.
const SpmmCase *findCase(const std::string &name);

} // namespace vnm::tile_test

#endif // VNM_UNITTESTS_TILEPROGRAM_SPMMCASE_H
