// Probe of the warp-specialized wgmma.sp kernel that the Hopper tile
// programs are to take (docs/hopper.md sections 5 and 6), timed next to
// cuBLAS.
//
// C[R][N] (f16) = W[R][K] * B[K][N], W pruned to V:2:M (per V-row block, 4
// of every M columns kept, the column-loc, then 2:4 inside them; M = 4 is
// plain 2:4 and gathers nothing), B feature-major f16, f32 accumulators.
// One CTA computes a 128 x 256 tile with 384 threads (a 64 x 256 tile with
// 256 threads: one consumer, for the V = 64 gathers):
// * warpgroup 0 produces (setmaxnreg.dec 88): for each pair of K steps (64
//   kept B rows) it waits for a free ring stage (empty barrier), copies the
//   B rows the column-loc names into the 128-byte-swizzled MN-major layout
//   of the B descriptor, and the consumers' A fragments and metadata words
//   in the order the consumer threads read them. The B sources (BSource)
//   differ in how: 16-byte cp.async from all 128 producer threads (the
//   column-loc read a pair ahead; a stage is handed over stages - 2 pairs
//   after its copies start: cp.async.wait_group, fence.proxy.async, arrive
//   on the full barrier), or TMA boxes and 1-D bulk copies issued by one
//   thread or warp, which complete the full barrier by bytes; with a
//   cluster, two CTAs of consecutive row blocks each load half of a B tile
//   and multicast it to both.
// * warpgroups 1 and 2 consume (setmaxnreg.inc 208), 64 rows each: wait on
//   the full barrier, load A and metadata from the stage (ld.shared), issue
//   the pair's two wgmma.mma_async.sp m64n256k32 and commit them, then
//   wait until only this pair is in flight (wgmma.wait_group 1) and release
//   the previous pair's stage. A lives in two register sets (the loop is
//   unrolled by two), so a pair's A is never overwritten under its running
//   MMAs.
// The two consumers share one gathered B tile when they lie in one V block
// (V >= 128, or M = 4); at V = 64 each has its own, or a CTA has one
// consumer.
//
// Every run: fresh random small integers (exact f32 sums; f16 results
// compared with the exact sum rounded to f16), outputs poisoned with NaN,
// every element of the small problems and 65536 sampled elements of the
// large ones checked. Timing: CUDA events, 3 warm-ups, the median of 20
// runs, B and C rotated over copies that exceed the L2, cuBLAS
// (cublasGemmEx f16 in/out, f32 compute) timed on the same shapes in the
// same process.
#include "probe_common.h"
#include "wgmma_ops.h"

#include <cublas_v2.h>
#include <cuda.h>

namespace {

constexpr int kBN = 256, kPairRows = 64;
constexpr int kBTileBytes = kPairRows * kBN * 2; // 32 KiB
constexpr int kAtomBytes = 1024;                 // 8 rows x 128 B
constexpr int kNAtomStride = kPairRows * 128;    // 64 columns, all rows
constexpr int kAPairBytes = 2 * 128 * 16;        // one consumer's A
constexpr int kMetaPairBytes = 128 * 4;          // one consumer's meta
constexpr int kProducerThreads = 128;

// Where a CTA's B rows come from and how many consumers read them.
enum BSource {
  kDense = 0,        // M = 4: consecutive rows, two consumers
  kSharedGather = 1, // one column-loc for both consumers (V >= 128)
  kOwnGather = 2,    // V = 64: a gathered tile per consumer
  kSingleGather = 3, // V = 64: one consumer per CTA
  kDenseTma = 4,     // M = 4 with TMA: one producer thread issues bulk copies
  kSharedGatherTma = 5, // V >= 128 with TMA: one box per gathered row
  kSingleGatherTma = 6, // V = 64, one consumer, TMA per gathered row
  kDenseTmaCluster = 7, // M = 4, TMA, a cluster of two row blocks sharing B
};

template <int Src> struct Ring {
  static constexpr int kConsumers =
      Src == kSingleGather || Src == kSingleGatherTma ? 1 : 2;
  static constexpr int kBM = 64 * kConsumers;
  static constexpr int kThreads = kProducerThreads * (1 + kConsumers);
  static constexpr int kBTiles = Src == kOwnGather ? 2 : 1;
  static constexpr int kStages = Src == kOwnGather ? 3
                                 : kConsumers == 1 ? 6
                                                   : 5;
  // Two CTAs of consecutive row blocks (one cluster) share each B tile:
  // each loads half of its boxes and multicasts them to both.
  static constexpr bool kCluster = Src == kDenseTmaCluster;
  static constexpr bool kTma = Src == kDenseTma || Src == kSharedGatherTma ||
                               Src == kSingleGatherTma || kCluster;
  static constexpr bool kGather =
      Src != kDense && Src != kDenseTma && Src != kDenseTmaCluster;
  // Releases a stage needs: every consumer thread, or with a cluster one
  // per consumer warp of both CTAs (their producers write both copies).
  static constexpr int kReleases =
      kCluster ? 2 * kConsumers * 4 : kConsumers * 128;
  // Copy groups in flight past the newest one: the producer hands pair p
  // over while copying pair p + kLag. kLag = kStages - 1 would deadlock
  // (the producer would wait for a slot that only its own hand-over frees).
  static constexpr int kLag = kStages - 2;
  static constexpr int kAOffset = kBTiles * kBTileBytes;
  static constexpr int kMetaOffset = kAOffset + kConsumers * kAPairBytes;
  // Stages start on 1024-byte boundaries (the B tile's swizzle atoms).
  static constexpr int kStageBytes =
      (kMetaOffset + kConsumers * kMetaPairBytes + 1023) / 1024 * 1024;
  static constexpr size_t kSmem = size_t(kStages) * kStageBytes + 1024;
};

__device__ __forceinline__ void cpAsync16(uint32_t dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
               "l"(src)
               : "memory");
}
__device__ __forceinline__ void wgmmaWait1() {
  asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
}
__device__ __forceinline__ uint4 ldShared16(uint32_t address) {
  uint4 v;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(address));
  return v;
}
__device__ __forceinline__ uint32_t ldShared4(uint32_t address) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(address));
  return v;
}

