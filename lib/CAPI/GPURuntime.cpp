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
  // A kernel with static shared memory too (an A ring next to B's ring in
  // dynamic shared memory) needs the attribute below the default limit of
  // its dynamic part: the limit counts both.
  if (kernel.dynamicShared > 0) {
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

namespace {

// CUtensorMapDataType, CUtensorMapInterleave, CUtensorMapSwizzle,
// CUtensorMapL2promotion and CUtensorMapFloatOOBfill values.
constexpr int kTensorMapUint8 = 0, kTensorMapUint16 = 1, kTensorMapUint32 = 2;
constexpr int kInterleaveNone = 0;
constexpr int kL2Promotion256B = 3;
constexpr int kOobFillZeros = 0;

using EncodeTiled = CUresult (*)(void *, int, uint32_t, void *,
                                 const uint64_t *, const uint64_t *,
                                 const uint32_t *, const uint32_t *, int, int,
                                 int, int);

/// cuTensorMapEncodeTiled (CUDA 12 and later drivers), looked up at its
/// first use so that kernels without tensor maps load on any driver.
EncodeTiled encodeTiled(std::string &error) {
  static std::once_flag once;
  static EncodeTiled function = nullptr;
  std::call_once(once, [] {
    const char *override = std::getenv("VNM_CUDA_DRIVER");
    const char *path = override && *override ? override : "libcuda.so.1";
    if (void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))
      function = reinterpret_cast<EncodeTiled>(
          dlsym(handle, "cuTensorMapEncodeTiled"));
  });
  if (!function)
    error = "the CUDA driver lacks cuTensorMapEncodeTiled (a CUDA 12 or "
            "later driver makes tensor maps)";
  return function;
}

/// Why the driver would refuse the tensor map, or an empty string.
std::string checkTensorMap(const void *address, int64_t elementBytes,
                           int64_t rows, int64_t cols, int64_t ld,
                           int64_t boxRows, int64_t boxCols,
                           int64_t swizzleBytes) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4)
    return "elements of " + std::to_string(elementBytes) +
           " bytes (1, 2 or 4 are supported)";
  if (!address || reinterpret_cast<uintptr_t>(address) % 16 != 0)
    return "the matrix's address must be non-null and 16-byte aligned";
  constexpr int64_t kMaxDim = int64_t(1) << 32;
  if (rows < 1 || cols < 1 || rows > kMaxDim || cols > kMaxDim)
    return "a " + std::to_string(rows) + " x " + std::to_string(cols) +
           " matrix (each dimension must be in [1, 2^32])";
  if (ld < cols || (ld * elementBytes) % 16 != 0 ||
      ld * elementBytes >= (int64_t(1) << 40))
    return "a row pitch of " + std::to_string(ld) +
           " elements (at least the columns, " + std::to_string(cols) +
           ", and a multiple of 16 bytes)";
  if (swizzleBytes != 0 && swizzleBytes != 32 && swizzleBytes != 64 &&
      swizzleBytes != 128)
    return "a " + std::to_string(swizzleBytes) +
           "-byte swizzle (0, 32, 64 or 128)";
  if (boxRows < 1 || boxRows > 256 || boxCols < 1 || boxCols > 256 ||
      (boxCols * elementBytes) % 16 != 0 ||
      (swizzleBytes && boxCols * elementBytes > swizzleBytes))
    return "a box of " + std::to_string(boxRows) + " x " +
           std::to_string(boxCols) +
           " elements (at most 256 each, rows of a multiple of 16 bytes and "
           "at most the swizzle's width)";
  return {};
}

} // namespace

VnmStatus vnmGpuTensorMapEncode(const void *address, int64_t elementBytes,
                                int64_t rows, int64_t cols, int64_t ld,
                                int64_t boxRows, int64_t boxCols,
                                int64_t swizzleBytes, void *map) {
  if (!map)
    return errorStatus("vnmGpuTensorMapEncode: no result buffer given");
  std::string invalid = checkTensorMap(address, elementBytes, rows, cols, ld,
                                       boxRows, boxCols, swizzleBytes);
  if (!invalid.empty())
    return errorStatus("vnmGpuTensorMapEncode: " + invalid);
  const DriverState &state = driverState();
  if (!state.error.empty())
    return errorStatus(state.error);
  std::string error;
  EncodeTiled encode = encodeTiled(error);
  if (!encode)
    return errorStatus(std::move(error));
  int dataType = elementBytes == 1   ? kTensorMapUint8
                 : elementBytes == 2 ? kTensorMapUint16
                                     : kTensorMapUint32;
  int swizzle = swizzleBytes == 0    ? 0
                : swizzleBytes == 32 ? 1
                : swizzleBytes == 64 ? 2
                                     : 3;
  // Innermost dimension first: columns, then rows.
  uint64_t dims[2] = {uint64_t(cols), uint64_t(rows)};
  uint64_t strides[1] = {uint64_t(ld * elementBytes)};
  uint32_t box[2] = {uint32_t(boxCols), uint32_t(boxRows)};
  uint32_t elementStrides[2] = {1, 1};
  alignas(64) unsigned char encoded[VNM_GPU_TENSOR_MAP_BYTES] = {};
  if (CUresult r = encode(encoded, dataType, 2, const_cast<void *>(address),
                          dims, strides, box, elementStrides, kInterleaveNone,
                          swizzle, kL2Promotion256B, kOobFillZeros);
      r != kSuccess)
    return errorStatus("cannot make the tensor map: " +
                       describe(state.driver, r));
  std::memcpy(map, encoded, sizeof(encoded));
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
