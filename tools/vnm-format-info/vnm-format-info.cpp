//===- vnm-format-info.cpp - V:N:M storage sizes and pruning statistics ---===//
//
// Prints what the V:N:M format makes of an R x K matrix: its storage arrays
// (logical and GPU fragment layout) and, on a random normal matrix, how much
// of the weight magnitude the pruning rule keeps compared with unstructured
// pruning at the same density. It also checks the format library's round
// trips on that matrix, so its output is a small end-to-end self-test.
//
//===----------------------------------------------------------------------===//

#include "vnm/Format/Format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace vnm::format;

namespace {

struct Options {
  Encoding encoding{64, 2, 8};
  int64_t rows = 4096;
  int64_t cols = 4096;
  ElementType type = ElementType::F16;
  uint64_t seed = std::random_device{}();
};

void printUsage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--v=64] [--n=2] [--m=8] [--rows=4096] "
               "[--cols=4096] [--type=f16|bf16|f32|i8|i4] [--seed=N]\n",
               argv0);
}

bool parseInt(const char *text, int64_t &out) {
  char *end = nullptr;
  errno = 0;
  long long value = std::strtoll(text, &end, 10);
  if (errno || end == text || *end)
    return false;
  out = value;
  return true;
}

bool parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos)
      return false;
    std::string key = arg.substr(2, eq - 2);
    const char *value = argv[i] + eq + 1;
    int64_t number = 0;
    if (key == "type") {
      auto type = parseElementType(value);
      if (!type)
        return false;
      options.type = *type;
      continue;
    }
    if (!parseInt(value, number))
      return false;
    if (key == "v")
      options.encoding.v = number;
    else if (key == "n")
      options.encoding.n = number;
    else if (key == "m")
      options.encoding.m = number;
    else if (key == "rows")
      options.rows = number;
    else if (key == "cols")
      options.cols = number;
    else if (key == "seed")
      options.seed = static_cast<uint64_t>(number);
    else
      return false;
  }
  return true;
}

std::string formatBytes(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 3) {
    bytes /= 1024;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2f %s", bytes, units[unit]);
  return buffer;
}

/// A random normal matrix in the element type's storage, and the magnitude
/// of each entry as a double.
struct RandomMatrix {
  std::vector<uint8_t> bytes;
  std::function<double(const std::vector<uint8_t> &, int64_t)> magnitude;
};

RandomMatrix makeRandomMatrix(ElementType type, int64_t count,
                              std::mt19937_64 &rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  RandomMatrix matrix;
  matrix.bytes.resize(count * getElementByteSize(type));
  for (int64_t i = 0; i < count; ++i) {
    float x = normal(rng);
    switch (type) {
    case ElementType::F16: {
      uint16_t bits = floatToF16Bits(x);
      std::memcpy(&matrix.bytes[2 * i], &bits, 2);
      break;
    }
    case ElementType::BF16: {
      uint16_t bits = floatToBF16Bits(x);
      std::memcpy(&matrix.bytes[2 * i], &bits, 2);
      break;
    }
    case ElementType::F32:
      std::memcpy(&matrix.bytes[4 * i], &x, 4);
      break;
    case ElementType::I8:
      matrix.bytes[i] = static_cast<uint8_t>(
          static_cast<int8_t>(std::clamp(std::lround(x * 32), -127L, 127L)));
      break;
    case ElementType::I4:
      matrix.bytes[i] = static_cast<uint8_t>(
          static_cast<int8_t>(std::clamp(std::lround(x * 2.5), -8L, 7L)));
      break;
    }
  }
  matrix.magnitude = [type](const std::vector<uint8_t> &data,
                            int64_t i) -> double {
    uint16_t bits = 0;
    float f = 0;
    switch (type) {
    case ElementType::F16:
      std::memcpy(&bits, &data[2 * i], 2);
      return std::fabs(f16BitsToFloat(bits));
    case ElementType::BF16:
      std::memcpy(&bits, &data[2 * i], 2);
      return std::fabs(bf16BitsToFloat(bits));
    case ElementType::F32:
      std::memcpy(&f, &data[4 * i], 4);
      return std::fabs(f);
    case ElementType::I8:
    case ElementType::I4:
      return std::abs(static_cast<int>(static_cast<int8_t>(data[i])));
    }
    return 0;
  };
  return matrix;
}

