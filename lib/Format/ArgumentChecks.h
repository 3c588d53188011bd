//===- ArgumentChecks.h - Validation shared by the entry points -*- C++ -*-===//

#ifndef VNM_LIB_FORMAT_ARGUMENTCHECKS_H
#define VNM_LIB_FORMAT_ARGUMENTCHECKS_H

#include "vnm/Format/Status.h"

#include <cstdint>

namespace vnm::format::detail {

/// Null is accepted only for an empty buffer, so empty matrices need no
/// dummy allocations.
Status checkBuffer(const void *pointer, int64_t size, const char *name);

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_ARGUMENTCHECKS_H
