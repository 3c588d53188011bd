//===- LogicalStorage.h - Framework-facing V:N:M storage --------*- C++ -*-===//
//
// Logical storage of an R x K matrix (see docs/format.md):
//   values[R][2G]    element type; kept value p of row r, group g at 2g + p
//   colidx[B][G][4]  uint8; strictly ascending column offsets in 0..M-1
//   meta[R][2G]      uint8; position 0..3 of each kept value inside its
//                    group's 4 selected columns, strictly ascending per pair
// Input and output buffers must not overlap.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_LOGICALSTORAGE_H
#define VNM_FORMAT_LOGICALSTORAGE_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Encoding.h"
#include "vnm/Format/NonFinite.h"
#include "vnm/Format/Status.h"

#include <cstdint>

namespace vnm::format {

/// Prunes `dense` (row-major R x K) with the V:N:M rule and writes the
/// logical storage. Outputs are unspecified on error. A NaN or infinite
/// entry is an error unless `nonFinite` keeps it.
Status compress(const Encoding &encoding, ElementType type, const void *dense,
                int64_t rows, int64_t cols, void *values, uint8_t *colidx,
                uint8_t *meta, NonFinite nonFinite = NonFinite::Reject);

/// Rebuilds the row-major R x K matrix; positions not kept are +0. Runs
/// verifyStorage first and writes nothing if it fails.
Status decompress(const Encoding &encoding, ElementType type,
                  const void *values, const uint8_t *colidx,
                  const uint8_t *meta, int64_t rows, int64_t cols, void *dense);

/// Checks that the arrays form a valid storage; the message of the first
/// violation names the array and index. Checked: colidx entries < M and
/// strictly ascending; meta entries <= 3 and each pair strictly ascending;
/// values that map to padding columns (>= K) are numeric zero (+0 or -0);
/// I4 values within [-8, 7]; with n = 1, at most one value of a pair nonzero.
Status verifyStorage(const Encoding &encoding, ElementType type,
                     const void *values, const uint8_t *colidx,
                     const uint8_t *meta, int64_t rows, int64_t cols);

} // namespace vnm::format

#endif // VNM_FORMAT_LOGICALSTORAGE_H
