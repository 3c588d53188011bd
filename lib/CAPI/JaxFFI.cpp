//===- JaxFFI.cpp - a vnm linear layer as XLA FFI custom calls ------------===//
//
// Two XLA FFI handlers that python/vnm/jax_layer.py registers with
// jax.ffi.register_ffi_target, so that a vnm layer is one custom call inside
// jax.jit (docs/jax.md):
//
// * vnmJaxSparseLinearCpu: y[N][R] = x[N][K] W^T (+ b) with W in the
//   logical storage (values, colidx, meta), decompressed by the format
//   library; x in the weight's element type, f32 accumulation, one rounding
//   to y's type: the numbers of the PyTorch layer's CPU path.
// * vnmJaxSparseLinearCuda: one launch of a generated spmm kernel (its
//   image registered by vnmJaxKernelRegister, whose id is an attribute, and
//   loaded on the call's device at its first call there) on XLA's stream,
//   with x and y in the layouts its launch contract names; the Python side
//   arranges them (padding, transposes) with jnp operations in the same jit.
//   Parameters the contract takes as tensor maps (the sm_90a
//   warp-specialized kernels) are encoded here from the buffers' addresses,
//   as the `tensor_maps` attribute describes them.
//
// Every buffer's type and shape
// is checked against the attributes before any memory is touched: a
// mismatch fails the call with a message, never reads out of bounds.
//
//===----------------------------------------------------------------------===//

#include "vnm-c/GPURuntime.h"
#include "vnm/Format/FloatBits.h"
#include "vnm/Format/LogicalStorage.h"
#include "vnm/Format/StorageShape.h"

#include "xla/ffi/api/ffi.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ffi = xla::ffi;
using namespace vnm::format;