// TMA and bulk copies (kDenseTma): the stage's B tile as four boxes of 64
// columns x 64 rows, each 8 KiB atom column written 128-byte swizzled by
// the copy engine (the layout the B descriptor names), A and metadata as
// 1-D bulk copies; all complete on the stage's full barrier by bytes.
__device__ __forceinline__ void mbarrierExpectBytes(uint64_t *bar,
                                                    uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   sharedAddress(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void tmaLoad2d(uint32_t dst, const CUtensorMap *map,
                                          int x, int y, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y),
               "r"(sharedAddress(bar))
               : "memory");
}
__device__ __forceinline__ void bulkLoad(uint32_t dst, const void *src,
                                         uint32_t bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(sharedAddress(bar))
               : "memory");
}

__device__ __forceinline__ void tmaLoad2dMulticast(uint32_t dst,
                                                   const CUtensorMap *map,
                                                   int x, int y, uint64_t *bar,
                                                   uint16_t ctaMask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], "
               "[%4], %5;\n" ::"r"(dst),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y),
               "r"(sharedAddress(bar)), "h"(ctaMask)
               : "memory");
}
__device__ __forceinline__ uint32_t clusterRank() {
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}
__device__ __forceinline__ void clusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
}
// Arrives on the mbarrier at `bar`'s offset in CTA `rank` of the cluster,
// with release semantics at cluster scope or (`ctaScope`) at the default
// CTA scope.
__device__ __forceinline__ void
mbarrierArriveCluster(uint64_t *bar, uint32_t rank, bool ctaScope) {
  if (ctaScope)
    asm volatile("{\n.reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(
                     sharedAddress(bar)),
                 "r"(rank)
                 : "memory");
  else
    asm volatile("{\n.reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.release.cluster.shared::cluster.b64 _, "
                 "[remote];\n}\n" ::"r"(sharedAddress(bar)),
                 "r"(rank)
                 : "memory");
}

struct Args {
  const uint4 *aFrags;  // [R/64][K'/32][128 threads] x 16 B
  const uint32_t *meta; // [R/64][K'/64][128 threads]
  const int *colloc;    // [R/V][K'] original K rows (unused for M = 4)
  const __half *b;      // [K][N]
  __half *c;            // [R][N]
  int n, kPrime, v;
  uint64_t descFields;
  // Cluster variant only: 0 loads every box into the own CTA (the cluster's
  // barriers without multicast), to tell the two apart when one fails.
  int multicast = 1;
  // Cluster variant only: 1 releases a stage with CTA-scope arrivals
  // (PROBE_ARRIVE_CTA=1) instead of cluster-scope ones.
  int ctaScopeRelease = 0;
  // 1 copies each consumer's A and metadata of a pair in four pieces (the
  // 16-row tiles the compiler's kernel copies one by one) instead of one
  // (PROBE_SPLIT_A=1): the same bytes in four times the copies; 2 issues
  // the pieces from one lane each instead of all from lane 0.
  int splitA = 0;
};

// One consumer pair: A and metadata from the stage, the two MMAs.
__device__ __forceinline__ void consumePair(float (&acc)[128], uint32_t stage,
                                            uint32_t aBase, uint32_t metaBase,
                                            uint32_t bBase, uint64_t fields,
                                            uint32_t (&a0)[4],
                                            uint32_t (&a1)[4]) {
  uint4 f0 = ldShared16(stage + aBase);
  uint4 f1 = ldShared16(stage + aBase + 2048);
  uint32_t e = ldShared4(stage + metaBase);
  a0[0] = f0.x, a0[1] = f0.y, a0[2] = f0.z, a0[3] = f0.w;
  a1[0] = f1.x, a1[1] = f1.y, a1[2] = f1.z, a1[3] = f1.w;
  // The descriptor holds bits 4..17 of the address: in a cluster the
  // shared window of a CTA other than rank 0 sets higher bits, which would
  // otherwise spill into the leading byte offset.
  uint32_t b = (stage + bBase) & 0x3FFFF;
  wgmmaFence();
  wgmma_sp_f16_rs_n256<0, 1>(acc, a0, fields | (b >> 4), e, 1);
  wgmma_sp_f16_rs_n256<1, 1>(acc, a1, fields | ((b + 4 * kAtomBytes) >> 4), e,
                             1);
  wgmmaCommit();
}

