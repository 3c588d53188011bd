//===- CaseData.cpp - inputs and dense reference of a case ----------------===//

#include "CaseData.h"

#include "vnm/Format/Format.h"

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

using namespace vnm;
using namespace vnm::tile_test;

namespace {

format::ElementType elementTypeOf(const std::string &name) {
  return *format::parseElementType(name);
}

llvm::Error fromStatus(const format::Status &status, const char *what) {
  if (status.ok())
    return llvm::Error::success();
  return llvm::createStringError(std::string(what) + ": " + status.message());
}

/// The unit roundoff of a result type.
double roundoff(const std::string &type) {
  if (type == "f16")
    return std::ldexp(1.0, -11);
  if (type == "bf16")
    return std::ldexp(1.0, -8);
  return std::ldexp(1.0, -24);
}

/// The spacing of a result type's subnormals: below its smallest normal
/// number one rounding errs by up to half of it, whatever the magnitude.
double subnormalSpacing(const std::string &type) {
  if (type == "f16")
    return std::ldexp(1.0, -24);
  if (type == "bf16")
    return std::ldexp(1.0, -133);
  return std::ldexp(1.0, -149);
}

double activate(const std::string &activation, double x) {
  if (activation == "relu")
    return x > 0 ? x : 0;
  if (activation == "gelu")
    return 0.5 * x *
           (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
  return x;
}

} // namespace

namespace {
int64_t bytesOf(const std::string &type) {
  if (type == "f32" || type == "i32")
    return 4;
  return type == "i8" || type == "i4" ? 1 : 2;
}
} // namespace

ElementBuffer::ElementBuffer(const std::string &type, int64_t size)
    : type(type), count(size), elementBytes(bytesOf(type)),
      bytes(size * elementBytes) {}

uint32_t ElementBuffer::bits(int64_t i) const {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + i * elementBytes, elementBytes);
  return value;
}

void ElementBuffer::setBits(int64_t i, uint32_t value) {
  std::memcpy(bytes.data() + i * elementBytes, &value, elementBytes);
}

