//===- LaunchContract.h - what a host needs to launch a kernel --*- C++ -*-===//
//
// A kernel's launch contract is a dictionary on the module
// (`vnm.launch_contracts`) that vnm-dump-kernels writes as JSON: parameter
// names and kinds, block, grid and shared memory, read off the kernel's
// signature and tile program, plus the problem it was specialized on.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_LAUNCHCONTRACT_H
#define VNM_LIB_CONVERSION_VNMTOGPU_LAUNCHCONTRACT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace vnm::kernel {

/// How the host sizes the grid: x = ceildiv(n, gridXDivisor), y = gridY.
struct LaunchGrid {
  int64_t gridXDivisor = 1;
  int64_t gridY = 1;
};

/// The contract of `kernel` (a tile program in gpu.module `moduleName`)
/// generated for an op named `opName`; `problem` and `requirements` are
/// the op's own fields.
mlir::DictionaryAttr
buildLaunchContract(mlir::gpu::GPUFuncOp kernel, llvm::StringRef moduleName,
                    llvm::StringRef opName, const LaunchGrid &grid,
                    llvm::ArrayRef<mlir::NamedAttribute> problem,
                    llvm::StringRef requirements);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_LAUNCHCONTRACT_H