template <int Src>
__global__ void __launch_bounds__(Ring<Src>::kThreads, 1)
    spmmWs(Args args, const __grid_constant__ CUtensorMap bMap) {
  using R = Ring<Src>;
  extern __shared__ uint8_t smemRaw[];
  uint8_t *ring = reinterpret_cast<uint8_t *>(
      (reinterpret_cast<uintptr_t>(smemRaw) + 1023) & ~uintptr_t(1023));
  __shared__ __align__(8) uint64_t full[R::kStages], empty[R::kStages];
  int tid = threadIdx.x, n0 = blockIdx.x * kBN, r0 = blockIdx.y * R::kBM;
  int pairs = args.kPrime / 64, steps = args.kPrime / 32;
  if (tid == 0)
    for (int s = 0; s < R::kStages; ++s) {
      mbarrierInit(&full[s], R::kTma ? 1 : kProducerThreads);
      mbarrierInit(&empty[s], R::kReleases);
    }
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  // The peer's barriers are initialized before anything arrives on them.
  if constexpr (R::kCluster)
    clusterSync();
  else
    __syncthreads();
  uint32_t ringBase = sharedAddress(ring);

  if (tid < kProducerThreads) {
    // With one consumer (256 threads) every thread has registers enough.
    if constexpr (R::kConsumers == 2)
      asm volatile("setmaxnreg.dec.sync.aligned.u32 88;\n");
    if constexpr (R::kTma) {
      // One warp issues every copy; the copy engine writes the stage and
      // completes its full barrier when all its bytes have landed. A
      // gathered row is one box of each 64-column atom column, written at
      // its row's place (the swizzle follows the shared address).
      // With a cluster every thread meets the final cluster barrier.
      auto leave = [&] {
        if constexpr (R::kCluster)
          clusterSync();
      };
      if (tid >= 32)
        return leave();
      int lane = tid;
      constexpr uint32_t kBytes =
          kBTileBytes + R::kConsumers * (kAPairBytes + kMetaPairBytes);
      const int *loc = args.colloc + size_t(r0 / args.v) * args.kPrime;
      int rows[2] = {0, 0}; // lane's rows lane and lane + 32, a pair ahead
      if (R::kGather && pairs > 0)
        rows[0] = __ldg(loc + lane), rows[1] = __ldg(loc + lane + 32);
      for (int p = 0; p < pairs; ++p) {
        int s = p % R::kStages;
        if (p >= R::kStages)
          mbarrierWait(&empty[s], ((p / R::kStages) & 1) ^ 1);
        uint32_t stage = ringBase + s * R::kStageBytes;
        if (lane == 0)
          mbarrierExpectBytes(&full[s], kBytes);
        __syncwarp();
        if constexpr (R::kGather) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            int row = lane + 32 * h;
            for (int j = 0; j < kBN / 64; ++j)
              tmaLoad2d(stage + j * kNAtomStride + row * 128, &bMap,
                        n0 + 64 * j, rows[h], &full[s]);
          }
          if (p + 1 < pairs)
            rows[0] = __ldg(loc + (p + 1) * 64 + lane),
            rows[1] = __ldg(loc + (p + 1) * 64 + lane + 32);
        } else if (lane == 0 && R::kCluster && args.multicast) {
          // This CTA's half of the atom columns, into both CTAs.
          uint32_t rank = clusterRank();
          for (int j = 2 * rank; j < 2 * rank + 2; ++j)
            tmaLoad2dMulticast(stage + j * kNAtomStride, &bMap, n0 + 64 * j,
                               p * 64, &full[s], 0x3);
        } else if (lane == 0) {
          for (int j = 0; j < kBN / 64; ++j)
            tmaLoad2d(stage + j * kNAtomStride, &bMap, n0 + 64 * j, p * 64,
                      &full[s]);
        }
        // Piece i of `pieces` of consumer w's A and metadata of pair p.
        auto copyA = [&](int w, int i, int pieces) {
          size_t block = (r0 + 64 * w) / 64;
          bulkLoad(stage + R::kAOffset + w * kAPairBytes +
                       i * (kAPairBytes / pieces),
                   args.aFrags + (block * steps + 2 * p) * 128 +
                       i * (kAPairBytes / pieces / 16),
                   kAPairBytes / pieces, &full[s]);
          bulkLoad(stage + R::kMetaOffset + w * kMetaPairBytes +
                       i * (kMetaPairBytes / pieces),
                   args.meta + (block * pairs + p) * 128 +
                       i * (kMetaPairBytes / pieces / 4),
                   kMetaPairBytes / pieces, &full[s]);
        };
        if (args.splitA == 2) {
          // One lane per piece: the split copies issued in parallel.
          if (lane < R::kConsumers * 4)
            copyA(lane / 4, lane % 4, 4);
        } else if (lane == 0) {
          int pieces = args.splitA ? 4 : 1;
          for (int w = 0; w < R::kConsumers; ++w)
            for (int i = 0; i < pieces; ++i)
              copyA(w, i, pieces);
        }
      }
      return leave();
    }
    int lane = tid % 32, warp = tid / 32;
    // The B rows of the next pair (warp w copies rows w, w + 4, ...),
    // read one pair ahead so that their loads overlap the copies.
    int rows[R::kBTiles][16];
    auto readRows = [&](int p) {
#pragma unroll
      for (int tile = 0; tile < R::kBTiles; ++tile) {
        const int *loc = args.colloc +
                         size_t((r0 + 64 * tile) / args.v) * args.kPrime +
                         p * 64;
#pragma unroll
        for (int i = 0; i < 16; ++i)
          rows[tile][i] =
              Src == kDense ? p * 64 + warp + 4 * i : __ldg(loc + warp + 4 * i);
      }
    };
    if (pairs > 0)
      readRows(0);
    for (int p = 0; p < pairs; ++p) {
      int s = p % R::kStages;
      if (p >= R::kStages)
        mbarrierWait(&empty[s], ((p / R::kStages) & 1) ^ 1);
      uint32_t stage = ringBase + s * R::kStageBytes;
      // B: each row's 512 bytes by the warp's 32 lanes (lane = 16-byte
      // chunk).
#pragma unroll
      for (int tile = 0; tile < R::kBTiles; ++tile) {
        uint32_t tileBase =
            stage + tile * kBTileBytes + (lane / 8) * kNAtomStride;
#pragma unroll
        for (int i = 0; i < 16; ++i) {
          int row = warp + 4 * i;
          uint32_t dst = tileBase + (row / 8) * kAtomBytes + (row % 8) * 128 +
                         (((lane % 8) ^ (row % 8)) * 16);
          cpAsync16(dst,
                    args.b + size_t(rows[tile][i]) * args.n + n0 + lane * 8);
        }
      }
      if (p + 1 < pairs)
        readRows(p + 1);
        // A: the consumers' two steps, 4 KiB each, contiguous in global
        // memory; metadata: 512 bytes each.
#pragma unroll
      for (int j = 0; j < 2 * R::kConsumers; ++j) {
        int index = tid + 128 * j, w = index / 256, within = index % 256;
        const uint4 *src = args.aFrags +
                           (size_t((r0 + 64 * w) / 64) * steps + 2 * p) * 128 +
                           within;
        cpAsync16(stage + R::kAOffset + w * kAPairBytes + within * 16, src);
      }
      if (tid < 32 * R::kConsumers) {
        int w = tid / 32, within = tid % 32;
        const uint4 *src =
            reinterpret_cast<const uint4 *>(
                args.meta + (size_t((r0 + 64 * w) / 64) * pairs + p) * 128) +
            within;
        cpAsync16(stage + R::kMetaOffset + w * kMetaPairBytes + within * 16,
                  src);
      }
      asm volatile("cp.async.commit_group;\n" ::: "memory");
      // Pair p - lag has landed once at most `lag` newer groups are in
      // flight: fence it for the MMAs' async proxy and hand it over.
      if (p >= R::kLag) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(R::kLag) : "memory");
        fenceProxyAsync();
        mbarrierArrive(&full[(p - R::kLag) % R::kStages]);
      }
    }
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    fenceProxyAsync();
    for (int q = pairs > R::kLag ? pairs - R::kLag : 0; q < pairs; ++q)
      mbarrierArrive(&full[q % R::kStages]);
    return;
  }

  if constexpr (R::kConsumers == 2)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 208;\n");
  int ct = tid - kProducerThreads, wg = ct / 128, t128 = ct % 128;
  float acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i)
    acc[i] = 0.f;
  uint32_t aBase = R::kAOffset + wg * kAPairBytes + t128 * 16;
  uint32_t metaBase = R::kMetaOffset + wg * kMetaPairBytes + t128 * 4;
  uint32_t bBase = Src == kOwnGather ? wg * kBTileBytes : 0;
  // Two register sets for A: pair p uses set p % 2, and the set is loaded
  // again only after wgmma.wait_group 1 has retired pair p.
  uint32_t aEven0[4], aEven1[4], aOdd0[4], aOdd1[4];
  auto release = [&](int stage) {
    if constexpr (R::kCluster) {
      __syncwarp();
      if (t128 % 32 == 0) {
        mbarrierArriveCluster(&empty[stage], 0, args.ctaScopeRelease);
        mbarrierArriveCluster(&empty[stage], 1, args.ctaScopeRelease);
      }
    } else {
      mbarrierArrive(&empty[stage]);
    }
  };
  for (int p = 0; p < pairs; p += 2) {
    int s = p % R::kStages;
    mbarrierWait(&full[s], (p / R::kStages) & 1);
    consumePair(acc, ringBase + s * R::kStageBytes, aBase, metaBase, bBase,
                args.descFields, aEven0, aEven1);
    wgmmaWait1();
    if (p >= 1)
      release((p - 1) % R::kStages);
    if (p + 1 < pairs) {
      int s1 = (p + 1) % R::kStages;
      mbarrierWait(&full[s1], ((p + 1) / R::kStages) & 1);
      consumePair(acc, ringBase + s1 * R::kStageBytes, aBase, metaBase, bBase,
                  args.descFields, aOdd0, aOdd1);
      wgmmaWait1();
      release(s);
    }
  }
  wgmmaWaitAll();
  int w = t128 / 32, l = t128 % 32, g = l >> 2, t = l & 3;
  int rowBase = r0 + 64 * wg + 16 * w + g;
