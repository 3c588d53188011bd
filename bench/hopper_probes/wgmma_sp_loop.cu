// Probe of one warp-specialized K loop of a V:2:8 SpMM on wgmma.sp (sm_90a).
//
// C[R][N] = W[R][K] * B[K][N], W pruned to 64:2:8 (per 64-row block, 4 of
// every 8 columns kept (the column-loc), then 2:4 inside them), B
// feature-major f16 (N contiguous), C f32. One CTA computes a 64 x 128
// tile (one V block, one N tile) with 256 threads:
// * warpgroup 1 (producer, setmaxnreg.dec 40) gathers the 64 B rows that
//   the block's column-loc names for each pair of K steps into a ring of
//   stages, with 16-byte cp.async at the 128-byte-swizzled addresses of
//   the MN-major canonical layout; it waits for its copies, fences the
//   async proxy and arrives on the stage's full barrier;
// * warpgroup 0 (consumer, setmaxnreg.inc 232) waits on the full barrier,
//   loads its A fragments and one metadata word per pair (step 0 read by
//   selector 0, step 1 by selector 1) from global memory, issues two
//   wgmma.mma_async.sp m64n128k32 and, once they are done, arrives on the
//   stage's empty barrier.
// Both descriptor variants of the layout probe are run; fresh random
// integers (exact results), NaN-poisoned output, every element checked.
#include "probe_common.h"
#include "wgmma_ops.h"

namespace {

constexpr int kV = 64, kBN = 128, kStageRows = 64, kStages = 3;
constexpr int kStageBytes = kStageRows * kBN * 2; // 16 KiB
constexpr int kAtomBytes = 1024;                  // 8 rows x 128 B
constexpr int kNAtomStride = kStageRows * 128;    // one 64-column atom column


__global__ void __launch_bounds__(256, 1)
    vnmLoop(const uint4 *aFrags,  // [R/64][K'/32][128 threads] x 16 B
            const uint32_t *meta, // [R/64][K'/64][128 threads]
            const int *colloc,    // [R/64][K'] original K rows
            const __half *b,      // [K][N]
            float *c,             // [R][N]
            int n, int kPrime, uint64_t descFields) {
  extern __shared__ uint8_t smemRaw[];
  uint8_t *ring = reinterpret_cast<uint8_t *>(
      (reinterpret_cast<uintptr_t>(smemRaw) + 1023) & ~uintptr_t(1023));
  __shared__ __align__(8) uint64_t full[kStages], empty[kStages];
  int tid = threadIdx.x, block = blockIdx.y, n0 = blockIdx.x * kBN;
  int pairs = kPrime / 64;
  if (tid == 0)
    for (int s = 0; s < kStages; ++s) {
      mbarrierInit(&full[s], 128);
      mbarrierInit(&empty[s], 128);
    }
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  __syncthreads();

  if (tid >= 128) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    int p128 = tid - 128, chunk = p128 % 16, row0 = p128 / 16;
    const int *loc = colloc + block * kPrime;
    for (int p = 0; p < pairs; ++p) {
      int s = p % kStages;
      if (p >= kStages)
        mbarrierWait(&empty[s], ((p / kStages) & 1) ^ 1);
      uint32_t stage = sharedAddress(ring + s * kStageBytes);
      for (int i = 0; i < 8; ++i) {
        int row = row0 + 8 * i;
        const __half *src = b + size_t(loc[p * 64 + row]) * n + n0 + chunk * 8;
        uint32_t offset = (chunk / 8) * kNAtomStride + (row / 8) * kAtomBytes +
                          (row % 8) * 128 + (chunk % 8) * 16;
        uint32_t dst = stage + (offset ^ (((offset >> 7) & 7) << 4));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
                     "l"(src)
                     : "memory");
      }
      asm volatile("cp.async.commit_group;\n" ::: "memory");
      if (p >= 1) {
        asm volatile("cp.async.wait_group 1;\n" ::: "memory");
        fenceProxyAsync();
        mbarrierArrive(&full[(p - 1) % kStages]);
      }
    }
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    fenceProxyAsync();
    mbarrierArrive(&full[(pairs - 1) % kStages]);
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  float acc[64];
  for (int i = 0; i < 64; ++i)
    acc[i] = 0.f;
  uint32_t ringBase = sharedAddress(ring);
  for (int p = 0; p < pairs; ++p) {
    int s = p % kStages;
    mbarrierWait(&full[s], (p / kStages) & 1);
    uint32_t a0[4], a1[4];
    uint4 f0 = aFrags[(size_t(block) * (kPrime / 32) + 2 * p) * 128 + tid];
    uint4 f1 = aFrags[(size_t(block) * (kPrime / 32) + 2 * p + 1) * 128 + tid];
    a0[0] = f0.x, a0[1] = f0.y, a0[2] = f0.z, a0[3] = f0.w;
    a1[0] = f1.x, a1[1] = f1.y, a1[2] = f1.z, a1[3] = f1.w;
    uint32_t e = meta[(size_t(block) * pairs + p) * 128 + tid];
    uint32_t stage = ringBase + s * kStageBytes;
    wgmmaFence();
    wgmma_sp_f16_rs_n128<0, 1>(acc, a0, descFields | (stage >> 4), e, 1);
    wgmma_sp_f16_rs_n128<1, 1>(
        acc, a1, descFields | ((stage + 4 * kAtomBytes) >> 4), e, 1);
    wgmmaCommit();
    wgmmaWaitAll();
    mbarrierArrive(&empty[s]);
  }
  int w = tid / 32, l = tid % 32, g = l >> 2, t = l & 3;
  for (int i = 0; i < 64; ++i) {
    int j = i / 4, q = i % 4;
    int row = block * kV + 16 * w + g + 8 * (q >> 1);
    int col = n0 + 8 * j + 2 * t + (q & 1);
    c[size_t(row) * n + col] = acc[i];
  }
}

