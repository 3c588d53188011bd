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

/// Unloads the kernel's module; a null kernel is a no-op.
VNM_CAPI_EXPORTED void vnmGpuKernelDestroy(VnmGpuKernel kernel);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_GPURUNTIME_H
