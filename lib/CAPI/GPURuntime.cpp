//===- GPURuntime.cpp - vnm C API: loading and launching GPU kernels ------===//
//
// The CUDA driver is opened with dlopen and its few entry points are
// declared here from their documented C signatures, so that this file builds
// without a CUDA toolkit and the library loads on hosts without a GPU.
//
//===----------------------------------------------------------------------===//

#include "vnm-c/GPURuntime.h"

#include "CAPIUtils.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

using namespace vnm::capi;

namespace {

// The driver API's handle and enum types, as its ABI defines them.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;

constexpr CUresult kSuccess = 0;
// CUjit_option values: the error log buffer and its size.
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
// CUfunction_attribute: the dynamic shared memory a launch may use.
constexpr int kFuncMaxDynamicSharedSizeBytes = 8;
// Without the attribute a kernel may use this much dynamic shared memory.
constexpr int64_t kDefaultDynamicSharedLimit = 48 * 1024;

/// The driver entry points vnm calls. The `_v2` names are the current ABI
/// of the calls that have one (the unsuffixed names are kept by the driver
/// for binaries built against old headers).
struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxPushCurrent)(CUcontext);
  CUresult (*ctxPopCurrent)(CUcontext *);
  CUresult (*moduleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                               void **);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*funcSetAttribute)(CUfunction, int, int);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*getErrorName)(CUresult, const char **);
  CUresult (*getErrorString)(CUresult, const char **);
};

/// Opens the driver once per process; `error` is empty on success.
struct DriverState {
  Driver driver{};
  std::string error;
};

template <typename Fn>
bool bind(void *handle, const char *symbol, Fn &slot, std::string &error) {
  void *address = dlsym(handle, symbol);
  if (!address) {
    error = std::string("the CUDA driver lacks ") + symbol;
    return false;
  }
  slot = reinterpret_cast<Fn>(address);
  return true;
}

DriverState openDriver() {
  DriverState state;
  const char *override = std::getenv("VNM_CUDA_DRIVER");
  const char *path = override && *override ? override : "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    state.error = std::string("cannot open the CUDA driver ") + path + ": " +
                  (reason ? reason : "unknown reason") +
                  " (is an NVIDIA GPU driver installed?)";
    return state;
  }
  Driver &d = state.driver;
  std::string &e = state.error;
  bool ok =
      bind(handle, "cuInit", d.init, e) &&
      bind(handle, "cuDeviceGet", d.deviceGet, e) &&
      bind(handle, "cuDevicePrimaryCtxRetain", d.primaryCtxRetain, e) &&
      bind(handle, "cuDevicePrimaryCtxRelease_v2", d.primaryCtxRelease, e) &&
      bind(handle, "cuCtxPushCurrent_v2", d.ctxPushCurrent, e) &&
      bind(handle, "cuCtxPopCurrent_v2", d.ctxPopCurrent, e) &&
      bind(handle, "cuModuleLoadDataEx", d.moduleLoadDataEx, e) &&
      bind(handle, "cuModuleGetFunction", d.moduleGetFunction, e) &&
      bind(handle, "cuModuleUnload", d.moduleUnload, e) &&
      bind(handle, "cuFuncSetAttribute", d.funcSetAttribute, e) &&
      bind(handle, "cuLaunchKernel", d.launchKernel, e) &&
      bind(handle, "cuGetErrorName", d.getErrorName, e) &&
      bind(handle, "cuGetErrorString", d.getErrorString, e);
  if (!ok)
    return state;
  if (CUresult result = d.init(0); result != kSuccess)
    state.error = "cuInit failed with CUDA error " + std::to_string(result);
  return state;
}

const DriverState &driverState() {
  static std::once_flag once;
  static DriverState state;
  std::call_once(once, [] { state = openDriver(); });
  return state;
}

std::string describe(const Driver &driver, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  driver.getErrorName(result, &name);
  driver.getErrorString(result, &text);
  std::string message = "CUDA error " + std::to_string(result);
  if (name)
    message += std::string(" ") + name;
  if (text)
    message += std::string(": ") + text;
  return message;
}

/// A loaded kernel: the primary context it lives in (retained for its
/// lifetime), its module and function, and the dynamic shared memory of
/// every launch.
struct Kernel {
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  unsigned dynamicShared = 0;
};

/// Makes `context` current for the scope and restores the caller's after.
class ContextScope {
public:
  ContextScope(const Driver &driver, CUcontext context) : driver(driver) {
    result = driver.ctxPushCurrent(context);
  }
  ~ContextScope() {
    if (result == kSuccess) {
      CUcontext popped = nullptr;
      driver.ctxPopCurrent(&popped);
    }
  }
  CUresult result;

private:
  const Driver &driver;
};