#pragma unroll
  for (int j = 0; j < 32; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int row = rowBase + 8 * h, col = n0 + 8 * j + 2 * t;
      __half2 v = __floats2half2_rn(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
      *reinterpret_cast<__half2 *>(args.c + size_t(row) * args.n + col) = v;
    }
  // The peer may still multicast into this CTA or arrive on its barriers.
  if constexpr (R::kCluster)
    clusterSync();
}

// Small integers in [-3, 3] from a hash of the index: cuBLAS's dense W,
// with values like the sparse kernel's (all-zero operands run faster).
__global__ void fillSmallIntegers(__half *w, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    w[i] = __int2half_rn(int(h % 7) - 3);
  }
}

struct Case {
  int r, k, n, v, m; // m = 4: plain 2:4
  int src;
};

// The pruned, packed weight of one case and its exact dense reference.
struct Weight {
  int kPrime = 0;
  std::vector<int> colloc;           // [R/V][K']
  std::vector<SparseA> blocks;       // per 64 rows, over K'
  std::vector<uint32_t> frags, meta; // consumer-thread order
};

Weight makeWeight(const Case &cs, std::mt19937 &rng) {
  Weight w;
  w.kPrime = cs.m == 4 ? cs.k : 4 * cs.k / cs.m;
  int vBlocks = cs.r / cs.v, groups = cs.k / cs.m;
  w.colloc.resize(size_t(vBlocks) * w.kPrime);
  for (int vb = 0; vb < vBlocks; ++vb)
    for (int grp = 0; grp < (cs.m == 4 ? cs.k / 4 : groups); ++grp) {
      if (cs.m == 4) {
        for (int j = 0; j < 4; ++j)
          w.colloc[size_t(vb) * w.kPrime + 4 * grp + j] = 4 * grp + j;
        continue;
      }
      std::vector<int> cols(cs.m);
      for (int j = 0; j < cs.m; ++j)
        cols[j] = j;
      std::shuffle(cols.begin(), cols.end(), rng);
      std::sort(cols.begin(), cols.begin() + 4);
      for (int j = 0; j < 4; ++j)
        w.colloc[size_t(vb) * w.kPrime + 4 * grp + j] = cs.m * grp + cols[j];
    }
  int b64 = cs.r / 64, steps = w.kPrime / 32, pairs = w.kPrime / 64;
  for (int b = 0; b < b64; ++b)
    w.blocks.push_back(makeSparseA(rng, w.kPrime, -3, 3));
  w.frags.resize(size_t(b64) * steps * 128 * 4);
  w.meta.resize(size_t(b64) * pairs * 128);
  for (int b = 0; b < b64; ++b)
    for (int tid = 0; tid < 128; ++tid) {
      int wp = tid / 32, l = tid % 32, g = l >> 2, t = l & 3;
      const SparseA &a = w.blocks[b];
      for (int s = 0; s < steps; ++s)
        for (int r = 0; r < 4; ++r) {
          uint32_t word = 0;
          for (int h = 0; h < 2; ++h) {
            int row = 16 * wp + g + 8 * (r & 1);
            int col = 16 * s + 8 * (r >> 1) + 2 * t + h;
            word |= uint32_t(halfBits(
                        float(a.compressed[size_t(row) * w.kPrime / 2 + col])))
                    << (16 * h);
          }
          w.frags[((size_t(b) * steps + s) * 128 + tid) * 4 + r] = word;
        }
      for (int p = 0; p < pairs; ++p) {
        int s = 2 * p + (t >> 1);
        int row = 16 * wp + g;
        w.meta[(size_t(b) * pairs + p) * 128 + tid] =
            meta16(a, row, 8 * s, t & 1) | meta16(a, row + 8, 8 * s, t & 1)
                                               << 16;
      }
    }
  return w;
}

