//===- ReferencePrune.h - Brute-force pruning for the tests -----*- C++ -*-===//
//
// A deliberately naive implementation of the pruning rule: every subset is
// scored from scratch by sorting each row, with no shared state with the
// library's search.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_UNITTESTS_FORMAT_REFERENCEPRUNE_H
#define VNM_UNITTESTS_FORMAT_REFERENCEPRUNE_H

#include "TestData.h"

#include <array>

namespace vnm::format::test {

struct ReferenceResult {
  Buffer pruned;
  /// colidx[B][G][4] of the chosen subsets.
  std::vector<uint8_t> colidx;
};

/// Score of `subset` (offsets in group g) for the rows of block b.
double referenceScore(const Encoding &encoding, const Buffer &dense,
                      int64_t rows, int64_t cols, int64_t b, int64_t g,
                      const std::array<int, 4> &subset);

ReferenceResult referencePrune(const Encoding &encoding, const Buffer &dense,
                               int64_t rows, int64_t cols);

/// Dense matrix rebuilt from logical storage by the definition.
Buffer referenceDecompress(const Encoding &encoding, ElementType type,
                           const Buffer &values,
                           const std::vector<uint8_t> &colidx,
                           const std::vector<uint8_t> &meta, int64_t rows,
                           int64_t cols);

} // namespace vnm::format::test

#endif // VNM_UNITTESTS_FORMAT_REFERENCEPRUNE_H
