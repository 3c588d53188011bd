//===- ArgumentChecks.cpp -------------------------------------------------===//

#include "ArgumentChecks.h"

#include <string>

namespace vnm::format::detail {

Status checkBuffer(const void *pointer, int64_t size, const char *name) {
  if (!pointer && size > 0)
    return Status::error(std::string(name) + " is null but must hold " +
                         std::to_string(size) + " elements");
  return Status::success();
}

} // namespace vnm::format::detail
