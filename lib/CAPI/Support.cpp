//===- Support.cpp - vnm C API: strings, status, version ------------------===//

#include "CAPIUtils.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace vnm::capi;

namespace {
/// What a failing VnmStatus points to. A struct rather than a bare
/// std::string so the status can carry more (an error code) later without
/// changing the C API.
struct StatusStorage {
  std::string message;
};
} // namespace

VnmStatus vnm::capi::errorStatus(std::string message) {
  return VnmStatus{new StatusStorage{std::move(message)}};
}

VnmString vnm::capi::makeString(std::string_view text) {
  // malloc rather than new[]: vnmStringDestroy must release what any entry
  // point allocated, and a C caller may not link libstdc++'s allocator.
  auto *data = static_cast<char *>(std::malloc(text.size() + 1));
  if (!data)
    return VnmString{nullptr, 0};
  if (!text.empty())
    std::memcpy(data, text.data(), text.size());
  data[text.size()] = '\0';
  return VnmString{data, text.size()};
}

int vnmGetCAPIVersion(void) { return VNM_CAPI_VERSION; }

VnmStringRef vnmStringRefCreateFromCString(const char *str) {
  return VnmStringRef{str, str ? std::strlen(str) : 0};
}

void vnmStringDestroy(VnmString string) { std::free(string.data); }

bool vnmStatusIsOk(VnmStatus status) { return !status.ptr; }

VnmStringRef vnmStatusGetMessage(VnmStatus status) {
  if (!status.ptr)
    return VnmStringRef{"", 0};
  const std::string &message =
      static_cast<StatusStorage *>(status.ptr)->message;
  return VnmStringRef{message.c_str(), message.size()};
}

void vnmStatusDestroy(VnmStatus status) {
  delete static_cast<StatusStorage *>(status.ptr);
}
