//===- SubsetSearch.cpp - Exhaustive 4-of-M subset search -----------------===//
//
// score(S) for S = {a < b < c < d} is the sum over rows of the row's largest
// (n = 1) or two largest (n = 2) magnitudes in S. With the triple's largest
// t1 and second largest t2, a row contributes t1 + max(t2, w_d) (n = 2) or
// max(t1, w_d) (n = 1), so the search evaluates
//   score = sum(t1) + sum(max(threshold, w_d))
// with threshold = t2 (t1 for n = 1, where the first sum is 0). The loop over
// d then costs one max and one add per row and candidate.
//
// Every sum over rows uses the same tree: even and odd rows in two sequential
// partial sums, added at the end. Branch and bound skips prefixes whose upper
// bound cannot beat the best score so far; bounds use that tree with termwise
// larger terms, and IEEE addition is monotone, so a rounded bound never falls
// below a rounded score and the result equals an exhaustive scan.
//
//===----------------------------------------------------------------------===//

#include "SubsetSearch.h"

#include "DoublePair.h"

#include <utility>

namespace vnm::format::detail {

namespace {

bool lexLess(const uint8_t *lhs, const uint8_t *rhs, int length) {
  for (int i = 0; i < length; ++i)
    if (lhs[i] != rhs[i])
      return lhs[i] < rhs[i];
  return false;
}

class SubsetSearch {
public:
  explicit SubsetSearch(SearchWorkspace &ws)
      : ws(ws), rowPairs((ws.rows + 1) / 2), m(ws.m), keepTwo(ws.keepTwo) {}

  void run(uint8_t out[4]);

private:
  void prepare();
  void seedWithGreedy();
  void computePair(int a, int b);
  double pairBound(int b);
  double computeTriple(int c, double &thresholdBound);
  template <int Width> void sumThresholds(int firstD, double out[Width]) const;
  template <int... Q>
  void sumThresholds(int firstD, double *out,
                     std::integer_sequence<int, Q...>) const;
  template <int Width>
  void scan(int firstD, const uint8_t prefix[3], double base);
  double scoreOf(const uint8_t cols[4]);

  /// True if no subset with this prefix can replace the best: its bound is
  /// lower, or it can only tie and every such subset is lexicographically
  /// larger.
  bool cannotWin(double bound, const uint8_t *prefix, int length) const {
    return bound < bestScore ||
           (bound == bestScore && lexLess(best, prefix, length));
  }

  void consider(double score, const uint8_t cols[4]) {
    if (score > bestScore || (score == bestScore && lexLess(cols, best, 4))) {
      bestScore = score;
      for (int i = 0; i < 4; ++i)
        best[i] = cols[i];
    }
  }

