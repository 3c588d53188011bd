//===- TileStorage.h - buffers that hold the tile values -------*- C++ -*-===//
//
// Tile values are SSA values of whole-block tiles. On the CPU each one gets
// a heap buffer of its own, allocated once when the host function starts
// and freed when it returns:
//
// * a tile op writes its result into its result's buffer every time it
//   runs; the previous contents are dead by then, because a value made in a
//   loop body only leaves the body through the loop's yield;
// * an scf.for iter_arg (and the loop result of its position) and an scf.if
//   result get a buffer too: the loop's init and every yield copy into it,
//   so that a loop that loads the next iteration's fragments before it uses
//   this iteration's (a software-pipelined K loop) never overwrites a tile
//   that is still to be read.
//
// Nothing is allocated per iteration and the stack does not grow; the cost
// is one tile copy per loop-carried tile per iteration.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMGPUTOLOOPS_TILESTORAGE_H
#define VNM_LIB_CONVERSION_VNMGPUTOLOOPS_TILESTORAGE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

namespace vnm::gpu_loops {

/// The CPU form of a `!vnm_gpu.ring`: the slots the reads see, a shadow of
/// each slot that copies write until a wait lands them, and per slot the
/// sequence number of the copy in flight into it (-1: none) and whether it
/// was read since the last wait. An A ring that the block's threads stage
/// (a vnm_gpu.stage_sparse_a with a copy layout) has the same form, its
/// slots holding the tile as load_sparse_a's buffer does. The copies into
/// all rings of a block are numbered by one count (`copies`, shared by the
/// rings), as a thread's cp.async groups are, whichever ring they fill.
struct RingBuffers {
  /// The B ring's type; null for an A ring.
  vnm_gpu::RingType type;
  mlir::Value slots;
  mlir::Value shadow;
  mlir::Value state;
  /// memref<1xi64>: the copies the block has started.
  mlir::Value copies;
  /// The slots' shape after the slot index, and their element type.
  llvm::SmallVector<int64_t, 2> slotShape;
  mlir::Type elementType;

  int64_t stages() const { return stageCount; }
  int64_t stageCount = 0;
  /// `state` holds the copy in flight into slot s at s, the read flag of
  /// slot s at readFlags() + s.
  int64_t readFlags() const { return stages(); }
  static constexpr int64_t kNoCopy = -1;
};

/// Whether `type` is one of the tile types (not the ring).
bool isTileType(mlir::Type type);

/// Whether `op` is a vnm_gpu op (which this lowering replaces).
bool isTileOp(mlir::Operation *op);

/// The buffer type of a tile type: sparse_a R x 64 x T (A in the gathered
/// column space), b_frag K x N x T, acc R x N x T, colloc G x 4 x i32.
mlir::MemRefType getTileBufferType(mlir::Type tileType);

class TileStorage {
public:
  /// Buffers are allocated at the start of `host` and freed before its
  /// return (its body is one block).
  explicit TileStorage(mlir::func::FuncOp host);

  /// Gives every tile value and ring in `body` its buffers and rewrites the
  /// scf.for and scf.if ops that carry tiles into ops that carry none (the
  /// copies into their buffers made explicit). Fails with a diagnostic on a
  /// tile value or ring it cannot follow.
  mlir::LogicalResult assign(mlir::Block *body);

  mlir::Value bufferOf(mlir::Value tile) const;
  const RingBuffers &ringOf(mlir::Value ring) const;
  /// Whether `ring` (an A ring) has RingBuffers: the block's threads stage
  /// it, so its copies land at waits.
  bool hasRingBuffers(mlir::Value ring) const { return rings.contains(ring); }
  /// Every ring with RingBuffers (a wait lands the copies of all of them).
  llvm::SmallVector<RingBuffers> allRings() const;

  /// What a vnm_gpu.reduce_k_splits keeps across the blocks of the grid:
  /// the running sum of its cluster's partial tiles, and the rank the next
  /// block must have (index 0 of a 1-element i64 buffer, 0 at the start).
  struct ClusterSum {
    mlir::Value sum, nextRank;
  };
  ClusterSum clusterSumOf(vnm_gpu::ReduceKSplitsOp op) const;

  /// Erases the casts that stand for loop-carried tiles; call it once the
  /// tile ops that read them are gone.
  void erasePlaceholders();

private:
  mlir::Value allocate(mlir::MemRefType type);
  RingBuffers allocateRing(vnm_gpu::RingType type, int64_t stages,
                           llvm::ArrayRef<int64_t> slotShape,
                           mlir::Type element);
  /// A buffer for a tile that an scf op carries, and the value (a cast of
  /// the buffer to the tile type) that stands for the tile inside and
  /// after the op.
  mlir::Value allocateCarried(mlir::Type tileType);
  mlir::LogicalResult checkUses(mlir::Operation *op);
  mlir::LogicalResult assignResults(mlir::Operation *op);
  void assignCarried(mlir::Operation *op);
  void rewriteFor(mlir::scf::ForOp loop);
  void rewriteIf(mlir::scf::IfOp op);
  void replaceCarriedResults(mlir::Operation *old, mlir::ValueRange kept,
                             llvm::ArrayRef<mlir::Value> placeholder);
  void copyYielded(mlir::scf::YieldOp yield, llvm::ArrayRef<mlir::Value> into,
                   mlir::Block *carrier);

  mlir::func::FuncOp host;
  mlir::OpBuilder allocBuilder;
  mlir::Operation *returnOp;
  llvm::DenseMap<mlir::Value, mlir::Value> buffers;
  /// In allocation order, so that a wait lands them in a fixed order.
  llvm::MapVector<mlir::Value, RingBuffers> rings;
  /// The block's copy count, shared by its rings.
  mlir::Value copies;
  llvm::DenseMap<mlir::Operation *, ClusterSum> clusterSums;
  /// Per position of an scf op that carries tiles: the placeholder and
  /// buffer of a carried tile, null for other values.
  struct Carried {
    llvm::SmallVector<mlir::Value> placeholders, targets;
  };
  llvm::DenseMap<mlir::Operation *, Carried> carriedBy;
  llvm::SmallVector<mlir::Operation *> placeholderOps;
};

} // namespace vnm::gpu_loops

#endif // VNM_LIB_CONVERSION_VNMGPUTOLOOPS_TILESTORAGE_H