int fail(const char *what, const Status &status) {
  std::fprintf(stderr, "vnm-format-info: %s: %s\n", what,
               status.message().c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options)) {
    printUsage(argv[0]);
    return 2;
  }
  const Encoding &enc = options.encoding;
  StorageShape shape;
  if (Status s =
          getStorageShape(enc, options.type, options.rows, options.cols, shape);
      !s.ok())
    return fail("invalid arguments", s);
  // The random matrix and its copies are held in memory several times.
  if (shape.denseBytes > (int64_t(1) << 30)) {
    std::fprintf(stderr, "vnm-format-info: matrix larger than 1 GiB\n");
    return 1;
  }

  const char *typeName = getElementTypeName(options.type);
  std::printf("%lld x %lld %s in #vnm.encoding<v = %lld, n = %lld, m = %lld>\n",
              (long long)shape.rows, (long long)shape.cols, typeName,
              (long long)enc.v, (long long)enc.n, (long long)enc.m);
  std::printf("  groups G = ceil(K/M) = %lld, row blocks B = ceil(R/V) = %lld, "
              "density n/m = %.4f\n",
              (long long)shape.groups, (long long)shape.blocks,
              double(enc.n) / double(enc.m));
  std::printf("logical storage:\n");
  std::printf("  values  %lld x %lld %s  %s\n", (long long)shape.rows,
              (long long)shape.compressedCols, typeName,
              formatBytes(shape.valueBytes).c_str());
  std::printf("  colidx  %lld x %lld x 4 i8  %s\n", (long long)shape.blocks,
              (long long)shape.groups, formatBytes(shape.colidxCount).c_str());
  std::printf("  meta    %lld x %lld i8  %s\n", (long long)shape.rows,
              (long long)shape.compressedCols,
              formatBytes(shape.metaCount).c_str());
  std::printf("fragment storage (mma.sp operand order):\n");
  std::printf("  values  %lld row tiles x %lld k tiles  %s\n",
              (long long)shape.rowTiles, (long long)shape.kTiles,
              formatBytes(shape.fragValueBytes).c_str());
  std::printf("  meta    %lld words  %s\n", (long long)shape.fragMetaWords,
              formatBytes(4.0 * shape.fragMetaWords).c_str());
  double gpuBytes =
      shape.fragValueBytes + 4.0 * shape.fragMetaWords + shape.colidxCount;
  std::printf("  dense %s, fragment storage + colidx %s (%.3f of dense)\n",
              formatBytes(shape.denseBytes).c_str(),
              formatBytes(gpuBytes).c_str(), gpuBytes / shape.denseBytes);

  // Prune a random normal matrix and compare with unstructured pruning.
  std::mt19937_64 rng(options.seed);
  int64_t count = shape.denseCount;
  RandomMatrix dense = makeRandomMatrix(options.type, count, rng);
  std::vector<uint8_t> pruned(dense.bytes.size());
  std::vector<uint8_t> values(shape.valueBytes), colidx(shape.colidxCount),
      meta(shape.metaCount), roundTrip(dense.bytes.size());
  auto start = std::chrono::steady_clock::now();
  if (Status s =
          compress(enc, options.type, dense.bytes.data(), shape.rows,
                   shape.cols, values.data(), colidx.data(), meta.data());
      !s.ok())
    return fail("compress", s);
  double compressMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  if (Status s = prune(enc, options.type, dense.bytes.data(), shape.rows,
                       shape.cols, pruned.data());
      !s.ok())
    return fail("prune", s);
  if (Status s =
          decompress(enc, options.type, values.data(), colidx.data(),
                     meta.data(), shape.rows, shape.cols, roundTrip.data());
      !s.ok())
    return fail("decompress", s);
  bool decompressOk = roundTrip == pruned;

  std::vector<uint8_t> fragValues(shape.fragValueBytes);
  std::vector<uint32_t> fragMeta(shape.fragMetaWords);
  std::vector<uint8_t> values2(values.size()), meta2(meta.size());
  if (Status s = packFragments(enc, options.type, values.data(), meta.data(),
                               shape.rows, shape.cols, fragValues.data(),
                               fragMeta.data());
      !s.ok())
    return fail("packFragments", s);
  if (Status s =
          unpackFragments(enc, options.type, fragValues.data(), fragMeta.data(),
                          shape.rows, shape.cols, values2.data(), meta2.data());
      !s.ok())
    return fail("unpackFragments", s);
  bool packOk = values2 == values && meta2 == meta;

  double total = 0, kept = 0, unstructured = 0;
  int64_t nonzeroRowsMax = 0;
  std::vector<double> row(shape.cols);
  int64_t keepPerRow = shape.cols * enc.n / enc.m;
  for (int64_t r = 0; r < shape.rows; ++r) {
    int64_t nonzeros = 0;
    for (int64_t c = 0; c < shape.cols; ++c) {
      int64_t i = r * shape.cols + c;
      row[c] = dense.magnitude(dense.bytes, i);
      total += row[c];
      double k = dense.magnitude(pruned, i);
      kept += k;
      nonzeros += k != 0;
    }
    nonzeroRowsMax = std::max(nonzeroRowsMax, nonzeros);
    std::nth_element(row.begin(), row.begin() + keepPerRow, row.end(),
                     std::greater<double>());
    for (int64_t c = 0; c < keepPerRow; ++c)
      unstructured += row[c];
  }
  std::printf("pruning a random normal matrix (seed %llu):\n",
              (unsigned long long)options.seed);
  std::printf("  |w| kept: V:N:M %.1f%%, unstructured at the same density "
              "%.1f%%\n",
              100 * kept / total, 100 * unstructured / total);
  std::printf("  prune + compress: %.1f ms\n", compressMs);
  std::printf("  decompress(compress(w)) == prune(w): %s\n",
              decompressOk ? "yes" : "NO");
  std::printf("  unpack(pack(storage)) == storage: %s\n",
              packOk ? "yes" : "NO");
  return decompressOk && packOk ? 0 : 1;
}