double referenceAt(const Case &cs, const Weight &w,
                   const std::vector<float> &bHost, int row, int col) {
  const SparseA &a = w.blocks[row / 64];
  const int *loc = w.colloc.data() + size_t(row / cs.v) * w.kPrime;
  double sum = 0;
  for (int kp = 0; kp < w.kPrime; ++kp) {
    int value = a.dense[size_t(row % 64) * w.kPrime + kp];
    if (value)
      sum += double(value) * bHost[size_t(loc[kp]) * cs.n + col];
  }
  return sum;
}

// The launch configuration of spmmWs<Src> on `grid` in clusters of two
// consecutive row blocks (the configuration points at its own attribute,
// so it is neither copied nor moved).
template <int Src> struct ClusterLaunch {
  cudaLaunchAttribute cluster;
  cudaLaunchConfig_t config = {};
  explicit ClusterLaunch(dim3 grid) {
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = 1;
    cluster.val.clusterDim.y = 2;
    cluster.val.clusterDim.z = 1;
    config.gridDim = grid;
    config.blockDim = dim3(Ring<Src>::kThreads);
    config.dynamicSmemBytes = Ring<Src>::kSmem;
    config.attrs = &cluster;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch &) = delete;
  ClusterLaunch &operator=(const ClusterLaunch &) = delete;
};