  SearchWorkspace &ws;
  const int rowPairs;
  const int m;
  const bool keepTwo;
  double bestScore = -1;
  uint8_t best[4] = {0, 1, 2, 3};
};

void SubsetSearch::prepare() {
  // A zero row evens out the count: adding +0 leaves every sum unchanged.
  if (ws.rows % 2)
    for (int c = 0; c < m; ++c)
      ws.mag[c][ws.rows] = 0;
  for (int r = 0; r < 2 * rowPairs; r += 2) {
    storePair(&ws.suffixFirst[m][r], zeroPair());
    storePair(&ws.suffixSecond[m][r], zeroPair());
  }
  for (int k = m - 1; k >= 0; --k) {
    for (int r = 0; r < 2 * rowPairs; r += 2) {
      const DoublePair x = loadPair(&ws.mag[k][r]);
      const DoublePair first = loadPair(&ws.suffixFirst[k + 1][r]);
      const DoublePair second = loadPair(&ws.suffixSecond[k + 1][r]);
      storePair(&ws.suffixFirst[k][r], maxPair(first, x));
      storePair(&ws.suffixSecond[k][r], maxPair(second, minPair(first, x)));
    }
  }
}

/// Starting from a good subset lets the bounds prune from the first prefix
/// on; the four heaviest columns are a cheap, usually strong, guess.
void SubsetSearch::seedWithGreedy() {
  double weight[kMaxGroupCols];
  for (int c = 0; c < m; ++c) {
    DoublePair sum = zeroPair();
    for (int r = 0; r < 2 * rowPairs; r += 2)
      sum = addPair(sum, loadPair(&ws.mag[c][r]));
    weight[c] = sumLanes(sum);
  }
  bool taken[kMaxGroupCols] = {};
  for (int i = 0; i < 4; ++i) {
    int pick = -1;
    for (int c = 0; c < m; ++c)
      if (!taken[c] && (pick < 0 || weight[c] > weight[pick]))
        pick = c;
    taken[pick] = true;
  }
  uint8_t cols[4];
  int count = 0;
  for (int c = 0; c < m; ++c)
    if (taken[c])
      cols[count++] = static_cast<uint8_t>(c);
  consider(scoreOf(cols), cols);
}

void SubsetSearch::computePair(int a, int b) {
  for (int r = 0; r < 2 * rowPairs; r += 2) {
    const DoublePair wa = loadPair(&ws.mag[a][r]);
    const DoublePair wb = loadPair(&ws.mag[b][r]);
    storePair(&ws.pairHigh[r], maxPair(wa, wb));
    storePair(&ws.pairLow[r], minPair(wa, wb));
  }
}

/// Bound over every {a, b, c, d} with b < c < d: t1 <= max(high, first
/// suffix) and max(t2, w_d) <= the second largest of {high, low, first,
/// second suffix}.
double SubsetSearch::pairBound(int b) {
  DoublePair base = zeroPair();
  DoublePair threshold = zeroPair();
  for (int r = 0; r < 2 * rowPairs; r += 2) {
    const DoublePair high = loadPair(&ws.pairHigh[r]);
    const DoublePair first = loadPair(&ws.suffixFirst[b + 1][r]);
    if (keepTwo) {
      const DoublePair low = loadPair(&ws.pairLow[r]);
      const DoublePair second = loadPair(&ws.suffixSecond[b + 1][r]);
      base = addPair(base, maxPair(high, first));
      threshold = addPair(threshold,
                          maxPair(minPair(high, first), maxPair(low, second)));
    } else {
      threshold = addPair(threshold, maxPair(high, first));
    }
  }
  return sumLanes(base) + sumLanes(threshold);
}

/// Fills threshold[] for the triple (pair, c) and returns its base sum;
/// `thresholdBound` bounds the threshold sum over every d > c.
double SubsetSearch::computeTriple(int c, double &thresholdBound) {
  DoublePair base = zeroPair();
  DoublePair bound = zeroPair();
  for (int r = 0; r < 2 * rowPairs; r += 2) {
    const DoublePair high = loadPair(&ws.pairHigh[r]);
    const DoublePair wc = loadPair(&ws.mag[c][r]);
    const DoublePair top = maxPair(high, wc);
    DoublePair threshold = top;
    if (keepTwo) {
      threshold = maxPair(loadPair(&ws.pairLow[r]), minPair(high, wc));
      base = addPair(base, top);
    }
    storePair(&ws.threshold[r], threshold);
    bound =
        addPair(bound, maxPair(threshold, loadPair(&ws.suffixFirst[c + 1][r])));
  }
  thresholdBound = sumLanes(bound);
  return sumLanes(base);
}

/// Threshold sums of `Width` consecutive candidates d. The candidates are
/// expanded with a fold expression rather than a loop so that even -O2 keeps
/// the independent accumulators in registers, hiding the add latency.
template <int Width>
void SubsetSearch::sumThresholds(int firstD, double out[Width]) const {
  sumThresholds(firstD, out, std::make_integer_sequence<int, Width>());
}

template <int... Q>
void SubsetSearch::sumThresholds(int firstD, double *out,
                                 std::integer_sequence<int, Q...>) const {
  DoublePair sums[] = {(static_cast<void>(Q), zeroPair())...};
  const double *columns[] = {ws.mag[firstD + Q]...};
  for (int r = 0; r < 2 * rowPairs; r += 2) {
    const DoublePair threshold = loadPair(&ws.threshold[r]);
    ((sums[Q] = addPair(sums[Q], maxPair(loadPair(columns[Q] + r), threshold))),
     ...);
  }
  ((out[Q] = sumLanes(sums[Q])), ...);
}

template <int Width>
void SubsetSearch::scan(int firstD, const uint8_t prefix[3], double base) {
  double sums[Width];
  sumThresholds<Width>(firstD, sums);
  for (int q = 0; q < Width; ++q) {
    const double score = base + sums[q];
    if (score < bestScore) // The common case; skip building the subset.
      continue;
    const uint8_t cols[4] = {prefix[0], prefix[1], prefix[2],
                             static_cast<uint8_t>(firstD + q)};
    consider(score, cols);
  }
}

/// Shares the main loop's code so that the score is bit-identical to the
/// one the scan would compute.
double SubsetSearch::scoreOf(const uint8_t cols[4]) {
  computePair(cols[0], cols[1]);
  double unused;
  const double base = computeTriple(cols[2], unused);
  double sum;
  sumThresholds<1>(cols[3], &sum);
  return base + sum;
}

void SubsetSearch::run(uint8_t out[4]) {
  prepare();
  seedWithGreedy();
  for (int a = 0; a + 3 < m; ++a) {
    for (int b = a + 1; b + 2 < m; ++b) {
      computePair(a, b);
      const uint8_t pairPrefix[2] = {static_cast<uint8_t>(a),
                                     static_cast<uint8_t>(b)};
      if (cannotWin(pairBound(b), pairPrefix, 2))
        continue;
      for (int c = b + 1; c + 1 < m; ++c) {
        double thresholdBound;
        const double base = computeTriple(c, thresholdBound);
        const uint8_t prefix[3] = {pairPrefix[0], pairPrefix[1],
                                   static_cast<uint8_t>(c)};
        if (cannotWin(base + thresholdBound, prefix, 3))
          continue;
        int d = c + 1;
        for (; d + 8 <= m; d += 8)
          scan<8>(d, prefix, base);
        if (d + 4 <= m) {
          scan<4>(d, prefix, base);
          d += 4;
        }
        if (d + 2 <= m) {
          scan<2>(d, prefix, base);
          d += 2;
        }
        if (d < m)
          scan<1>(d, prefix, base);
      }
    }
  }
  for (int i = 0; i < 4; ++i)
    out[i] = best[i];
}

/// Ties go to the smaller position because the scan only replaces on a
/// strictly larger magnitude.
RowChoice chooseRow(const SearchWorkspace &ws, int row) {
  double w[4];
  for (int i = 0; i < 4; ++i)
    w[i] = ws.mag[ws.subset[i]][row];
  int first = 0;
  for (int i = 1; i < 4; ++i)
    if (w[i] > w[first])
      first = i;
  int other = first == 0 ? 1 : 0;
  if (ws.keepTwo)
    for (int i = other + 1; i < 4; ++i)
      if (i != first && w[i] > w[other])
        other = i;
  RowChoice choice;
  choice.slots[0] = static_cast<uint8_t>(first < other ? first : other);
  choice.slots[1] = static_cast<uint8_t>(first < other ? other : first);
  choice.zeroSlot = ws.keepTwo ? -1 : (other < first ? 0 : 1);
  return choice;
}

} // namespace

void selectGroup(SearchWorkspace &ws) {
  SubsetSearch(ws).run(ws.subset);
  for (int r = 0; r < ws.rows; ++r)
    ws.choices[r] = chooseRow(ws, r);
}

} // namespace vnm::format::detail
