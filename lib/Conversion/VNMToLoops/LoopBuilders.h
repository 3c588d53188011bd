//===- LoopBuilders.h - loop nests of the loop lowering ---------*- C++ -*-===//
//
// The small builders every storage-op lowering writes its loop nests with.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOLOOPS_LOOPBUILDERS_H
#define VNM_LIB_CONVERSION_VNMTOLOOPS_LOOPBUILDERS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace vnm::loops {

mlir::Value indexConstant(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t value);

/// Size of dimension `d` of a memref.
mlir::Value dim(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memref,
                int64_t d);

/// Stops the program with `message` unless `x == y` at run time. Static
/// sizes were checked by the verifier; this covers dynamic ones.
void assertSameSize(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                    mlir::Value y, llvm::StringRef message);

using LoopBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &, mlir::Location, mlir::Value, mlir::ValueRange)>;

/// Builds `for (iv = lower; iv < upper; ++iv)` carrying `inits`; `body`
/// returns the values to yield.
mlir::scf::ForOp buildLoop(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value lower, mlir::Value upper,
                           mlir::ValueRange inits, LoopBody body);

/// The same from 0.
mlir::scf::ForOp buildLoop(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value upper, mlir::ValueRange inits,
                           LoopBody body);

/// Loops without carried values, iv in [lower, upper).
void forEach(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value lower,
    mlir::Value upper,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::Value)>
        body);

/// The same from 0.
void forEach(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value upper,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::Value)>
        body);

} // namespace vnm::loops

#endif // VNM_LIB_CONVERSION_VNMTOLOOPS_LOOPBUILDERS_H
