//===- FiniteCheck.h - Refusing NaN and infinite weights --------*- C++ -*-===//

#ifndef VNM_LIB_FORMAT_FINITECHECK_H
#define VNM_LIB_FORMAT_FINITECHECK_H

#include "ElementTraits.h"

#include "vnm/Format/NonFinite.h"
#include "vnm/Format/Status.h"

#include <string>

namespace vnm::format::detail {

/// The first NaN or infinity of the row-major R x K `dense`, as an error,
/// unless `policy` keeps them.
template <typename Traits>
Status checkFinite(const void *dense, int64_t rows, int64_t cols,
                   NonFinite policy) {
  if (policy == NonFinite::Keep)
    return Status::success();
  using Bits = typename Traits::Bits;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      Bits bits = loadElement<Bits>(dense, r * cols + c);
      if (!Traits::isFinite(bits))
        return Status::error(
            "dense[" + std::to_string(r) + "][" + std::to_string(c) +
            "] = " + Traits::describe(bits) +
            " is NaN or infinite; pruning refuses non-finite weights unless "
            "asked to keep them (NonFinite::Keep, allow_nonfinite)");
    }
  return Status::success();
}

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_FINITECHECK_H
