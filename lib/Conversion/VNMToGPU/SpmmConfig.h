//===- SpmmConfig.h - the kernel recipe of a vnm.storage.spmm ---*- C++ -*-===//
//
// Reads the kernel recipe of one vnm.storage.spmm on memrefs: its problem
// (types, format, epilogue, which way rhs is laid out) and its tiling (the
// op's vnm.config or the default), checked against what the kernels
// generate. vnm-lower-to-gpu builds kernels from it; vnm-fold-transposed-rhs
// asks it whether a kernel would read a transposed rhs.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_SPMMCONFIG_H
#define VNM_LIB_CONVERSION_VNMTOGPU_SPMMCONFIG_H

#include "SpmmTiling.h"

namespace vnm::kernel {

/// How a type prints (in diagnostics and launch contracts).
std::string typeName(mlir::Type type);

/// Whether `type` is a 2-D memref known to be K-contiguous: the transpose
/// of a token-major x[N][K] (strides [1, pitch]).
bool isKContiguous(mlir::Type type);

/// The kernel recipe of `op` with rhs of type `rhs` and result of type
/// `init` (null: the op's own), or failure after an error on the op that
/// says why no kernel reads it.
mlir::FailureOr<SpmmKernelConfig>
getSpmmKernelConfig(StorageSpmmOp op, mlir::MemRefType rhs = nullptr,
                    mlir::MemRefType init = nullptr);

/// The same question asked quietly (no diagnostic): what the folds of
/// transposed copies ask about the op as it would be.
mlir::FailureOr<SpmmKernelConfig>
getSpmmKernelConfigQuietly(StorageSpmmOp op, mlir::MemRefType rhs,
                           mlir::MemRefType init);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_SPMMCONFIG_H
