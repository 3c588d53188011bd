//===- RecipeCostModel.cpp - predicted L2 traffic and MMA time per recipe -===//

#include "RecipeCostModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace vnm::kernel;

namespace {

int64_t ceilDiv(int64_t x, int64_t y) { return (x + y - 1) / y; }

} // namespace

RecipeEstimate vnm::kernel::estimateRecipe(const SpmmProblem &problem,
                                           const RecipeChoice &recipe,
                                           const ChipRates &rates) {
  RecipeEstimate estimate;
  estimate.recipe = recipe;
  double rows = double(problem.rows), n = double(problem.n);
  // The B rows each row block multiplies: the kept groups' four columns
  // each through a gather, every row of B with a dense tile.
  double bRows = recipe.gathers ? 4.0 * double(ceilDiv(problem.cols, problem.m))
                                : double(problem.cols);
  estimate.bBytes = double(ceilDiv(problem.rows, recipe.blockRows)) * bRows *
                    n * problem.rhsBytes;
  // Two kept values of every four B rows, and 2 bits of metadata each.
  double keptValues = bRows / 2;
  double metadataBytes = 0.25;
  estimate.aBytes = double(ceilDiv(problem.n, recipe.blockCols)) * rows *
                    keptValues * (problem.weightBytes + metadataBytes);
  double rate = problem.integerMma
                    ? (recipe.warpgroupMma ? rates.wgmmaSpS8 : rates.mmaSpS8)
                    : (recipe.warpgroupMma ? rates.wgmmaSpF16 : rates.mmaSpF16);
  estimate.mmaSeconds = 2.0 * rows * bRows * n / rate;
  estimate.l2Seconds =
      (estimate.aBytes + estimate.bBytes) / rates.l2BytesPerSecond;
  return estimate;
}

std::string
vnm::kernel::describeEstimates(const std::vector<RecipeEstimate> &estimates,
                               double denseSeconds) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const RecipeEstimate &e : estimates) {
    os << "\n  " << e.recipe.name << " " << e.recipe.blockRows << "x"
       << e.recipe.blockCols << ": A " << llvm::format("%.1f", e.aBytes / 1e6)
       << " MB + B " << llvm::format("%.1f", e.bBytes / 1e6)
       << " MB through L2 (" << llvm::format("%.1f", e.l2Seconds * 1e6)
       << " us), MMA " << llvm::format("%.1f", e.mmaSeconds * 1e6) << " us";
    if (denseSeconds > 0)
      os << ": at most " << llvm::format("%.2f", denseSeconds / e.seconds())
         << "x cuBLAS";
  }
  return text;
}