namespace {

std::optional<ElementType> getElementType(ffi::DataType type) {
  switch (type) {
  case ffi::DataType::F16:
    return ElementType::F16;
  case ffi::DataType::BF16:
    return ElementType::BF16;
  case ffi::DataType::F32:
    return ElementType::F32;
  default:
    return std::nullopt;
  }
}

std::string describeDims(const ffi::AnyBuffer &buffer) {
  auto dims = buffer.dimensions();
  std::string text = "(";
  for (size_t i = 0; i < static_cast<size_t>(dims.size()); ++i)
    text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + ")";
}

std::string getTypeName(ffi::DataType type) {
  switch (type) {
  case ffi::DataType::F16:
    return "f16";
  case ffi::DataType::BF16:
    return "bf16";
  case ffi::DataType::F32:
    return "f32";
  case ffi::DataType::U8:
    return "uint8";
  case ffi::DataType::S32:
    return "int32";
  default:
    return "XLA type " + std::to_string(static_cast<int>(type));
  }
}

ffi::Error invalid(std::string message) {
  return ffi::Error::InvalidArgument("vnm sparse linear: " + message);
}

/// Checks that `buffer` is a `type` array of exactly the shape `dims`.
ffi::Error checkBuffer(const char *name, const ffi::AnyBuffer &buffer,
                       ffi::DataType type, std::vector<int64_t> dims) {
  auto actual = buffer.dimensions();
  bool same = buffer.element_type() == type &&
              static_cast<size_t>(actual.size()) == dims.size();
  for (size_t i = 0; same && i < dims.size(); ++i)
    same = actual[i] == dims[i];
  if (same)
    return ffi::Error::Success();
  std::string expected = "(";
  for (size_t i = 0; i < dims.size(); ++i)
    expected += (i ? ", " : "") + std::to_string(dims[i]);
  return invalid(std::string(name) + " must be a " + getTypeName(type) +
                 " array of shape " + expected + "), got " +
                 getTypeName(buffer.element_type()) + " of shape " +
                 describeDims(buffer));
}

/// The storage shape of the layer the attributes describe.
ffi::Error getShape(ElementType type, int64_t rows, int64_t cols, int64_t v,
                    int64_t n, int64_t m, StorageShape &shape) {
  Status status = getStorageShape(Encoding{v, n, m}, type, rows, cols, shape);
  if (!status.ok())
    return invalid(status.message());
  return ffi::Error::Success();
}

float toFloat(ElementType type, const void *data, int64_t index) {
  switch (type) {
  case ElementType::F16:
    return f16BitsToFloat(static_cast<const uint16_t *>(data)[index]);
  case ElementType::BF16:
    return bf16BitsToFloat(static_cast<const uint16_t *>(data)[index]);
  default:
    return static_cast<const float *>(data)[index];
  }
}

void storeFloat(ElementType type, void *data, int64_t index, float value) {
  switch (type) {
  case ElementType::F16:
    static_cast<uint16_t *>(data)[index] = floatToF16Bits(value);
    return;
  case ElementType::BF16:
    static_cast<uint16_t *>(data)[index] = floatToBF16Bits(value);
    return;
  default:
    static_cast<float *>(data)[index] = value;
  }
}

ffi::Error sparseLinearCpu(ffi::AnyBuffer x, ffi::AnyBuffer values,
                           ffi::AnyBuffer colidx, ffi::AnyBuffer meta,
                           ffi::AnyBuffer bias, ffi::Result<ffi::AnyBuffer> y,
                           int64_t rows, int64_t cols, int64_t v, int64_t n,
                           int64_t m, bool hasBias) {
  std::optional<ElementType> type = getElementType(values.element_type());
  std::optional<ElementType> outType = getElementType(y->element_type());
  if (!type || !outType)
    return invalid("values and y must be f16, bf16 or f32 arrays");
  StorageShape shape;
  if (ffi::Error error = getShape(*type, rows, cols, v, n, m, shape);
      error.failure())
    return error;
  auto xDims = x.dimensions();
  if (xDims.size() != 2)
    return invalid("x must be a 2-D array (tokens, K), got shape " +
                   describeDims(x));
  int64_t tokens = xDims[0];
  for (ffi::Error error :
       {checkBuffer("x", x, values.element_type(), {tokens, cols}),
        checkBuffer("values", values, values.element_type(),
                    {rows, shape.compressedCols}),
        checkBuffer("colidx", colidx, ffi::DataType::U8, {shape.colidxCount}),
        checkBuffer("meta", meta, ffi::DataType::U8,
                    {rows, shape.compressedCols}),
        checkBuffer("bias", bias, y->element_type(), {hasBias ? rows : 0}),
        checkBuffer("y", *y, y->element_type(), {tokens, rows})})
    if (error.failure())
      return error;

  // W, dense, in its element type, then as f32 (the format library checks
  // the storage first and writes nothing if it is inconsistent).
  std::vector<uint8_t> dense(static_cast<size_t>(shape.denseBytes));
  Status status =
      decompress(Encoding{v, n, m}, *type, values.untyped_data(),
                 static_cast<const uint8_t *>(colidx.untyped_data()),
                 static_cast<const uint8_t *>(meta.untyped_data()), rows, cols,
                 dense.data());
  if (!status.ok())
    return invalid(status.message());
  std::vector<float> weight(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows * cols; ++i)
    weight[i] = toFloat(*type, dense.data(), i);
  std::vector<float> xRow(static_cast<size_t>(cols));
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t k = 0; k < cols; ++k)
      xRow[k] = toFloat(*type, x.untyped_data(), t * cols + k);
    for (int64_t r = 0; r < rows; ++r) {
      const float *w = weight.data() + r * cols;
      float sum = 0.0f;
      for (int64_t k = 0; k < cols; ++k)
        sum += xRow[k] * w[k];
      if (hasBias)
        sum += toFloat(*outType, bias.untyped_data(), r);
      storeFloat(*outType, y->untyped_data(), t * rows + r, sum);
    }
  }
  return ffi::Error::Success();
}

/// The `tensor_maps` attribute holds, for each of the six pointer
/// parameters (frag_values, frag_meta, colidx, x, y, bias), eight numbers:
/// 1 where the kernel takes it as a tensor map (else 0), then the contract's
/// element_bytes, rows, cols, ld, box_rows, box_cols and swizzle_bytes, where
/// rows, cols and ld are numbers or kTokens, kLdb, kLdc for the call's own.
constexpr int64_t kPointerParams = 6;
constexpr int64_t kTensorMapFields = 8;
constexpr int64_t kTokens = -1, kLdb = -2, kLdc = -3;

