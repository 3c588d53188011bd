//===- Status.h - Result of a format operation ------------------*- C++ -*-===//
//
// The format library is called through a C API and Python, where neither
// exceptions nor asserts can report a bad argument, so every fallible entry
// point returns a Status carrying a human-readable message.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_FORMAT_STATUS_H
#define VNM_FORMAT_STATUS_H

#include <string>
#include <utility>

namespace vnm::format {

class [[nodiscard]] Status {
public:
  static Status success() { return Status(true, std::string()); }
  static Status error(std::string message) {
    return Status(false, std::move(message));
  }

  bool ok() const { return isOk; }
  /// Empty for a success.
  const std::string &message() const { return text; }

private:
  Status(bool isOk, std::string text) : isOk(isOk), text(std::move(text)) {}

  bool isOk;
  std::string text;
};

} // namespace vnm::format

#endif // VNM_FORMAT_STATUS_H
