//===- SubsetSearch.cpp - Exhaustive 4-of-M subset search -----------------===//
//
// score(S) for S = {a < b < c < d} is the sum over rows of the row's largest
// (n = 1) or two largest (n = 2) magnitudes in S. With the triple's largest t1
// and second largest t2, a row contributes t1 + max(t2, w_d) (n = 2) or
// max(t1, w_d) (n = 1). The search is evaluated as
//   score = baseSum + sum_r max(threshold_r, w_rd)
// where baseSum sums t1 (0 for n = 1) and threshold is t2 (t1 for n = 1), so
// the inner loop over d is one max and one add per row, vectorised over d.
//
// Branch and bound skips prefixes whose upper bound cannot beat the best
// score so far. Bounds are computed with the same summation trees as the
// scores and from termwise larger terms; IEEE addition is monotone, so a
// rounded bound never falls below a rounded score and the result equals an
// exhaustive scan of the same score function.
//
//===----------------------------------------------------------------------===//

#include "SubsetSearch.h"

namespace vnm::format::detail {

namespace {

inline double maxOf(double a, double b) { return a > b ? a : b; }
inline double minOf(double a, double b) { return a < b ? a : b; }

/// Fixed four-way tree: cuts the add latency chain and is shared by scores
/// and bounds.
double sumBaseTerms(const double *terms, int rows) {
  double partial[4] = {0, 0, 0, 0};
  int r = 0;
  for (; r + 4 <= rows; r += 4)
    for (int q = 0; q < 4; ++q)
      partial[q] += terms[r + q];
  for (; r < rows; ++r)
    partial[0] += terms[r];
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

bool lexLess(const uint8_t *lhs, const uint8_t *rhs, int length) {
  for (int i = 0; i < length; ++i)
    if (lhs[i] != rhs[i])
      return lhs[i] < rhs[i];
  return false;
}

class SubsetSearch {
public:
  explicit SubsetSearch(SearchWorkspace &ws)
      : ws(ws), rows(ws.rows), m(ws.m), keepTwo(ws.keepTwo) {}

  void run(uint8_t out[4]);

private:
  void prepareColumns();
  void seedWithGreedy();
  void computePair(int a, int b);
  double pairBound(int b);
  double computeTriple(int c, double &thresholdBound);
  double scoreOf(const uint8_t cols[4]);
  template <int Width> void scan(int start, const uint8_t prefix[3], double base);

  /// True if no subset with this prefix can replace the best: either its
  /// bound is lower, or it can only tie and every such subset is
  /// lexicographically larger.
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
  const int rows;
  const int m;
  const bool keepTwo;
  double bestScore = -1;
  uint8_t best[4] = {0, 1, 2, 3};
};

void SubsetSearch::prepareColumns() {
  for (int c = 0; c < m; ++c)
    for (int r = 0; r < rows; ++r)
      ws.magByColumn[c][r] = ws.mag[r][c];
  for (int r = 0; r < rows; ++r) {
    ws.suffixFirst[m][r] = 0;
    ws.suffixSecond[m][r] = 0;
  }
  for (int k = m - 1; k >= 0; --k) {
    for (int r = 0; r < rows; ++r) {
      const double x = ws.magByColumn[k][r];
      const double first = ws.suffixFirst[k + 1][r];
      const double second = ws.suffixSecond[k + 1][r];
      ws.suffixFirst[k][r] = maxOf(first, x);
      ws.suffixSecond[k][r] = maxOf(second, minOf(first, x));
    }
  }
}

/// Starting from a good subset lets the bounds prune from the first prefix
/// on; the four heaviest columns are a cheap, usually strong, guess.
void SubsetSearch::seedWithGreedy() {
  double weight[kMaxGroupCols];
  for (int c = 0; c < m; ++c)
    weight[c] = sumBaseTerms(ws.magByColumn[c], rows);
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
  const double *wa = ws.magByColumn[a];
  const double *wb = ws.magByColumn[b];
  for (int r = 0; r < rows; ++r) {
    ws.pairHigh[r] = maxOf(wa[r], wb[r]);
    ws.pairLow[r] = minOf(wa[r], wb[r]);
  }
}

/// Bound over every {a, b, c, d} with b < c < d: t1 <= max(high, first
/// suffix) and max(t2, w_d) <= the second largest of {high, low, first,
/// second suffix}.
double SubsetSearch::pairBound(int b) {
  const double *first = ws.suffixFirst[b + 1];
  const double *second = ws.suffixSecond[b + 1];
  double base = 0;
  double thresholdSum = 0;
  if (keepTwo) {
    for (int r = 0; r < rows; ++r)
      ws.baseTerm[r] = maxOf(ws.pairHigh[r], first[r]);
    base = sumBaseTerms(ws.baseTerm, rows);
    for (int r = 0; r < rows; ++r)
      thresholdSum += maxOf(minOf(ws.pairHigh[r], first[r]),
                            maxOf(ws.pairLow[r], second[r]));
  } else {
    for (int r = 0; r < rows; ++r)
      thresholdSum += maxOf(ws.pairHigh[r], first[r]);
  }
  return base + thresholdSum;
}

/// Fills threshold[] for the triple (pair, c) and returns its base sum;
/// `thresholdBound` bounds the threshold sum over every d > c.
double SubsetSearch::computeTriple(int c, double &thresholdBound) {
  const double *wc = ws.magByColumn[c];
  const double *next = ws.suffixFirst[c + 1];
  double bound = 0;
  for (int r = 0; r < rows; ++r) {
    const double high = ws.pairHigh[r];
    const double top = maxOf(high, wc[r]);
    const double threshold =
        keepTwo ? maxOf(ws.pairLow[r], minOf(high, wc[r])) : top;
    ws.baseTerm[r] = top;
    ws.threshold[r] = threshold;
    bound += maxOf(threshold, next[r]);
  }
  thresholdBound = bound;
  return keepTwo ? sumBaseTerms(ws.baseTerm, rows) : 0.0;
}

double SubsetSearch::scoreOf(const uint8_t cols[4]) {
  computePair(cols[0], cols[1]);
  double unused;
  const double base = computeTriple(cols[2], unused);
  const double *wd = ws.magByColumn[cols[3]];
  double thresholdSum = 0;
  for (int r = 0; r < rows; ++r)
    thresholdSum += maxOf(wd[r], ws.threshold[r]);
  return base + thresholdSum;
}

/// Scores {prefix, d} for d in [start, start + Width); a fixed width lets the
/// compiler keep the accumulators in vector registers.
template <int Width>
void SubsetSearch::scan(int start, const uint8_t prefix[3], double base) {
  double sums[Width] = {};
  for (int r = 0; r < rows; ++r) {
    const double threshold = ws.threshold[r];
    const double *w = &ws.mag[r][start];
    for (int q = 0; q < Width; ++q)
      sums[q] += maxOf(w[q], threshold);
  }
  for (int q = 0; q < Width; ++q) {
    const int d = start + q;
    if (d <= prefix[2] || d >= m)
      continue;
    const uint8_t cols[4] = {prefix[0], prefix[1], prefix[2],
                             static_cast<uint8_t>(d)};
    consider(base + sums[q], cols);
  }
}

void SubsetSearch::run(uint8_t out[4]) {
  prepareColumns();
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
        // Chunks start 4-aligned and end by column 32, inside mag's rows.
        for (int start = (c + 1) & ~3; start < m;) {
          if (start + 4 < m) {
            scan<8>(start, prefix, base);
            start += 8;
          } else {
            scan<4>(start, prefix, base);
            start += 4;
          }
        }
      }
    }
  }
  for (int i = 0; i < 4; ++i)
    out[i] = best[i];
}

/// Ties go to the smaller position because the scan only replaces on a
/// strictly larger magnitude.
RowChoice chooseRow(const double *mag, const uint8_t subset[4], bool keepTwo) {
  double w[4];
  for (int i = 0; i < 4; ++i)
    w[i] = mag[subset[i]];
  int first = 0;
  for (int i = 1; i < 4; ++i)
    if (w[i] > w[first])
      first = i;
  int other = first == 0 ? 1 : 0;
  if (keepTwo)
    for (int i = other + 1; i < 4; ++i)
      if (i != first && w[i] > w[other])
        other = i;
  RowChoice choice;
  choice.slots[0] = static_cast<uint8_t>(first < other ? first : other);
  choice.slots[1] = static_cast<uint8_t>(first < other ? other : first);
  choice.zeroSlot = keepTwo ? -1 : (other < first ? 0 : 1);
  return choice;
}

} // namespace

void selectGroup(SearchWorkspace &ws) {
  SubsetSearch(ws).run(ws.subset);
  for (int r = 0; r < ws.rows; ++r)
    ws.choices[r] = chooseRow(ws.mag[r], ws.subset, ws.keepTwo);
}

} // namespace vnm::format::detail