/// A CUtensorMap's bytes, aligned as the driver declares the type.
struct alignas(64) TensorMapBytes {
  unsigned char bytes[VNM_GPU_TENSOR_MAP_BYTES];
};

/// Encodes the tensor map of `buffer` that `fields` (one parameter's eight
/// numbers) describe, after checking that every element it reaches lies
/// inside the buffer.
ffi::Error encodeTensorMap(const char *name, const ffi::AnyBuffer &buffer,
                           ffi::Span<const int64_t> fields, int64_t tokens,
                           int64_t ldb, int64_t ldc, TensorMapBytes &map) {
  auto resolve = [&](int64_t value) {
    return value == kTokens ? tokens
           : value == kLdb  ? ldb
           : value == kLdc  ? ldc
                            : value;
  };
  int64_t elementBytes = fields[1], rows = resolve(fields[2]),
          cols = resolve(fields[3]), ld = resolve(fields[4]);
  std::string described = std::string(name) + "'s tensor map (" +
                          std::to_string(rows) + " x " + std::to_string(cols) +
                          " elements of " + std::to_string(elementBytes) +
                          " bytes, rows " + std::to_string(ld) + " apart)";
  if (elementBytes < 1 || rows < 1 || cols < 1 || ld < cols)
    return invalid(described + " is not a matrix");
  // The last element it reaches is ((rows - 1) * ld + cols) elements in.
  int64_t elements = static_cast<int64_t>(buffer.size_bytes()) / elementBytes;
  if (cols > elements || (rows - 1) > (elements - cols) / ld)
    return invalid(described + " reaches past the " +
                   std::to_string(buffer.size_bytes()) + " bytes of " + name);
  VnmStatus status =
      vnmGpuTensorMapEncode(buffer.untyped_data(), elementBytes, rows, cols, ld,
                            fields[5], fields[6], fields[7], map.bytes);
  if (!vnmStatusIsOk(status)) {
    VnmStringRef text = vnmStatusGetMessage(status);
    std::string message(text.data, text.length);
    vnmStatusDestroy(status);
    return invalid(std::string(name) + ": " + message);
  }
  return ffi::Error::Success();
}

/// A kernel registered by vnmJaxKernelRegister: its image, loaded on a
/// device the first time a call runs there (the registering host may have
/// no GPU: tracing and lowering need only the id).
struct RegisteredKernel {
  std::string image, name;
  int64_t dynamicSharedBytes;
  std::map<int, VnmGpuKernel> loaded; // device -> kernel, never unloaded
};

std::mutex registryMutex;
std::vector<std::unique_ptr<RegisteredKernel>> &getRegistry() {
  static std::vector<std::unique_ptr<RegisteredKernel>> registry;
  return registry;
}

/// Kernel `id` loaded on `device`, or an error naming why not.
ffi::Error getLoadedKernel(int64_t id, int device, VnmGpuKernel &kernel) {
  std::lock_guard<std::mutex> lock(registryMutex);
  auto &registry = getRegistry();
  if (id < 0 || id >= static_cast<int64_t>(registry.size()))
    return invalid("no registered kernel " + std::to_string(id));
  RegisteredKernel &entry = *registry[id];
  auto found = entry.loaded.find(device);
  if (found != entry.loaded.end()) {
    kernel = found->second;
    return ffi::Error::Success();
  }
  VnmStatus status = vnmGpuKernelLoad(
      device, VnmStringRef{entry.image.data(), entry.image.size()},
      VnmStringRef{entry.name.data(), entry.name.size()},
      entry.dynamicSharedBytes, &kernel);
  if (!vnmStatusIsOk(status)) {
    VnmStringRef text = vnmStatusGetMessage(status);
    std::string message(text.data, text.length);
    vnmStatusDestroy(status);
    return ffi::Error::Internal("vnm sparse linear: " + message);
  }
  entry.loaded.emplace(device, kernel);
  return ffi::Error::Success();
}