template <int Src>
void launch(const Args &args, int r, const CUtensorMap &map) {
  using R = Ring<Src>;
  dim3 grid(args.n / kBN, r / R::kBM);
  // PROBE_CLUSTER_LAUNCH=1 launches the single-CTA TMA kernel as clusters of
  // two too (no cluster protocol), to time the cluster launch alone.
  static const bool clusterLaunch =
      std::getenv("PROBE_CLUSTER_LAUNCH") &&
      std::atoi(std::getenv("PROBE_CLUSTER_LAUNCH"));
  if (R::kCluster || (Src == kDenseTma && clusterLaunch && grid.y % 2 == 0)) {
    ClusterLaunch<Src> clustered(grid);
    CHECK_CUDA(cudaLaunchKernelEx(&clustered.config, spmmWs<Src>, args, map));
  } else {
    spmmWs<Src><<<grid, R::kThreads, R::kSmem>>>(args, map);
  }
}

void launchCase(int src, const Args &args, int r, const CUtensorMap &map) {
  if (src == kDense)
    launch<kDense>(args, r, map);
  else if (src == kSharedGather)
    launch<kSharedGather>(args, r, map);
  else if (src == kOwnGather)
    launch<kOwnGather>(args, r, map);
  else if (src == kSingleGather)
    launch<kSingleGather>(args, r, map);
  else if (src == kDenseTma)
    launch<kDenseTma>(args, r, map);
  else if (src == kSharedGatherTma)
    launch<kSharedGatherTma>(args, r, map);
  else if (src == kDenseTmaCluster)
    launch<kDenseTmaCluster>(args, r, map);
  else
    launch<kSingleGatherTma>(args, r, map);
}

// The tensor map of a K x N f16 B for the TMA sources: boxes of 64 columns
// (128 bytes) x `boxRows` rows (64 for a dense tile, 1 for a gathered row),
// 128-byte swizzle.
CUtensorMap makeBMap(const __half *b, int k, int n, int boxRows) {
  CUtensorMap map;
  cuuint64_t dims[2] = {cuuint64_t(n), cuuint64_t(k)};
  cuuint64_t strides[1] = {cuuint64_t(n) * 2};
  cuuint32_t box[2] = {64, cuuint32_t(boxRows)}, elementStrides[2] = {1, 1};
  CUresult status = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half *>(b), dims,
      strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled: error %d\n", int(status));
    std::exit(2);
  }
  return map;
}

template <int Src> void allowSmem() {
  CHECK_CUDA(cudaFuncSetAttribute(spmmWs<Src>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  int(Ring<Src>::kSmem)));
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#define CHECK_CUBLAS(call)                                                     \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__,    \
                   int(st_));                                                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// Runs one case: correctness on fresh data, then (if `timed`) the kernel
