//===- CPURuntime.cpp - entry points called by CPU-lowered vnm code -------===//

#include "vnm/Runtime/CPURuntime.h"

#include "vnm/Format/Format.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

using namespace vnm::format;

namespace {

[[noreturn]] void fail(const char *entry, const std::string &message) {
  std::fprintf(stderr, "vnm runtime error in %s: %s\n", entry, message.c_str());
  std::fflush(stderr);
  std::exit(1);
}

void check(const char *entry, const Status &status) {
  if (!status.ok())
    fail(entry, status.message());
}

/// Memrefs may be strided views; the format library works on contiguous
/// row-major arrays, so data is gathered into and scattered out of those.
template <typename T, int N>
int64_t countElements(const StridedMemRefType<T, N> &ref) {
  int64_t count = 1;
  for (int d = 0; d < N; ++d)
    count *= ref.sizes[d];
  return count;
}

template <typename T, int N, typename Fn>
void forEachElement(const StridedMemRefType<T, N> &ref, Fn fn) {
  int64_t index[N] = {};
  int64_t count = countElements(ref);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t offset = ref.offset;
    for (int d = 0; d < N; ++d)
      offset += index[d] * ref.strides[d];
    fn(linear, offset);
    for (int d = N - 1; d >= 0; --d) {
      if (++index[d] < ref.sizes[d])
        break;
      index[d] = 0;
    }
  }
}

template <typename T, int N>
std::vector<T> gather(const StridedMemRefType<T, N> &ref) {
  std::vector<T> out(countElements(ref));
  forEachElement(ref, [&](int64_t linear, int64_t offset) {
    out[linear] = ref.data[offset];
  });
  return out;
}

template <typename T, int N>
void scatter(const std::vector<T> &in, StridedMemRefType<T, N> &ref) {
  forEachElement(ref, [&](int64_t linear, int64_t offset) {
    ref.data[offset] = in[linear];
  });
}

/// An i4 memref element is a byte whose low four bits hold the value; LLVM
/// leaves the other bits unspecified (a global constant, for one, holds -4 as
/// 0x0C). The format library takes i4 values sign-extended to int8_t.
template <typename T>
void signExtendI4(ElementType type, std::vector<T> &data) {
  if constexpr (std::is_same_v<T, int8_t>) {
    if (type != ElementType::I4)
      return;
    for (int8_t &value : data)
      value = static_cast<int8_t>(static_cast<uint8_t>(value) << 4) >> 4;
  }
}

/// The format library takes uint8_t index arrays; memrefs of i8 are int8_t.
std::vector<uint8_t> toUnsigned(const std::vector<int8_t> &in) {
  return std::vector<uint8_t>(in.begin(), in.end());
}
std::vector<int8_t> toSigned(const std::vector<uint8_t> &in) {
  return std::vector<int8_t>(in.begin(), in.end());
}

Status checkStorageShape(const Encoding &enc, ElementType type, int64_t rows,
                         int64_t cols, int64_t valueRows, int64_t valueCols,
                         const StridedMemRefType<int8_t, 3> &colidx,
                         const StridedMemRefType<int8_t, 2> &meta) {
  StorageShape shape;
  if (Status s = getStorageShape(enc, type, rows, cols, shape); !s.ok())
    return s;
  if (valueRows != rows || valueCols != shape.compressedCols ||
      colidx.sizes[0] != shape.blocks || colidx.sizes[1] != shape.groups ||
      colidx.sizes[2] != 4 || meta.sizes[0] != rows ||
      meta.sizes[1] != shape.compressedCols)
    return Status::error("storage array sizes do not match a " +
                         std::to_string(rows) + " x " + std::to_string(cols) +
                         " matrix");
  return Status::success();
}

template <typename T>
void pruneImpl(const char *entry, ElementType type,
               StridedMemRefType<T, 2> *input, StridedMemRefType<T, 2> *output,
               int64_t v, int64_t n, int64_t m) {
  int64_t rows = input->sizes[0], cols = input->sizes[1];
  if (output->sizes[0] != rows || output->sizes[1] != cols)
    fail(entry, "output and input sizes differ");
  std::vector<T> dense = gather(*input);
  signExtendI4(type, dense);
  std::vector<T> pruned(dense.size());
  check(entry, prune(Encoding{v, n, m}, type, dense.data(), rows, cols,
                     pruned.data()));
  scatter(pruned, *output);
}

