//===- CPURuntime.h - entry points called by CPU-lowered vnm code -*- C++ -*-=//
//
// `vnm-lower-to-loops` turns pruning and compression into calls of these
// functions, and checks storage arrays with them before reading them, so the
// format library stays the one implementation of the format. They follow
// MLIR's C interface convention (`_mlir_ciface_` + name, memrefs passed as
// descriptor pointers). A failed check prints the format library's message
// and exits with status 1: generated code has no other error channel, and
// continuing would read out of bounds or compute a wrong answer.
//
// Element types: f16 and bf16 as their 16-bit patterns, f32, i8, and i4 as
// one int8 per element (LLVM stores an i4 in a byte).
//
//===----------------------------------------------------------------------===//

#ifndef VNM_RUNTIME_CPURUNTIME_H
#define VNM_RUNTIME_CPURUNTIME_H

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cstdint>

#define VNM_RUNTIME_EXPORT extern "C" __attribute__((visibility("default")))

#define VNM_RUNTIME_DECLARE(SUFFIX, T)                                         \
  VNM_RUNTIME_EXPORT void _mlir_ciface_vnm_rt_prune_##SUFFIX(                  \
      StridedMemRefType<T, 2> *input, StridedMemRefType<T, 2> *output,         \
      int64_t v, int64_t n, int64_t m);                                        \
  VNM_RUNTIME_EXPORT void _mlir_ciface_vnm_rt_compress_##SUFFIX(               \
      StridedMemRefType<T, 2> *input, StridedMemRefType<T, 2> *values,         \
      StridedMemRefType<int8_t, 3> *colidx,                                    \
      StridedMemRefType<int8_t, 2> *meta, int64_t v, int64_t n, int64_t m);    \
  VNM_RUNTIME_EXPORT void _mlir_ciface_vnm_rt_verify_storage_##SUFFIX(         \
      StridedMemRefType<T, 2> *values, StridedMemRefType<int8_t, 3> *colidx,   \
      StridedMemRefType<int8_t, 2> *meta, int64_t rows, int64_t cols,          \
      int64_t v, int64_t n, int64_t m);

VNM_RUNTIME_DECLARE(f16, uint16_t)
VNM_RUNTIME_DECLARE(bf16, uint16_t)
VNM_RUNTIME_DECLARE(f32, float)
VNM_RUNTIME_DECLARE(i8, int8_t)
VNM_RUNTIME_DECLARE(i4, int8_t)
#undef VNM_RUNTIME_DECLARE

/// Checks the column-loc and metadata arrays alone (a pattern whose values
/// are not read, as by sddmm).
VNM_RUNTIME_EXPORT void _mlir_ciface_vnm_rt_verify_structure(
    StridedMemRefType<int8_t, 3> *colidx, StridedMemRefType<int8_t, 2> *meta,
    int64_t rows, int64_t cols, int64_t v, int64_t n, int64_t m);

/// A failed run-time check of generated code (vnm-lower-runtime-checks):
/// prints `message` (not NUL-terminated) to stderr and exits with status 1.
VNM_RUNTIME_EXPORT void
_mlir_ciface_vnm_rt_check_failed(StridedMemRefType<int8_t, 1> *message);

#endif // VNM_RUNTIME_CPURUNTIME_H