// and cuBLAS timed side by side. Prints one CSV line.
int runCase(const Case &cs, bool timed, cublasHandle_t blas,
            std::mt19937 &rng) {
  Weight w = makeWeight(cs, rng);
  std::uniform_int_distribution<int> bValue(-3, 3);
  std::vector<float> bHost(size_t(cs.k) * cs.n);
  std::vector<__half> bHalf(bHost.size());
  for (size_t i = 0; i < bHost.size(); ++i) {
    bHost[i] = float(bValue(rng));
    bHalf[i] = __float2half(bHost[i]);
  }
  // Copies of B and C rotated in the timing so that no run finds its
  // operands in the 50 MB L2.
  size_t bBytes = bHalf.size() * 2, cCount = size_t(cs.r) * cs.n;
  int copies = timed ? std::max<int>(3, int(240e6 / (bBytes + cCount * 2))) : 1;
  uint4 *dFrags;
  uint32_t *dMeta;
  int *dColloc;
  CHECK_CUDA(cudaMalloc(&dFrags, w.frags.size() * 4));
  CHECK_CUDA(cudaMalloc(&dMeta, w.meta.size() * 4));
  CHECK_CUDA(cudaMalloc(&dColloc, w.colloc.size() * 4));
  CHECK_CUDA(cudaMemcpy(dFrags, w.frags.data(), w.frags.size() * 4,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dMeta, w.meta.data(), w.meta.size() * 4,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dColloc, w.colloc.data(), w.colloc.size() * 4,
                        cudaMemcpyHostToDevice));
  std::vector<__half *> dB(copies), dC(copies);
  for (int i = 0; i < copies; ++i) {
    CHECK_CUDA(cudaMalloc(&dB[i], bBytes));
    CHECK_CUDA(cudaMalloc(&dC[i], cCount * 2));
    CHECK_CUDA(cudaMemcpy(dB[i], bHalf.data(), bBytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dC[i], 0xFF, cCount * 2)); // f16 NaN
  }
  Args args{dFrags, dMeta, dColloc, dB[0], dC[0], cs.n, w.kPrime, cs.v, 0};
  args.descFields = descriptorFields(kNAtomStride, kAtomBytes, 128);
  if (const char *flag = std::getenv("PROBE_NO_MULTICAST"))
    args.multicast = std::atoi(flag) ? 0 : 1;
  if (const char *flag = std::getenv("PROBE_ARRIVE_CTA"))
    args.ctaScopeRelease = std::atoi(flag) ? 1 : 0;
  if (const char *flag = std::getenv("PROBE_SPLIT_A"))
    args.splitA = std::atoi(flag);
  int src = cs.src;
  std::vector<CUtensorMap> maps;
  for (int i = 0; i < copies; ++i)
    maps.push_back(
        makeBMap(dB[i], cs.k, cs.n,
                 src == kSharedGatherTma || src == kSingleGatherTma ? 1 : 64));
  launchCase(src, args, cs.r, maps[0]);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> cHost(cCount);
  CHECK_CUDA(
      cudaMemcpy(cHost.data(), dC[0], cCount * 2, cudaMemcpyDeviceToHost));
  long wrong = 0, checked = 0;
  long wrongByRows[4] = {0, 0, 0, 0}, wrongByAtom[4] = {0, 0, 0, 0},
       nanCount = 0;
  auto check = [&](int row, int col) {
    float ref =
        __half2float(__float2half(float(referenceAt(cs, w, bHost, row, col))));
    float got = __half2float(cHost[size_t(row) * cs.n + col]);
    bool bad = !(got == ref);
    wrong += bad;
    ++checked;
    // Where wrong elements lie: the row's 64-row block within a pair of
    // 128-row tiles, the column's 64-column atom column, unwritten (NaN).
    if (bad) {
      ++wrongByRows[(row / 64) % 4];
      ++wrongByAtom[(col % kBN) / 64];
      nanCount += std::isnan(got);
    }
  };
  if (cCount <= (1u << 20)) {
    for (int row = 0; row < cs.r; ++row)
      for (int col = 0; col < cs.n; ++col)
        check(row, col);
  } else {
    std::uniform_int_distribution<int> rowOf(0, cs.r - 1), colOf(0, cs.n - 1);
    for (int i = 0; i < 65536; ++i)
      check(rowOf(rng), colOf(rng));
    // The corners of the last tile too.
    check(cs.r - 1, cs.n - 1);
    check(cs.r - 1, 0);
    check(0, cs.n - 1);
  }

  if (wrong)
    std::fprintf(stderr,
                 "wrong by 64-row block mod 4: %ld %ld %ld %ld; by atom "
                 "column: %ld %ld %ld %ld; NaN: %ld\n",
                 wrongByRows[0], wrongByRows[1], wrongByRows[2], wrongByRows[3],
                 wrongByAtom[0], wrongByAtom[1], wrongByAtom[2], wrongByAtom[3],
                 nanCount);
  float ms = 0, blasMs = 0;
  if (timed) {
    cudaEvent_t start, stop;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    auto timeIt = [&](auto &&body) {
      std::vector<float> times;
      for (int it = 0; it < 23; ++it) {
        int i = it % copies;
        CHECK_CUDA(cudaEventRecord(start));
        body(i);
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        float t;
        CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
        if (it >= 3)
          times.push_back(t);
      }
      return median(times);
    };
    ms = timeIt([&](int i) {
      Args a = args;
      a.b = dB[i];
      a.c = dC[i];
      launchCase(src, a, cs.r, maps[i]);
    });
    // cuBLAS, column-major: C^T[N][R] = B^T[N][K] * W^T[K][R], with a
    // dense W of the same kind of values.
    __half *dW;
    CHECK_CUDA(cudaMalloc(&dW, size_t(cs.r) * cs.k * 2));
    fillSmallIntegers<<<1024, 256>>>(dW, size_t(cs.r) * cs.k);
    float one = 1.f, zero = 0.f;
    blasMs = timeIt([&](int i) {
      CHECK_CUBLAS(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, cs.n, cs.r,
                                cs.k, &one, dB[i], CUDA_R_16F, cs.n, dW,
                                CUDA_R_16F, cs.k, &zero, dC[i], CUDA_R_16F,
                                cs.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    });
    CHECK_CUDA(cudaGetLastError());
    cudaFree(dW);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  for (int i = 0; i < copies; ++i) {
    cudaFree(dB[i]);
    cudaFree(dC[i]);
  }
  cudaFree(dFrags);
  cudaFree(dMeta);
  cudaFree(dColloc);
  const char *srcName[] = {"dense-b",
                           "shared-gather",
                           "own-gather",
                           "single-consumer",
                           "dense-b-tma",
                           "shared-gather-tma",
                           "single-consumer-tma",
                           "dense-b-tma-cluster2"};
  double flops = 2.0 * cs.r * cs.k * cs.n;
  std::printf(
      "%d,%d,%d,%s,%s,%s,%ld,%ld", cs.r, cs.k, cs.n,
      cs.m == 4 ? "2:4"
                : (std::to_string(cs.v) + ":2:" + std::to_string(cs.m)).c_str(),
      srcName[src], wrong ? "FAIL" : "PASS", wrong, checked);
  if (timed)
    std::printf(",%.4f,%.4f,%.1f,%.1f,%.3f\n", ms, blasMs, flops / ms / 1e9,
                flops / blasMs / 1e9, blasMs / ms);
  else
    std::printf(",,,,,\n");
  std::fflush(stdout);
  return wrong ? 1 : 0;
}

// The B sources a format runs with (R rows): both V = 64 variants are
// timed; the cluster variant pairs row blocks (an even count of them).
std::vector<int> sourcesOf(int r, int v, int m) {
  if (m == 4 && (r / 128) % 2 == 0)
    return {kDense, kDenseTma, kDenseTmaCluster};
  if (m == 4)
    return {kDense, kDenseTma};
  if (v >= 128)
    return {kSharedGather, kSharedGatherTma};
  return {kOwnGather, kSingleGather, kSingleGatherTma};
}

} // namespace

// Usage: wgmma_sp_ws check|sanitize|time|profile. check: small problems
// (ring wrap, both parities, several CTAs, every element); sanitize: one
// small problem per B source (for compute-sanitizer); time: the case matrix
// at 4096^3 and 11008 x 4096 x 4096; profile: one launch of 2:4 and of
// 128:2:8 at 4096^3 (for ncu).
int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "check" && mode != "sanitize" && mode != "time" &&
      mode != "time24" && mode != "profile") {
    std::fprintf(stderr, "usage: %s check|sanitize|time|time24|profile\n",
                 argv[0]);
    return 2;
  }
  bool timed = mode == "time";
  allowSmem<kDense>();
  allowSmem<kSharedGather>();
  allowSmem<kOwnGather>();
  allowSmem<kSingleGather>();
  allowSmem<kDenseTma>();
  allowSmem<kSharedGatherTma>();
  allowSmem<kSingleGatherTma>();
  allowSmem<kDenseTmaCluster>();
  cublasHandle_t blas;
  CHECK_CUBLAS(cublasCreate(&blas));
  std::random_device seed;
  std::mt19937 rng(seed());
  std::vector<Case> cases;
  const int formats[][2] = {{64, 4},   {64, 8},  {128, 8}, {64, 16},
                            {128, 16}, {64, 32}, {128, 32}};
  auto add = [&](int r, int k, int n, int v, int m) {
    for (int src : sourcesOf(r, v, m))
      cases.push_back({r, k, n, v, m, src});
  };
  if (mode == "time24") {
    timed = true;
    for (int r : {4096, 11008})
      add(r, 4096, 4096, 64, 4);
    // How many clusters of two of the cluster variant fit at once.
    int clusters = 0;
    ClusterLaunch<kDenseTmaCluster> clustered(dim3(16, 32));
    CHECK_CUDA(cudaOccupancyMaxActiveClusters(
        &clusters, spmmWs<kDenseTmaCluster>, &clustered.config));
    std::fprintf(stderr, "max active clusters of 2: %d\n", clusters);
  } else if (timed) {
    for (int r : {4096, 11008})
      for (auto &f : formats)
        add(r, 4096, 4096, f[0], f[1]);
  } else if (mode == "profile") {
    // One launch each of 2:4 and 128:2:8 at 4096^3, for ncu.
    cases.push_back({4096, 4096, 4096, 64, 4, kDense});
    cases.push_back({4096, 4096, 4096, 64, 4, kDenseTma});
    cases.push_back({4096, 4096, 4096, 64, 4, kDenseTmaCluster});
    cases.push_back({4096, 4096, 4096, 128, 8, kSharedGather});
  } else if (mode == "sanitize") {
    for (int i = 0; i < 3; ++i)
      add(256, 1024, 512, formats[i][0], formats[i][1]);
  } else {
    for (auto &f : formats) {
      add(256, 1024, 512, f[0], f[1]);
      add(384, 2048, 768, f[0], f[1]);
    }
  }
  std::printf("r,k,n,format,b_source,result,wrong,checked,ms,cublas_ms,"
              "tflops,cublas_tflops,speedup\n");
  int failures = 0;
  for (const Case &cs : cases)
    failures += runCase(cs, timed, blas, rng);
  cublasDestroy(blas);
  return failures ? 1 : 0;
}
