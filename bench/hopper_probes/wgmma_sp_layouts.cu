// Probe of wgmma.mma_async.sp's operand layouts on sm_90a.
//
// Hypotheses under test (all data exact small integers, fresh each run):
// * A in registers, metadata and selector: warp w of the warpgroup holds
//   rows 16w..16w+15 in the mma.sp layouts of MMA_SP.md (f16 m16n8k32
//   per 32-column K step, s8 m16n8k64 per 64-column step); the lanes a
//   selector does not name carry other valid metadata, which must be
//   ignored.
// * "pair": two f16 K steps share one metadata register, step 0 issued
//   with selector 0 (lanes t = 0, 1), step 1 with selector 1 (t = 2, 3).
// * D: d[4j + q] = D[16w + g + 8(q >> 1)][8j + 2t + (q & 1)].
// * B in shared memory in each canonical layout (MN- or K-major, no
//   swizzle or 32/64/128-byte swizzle) described by a descriptor; both
//   assignments of the two atom strides to the leading/stride byte offset
//   fields are tried, and the K steps after the first start at the byte
//   offset of their first K row.
//
// Prints one line per (case, descriptor variant) and writes probes.csv and,
// for a failing case, its inputs and raw outputs, to the directory given.
#include "probe_common.h"
#include "wgmma_ops.h"

#include <fstream>

namespace {

enum class Elt { F16, S8 };

template <int N> struct F16Op {
  template <int Sel, int TransB>
  static __device__ void run(float (&d)[N / 2], const uint32_t (&a)[4],
                             uint64_t desc, uint32_t e) {
    if constexpr (N == 64)
      wgmma_sp_f16_rs_n64<Sel, TransB>(d, a, desc, e, 1);
    else if constexpr (N == 128)
      wgmma_sp_f16_rs_n128<Sel, TransB>(d, a, desc, e, 1);
    else
      wgmma_sp_f16_rs_n256<Sel, TransB>(d, a, desc, e, 1);
  }
};

/// Copies the B tile's shared-memory image (as the layout under test lays
/// it out) to the 1024-byte-aligned start of the dynamic shared memory and
/// fences it for the MMA's async proxy; returns its shared address.
__device__ uint32_t loadSharedImage(const uint4 *image, int chunks) {
  extern __shared__ uint8_t smemRaw[];
  uint8_t *smem = reinterpret_cast<uint8_t *>(
      (reinterpret_cast<uintptr_t>(smemRaw) + 1023) & ~uintptr_t(1023));
  for (int i = threadIdx.x; i < chunks; i += 128)
    reinterpret_cast<uint4 *>(smem)[i] = image[i];
  fenceProxyAsync();
  __syncthreads();
  return sharedAddress(smem);
}

// Steps K steps; Pair: step s uses selector s and metadata word 0.
template <int N, int Sel, int TransB, int Steps, bool Pair>
__global__ void __launch_bounds__(128)
    f16Probe(const uint32_t *aRegs, const uint32_t *meta, const uint4 *bImage,
             int bChunks, uint64_t descFields, int2 stepOffsets, float *d) {
  int tid = threadIdx.x;
  uint32_t base = loadSharedImage(bImage, bChunks);
  float acc[N / 2];
  for (int i = 0; i < N / 2; ++i)
    acc[i] = 0.f;
  int offsets[2] = {stepOffsets.x, stepOffsets.y};
  wgmmaFence();
#pragma unroll
  for (int s = 0; s < Steps; ++s) {
    uint32_t a[4];
    for (int r = 0; r < 4; ++r)
      a[r] = aRegs[(s * 128 + tid) * 4 + r];
    uint32_t e = meta[(Pair ? 0 : s) * 128 + tid];
    uint64_t desc = descFields | ((base + offsets[s]) >> 4);
    wgmmaFence();
    if (Pair && s == 1)
      F16Op<N>::template run<1, TransB>(acc, a, desc, e);
    else
      F16Op<N>::template run<Sel, TransB>(acc, a, desc, e);
    wgmmaCommit();
    wgmmaWaitAll();
  }
  for (int i = 0; i < N / 2; ++i)
    d[tid * (N / 2) + i] = acc[i];
}

template <int N>
__global__ void __launch_bounds__(128)
    s8Probe(const uint32_t *aRegs, const uint32_t *meta, const uint4 *bImage,
            int bChunks, uint64_t descFields, int2 stepOffsets, int32_t *d) {
  int tid = threadIdx.x;
  uint32_t base = loadSharedImage(bImage, bChunks);
  int32_t acc[N / 2];
  for (int i = 0; i < N / 2; ++i)
    acc[i] = 0;
  int offsets[2] = {stepOffsets.x, stepOffsets.y};
  wgmmaFence();
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    uint32_t a[4];
    for (int r = 0; r < 4; ++r)
      a[r] = aRegs[(s * 128 + tid) * 4 + r];
    uint64_t desc = descFields | ((base + offsets[s]) >> 4);
    wgmmaFence();
    if constexpr (N == 64)
      wgmma_sp_s8_rs_n64<0>(acc, a, desc, meta[s * 128 + tid], 1);
    else
      wgmma_sp_s8_rs_n128<0>(acc, a, desc, meta[s * 128 + tid], 1);
    wgmmaCommit();
    wgmmaWaitAll();
  }
  for (int i = 0; i < N / 2; ++i)
    d[tid * (N / 2) + i] = acc[i];
}