ffi::Error sparseLinearCuda(
    void *stream, int32_t device, ffi::AnyBuffer fragValues,
    ffi::AnyBuffer fragMeta, ffi::AnyBuffer colidx, ffi::AnyBuffer rhs,
    ffi::AnyBuffer bias, ffi::Result<ffi::AnyBuffer> out, int64_t kernelId,
    int64_t rows, int64_t cols, int64_t v, int64_t n, int64_t m, int64_t tokens,
    int64_t ldb, int64_t ldc, bool tokenMajorRhs, bool tokenMajorOut,
    bool hasBias, int64_t gridXDivisor, int64_t gridY, int64_t blockX,
    ffi::Span<const int64_t> tensorMaps) {
  std::optional<ElementType> type = getElementType(rhs.element_type());
  std::optional<ElementType> outType = getElementType(out->element_type());
  if (!type || *type == ElementType::F32 || !outType)
    return invalid("x must be f16 or bf16 and y f16, bf16 or f32 for the "
                   "GPU kernels");
  StorageShape shape;
  if (ffi::Error error = getShape(*type, rows, cols, v, n, m, shape);
      error.failure())
    return error;
  if (tokens <= 0 || gridXDivisor <= 0 || gridY <= 0 || blockX <= 0)
    return invalid("the launch attributes are incomplete");
  if (static_cast<int64_t>(tensorMaps.size()) !=
      kPointerParams * kTensorMapFields)
    return invalid("tensor_maps must hold " +
                   std::to_string(kPointerParams * kTensorMapFields) +
                   " numbers, got " + std::to_string(tensorMaps.size()));
  // Row pitches of 16 bytes (8 f16/bf16 elements), as cp.async copies
  // them; a token-major y holds rows of exactly R.
  if (ldb % 8 || (tokenMajorRhs ? ldb < cols : ldb < tokens))
    return invalid("ldb " + std::to_string(ldb) + " does not fit x's layout");
  if (tokenMajorOut ? ldc != rows : ldc < tokens || ldc % 8)
    return invalid("ldc " + std::to_string(ldc) + " does not fit y's layout");
  std::vector<int64_t> rhsDims = tokenMajorRhs
                                     ? std::vector<int64_t>{tokens, ldb}
                                     : std::vector<int64_t>{cols, ldb};
  std::vector<int64_t> outDims = tokenMajorOut
                                     ? std::vector<int64_t>{tokens, rows}
                                     : std::vector<int64_t>{rows, ldc};
  for (ffi::Error error :
       {checkBuffer("frag_values", fragValues, ffi::DataType::U8,
                    {shape.fragValueBytes}),
        checkBuffer("frag_meta", fragMeta, ffi::DataType::S32,
                    {shape.fragMetaWords}),
        checkBuffer("colidx", colidx, ffi::DataType::U8, {shape.colidxCount}),
        checkBuffer("x", rhs, rhs.element_type(), rhsDims),
        checkBuffer("bias", bias, out->element_type(), {hasBias ? rows : 0}),
        checkBuffer("y", *out, out->element_type(), outDims)})
    if (error.failure())
      return error;
  // cp.async copies 16 bytes at a time.
  if (reinterpret_cast<uintptr_t>(rhs.untyped_data()) % 16)
    return invalid("x is not 16-byte aligned");

  VnmGpuKernel kernel;
  if (ffi::Error error = getLoadedKernel(kernelId, device, kernel);
      error.failure())
    return error;

  const char *names[kPointerParams] = {"frag_values", "frag_meta", "colidx",
                                       "x",           "y",         "bias"};
  const ffi::AnyBuffer *buffers[kPointerParams] = {
      &fragValues, &fragMeta, &colidx, &rhs, &*out, &bias};
  void *pointers[kPointerParams] = {
      fragValues.untyped_data(), fragMeta.untyped_data(),
      colidx.untyped_data(),     rhs.untyped_data(),
      out->untyped_data(),       hasBias ? bias.untyped_data() : nullptr};
  TensorMapBytes maps[kPointerParams];
  int32_t sizes[] = {static_cast<int32_t>(tokens), static_cast<int32_t>(ldb),
                     static_cast<int32_t>(ldc)};
  void *params[kPointerParams + 3];
  for (int i = 0; i < 3; ++i)
    params[kPointerParams + i] = &sizes[i];
  for (int64_t i = 0; i < kPointerParams; ++i) {
    ffi::Span<const int64_t> fields(tensorMaps.begin() + i * kTensorMapFields,
                                    kTensorMapFields);
    if (fields[0] == 0) {
      params[i] = &pointers[i];
      continue;
    }
    if (fields[0] != 1)
      return invalid("tensor_maps: " + std::string(names[i]) +
                     "'s first number must be 0 or 1");
    if (ffi::Error error = encodeTensorMap(names[i], *buffers[i], fields,
                                           tokens, ldb, ldc, maps[i]);
        error.failure())
      return error;
    params[i] = maps[i].bytes;
  }
  uint32_t grid[3] = {
      static_cast<uint32_t>((tokens + gridXDivisor - 1) / gridXDivisor),
      static_cast<uint32_t>(gridY), 1};
  uint32_t block[3] = {static_cast<uint32_t>(blockX), 1, 1};
  VnmStatus status = vnmGpuKernelLaunch(kernel, grid, block, stream, params);
  if (!vnmStatusIsOk(status)) {
    VnmStringRef text = vnmStatusGetMessage(status);
    std::string message(text.data, text.length);
    vnmStatusDestroy(status);
    return ffi::Error::Internal("vnm sparse linear: " + message);
  }
  return ffi::Error::Success();
}

} // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(vnmJaxSparseLinearCpu, sparseLinearCpu,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>() // x
                                  .Arg<ffi::AnyBuffer>() // values
                                  .Arg<ffi::AnyBuffer>() // colidx
                                  .Arg<ffi::AnyBuffer>() // meta
                                  .Arg<ffi::AnyBuffer>() // bias
                                  .Ret<ffi::AnyBuffer>() // y
                                  .Attr<int64_t>("rows")
                                  .Attr<int64_t>("cols")
                                  .Attr<int64_t>("v")
                                  .Attr<int64_t>("n")
                                  .Attr<int64_t>("m")
                                  .Attr<bool>("has_bias"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(
    vnmJaxSparseLinearCuda, sparseLinearCuda,
    ffi::Ffi::Bind()
        .Ctx<ffi::PlatformStream<void *>>()
        .Ctx<ffi::DeviceOrdinal>()
        .Arg<ffi::AnyBuffer>() // frag_values
        .Arg<ffi::AnyBuffer>() // frag_meta
        .Arg<ffi::AnyBuffer>() // colidx
        .Arg<ffi::AnyBuffer>() // x, in the kernel's layout
        .Arg<ffi::AnyBuffer>() // bias
        .Ret<ffi::AnyBuffer>() // y, in the kernel's layout
        .Attr<int64_t>("kernel")
        .Attr<int64_t>("rows")
        .Attr<int64_t>("cols")
        .Attr<int64_t>("v")
        .Attr<int64_t>("n")
        .Attr<int64_t>("m")
        .Attr<int64_t>("tokens")
        .Attr<int64_t>("ldb")
        .Attr<int64_t>("ldc")
        .Attr<bool>("token_major_rhs")
        .Attr<bool>("token_major_out")
        .Attr<bool>("has_bias")
        .Attr<int64_t>("grid_x_divisor")
        .Attr<int64_t>("grid_y")
        .Attr<int64_t>("block_x")
        .Attr<ffi::Span<const int64_t>>("tensor_maps"));

/// Registers a kernel image (PTX or cubin) and its name for
/// vnmJaxSparseLinearCuda, whose `kernel` attribute is the id returned in
/// `id`. It is loaded on each device at its first call there (with
/// `dynamicSharedBytes` allowed, as vnmGpuKernelLoad takes it) and stays
/// loaded for the process.
extern "C" VNM_CAPI_EXPORTED VnmStatus
vnmJaxKernelRegister(VnmStringRef image, VnmStringRef name,
                     int64_t dynamicSharedBytes, int64_t *id) {
  std::lock_guard<std::mutex> lock(registryMutex);
  auto &registry = getRegistry();
  registry.push_back(std::make_unique<RegisteredKernel>(
      RegisteredKernel{std::string(image.data, image.length),
                       std::string(name.data, name.length),
                       dynamicSharedBytes,
                       {}}));
  *id = static_cast<int64_t>(registry.size()) - 1;
  return VnmStatus{nullptr};
}