/// Loads the module and looks up the function of `kernel`, whose context
/// is retained; returns the failure's message, or an empty string.
std::string loadModule(const Driver &driver, Kernel &kernel, VnmStringRef image,
                       VnmStringRef name) {
  ContextScope scope(driver, kernel.context);
  if (scope.result != kSuccess)
    return "cannot make the primary context current: " +
           describe(driver, scope.result);
  // PTX must be NUL-terminated; a cubin is copied the same way.
  std::string data(image.data, image.length);
  std::string kernelName(name.data, name.length);
  char log[4096] = {};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
  if (CUresult r = driver.moduleLoadDataEx(&kernel.module, data.c_str(), 2,
                                           options, values);
      r != kSuccess) {
    kernel.module = nullptr;
    std::string message =
        "cannot load the kernel image: " + describe(driver, r);
    if (log[0])
      message += "\n" + std::string(log, strnlen(log, sizeof(log)));
    return message;
  }
  if (CUresult r = driver.moduleGetFunction(&kernel.function, kernel.module,
                                            kernelName.c_str());
      r != kSuccess)
    return "the kernel image has no kernel '" + kernelName +
           "': " + describe(driver, r);
  if (kernel.dynamicShared > kDefaultDynamicSharedLimit) {
    if (CUresult r = driver.funcSetAttribute(
            kernel.function, kFuncMaxDynamicSharedSizeBytes,
            static_cast<int>(kernel.dynamicShared));
        r != kSuccess)
      return "kernel '" + kernelName + "' cannot use " +
             std::to_string(kernel.dynamicShared) +
             " bytes of dynamic shared memory: " + describe(driver, r);
  }
  return {};
}

} // namespace

VnmStatus vnmGpuKernelLoad(int device, VnmStringRef image, VnmStringRef name,
                           int64_t dynamicSharedBytes, VnmGpuKernel *kernel) {
  if (!kernel)
    return errorStatus("vnmGpuKernelLoad: no result handle given");
  kernel->ptr = nullptr;
  if (!image.data || image.length == 0)
    return errorStatus("vnmGpuKernelLoad: the kernel image is empty");
  if (!name.data || name.length == 0)
    return errorStatus("vnmGpuKernelLoad: no kernel name given");
  if (dynamicSharedBytes < 0 || dynamicSharedBytes > (int64_t(1) << 30))
    return errorStatus("vnmGpuKernelLoad: dynamic shared memory of " +
                       std::to_string(dynamicSharedBytes) +
                       " bytes is out of range");
  const DriverState &state = driverState();
  if (!state.error.empty())
    return errorStatus(state.error);
  const Driver &driver = state.driver;

  auto owned = std::make_unique<Kernel>();
  owned->dynamicShared = static_cast<unsigned>(dynamicSharedBytes);
  if (CUresult r = driver.deviceGet(&owned->device, device); r != kSuccess)
    return errorStatus("no CUDA device " + std::to_string(device) + ": " +
                       describe(driver, r));
  if (CUresult r = driver.primaryCtxRetain(&owned->context, owned->device);
      r != kSuccess)
    return errorStatus("cannot retain the primary context of CUDA device " +
                       std::to_string(device) + ": " + describe(driver, r));
  std::string error = loadModule(driver, *owned, image, name);
  if (!error.empty()) {
    if (owned->module) {
      ContextScope scope(driver, owned->context);
      driver.moduleUnload(owned->module);
    }
    driver.primaryCtxRelease(owned->device);
    return errorStatus(std::move(error));
  }
  kernel->ptr = owned.release();
  return okStatus();
}

VnmStatus vnmGpuKernelLaunch(VnmGpuKernel kernel, const uint32_t grid[3],
                             const uint32_t block[3], void *stream,
                             void **params) {
  auto *loaded = static_cast<Kernel *>(kernel.ptr);
  if (!loaded)
    return errorStatus("vnmGpuKernelLaunch: no kernel given");
  if (!grid || !block)
    return errorStatus("vnmGpuKernelLaunch: no grid or block size given");
  for (int d = 0; d < 3; ++d)
    if (grid[d] == 0 || block[d] == 0)
      return errorStatus("vnmGpuKernelLaunch: a grid or block size is zero");
  const Driver &driver = driverState().driver;
  ContextScope scope(driver, loaded->context);
  if (scope.result != kSuccess)
    return errorStatus("cannot make the kernel's context current: " +
                       describe(driver, scope.result));
  if (CUresult r = driver.launchKernel(
          loaded->function, grid[0], grid[1], grid[2], block[0], block[1],
          block[2], loaded->dynamicShared, stream, params, nullptr);
      r != kSuccess)
    return errorStatus("the kernel launch failed: " + describe(driver, r));
  return okStatus();
}

void vnmGpuKernelDestroy(VnmGpuKernel kernel) {
  auto *loaded = static_cast<Kernel *>(kernel.ptr);
  if (!loaded)
    return;
  const Driver &driver = driverState().driver;
  {
    ContextScope scope(driver, loaded->context);
    driver.moduleUnload(loaded->module);
  }
  driver.primaryCtxRelease(loaded->device);
  delete loaded;
}
