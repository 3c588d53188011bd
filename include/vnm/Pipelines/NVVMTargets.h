//===- NVVMTargets.h - the GPU targets vnm compiles for ---------*- C++ -*-===//
//
// A closed list: a chip or PTX version outside it is refused with a message
// before anything reaches LLVM's NVPTX backend, which otherwise aborts the
// process (an unselectable intrinsic, a PTX version the chip needs) or
// crashes (an empty chip). docs/pipeline.md ("Supported targets") states the
// rule.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_PIPELINES_NVVMTARGETS_H
#define VNM_PIPELINES_NVVMTARGETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace vnm {

/// A chip the kernels are generated and tested for, and the oldest PTX
/// version (major * 10 + minor) its kernels can be written in.
struct NVVMChip {
  llvm::StringLiteral name;
  unsigned minPTX;
};

/// The supported chips, oldest first.
llvm::ArrayRef<NVVMChip> getSupportedNVVMChips();

/// The PTX versions LLVM 22's NVPTX backend writes that the kernels can use,
/// oldest first, as `features` values (`+ptx85`).
llvm::ArrayRef<llvm::StringLiteral> getSupportedPTXFeatures();

/// Why `chip` with `features` (the nvvm-attach-target options) cannot be
/// compiled for, naming the supported chips or features; std::nullopt when
/// it can.
std::optional<std::string> checkNVVMTarget(llvm::StringRef chip,
                                           llvm::StringRef features);

} // namespace vnm

#endif // VNM_PIPELINES_NVVMTARGETS_H
