//===- SubsetSearch.h - Column and value selection of one group -*- C++ -*-===//
//
// Works on magnitudes (doubles) only, so the search is compiled once for all
// element types.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_FORMAT_SUBSETSEARCH_H
#define VNM_LIB_FORMAT_SUBSETSEARCH_H

#include <cstdint>

namespace vnm::format::detail {

inline constexpr int kMaxBlockRows = 256;
inline constexpr int kMaxGroupCols = 32;
/// Room for one zero row that evens out an odd row count.
inline constexpr int kRowStride = kMaxBlockRows + 2;

/// The values one row keeps among its group's 4 selected columns.
struct RowChoice {
  /// Strictly ascending positions in 0..3 (the meta pair).
  uint8_t slots[2];
  /// For n = 1, the slot (0 or 1) of the +0 partner; -1 for n = 2.
  int8_t zeroSlot;
};

/// Scratch for one V x M group, allocated once per call because it is too
/// large for some threads' stacks. Column-major so that the search reads two
/// rows with one aligned load.
struct SearchWorkspace {
  // Inputs.
  int rows = 0;
  int m = 0;
  bool keepTwo = true;
  /// mag[c][r] for c < m and r < rows; padding columns hold 0.
  alignas(16) double mag[kMaxGroupCols][kRowStride];

  // Outputs.
  uint8_t subset[4];
  RowChoice choices[kMaxBlockRows];

  // Internal.
  /// Largest and second largest magnitude of columns k..m-1, per row.
  alignas(16) double suffixFirst[kMaxGroupCols + 1][kRowStride];
  alignas(16) double suffixSecond[kMaxGroupCols + 1][kRowStride];
  alignas(16) double pairHigh[kRowStride];
  alignas(16) double pairLow[kRowStride];
  alignas(16) double threshold[kRowStride];
};

/// Picks the 4-column subset with the best score (ties: lexicographically
/// smallest) and each row's kept values, per docs/format.md.
void selectGroup(SearchWorkspace &ws);

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_SUBSETSEARCH_H
