//===- ReferencePrune.cpp -------------------------------------------------===//

#include "ReferencePrune.h"

#include <algorithm>

namespace vnm::format::test {

namespace {

double magnitudeAt(const Buffer &dense, int64_t cols, int64_t row,
                   int64_t col) {
  if (col >= cols)
    return 0;
  return referenceMagnitude(dense.type, dense.bits(row * cols + col));
}

/// Positions 0..3 ordered by magnitude descending, position ascending.
std::array<int, 4> rankPositions(const std::array<double, 4> &w) {
  std::array<int, 4> order = {0, 1, 2, 3};
  std::sort(order.begin(), order.end(),
            [&](int x, int y) { return w[x] != w[y] ? w[x] > w[y] : x < y; });
  return order;
}

} // namespace

double referenceScore(const Encoding &encoding, const Buffer &dense,
                      int64_t rows, int64_t cols, int64_t b, int64_t g,
                      const std::array<int, 4> &subset) {
  double score = 0;
  for (int64_t row = b * encoding.v; row < std::min(rows, (b + 1) * encoding.v);
       ++row) {
    std::array<double, 4> w;
    for (int i = 0; i < 4; ++i)
      w[i] = magnitudeAt(dense, cols, row, g * encoding.m + subset[i]);
    std::array<double, 4> sorted = w;
    std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    score += encoding.n == 2 ? sorted[0] + sorted[1] : sorted[0];
  }
  return score;
}

ReferenceResult referencePrune(const Encoding &encoding, const Buffer &dense,
                               int64_t rows, int64_t cols) {
  const int64_t m = encoding.m;
  const int64_t groups = (cols + m - 1) / m;
  const int64_t blocks = (rows + encoding.v - 1) / encoding.v;
  ReferenceResult result;
  result.pruned = Buffer(dense.type, rows * cols);
  result.colidx.assign(static_cast<size_t>(blocks * groups * 4), 0);
  for (int64_t b = 0; b < blocks; ++b) {
    for (int64_t g = 0; g < groups; ++g) {
      std::array<int, 4> best = {0, 1, 2, 3};
      double bestScore = -1;
      std::array<int, 4> s;
      for (s[0] = 0; s[0] < m; ++s[0])
        for (s[1] = s[0] + 1; s[1] < m; ++s[1])
          for (s[2] = s[1] + 1; s[2] < m; ++s[2])
            for (s[3] = s[2] + 1; s[3] < m; ++s[3]) {
              const double score =
                  referenceScore(encoding, dense, rows, cols, b, g, s);
              if (score > bestScore) {
                bestScore = score;
                best = s;
              }
            }
      for (int i = 0; i < 4; ++i)
        result.colidx[static_cast<size_t>((b * groups + g) * 4 + i)] =
            static_cast<uint8_t>(best[i]);
      for (int64_t row = b * encoding.v;
           row < std::min(rows, (b + 1) * encoding.v); ++row) {
        std::array<double, 4> w;
        for (int i = 0; i < 4; ++i)
          w[i] = magnitudeAt(dense, cols, row, g * m + best[i]);
        const std::array<int, 4> order = rankPositions(w);
        for (int k = 0; k < encoding.n; ++k) {
          const int64_t col = g * m + best[order[k]];
          if (col < cols)
            result.pruned.setBits(row * cols + col,
                                  dense.bits(row * cols + col));
        }
      }
    }
  }
  return result;
}

Buffer referenceDecompress(const Encoding &encoding, ElementType type,
                           const Buffer &values,
                           const std::vector<uint8_t> &colidx,
                           const std::vector<uint8_t> &meta, int64_t rows,
                           int64_t cols) {
  const int64_t groups = (cols + encoding.m - 1) / encoding.m;
  Buffer dense(type, rows * cols);
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t g = 0; g < groups; ++g)
      for (int p = 0; p < 2; ++p) {
        const int64_t slot = row * 2 * groups + 2 * g + p;
        const int64_t col =
            g * encoding.m +
            colidx[static_cast<size_t>(((row / encoding.v) * groups + g) * 4 +
                                       meta[static_cast<size_t>(slot)])];
        if (col < cols)
          dense.setBits(row * cols + col, values.bits(slot));
      }
  return dense;
}

} // namespace vnm::format::test
