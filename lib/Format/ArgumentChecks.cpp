//===- ArgumentChecks.cpp -------------------------------------------------===//

#include "ArgumentChecks.h"

#include <string>

namespace vnm::format::detail {

Status checkBuffers(std::initializer_list<BufferArgument> buffers) {
  for (const BufferArgument &buffer : buffers)
    if (!buffer.pointer && buffer.size > 0)
      return Status::error(std::string(buffer.name) +
                           " is null but must hold " +
                           std::to_string(buffer.size) + " elements");
  return Status::success();
}

} // namespace vnm::format::detail
