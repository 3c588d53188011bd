//===- RecipeCostModel.h - predicted L2 traffic and MMA time per recipe ---===//
//
// A first-order model of one spmm on each kernel recipe the chip offers,
// for vnm-choose-config's `explain` remarks, so that the recipe choice can
// be checked against measurements (bench/results/). It counts what
// ../docs/hopper.md section 4 counts, for any tile:
//
//   B bytes through L2 = ceil(R / BM) * Kb * N * b
//   A bytes through L2 = ceil(N / BN) * R * (Kb / 2) * (a + 1/4)
//   MMA time           = 2 R Kb N / (the instruction's 2:4 ceiling)
//   L2 time            = (A + B bytes) / (the L2's bandwidth)
//
// where Kb is the B rows a row block multiplies (4 ceil(K / M) through a
// column-loc gather, K with B as a dense tile: M = 4, or a V:2:M weight run
// as 2:4), Kb / 2 the kept values of an A row, a and b the operand bytes
// (an i4 weight half a byte) and 1/4 the metadata bytes per kept value (2
// bits). The
// predicted time is the larger of the two; epilogue, launch and latency
// are left out, so it is a bound, not a forecast.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_RECIPECOSTMODEL_H
#define VNM_LIB_CONVERSION_VNMTOGPU_RECIPECOSTMODEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace vnm::kernel {

/// The rates the model divides by: the H200's (../docs/hopper.md: the
/// dense-equivalent 2:4 rates measured there, section 1; the L2 peak that
/// ncu reports, section 4's ceilings, which the measured kernels approach:
/// at the 7.5 TB/s a kernel was seen sustaining, V:2:8 run as 2:4 would be
/// bounded at 1.0x cuBLAS, and it measured 1.17-1.46x). The s8 wgmma.sp
/// rate is not measured: twice the f16 one, as for mma.sp.
struct ChipRates {
  double mmaSpF16 = 953e12, mmaSpS8 = 1909e12;
  double wgmmaSpF16 = 1525e12, wgmmaSpS8 = 2 * 1525e12;
  double l2BytesPerSecond = 11e12;
};

/// The spmm being costed.
struct SpmmProblem {
  int64_t rows = 0, cols = 0, n = 0; ///< R, K, N
  int64_t m = 4;                     ///< the format's M
  double weightBytes = 2;            ///< per value (0.5 for i4)
  double rhsBytes = 2;               ///< per value of B
  bool integerMma = false;           ///< the s8 MMA (W8A8, W4A8)
};

/// One kernel recipe with its tile, as vnm-choose-config would build it.
struct RecipeChoice {
  std::string name; ///< "mma-sp", "wgmma-sp", "wgmma-sp-ws [as-2-4]"
  int64_t blockRows = 0, blockCols = 0;
  bool warpgroupMma = false; ///< wgmma.sp (else mma.sp)
  bool gathers = false;      ///< B rows through a column-loc gather
};

struct RecipeEstimate {
  RecipeChoice recipe;
  double aBytes = 0, bBytes = 0, mmaSeconds = 0, l2Seconds = 0;
  double seconds() const {
    return mmaSeconds > l2Seconds ? mmaSeconds : l2Seconds;
  }
};

RecipeEstimate estimateRecipe(const SpmmProblem &problem,
                              const RecipeChoice &recipe,
                              const ChipRates &rates = ChipRates());

/// cuBLAS's f16 rate on the H200 at large shapes (670-820 TFLOP/s,
/// ../docs/hopper.md section 1), which section 4's ceilings divide.
constexpr double kCublasF16Rate = 750e12;

/// One line per estimate: "name BMxBN: A x MB + B y MB through L2 (z us),
/// MMA w us", and with `denseSeconds` (the dense product's time; 0: none)
/// the bound it puts on the speedup over it.
std::string describeEstimates(const std::vector<RecipeEstimate> &estimates,
                              double denseSeconds);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_RECIPECOSTMODEL_H