template <typename T>
void compressImpl(const char *entry, ElementType type,
                  StridedMemRefType<T, 2> *input,
                  StridedMemRefType<T, 2> *values,
                  StridedMemRefType<int8_t, 3> *colidx,
                  StridedMemRefType<int8_t, 2> *meta, int64_t v, int64_t n,
                  int64_t m) {
  Encoding enc{v, n, m};
  int64_t rows = input->sizes[0], cols = input->sizes[1];
  check(entry, checkStorageShape(enc, type, rows, cols, values->sizes[0],
                                 values->sizes[1], *colidx, *meta));
  std::vector<T> dense = gather(*input);
  signExtendI4(type, dense);
  std::vector<T> valueData(countElements(*values));
  std::vector<uint8_t> colidxData(countElements(*colidx));
  std::vector<uint8_t> metaData(countElements(*meta));
  check(entry, compress(enc, type, dense.data(), rows, cols, valueData.data(),
                        colidxData.data(), metaData.data()));
  scatter(valueData, *values);
  scatter(toSigned(colidxData), *colidx);
  scatter(toSigned(metaData), *meta);
}

template <typename T>
void verifyImpl(const char *entry, ElementType type,
                StridedMemRefType<T, 2> *values,
                StridedMemRefType<int8_t, 3> *colidx,
                StridedMemRefType<int8_t, 2> *meta, int64_t rows, int64_t cols,
                int64_t v, int64_t n, int64_t m) {
  Encoding enc{v, n, m};
  check(entry, checkStorageShape(enc, type, rows, cols, values->sizes[0],
                                 values->sizes[1], *colidx, *meta));
  std::vector<T> valueData = gather(*values);
  signExtendI4(type, valueData);
  check(entry, verifyStorage(enc, type, valueData.data(),
                             toUnsigned(gather(*colidx)).data(),
                             toUnsigned(gather(*meta)).data(), rows, cols));
}

} // namespace

#define VNM_RUNTIME_DEFINE(SUFFIX, T, TYPE)                                    \
  void _mlir_ciface_vnm_rt_prune_##SUFFIX(StridedMemRefType<T, 2> *input,      \
                                          StridedMemRefType<T, 2> *output,     \
                                          int64_t v, int64_t n, int64_t m) {   \
    pruneImpl<T>("vnm_rt_prune_" #SUFFIX, TYPE, input, output, v, n, m);       \
  }                                                                            \
  void _mlir_ciface_vnm_rt_compress_##SUFFIX(                                  \
      StridedMemRefType<T, 2> *input, StridedMemRefType<T, 2> *values,         \
      StridedMemRefType<int8_t, 3> *colidx,                                    \
      StridedMemRefType<int8_t, 2> *meta, int64_t v, int64_t n, int64_t m) {   \
    compressImpl<T>("vnm_rt_compress_" #SUFFIX, TYPE, input, values, colidx,   \
                    meta, v, n, m);                                            \
  }                                                                            \
  void _mlir_ciface_vnm_rt_verify_storage_##SUFFIX(                            \
      StridedMemRefType<T, 2> *values, StridedMemRefType<int8_t, 3> *colidx,   \
      StridedMemRefType<int8_t, 2> *meta, int64_t rows, int64_t cols,          \
      int64_t v, int64_t n, int64_t m) {                                       \
    verifyImpl<T>("vnm_rt_verify_storage_" #SUFFIX, TYPE, values, colidx,      \
                  meta, rows, cols, v, n, m);                                  \
  }

VNM_RUNTIME_DEFINE(f16, uint16_t, ElementType::F16)
VNM_RUNTIME_DEFINE(bf16, uint16_t, ElementType::BF16)
VNM_RUNTIME_DEFINE(f32, float, ElementType::F32)
VNM_RUNTIME_DEFINE(i8, int8_t, ElementType::I8)
VNM_RUNTIME_DEFINE(i4, int8_t, ElementType::I4)
#undef VNM_RUNTIME_DEFINE

void _mlir_ciface_vnm_rt_verify_structure(StridedMemRefType<int8_t, 3> *colidx,
                                          StridedMemRefType<int8_t, 2> *meta,
                                          int64_t rows, int64_t cols, int64_t v,
                                          int64_t n, int64_t m) {
  const char *entry = "vnm_rt_verify_structure";
  // Zero values satisfy every value rule, so only the structure is checked.
  std::vector<float> zeros(countElements(*meta), 0.0f);
  Encoding enc{v, n, m};
  check(entry,
        checkStorageShape(enc, ElementType::F32, rows, cols, meta->sizes[0],
                          meta->sizes[1], *colidx, *meta));
  check(entry, verifyStorage(enc, ElementType::F32, zeros.data(),
                             toUnsigned(gather(*colidx)).data(),
                             toUnsigned(gather(*meta)).data(), rows, cols));
}

void _mlir_ciface_vnm_rt_check_failed(StridedMemRefType<int8_t, 1> *message) {
  std::string text;
  for (int64_t i = 0; i < message->sizes[0]; ++i)
    text += static_cast<char>(
        message->data[message->offset + i * message->strides[0]]);
  std::fprintf(stderr, "vnm runtime check failed: %s\n", text.c_str());
  std::fflush(stderr);
  std::exit(1);
}