// One case: element type, N, B's majorness and swizzle, K steps, selector.
struct Case {
  std::string name;
  Elt elt;
  int n;
  bool mnMajor;
  int swizzle; // bytes; 16 = no swizzle (interleaved core matrices)
  int steps;
  int sel;   // f16 only
  bool pair; // f16, steps == 2
};

struct ProbeArgs {
  const uint32_t *aRegs, *meta;
  const uint4 *bImage;
  int bChunks;
  uint64_t descFields;
  int2 stepOffsets;
  void *d;
  size_t smem;
};

template <typename Out>
void launchProbe(void (*kernel)(const uint32_t *, const uint32_t *,
                                const uint4 *, int, uint64_t, int2, Out *),
                 const ProbeArgs &p) {
  CHECK_CUDA(cudaFuncSetAttribute(
      kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(p.smem)));
  kernel<<<1, 128, p.smem>>>(p.aRegs, p.meta, p.bImage, p.bChunks, p.descFields,
                             p.stepOffsets, static_cast<Out *>(p.d));
}

template <int Sel, int TransB, int Steps, bool Pair>
void launchF16ByN(int n, const ProbeArgs &p) {
  if (n == 64)
    launchProbe(f16Probe<64, Sel, TransB, Steps, Pair>, p);
  else if (n == 128)
    launchProbe(f16Probe<128, Sel, TransB, Steps, Pair>, p);
  else
    launchProbe(f16Probe<256, Sel, TransB, Steps, Pair>, p);
}

template <int TransB> void launchF16Major(const Case &c, const ProbeArgs &p) {
  if (c.pair)
    launchF16ByN<0, TransB, 2, true>(c.n, p);
  else if (c.steps == 2)
    launchF16ByN<0, TransB, 2, false>(c.n, p);
  else if (c.sel == 1)
    launchF16ByN<1, TransB, 1, false>(c.n, p);
  else
    launchF16ByN<0, TransB, 1, false>(c.n, p);
}

void launchF16(const Case &c, const ProbeArgs &p) {
  if (c.mnMajor)
    launchF16Major<1>(c, p);
  else
    launchF16Major<0>(c, p);
}

// The byte offset of B[k][n] in the tile before the swizzle, and the two
// atom strides: atoms are 8 rows (K rows for MN-major, N rows for K-major)
// of `swizzle` bytes; MN-major tiles keep a column of atoms along K
// contiguous, K-major tiles a row of atoms along N.
struct BLayout {
  int kTotal, n, elt, swizzle;
  bool mnMajor;
  uint32_t mnAtomStride() const {
    return mnMajor ? uint32_t(kTotal * swizzle) : uint32_t(8 * swizzle);
  }
  uint32_t kAtomStride() const {
    return mnMajor ? uint32_t(8 * swizzle) : uint32_t(n * swizzle);
  }
  uint32_t offset(int k, int col) const {
    int perRow = swizzle / elt; // elements of one atom row
    if (mnMajor)
      return (col / perRow) * mnAtomStride() + (k / 8) * kAtomStride() +
             (k % 8) * swizzle + (col % perRow) * elt;
    return (k / perRow) * kAtomStride() + (col / 8) * mnAtomStride() +
           (col % 8) * swizzle + (k % perRow) * elt;
  }
  uint32_t bytes() const { return uint32_t(kTotal * n * elt); }
};

struct Result {
  uint32_t lbo = 0, sbo = 0;
  bool pass = false;
  int mismatches = 0;
  double maxErr = 0;
};

std::mt19937 &rng() {
  static std::mt19937 gen(std::random_device{}());
  return gen;
}

void writeFile(const std::string &path, const void *data, size_t bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char *>(data), std::streamsize(bytes));
}

