//===- FakeCudaDriver.cpp - a CUDA driver stand-in for the launcher tests -===//
//
// Exports the driver entry points the GPU kernel launcher (lib/CAPI/
// GPURuntime.cpp) opens, so that the launcher and the Python layers above it
// are tested on machines without a GPU (VNM_CUDA_DRIVER names this
// library). A launch runs nothing: it records its configuration and reads
// each parameter's value with the size the PTX entry declares, which the
// tests read back through the fakeCuda* functions.
//
// Loading accepts PTX text only (an image holding ".entry"); anything else
// fails as the driver does, with an error log.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidValue = 1;
constexpr int kInvalidDevice = 101;
constexpr int kInvalidImage = 200;
constexpr int kInvalidContext = 201;
constexpr int kNotFound = 500;

struct Entry {
  std::vector<int> paramBytes;
};

struct Module {
  std::map<std::string, Entry> entries;
};

struct Launch {
  uint32_t grid[3] = {};
  uint32_t block[3] = {};
  uint32_t shared = 0;
  void *stream = nullptr;
  std::vector<uint64_t> params;
};

struct State {
  std::mutex mutex;
  int retained = 0;
  int contextDepth = 0;
  int modules = 0;
  int launches = 0;
  int maxDynamicShared = 0;
  Launch last;
};

State &state() {
  static State s;
  return s;
}

// The context handle the fake hands out; any non-null pointer would do.
int primaryContext;

/// The entries of a PTX module and the byte size of each parameter.
Module parsePtx(const std::string &ptx) {
  Module module;
  static const std::regex entry(
      R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\))");
  // A scalar (.u32, .u64 ...) or a byte array (.align A .b8 name[bytes],
  // a tensor map).
  static const std::regex param(
      R"(\.param\s+(?:\.align\s+\d+\s+\.b8\s+[\w$]+\[(\d+)\]|\.([busf])(\d+)))");
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), entry), end; it != end;
       ++it) {
    Entry &e = module.entries[(*it)[1].str()];
    std::string params = (*it)[2].str();
    for (std::sregex_iterator p(params.begin(), params.end(), param); p != end;
         ++p)
      e.paramBytes.push_back((*p)[1].matched ? std::stoi((*p)[1].str())
                                             : std::stoi((*p)[3].str()) / 8);
  }
  return module;
}

} // namespace

FAKE_EXPORT int cuInit(unsigned) { return kSuccess; }

FAKE_EXPORT int cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return kInvalidDevice;
  *device = 0;
  return kSuccess;
}

FAKE_EXPORT int cuDevicePrimaryCtxRetain(void **context, int) {
  std::lock_guard<std::mutex> lock(state().mutex);
  ++state().retained;
  *context = &primaryContext;
  return kSuccess;
}

FAKE_EXPORT int cuDevicePrimaryCtxRelease_v2(int) {
  std::lock_guard<std::mutex> lock(state().mutex);
  --state().retained;
  return kSuccess;
}

FAKE_EXPORT int cuCtxPushCurrent_v2(void *context) {
  if (context != &primaryContext)
    return kInvalidContext;
  std::lock_guard<std::mutex> lock(state().mutex);
  ++state().contextDepth;
  return kSuccess;
}

FAKE_EXPORT int cuCtxPopCurrent_v2(void **context) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().contextDepth == 0)
    return kInvalidContext;
  --state().contextDepth;
  if (context)
    *context = &primaryContext;
  return kSuccess;
}

FAKE_EXPORT int cuModuleLoadDataEx(void **module, const void *image,
                                   unsigned count, int *options,
                                   void **values) {
  std::string text(static_cast<const char *>(image));
  Module parsed = parsePtx(text);
  if (parsed.entries.empty()) {
    // Options 5 and 6: the error log buffer and its size.
    for (unsigned i = 0; i < count; ++i)
      if (options[i] == 5)
        for (unsigned j = 0; j < count; ++j)
          if (options[j] == 6)
            std::snprintf(static_cast<char *>(values[i]),
                          reinterpret_cast<size_t>(values[j]),
                          "fake ptxas: no .entry in the image");
    return kInvalidImage;
  }
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().contextDepth == 0)
    return kInvalidContext;
  ++state().modules;
  *module = new Module(std::move(parsed));
  return kSuccess;
}

FAKE_EXPORT int cuModuleGetFunction(void **function, void *module,
                                    const char *name) {
  auto &entries = static_cast<Module *>(module)->entries;
  auto it = entries.find(name);
  if (it == entries.end())
    return kNotFound;
  *function = &it->second;
  return kSuccess;
}

FAKE_EXPORT int cuModuleUnload(void *module) {
  std::lock_guard<std::mutex> lock(state().mutex);
  --state().modules;
  delete static_cast<Module *>(module);
  return kSuccess;
}