struct Problem {
  int r, k, n;
};

// Returns the number of wrong elements of C.
long runProblem(const Problem &pb, int variant, std::mt19937 &rng) {
  int blocks = pb.r / kV, kPrime = pb.k / 2, groups = pb.k / 8;
  // Column-loc: per block and group of 8 columns, 4 sorted kept columns.
  std::vector<int> colloc(blocks * kPrime);
  for (int v = 0; v < blocks; ++v)
    for (int grp = 0; grp < groups; ++grp) {
      int cols[8] = {0, 1, 2, 3, 4, 5, 6, 7};
      std::shuffle(cols, cols + 8, rng);
      std::sort(cols, cols + 4);
      for (int j = 0; j < 4; ++j)
        colloc[v * kPrime + 4 * grp + j] = 8 * grp + cols[j];
    }
  // Per block: a 2:4 matrix over the K' selected columns.
  std::vector<SparseA> a;
  for (int v = 0; v < blocks; ++v)
    a.push_back(makeSparseA(rng, kPrime, -3, 3));
  std::uniform_int_distribution<int> bValue(-3, 3);
  std::vector<float> bHost(size_t(pb.k) * pb.n);
  std::vector<__half> bHalf(bHost.size());
  for (size_t i = 0; i < bHost.size(); ++i) {
    bHost[i] = float(bValue(rng));
    bHalf[i] = __float2half(bHost[i]);
  }
  // Fragments and metadata in the consumer threads' order.
  int steps = kPrime / 32, pairs = kPrime / 64;
  std::vector<uint32_t> frags(size_t(blocks) * steps * 128 * 4);
  std::vector<uint32_t> meta(size_t(blocks) * pairs * 128);
  for (int v = 0; v < blocks; ++v)
    for (int tid = 0; tid < 128; ++tid) {
      int w = tid / 32, l = tid % 32, g = l >> 2, t = l & 3;
      for (int s = 0; s < steps; ++s)
        for (int r = 0; r < 4; ++r) {
          uint32_t word = 0;
          for (int h = 0; h < 2; ++h) {
            int row = 16 * w + g + 8 * (r & 1);
            int col = 16 * s + 8 * (r >> 1) + 2 * t + h;
            word |= uint32_t(halfBits(
                        float(a[v].compressed[row * kPrime / 2 + col])))
                    << (16 * h);
          }
          frags[((size_t(v) * steps + s) * 128 + tid) * 4 + r] = word;
        }
      for (int p = 0; p < pairs; ++p) {
        int s = 2 * p + (t >> 1); // lanes t = 0, 1: step 0; t = 2, 3: step 1
        int row = 16 * w + g;
        meta[(size_t(v) * pairs + p) * 128 + tid] =
            meta16(a[v], row, 8 * s, t & 1) |
            meta16(a[v], row + 8, 8 * s, t & 1) << 16;
      }
    }
  uint32_t lbo = variant == 0 ? kAtomBytes : kNAtomStride;
  uint32_t sbo = variant == 0 ? kNAtomStride : kAtomBytes;
  uint64_t fields = descriptorFields(lbo, sbo, 128);

  uint4 *dFrags;
  uint32_t *dMeta;
  int *dColloc;
  __half *dB;
  float *dC;
  size_t cCount = size_t(pb.r) * pb.n;
  CHECK_CUDA(cudaMalloc(&dFrags, frags.size() * 4));
  CHECK_CUDA(cudaMalloc(&dMeta, meta.size() * 4));
  CHECK_CUDA(cudaMalloc(&dColloc, colloc.size() * 4));
  CHECK_CUDA(cudaMalloc(&dB, bHalf.size() * 2));
  CHECK_CUDA(cudaMalloc(&dC, cCount * 4));
  CHECK_CUDA(cudaMemcpy(dFrags, frags.data(), frags.size() * 4,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dMeta, meta.data(), meta.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dColloc, colloc.data(), colloc.size() * 4,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dB, bHalf.data(), bHalf.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dC, 0xFF, cCount * 4));
  size_t smem = kStages * kStageBytes + 1024;
  CHECK_CUDA(cudaFuncSetAttribute(
      vnmLoop, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  dim3 grid(pb.n / kBN, blocks);
  vnmLoop<<<grid, 256, smem>>>(dFrags, dMeta, dColloc, dB, dC, pb.n, kPrime,
                               fields);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> cHost(cCount);
  CHECK_CUDA(cudaMemcpy(cHost.data(), dC, cCount * 4, cudaMemcpyDeviceToHost));
  cudaFree(dFrags);
  cudaFree(dMeta);
  cudaFree(dColloc);
  cudaFree(dB);
  cudaFree(dC);

  // Reference: the dense pruned W times B.
  long wrong = 0;
  for (int v = 0; v < blocks; ++v)
    for (int row = 0; row < kV; ++row)
      for (int col = 0; col < pb.n; ++col) {
        double ref = 0;
        for (int kp = 0; kp < kPrime; ++kp) {
          int wv = a[v].dense[row * kPrime + kp];
          if (wv)
            ref += double(wv) *
                   bHost[size_t(colloc[v * kPrime + kp]) * pb.n + col];
        }
        float got = cHost[size_t(v * kV + row) * pb.n + col];
        wrong += !(got == float(ref));
      }
  return wrong;
}

} // namespace

// Usage: wgmma_sp_loop PROBLEM VARIANT (one per process, as for the layout
// probe); PROBLEM 0: R=128 K=1024 N=256 (8 pairs per block), 1: R=256
// K=4096 N=384 (32 pairs): the ring wraps, both barrier parities are used.
int main(int argc, char **argv) {
  const Problem problems[] = {{128, 1024, 256}, {256, 4096, 384}};
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PROBLEM VARIANT\n", argv[0]);
    return 2;
  }
  int index = std::atoi(argv[1]), variant = std::atoi(argv[2]);
  if (index < 0 || index > 1 || variant < 0 || variant > 1) {
    std::fprintf(stderr, "no problem %d variant %d\n", index, variant);
    return 2;
  }
  std::random_device seed;
  std::mt19937 rng(seed());
  const Problem &pb = problems[index];
  long wrong = runProblem(pb, variant, rng);
  std::printf(
      "loop R=%d K=%d N=%d 64:2:8,%s,%s,%ld of %d wrong\n", pb.r, pb.k, pb.n,
      variant == 0 ? "lbo=k-atoms,sbo=mn-atoms" : "lbo=mn-atoms,sbo=k-atoms",
      wrong ? "fail" : "PASS", wrong, pb.r * pb.n);
  return wrong ? 1 : 0;
}