// Runs one case with one descriptor variant (0: LBO = K-atom stride, SBO =
// MN-atom stride; 1: swapped).
Result runCase(const Case &c, int variant, const std::string &dumpDir) {
  bool f16 = c.elt == Elt::F16;
  int elt = f16 ? 2 : 1;
  int stepK = f16 ? 32 : 64;
  int kTotal = stepK * c.steps;
  SparseA a = makeSparseA(rng(), kTotal, f16 ? -4 : -8, f16 ? 4 : 8);
  std::uniform_int_distribution<int> bValue(f16 ? -4 : -8, f16 ? 4 : 8);
  std::vector<int> b(kTotal * c.n);
  for (int &v : b)
    v = bValue(rng());
  BLayout layout{kTotal, c.n, elt, c.swizzle, c.mnMajor};
  std::vector<uint8_t> image(layout.bytes());
  for (int k = 0; k < kTotal; ++k)
    for (int n = 0; n < c.n; ++n) {
      uint32_t at = swizzle(layout.offset(k, n), c.swizzle);
      if (f16) {
        uint16_t h = halfBits(float(b[k * c.n + n]));
        std::memcpy(&image[at], &h, 2);
      } else {
        image[at] = uint8_t(int8_t(b[k * c.n + n]));
      }
    }
  int2 stepOffsets{0, int(layout.offset(stepK, 0))};

  // A registers and metadata per step and thread.
  std::vector<uint32_t> aRegs(c.steps * 128 * 4), meta(c.steps * 128);
  std::uniform_int_distribution<int> decoyPair(0, 5);
  for (int s = 0; s < c.steps; ++s)
    for (int tid = 0; tid < 128; ++tid) {
      int w = tid / 32, l = tid % 32, g = l >> 2, t = l & 3;
      int colBase = s * stepK / 2; // compressed columns of earlier steps
      for (int r = 0; r < 4; ++r) {
        uint32_t word = 0;
        if (f16) {
          for (int h = 0; h < 2; ++h) {
            int row = 16 * w + g + 8 * (r & 1);
            int col = colBase + 8 * (r >> 1) + 2 * t + h;
            word |=
                uint32_t(halfBits(float(a.compressed[row * kTotal / 2 + col])))
                << (16 * h);
          }
        } else {
          for (int byte = 0; byte < 4; ++byte) {
            int row = 16 * w + g + 8 * (r & 1);
            int col = colBase + 16 * (r >> 1) + 4 * t + byte;
            word |=
                uint32_t(uint8_t(int8_t(a.compressed[row * kTotal / 2 + col])))
                << (8 * byte);
          }
        }
        aRegs[(s * 128 + tid) * 4 + r] = word;
      }
      int groupBase = s * stepK / 4;
      uint32_t e;
      if (f16) {
        int row = 16 * w + g;
        uint32_t word = meta16(a, row, groupBase, t & 1) |
                        meta16(a, row + 8, groupBase, t & 1) << 16;
        int readBy = c.pair ? s : c.sel; // the selector naming this step
        if (c.pair) {
          // One word per thread: lanes t>>1 == s carry step s.
          if ((t >> 1) != s)
            continue;
          meta[tid] = word;
          continue;
        }
        uint32_t decoy = 0;
        for (int j = 0; j < 8; ++j)
          decoy |= nibble(decoyPair(rng())) << (4 * j);
        e = (t >> 1) == readBy ? word : decoy;
      } else {
        int row = 16 * w + g + 8 * (t & 1);
        e = meta16(a, row, groupBase, 2 * (t >> 1)) |
            meta16(a, row, groupBase, 2 * (t >> 1) + 1) << 16;
      }
      meta[s * 128 + tid] = e;
    }

  uint32_t lbo = variant == 0 ? layout.kAtomStride() : layout.mnAtomStride();
  uint32_t sbo = variant == 0 ? layout.mnAtomStride() : layout.kAtomStride();
  uint64_t fields = descriptorFields(lbo, sbo, c.swizzle);

  uint32_t *dA, *dMeta;
  uint4 *dB;
  void *dD;
  size_t dBytes = 128 * (c.n / 2) * 4;
  CHECK_CUDA(cudaMalloc(&dA, aRegs.size() * 4));
  CHECK_CUDA(cudaMalloc(&dMeta, meta.size() * 4));
  CHECK_CUDA(cudaMalloc(&dB, image.size()));
  CHECK_CUDA(cudaMalloc(&dD, dBytes));
  CHECK_CUDA(
      cudaMemcpy(dA, aRegs.data(), aRegs.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dMeta, meta.data(), meta.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dB, image.data(), image.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dD, 0xFF, dBytes)); // NaN / -1 poison
  int chunks = int(image.size() / 16);
  size_t smem = image.size() + 1024;
  ProbeArgs args{dA, dMeta, dB, chunks, fields, stepOffsets, dD, smem};
  if (f16)
    launchF16(c, args);
  else if (c.n == 64)
    launchProbe(s8Probe<64>, args);
  else
    launchProbe(s8Probe<128>, args);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint32_t> raw(128 * (c.n / 2));
  CHECK_CUDA(cudaMemcpy(raw.data(), dD, dBytes, cudaMemcpyDeviceToHost));
  cudaFree(dA);
  cudaFree(dMeta);
  cudaFree(dB);
  cudaFree(dD);

  // The reference: the dense product, compared through the D hypothesis.
  Result res;
  res.lbo = lbo;
  res.sbo = sbo;
  for (int tid = 0; tid < 128; ++tid) {
    int w = tid / 32, l = tid % 32, g = l >> 2, t = l & 3;
    for (int i = 0; i < c.n / 2; ++i) {
      int j = i / 4, q = i % 4;
      int row = 16 * w + g + 8 * (q >> 1), col = 8 * j + 2 * t + (q & 1);
      long ref = 0;
      for (int k = 0; k < kTotal; ++k)
        ref += long(a.dense[row * kTotal + k]) * b[k * c.n + col];
      double got;
      uint32_t bits = raw[tid * (c.n / 2) + i];
      if (f16) {
        float fv;
        std::memcpy(&fv, &bits, 4);
        got = fv;
      } else {
        got = double(int32_t(bits));
      }
      double err = got == got ? std::abs(got - double(ref)) : 1e30;
      res.maxErr = std::max(res.maxErr, err);
      res.mismatches += err != 0;
    }
  }
  res.pass = res.mismatches == 0;
  if (!res.pass && !dumpDir.empty()) {
    std::string stem = dumpDir + "/" + c.name + "-v" + std::to_string(variant);
    writeFile(stem + "-a-dense.i32", a.dense.data(), a.dense.size() * 4);
    writeFile(stem + "-b.i32", b.data(), b.size() * 4);
    writeFile(stem + "-d-raw.u32", raw.data(), raw.size() * 4);
    writeFile(stem + "-a-regs.u32", aRegs.data(), aRegs.size() * 4);
    writeFile(stem + "-meta.u32", meta.data(), meta.size() * 4);
  }
  return res;
}

} // namespace