FAKE_EXPORT int cuFuncSetAttribute(void *, int attribute, int value) {
  // 8: the maximum dynamic shared memory; the H200 allows 227 KiB.
  if (attribute != 8 || value > 227 * 1024)
    return kInvalidValue;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().maxDynamicShared = value;
  return kSuccess;
}

FAKE_EXPORT int cuLaunchKernel(void *function, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared, void *stream,
                               void **params, void **extra) {
  if (extra || (!params && !static_cast<Entry *>(function)->paramBytes.empty()))
    return kInvalidValue;
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().contextDepth == 0)
    return kInvalidContext;
  Launch launch{{gx, gy, gz}, {bx, by, bz}, shared, stream, {}};
  const auto &bytes = static_cast<Entry *>(function)->paramBytes;
  for (size_t i = 0; i < bytes.size(); ++i) {
    // A parameter wider than 8 bytes (a tensor map) records its first 8.
    uint64_t value = 0;
    std::memcpy(&value, params[i], std::min<size_t>(bytes[i], 8));
    launch.params.push_back(value);
  }
  state().last = launch;
  ++state().launches;
  return kSuccess;
}

/// Records its arguments in the map instead of encoding it: words 0..5 are
/// the address, the column and row counts, the row pitch in bytes, the box
/// (columns | rows << 32) and data type | swizzle << 8 | L2 promotion << 16
/// | out-of-bounds fill << 24. Refuses what the driver refuses for the 2-D
/// maps vnm makes (a misaligned address or pitch, a box wider than its
/// swizzle).
FAKE_EXPORT int
cuTensorMapEncodeTiled(void *map, int dataType, uint32_t rank, void *address,
                       const uint64_t *dims, const uint64_t *strides,
                       const uint32_t *box, const uint32_t *elementStrides,
                       int interleave, int swizzle, int promotion, int fill) {
  static const int kBytes[] = {1, 2, 4};
  if (rank != 2 || dataType < 0 || dataType > 2 || interleave != 0 ||
      reinterpret_cast<uintptr_t>(address) % 16 != 0 || strides[0] % 16 != 0 ||
      elementStrides[0] != 1 || elementStrides[1] != 1 ||
      (swizzle == 3 && box[0] * kBytes[dataType] > 128))
    return kInvalidValue;
  uint64_t words[16] = {reinterpret_cast<uint64_t>(address),
                        dims[0],
                        dims[1],
                        strides[0],
                        box[0] | uint64_t(box[1]) << 32,
                        uint64_t(dataType) | uint64_t(swizzle) << 8 |
                            uint64_t(promotion) << 16 | uint64_t(fill) << 24};
  std::memcpy(map, words, sizeof(words));
  return kSuccess;
}

FAKE_EXPORT int cuGetErrorName(int error, const char **name) {
  switch (error) {
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case kInvalidDevice:
    *name = "CUDA_ERROR_INVALID_DEVICE";
    break;
  case kInvalidImage:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    break;
  case kInvalidContext:
    *name = "CUDA_ERROR_INVALID_CONTEXT";
    break;
  case kNotFound:
    *name = "CUDA_ERROR_NOT_FOUND";
    break;
  default:
    *name = nullptr;
    return kInvalidValue;
  }
  return kSuccess;
}

FAKE_EXPORT int cuGetErrorString(int error, const char **text) {
  *text = error == kNotFound ? "named symbol not found" : "fake driver error";
  return kSuccess;
}

// What the tests read back.

/// Counters: "retained" primary-context references, "context_depth"
/// contexts pushed and not popped, loaded "modules", "launches" so far,
/// the last "max_dynamic_shared" attribute set.
FAKE_EXPORT int fakeCudaCounter(const char *name) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::string key(name);
  if (key == "retained")
    return s.retained;
  if (key == "context_depth")
    return s.contextDepth;
  if (key == "modules")
    return s.modules;
  if (key == "launches")
    return s.launches;
  if (key == "max_dynamic_shared")
    return s.maxDynamicShared;
  return -1;
}

/// The last launch: grid, block, dynamic shared bytes and stream; returns
/// the number of parameters and copies up to `capacity` of their values.
FAKE_EXPORT int fakeCudaLastLaunch(uint32_t grid[3], uint32_t block[3],
                                   uint32_t *shared, void **stream,
                                   uint64_t *params, int capacity) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::memcpy(grid, s.last.grid, sizeof(s.last.grid));
  std::memcpy(block, s.last.block, sizeof(s.last.block));
  *shared = s.last.shared;
  *stream = s.last.stream;
  int count = static_cast<int>(s.last.params.size());
  for (int i = 0; i < count && i < capacity; ++i)
    params[i] = s.last.params[i];
  return count;
}
