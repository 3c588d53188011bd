/*===- GPURuntime.h - vnm C API: loading and launching GPU kernels -*- C
-*-===*\
|*                                                                            *|
|* Launches the kernels vnm generates (PTX or cubin with a launch contract,   *|
|* docs/gpu.md) through the CUDA driver API, on a stream the caller owns     *|
|* (PyTorch's current stream, a JAX stream). No CUDA toolkit is needed to     *|
|* build or use it: the driver (libcuda.so.1) is opened when the first       *|
|* kernel is loaded, so a host without a GPU loads the library and gets a     *|
|* clear error only when it asks for a kernel.                                *|
|*                                                                            *|
|* Kernels are loaded into the device's primary context, the one PyTorch,    *|
|* CuPy and JAX use, which is made current around each call and restored     *|
|* after it. A launch only enqueues work, so it may be captured in a CUDA    *|
|* graph.                                                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef VNM_C_GPURUNTIME_H
#define VNM_C_GPURUNTIME_H

#include "vnm-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One kernel function of a loaded module; owns the module.
typedef struct VnmGpuKernel {
  void *ptr;
} VnmGpuKernel;

/// Loads `image` (PTX text or a cubin) on device `device` and looks up the
/// kernel `name`. `dynamicSharedBytes` is the dynamic shared memory the
/// kernel's contract asks for; above 48 KiB the kernel is allowed that much
/// (a kernel may only use more after the host allows it). On failure the
/// status names the step and the driver's error. The driver is
/// `$VNM_CUDA_DRIVER` when set (a path), otherwise libcuda.so.1.
VNM_CAPI_EXPORTED VnmStatus vnmGpuKernelLoad(int device, VnmStringRef image,
                                             VnmStringRef name,
                                             int64_t dynamicSharedBytes,
                                             VnmGpuKernel *kernel);

/// Enqueues one launch on `stream` (a CUstream; null is the legacy default
/// stream) with the grid and block sizes given and the loaded dynamic
/// shared memory. `params` holds one pointer per kernel parameter, each
/// pointing to the parameter's value, in the kernel's order (as
/// cuLaunchKernel takes them). Errors of the launch itself are reported;
/// errors of the running kernel surface at the stream's next
/// synchronization, as for any CUDA launch.
VNM_CAPI_EXPORTED VnmStatus vnmGpuKernelLaunch(VnmGpuKernel kernel,
                                               const uint32_t grid[3],
                                               const uint32_t block[3],
                                               void *stream, void **params);

/// Bytes of a tensor map (CUtensorMap), which a kernel takes by value for
/// each of its contract's `tensor_maps` parameters.
#define VNM_GPU_TENSOR_MAP_BYTES 128

/// Encodes into `map` (VNM_GPU_TENSOR_MAP_BYTES bytes, any alignment) the
/// tensor map of a row-major matrix at device address `address`: `rows` x
/// `cols` elements of `elementBytes` bytes, rows `ld` elements apart, read
/// in boxes of `boxRows` x `boxCols` elements written to shared memory with
/// a `swizzleBytes` swizzle (0, 32, 64 or 128); elements outside the
/// matrix read as zeros. The contract's `tensor_maps` entry of a parameter
/// gives every number but the address. The bounds the driver imposes
/// (16-byte aligned address and pitch, boxes of at most 256 rows and of
/// the swizzle's width) are checked first and named when violated.
VNM_CAPI_EXPORTED VnmStatus
vnmGpuTensorMapEncode(const void *address, int64_t elementBytes, int64_t rows,
                      int64_t cols, int64_t ld, int64_t boxRows,
                      int64_t boxCols, int64_t swizzleBytes, void *map);

/// Unloads the kernel's module; a null kernel is a no-op.
VNM_CAPI_EXPORTED void vnmGpuKernelDestroy(VnmGpuKernel kernel);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_GPURUNTIME_H