double ElementBuffer::get(int64_t i) const {
  uint32_t b = bits(i);
  if (type == "f16")
    return format::f16BitsToFloat(static_cast<uint16_t>(b));
  if (type == "bf16")
    return format::bf16BitsToFloat(static_cast<uint16_t>(b));
  if (type == "i8" || type == "i4")
    return static_cast<int8_t>(b);
  if (type == "i32")
    return static_cast<int32_t>(b);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

void ElementBuffer::set(int64_t i, double value) {
  // Integer elements take integral values (in range: callers make them so).
  if (type == "i8" || type == "i4" || type == "i32")
    return setBits(i, static_cast<uint32_t>(static_cast<int64_t>(value)));
  float f = static_cast<float>(value);
  if (type == "f16")
    return setBits(i, format::floatToF16Bits(f));
  if (type == "bf16")
    return setBits(i, format::floatToBF16Bits(f));
  uint32_t b;
  std::memcpy(&b, &f, 4);
  setBits(i, b);
}

uint32_t ElementBuffer::poisonBits() const {
  if (type == "f16")
    return 0x7d5a;
  if (type == "bf16")
    return 0x7fa5;
  // i8: -128, which no symmetric quantization produces.
  if (type == "i8")
    return 0x80;
  return 0x7fa5a5a5;
}

CaseData::CaseData(const SpmmCase &c)
    : fragValues(c.weightType(), 0),
      rhs(c.element, (c.tokenMajorRhs() ? c.n : c.cols) * c.ldb()),
      out(c.result, c.outRows() * c.ldc() + c.ldc() + 64),
      bias(c.result, c.rows) {
  guardElements = out.size() - c.outRows() * c.ldc();
}

uint64_t vnm::tile_test::chooseSeed() {
  if (const char *text = std::getenv("VNM_TILE_SEED"))
    return std::strtoull(text, nullptr, 0);
  return std::random_device()();
}

llvm::Expected<CaseData> CaseData::generate(const SpmmCase &c, uint64_t seed) {
  CaseData data(c);
  data.seed = seed;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  // The op's format, and the one its fragment arrays are packed in (V:2:4
  // where the kernel runs a V:2:M weight as 2:4).
  const format::Encoding encoding{c.v, 2, c.m};
  const format::Encoding packed{c.v, 2, c.packedM()};
  const std::string &weight = c.weightType();
  const format::ElementType type = elementTypeOf(weight);
  const int64_t rows = c.rows, cols = c.cols, n = c.n;
  format::StorageShape shape;
  if (llvm::Error error =
          fromStatus(format::getStorageShape(packed, type, rows, cols, shape),
                     "getStorageShape"))
    return std::move(error);

  // Integers of the symmetric i8 (i4) range, and positive scales.
  std::uniform_int_distribution<int> int8(-127, 127);
  std::uniform_int_distribution<int> int4(-7, 7);
  std::uniform_int_distribution<int> int16(-30000, 30000);
  std::uniform_real_distribution<double> scale(1.0 / 512, 1.0 / 32);
  auto draw = [&] { return c.integer() ? int8(rng) : uniform(rng); };
  auto drawWeight = [&]() -> double {
    if (weight == "i4")
      return int4(rng);
    return weight == "i8" ? int8(rng) : draw();
  };

  // A: dense random, pruned and compressed by the format library, packed
  // into fragments; `pruned` is what the kernel must multiply by.
  ElementBuffer dense(weight, rows * cols), pruned(weight, rows * cols);
  for (int64_t i = 0; i < dense.size(); ++i)
    dense.set(i, drawWeight());
  if (llvm::Error error = fromStatus(format::prune(encoding, type, dense.data(),
                                                   rows, cols, pruned.data()),
                                     "prune"))
    return std::move(error);
  ElementBuffer values(weight, shape.valueCount);
  std::vector<uint8_t> colidx(shape.colidxCount), meta(shape.metaCount);
  // Packed as V:2:4, the V:2:M pruned weight keeps every nonzero (at most
  // two per group of four columns).
  if (llvm::Error error =
          fromStatus(format::compress(
                         packed, type, c.as24 ? pruned.data() : dense.data(),
                         rows, cols, values.data(), colidx.data(), meta.data()),
                     "compress"))
    return std::move(error);
  // i4 fragments: two values per byte.
  data.fragValues = weight == "i4"
                        ? ElementBuffer("i8", shape.fragValueBytes)
                        : ElementBuffer(weight, shape.fragValueCount);
  data.fragMeta.assign(shape.fragMetaWords, 0);
  if (llvm::Error error =
          fromStatus(format::packFragments(
                         packed, type,
                         c.weightOnly() ? format::FragmentClass::SixteenBit
                                        : format::getNaturalFragmentClass(type),
                         values.data(), meta.data(), rows, cols,
                         data.fragValues.data(), data.fragMeta.data()),
                     "packFragments"))
    return std::move(error);
  // colidx[B][G][4] bytes read as little-endian 32-bit words.
  data.colidxWords.assign(colidx.size() / 4, 0);
  std::memcpy(data.colidxWords.data(), colidx.data(), colidx.size());

  // B: K x N inside a pitch of ldb, poison in the pitch's padding (the
  // kernel must not read it). i8: token-major x[N][K] inside a pitch of
  // ldb; the padding's poison (-128) is read where a 16-byte chunk
  // straddles K, and A's zero padding must cancel it.
  auto rhsIndex = [&](int64_t k, int64_t j) {
    return c.tokenMajorRhs() ? j * c.ldb() + k : k * c.ldb() + j;
  };
  for (int64_t i = 0; i < data.rhs.size(); ++i)
    data.rhs.setBits(i, data.rhs.poisonBits());
  for (int64_t k = 0; k < cols; ++k)
    for (int64_t j = 0; j < n; ++j)
      data.rhs.set(rhsIndex(k, j), draw());
  if (c.quantized() || c.weightOnly()) {
    data.weightScales.resize(rows * c.scaleGroups());
    data.inputScales.resize(n);
    for (float &s : data.weightScales)
      s = static_cast<float>(scale(rng));
    for (float &s : data.inputScales)
      s = static_cast<float>(scale(rng));
  }
  // Y: poison everywhere, the previous result inside R x N when the kernel
  // accumulates.
  for (int64_t i = 0; i < data.out.size(); ++i)
    data.out.setBits(i, data.out.poisonBits());
  std::vector<double> previous(rows * n, 0.0);
  if (c.accumulate)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < n; ++j) {
        data.out.set(c.outIndex(r, j),
                     c.result == "i32" ? int16(rng) : uniform(rng));
        previous[r * n + j] = data.out.get(c.outIndex(r, j));
      }
  if (c.result != "i32")
    for (int64_t r = 0; r < rows; ++r)
      data.bias.set(r, uniform(rng));

  // The reference in float64, and an error bound for f32 accumulation
  // (K + a few rounding steps of 2^-24, relative to the sum of magnitudes)
  // plus one rounding to the result type; gelu's slope is below 1.13.
  data.expected.assign(rows * n, 0.0);
  data.tolerance.assign(rows * n, 0.0);
  const double u = roundoff(c.result);
  const double accumulation = (cols + 8) * std::ldexp(1.0, -24);
  for (int64_t r = 0; r < rows; ++r) {
    // The row's kept entries (2 of every M; a kept zero adds nothing).
    std::vector<std::pair<int64_t, double>> kept;
    for (int64_t k = 0; k < cols; ++k)
      if (double a = pruned.get(r * cols + k); a != 0)
        kept.emplace_back(k, a);
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (auto [k, a] : kept) {
        double term = a * data.rhs.get(rhsIndex(k, j));
        // Per-group scales: each group's sum is scaled by its own scale.
        if (c.groupSize)
          term *= data.weightScales[r * c.scaleGroups() + k / c.groupSize];
        sum += term;
        magnitude += std::fabs(term);
      }
      if (c.result == "i32") {
        // Integer sums are exact (far from i32's range here).
        data.expected[r * n + j] = sum + previous[r * n + j];
        continue;
      }
      if (c.weightOnly() && !c.groupSize) {
        // f32 accumulation of the exact products w x (w converted exactly),
        // then one f32 product with the row's scale.
        sum *= static_cast<double>(data.weightScales[r]);
        magnitude *= static_cast<double>(data.weightScales[r]);
        magnitude += 2 * std::fabs(sum);
      }
      if (c.quantized()) {
        // The i32 sum is exact and converts to f32 exactly (below 2^24);
        // the two f32 scale products round once each.
        sum *= static_cast<double>(data.weightScales[r]) * data.inputScales[j];
        magnitude = 4 * std::fabs(sum);
      }
      double x = sum + previous[r * n + j];
      magnitude += std::fabs(previous[r * n + j]);
      if (c.bias) {
        x += data.bias.get(r);
        magnitude += std::fabs(data.bias.get(r));
      }
      double y = activate(c.activation, x);
      data.expected[r * n + j] = y;
      data.tolerance[r * n + j] =
          2 * u * std::fabs(y) + subnormalSpacing(c.result) +
          1.13 * (accumulation * magnitude) + 1e-6 * (std::fabs(x) + 1e-3);
    }
  }
  return data;
}

