// Shared pieces of the wgmma.sp probes: CUDA error checks, the hypotheses
// about the sparse operands' layouts (the mma.sp layouts of ../MMA_SP.md
// applied per warp of the warpgroup), shared-memory layouts and descriptors.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(err_));                                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// The six sorted index pairs of a 2:4 group and their metadata nibbles
// (i0 | i1 << 2).
static const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3},
                                 {1, 2}, {1, 3}, {2, 3}};
inline uint32_t nibble(int pair) {
  return uint32_t(kPairs[pair][0] | (kPairs[pair][1] << 2));
}

// A 64-row, 2:4-sparse A operand over `cols` logical K columns: the kept
// pair of each (row, group), the compressed values and the dense matrix.
struct SparseA {
  int rows = 64, cols = 0;
  std::vector<int> pair;       // [rows][cols / 4]
  std::vector<int> compressed; // [rows][cols / 2], value p of group G at 2G+p
  std::vector<int> dense;      // [rows][cols]
};

inline SparseA makeSparseA(std::mt19937 &rng, int cols, int lo, int hi) {
  SparseA a;
  a.cols = cols;
  int groups = cols / 4;
  a.pair.resize(64 * groups);
  a.compressed.resize(64 * cols / 2);
  a.dense.assign(64 * cols, 0);
  std::uniform_int_distribution<int> pick(0, 5), value(lo, hi);
  for (int r = 0; r < 64; ++r)
    for (int g = 0; g < groups; ++g) {
      int p = pick(rng);
      a.pair[r * groups + g] = p;
      for (int q = 0; q < 2; ++q) {
        int v = 0;
        while (v == 0)
          v = value(rng);
        a.compressed[r * cols / 2 + 2 * g + q] = v;
        a.dense[r * cols + 4 * g + kPairs[p][q]] = v;
      }
    }
  return a;
}

// meta16 of MMA_SP.md: the nibbles of groups 4c..4c+3 of `row`, groups
// counted from `groupBase`.
inline uint32_t meta16(const SparseA &a, int row, int groupBase, int c) {
  uint32_t word = 0;
  for (int j = 0; j < 4; ++j)
    word |= nibble(a.pair[row * (a.cols / 4) + groupBase + 4 * c + j])
            << (4 * j);
  return word;
}

inline uint16_t halfBits(float v) {
  __half h = __float2half(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

// Byte offset swizzled as the wgmma canonical layouts read shared memory:
// the 16-byte chunk index (address bits 4..6) XOR the 128-byte row index
// (bits 7..9), on as many bits as the swizzle width has chunks.
inline uint32_t swizzle(uint32_t offset, int swizzleBytes) {
  uint32_t mask = swizzleBytes == 128  ? 7
                  : swizzleBytes == 64 ? 3
                  : swizzleBytes == 32 ? 1
                                       : 0;
  return offset ^ (((offset >> 7) & mask) << 4);
}

// Descriptor bits 62-63: 0 no swizzle (interleave), 1 128 B, 2 64 B, 3 32 B.
inline uint64_t layoutType(int swizzleBytes) {
  return swizzleBytes == 128  ? 1
         : swizzleBytes == 64 ? 2
         : swizzleBytes == 32 ? 3
                              : 0;
}

// A descriptor without its start address (added on the device): leading
// and stride byte offsets in 16-byte units, base offset 0 (1024-aligned
// tiles), the layout type.
inline uint64_t descriptorFields(uint32_t lbo, uint32_t sbo, int swizzleBytes) {
  return (uint64_t((lbo >> 4) & 0x3FFF) << 16) |
         (uint64_t((sbo >> 4) & 0x3FFF) << 32) |
         (layoutType(swizzleBytes) << 62);
}

__device__ __forceinline__ uint32_t sharedAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaWaitAll() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// mbarrier init, arrive and a wait for the phase of the given parity.
__device__ __forceinline__ void mbarrierInit(uint64_t *bar, int count) {
  asm volatile(
      "mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sharedAddress(bar)),
      "r"(count)
      : "memory");
}
__device__ __forceinline__ void mbarrierArrive(uint64_t *bar) {
  asm volatile(
      "mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(sharedAddress(bar))
      : "memory");
}
__device__ __forceinline__ void mbarrierWait(uint64_t *bar, int parity) {
  asm volatile("{\n.reg .pred done;\n"
               "wait_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra wait_%=;\n}\n" ::"r"(sharedAddress(bar)),
               "r"(parity)
               : "memory");
}
