//===- CAPIUtils.h - Helpers shared by the vnm C API ------------*- C++ -*-===//
//
// Conversions between the C API's value types and C++, and construction of
// the VnmStatus and VnmString results every entry point hands back.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CAPI_CAPIUTILS_H
#define VNM_LIB_CAPI_CAPIUTILS_H

#include "vnm-c/Support.h"

#include <string>
#include <string_view>

namespace vnm::capi {

inline std::string_view unwrap(VnmStringRef ref) {
  return std::string_view(ref.data, ref.length);
}

inline VnmStatus okStatus() { return VnmStatus{nullptr}; }

/// A failing status owning a copy of `message`.
VnmStatus errorStatus(std::string message);

/// A caller-owned copy of `text`, NUL-terminated.
VnmString makeString(std::string_view text);

} // namespace vnm::capi

#endif // VNM_LIB_CAPI_CAPIUTILS_H
