//===- SpmmTileProgram.h - the tile program of an mma.sp spmm ---*- C++ -*-===//
//
// Builds the vnm_gpu tile program of one spmm kernel recipe: a plain K loop
// over k-tile pairs (column-locs, gather or dense copy into ring slot
// p % S, A fragments, wait, two B fragment loads and sparse MMAs), then the
// epilogue. The loop is correct as it stands; vnm-pipeline-kernels
// overlaps its steps.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_SPMMTILEPROGRAM_H
#define VNM_LIB_CONVERSION_VNMTOGPU_SPMMTILEPROGRAM_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include "SpmmTiling.h"

namespace vnm::kernel {

/// Builds the kernel `name` into `module`. Its arguments, in order, are the
/// fragment values, the fragment metadata words, colidx (logical, read as
/// i32 words), B, Y, bias (unused unless the op has one) as flat memrefs,
/// then the i32 N, ldb and ldc (row pitches in elements); each carries its
/// name as `vnm_gpu.param`.
mlir::gpu::GPUFuncOp buildSpmmTileProgram(mlir::OpBuilder &builder,
                                          mlir::gpu::GPUModuleOp module,
                                          llvm::StringRef name,
                                          const SpmmKernelConfig &config);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_SPMMTILEPROGRAM_H