std::string CaseData::check(const SpmmCase &c) const {
  std::ostringstream report;
  int64_t wrong = 0, overwritten = 0;
  const int64_t ldc = c.ldc();
  // Y's storage row by row: (r, j) of the result, or past its N (or R).
  for (int64_t a = 0; a < c.outRows(); ++a)
    for (int64_t b = 0; b < ldc; ++b) {
      int64_t i = a * ldc + b;
      int64_t r = c.tokenMajorOut ? b : a, j = c.tokenMajorOut ? a : b;
      if (b >= c.outCols()) {
        if (out.bits(i) != out.poisonBits() && overwritten++ < 5)
          report << "  wrote storage (" << a << ", " << b << ") past its "
                 << c.outCols() << " elements\n";
        continue;
      }
      double got = out.get(i), want = expected[r * c.n + j];
      if (!(std::fabs(got - want) <= tolerance[r * c.n + j]) && wrong++ < 5)
        report << "  (" << r << ", " << j << "): got " << got << ", expected "
               << want << " (tolerance " << tolerance[r * c.n + j] << ")\n";
    }
  for (int64_t i = c.outRows() * ldc; i < out.size(); ++i)
    if (out.bits(i) != out.poisonBits() && overwritten++ < 5)
      report << "  wrote element " << i << " past the " << c.outRows()
             << " x ldc = " << ldc << " storage\n";
  if (!wrong && !overwritten)
    return "";
  std::ostringstream summary;
  summary << c.name() << " (seed " << seed << "): " << wrong
          << " wrong elements of " << c.rows * c.n << ", " << overwritten
          << " writes outside the result\n"
          << report.str();
  return summary.str();
}
