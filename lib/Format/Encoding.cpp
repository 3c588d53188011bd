//===- Encoding.cpp -------------------------------------------------------===//

#include "vnm/Format/Encoding.h"

#include <string>

namespace vnm::format {

Status validateEncoding(const Encoding &encoding) {
  const int64_t v = encoding.v;
  if (v != 16 && v != 32 && v != 64 && v != 128 && v != 256)
    return Status::error("invalid encoding: v must be one of 16, 32, 64, "
                         "128, 256 (got " +
                         std::to_string(v) + ")");
  if (encoding.n != 1 && encoding.n != 2)
    return Status::error("invalid encoding: n must be 1 or 2 (got " +
                         std::to_string(encoding.n) + ")");
  if (encoding.m < kMinM || encoding.m > kMaxM)
    return Status::error("invalid encoding: m must be in [" +
                         std::to_string(kMinM) + ", " + std::to_string(kMaxM) +
                         "] (got " + std::to_string(encoding.m) + ")");
  return Status::success();
}

} // namespace vnm::format
