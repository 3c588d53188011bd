//===- Prune.h - Dense-to-dense V:N:M pruning -------------------*- C++ -*-===//

#ifndef VNM_FORMAT_PRUNE_H
#define VNM_FORMAT_PRUNE_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Encoding.h"
#include "vnm/Format/NonFinite.h"
#include "vnm/Format/Status.h"

#include <cstdint>

namespace vnm::format {

/// Applies the V:N:M pruning rule (docs/format.md) to the row-major R x K
/// matrix `dense` and writes the result, also R x K row-major, to
/// `prunedDense`: kept entries keep their exact bits, dropped ones become +0.
/// The two pointers may be equal (in-place) but must not otherwise overlap.
/// On error `prunedDense` is left untouched. A NaN or infinite entry is an
/// error unless `nonFinite` keeps it.
Status prune(const Encoding &encoding, ElementType type, const void *dense,
             int64_t rows, int64_t cols, void *prunedDense,
             NonFinite nonFinite = NonFinite::Reject);

} // namespace vnm::format

#endif // VNM_FORMAT_PRUNE_H
