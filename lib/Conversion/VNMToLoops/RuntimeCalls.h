//===- RuntimeCalls.h - calls into the vnm CPU runtime ----------*- C++ -*-===//
//
// Declares (once per module) and calls the functions of
// include/vnm/Runtime/CPURuntime.h.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOLOOPS_RUNTIMECALLS_H
#define VNM_LIB_CONVERSION_VNMTOLOOPS_RUNTIMECALLS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm::loops {

/// Name suffix of the runtime entry points for an element type ("f16", ...).
llvm::StringRef getRuntimeSuffix(mlir::Type elementType);

/// Calls `vnm_rt_<name>` with memref arguments (cast to fully dynamic
/// strided layouts) followed by i64 scalars, declaring the function in
/// `module` on first use.
void callRuntime(mlir::OpBuilder &builder, mlir::Location loc,
                 mlir::ModuleOp module, llvm::StringRef name,
                 mlir::ValueRange memrefs, mlir::ValueRange scalars);

/// The (v, n, m) of an encoding as i64 constants.
llvm::SmallVector<mlir::Value, 3> getEncodingScalars(mlir::OpBuilder &builder,
                                                     mlir::Location loc,
                                                     EncodingAttr encoding);

/// A dimension of a memref as an i64.
mlir::Value getDimAsI64(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value memref, int64_t dim);

} // namespace vnm::loops

#endif // VNM_LIB_CONVERSION_VNMTOLOOPS_RUNTIMECALLS_H