// Usage: wgmma_sp_layouts --list | OUT_DIR CASE VARIANT. One (case,
// descriptor variant) per process: a wrong descriptor can make the MMA read
// outside shared memory, which ends the CUDA context.
int main(int argc, char **argv) {
  std::vector<Case> cases;
  // f16, MN-major B (feature-major activations, gathered rows), each
  // swizzle, both selectors, the shared-metadata pair, N 64/128/256.
  for (int sw : {128, 64, 32, 16})
    for (int sel : {0, 1})
      cases.push_back(
          {"f16-mn-sw" + std::to_string(sw) + "-n128-sel" + std::to_string(sel),
           Elt::F16, 128, true, sw, 1, sel, false});
  for (int n : {64, 256})
    cases.push_back({"f16-mn-sw128-n" + std::to_string(n) + "-sel0", Elt::F16,
                     n, true, 128, 1, 0, false});
  cases.push_back(
      {"f16-mn-sw128-n128-2steps", Elt::F16, 128, true, 128, 2, 0, false});
  cases.push_back(
      {"f16-mn-sw128-n128-pair", Elt::F16, 128, true, 128, 2, 0, true});
  // f16, K-major B (token-major activations): one K step per 64-byte atom
  // row, and two steps inside one 128-byte atom row.
  cases.push_back(
      {"f16-k-sw64-n128-sel0", Elt::F16, 128, false, 64, 1, 0, false});
  cases.push_back(
      {"f16-k-sw128-n128-2steps", Elt::F16, 128, false, 128, 2, 0, false});
  cases.push_back(
      {"f16-k-sw128-n128-pair", Elt::F16, 128, false, 128, 2, 0, true});
  // s8: K-major only; two 64-byte K steps inside one 128-byte atom row.
  for (int n : {64, 128})
    cases.push_back({"s8-k-sw128-n" + std::to_string(n) + "-2steps", Elt::S8, n,
                     false, 128, 2, 0, false});

  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const Case &c : cases)
      std::printf("%s\n", c.name.c_str());
    return 0;
  }
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s --list | OUT_DIR CASE VARIANT\n", argv[0]);
    return 2;
  }
  std::string out = argv[1];
  int index = std::atoi(argv[2]), variant = std::atoi(argv[3]);
  if (index < 0 || index >= int(cases.size()) || variant < 0 || variant > 1) {
    std::fprintf(stderr, "no case %d variant %d\n", index, variant);
    return 2;
  }
  const Case &c = cases[index];
  Result r = runCase(c, variant, out);
  const char *desc =
      variant == 0 ? "lbo=k-atoms,sbo=mn-atoms" : "lbo=mn-atoms,sbo=k-atoms";
  std::printf("%s,%s,%u,%u,%s,%d,%g\n", c.name.c_str(), desc, r.lbo, r.sbo,
              r.pass ? "PASS" : "fail", r.mismatches, r.maxErr);
  return r.pass ? 0 : 1;
}
