//===- ArgumentChecks.h - Validation shared by the entry points -*- C++ -*-===//

#ifndef VNM_LIB_FORMAT_ARGUMENTCHECKS_H
#define VNM_LIB_FORMAT_ARGUMENTCHECKS_H

#include "vnm/Format/Status.h"

#include <cstdint>
#include <initializer_list>

namespace vnm::format::detail {

/// A caller's buffer: where it is, how many elements it must hold, and the
/// argument's name for the message.
struct BufferArgument {
  const void *pointer;
  int64_t size;
  const char *name;
};

/// Checks `buffers` in order and returns the first failure. Null is
/// accepted only for an empty buffer, so empty matrices need no dummy
/// allocations.
Status checkBuffers(std::initializer_list<BufferArgument> buffers);

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_ARGUMENTCHECKS_H
