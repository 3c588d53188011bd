//===- TileLowering.h - shared parts of the vnm_gpu to NVVM lowering -*- C++
//-*-===//
//
// What every op pattern of convert-vnm-gpu-to-nvvm shares: how tile values
// become per-thread registers (the type conversion), the thread's place in
// a layout, the shared-memory swizzle, and the populate functions of the
// per-family pattern files.
//
// Lane notation as in the PTX ISA: lane l, g = l >> 2, t = l & 3.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMGPUTONVVM_TILELOWERING_H
#define VNM_LIB_CONVERSION_VNMGPUTONVVM_TILELOWERING_H

#include "mlir/Transforms/DialectConversion.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "KernelIRBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "vnm/Format/FragmentGeometry.h"

namespace vnm::vnm_gpu::lowering {

/// The instruction tiles one warp holds of a tile of `rows` x `cols`:
/// m16 tiles down, n8 tiles across.
struct WarpTiles {
  int64_t m = 0, n = 0;
};
WarpTiles getWarpTiles(MmaLayoutAttr layout, int64_t rows, int64_t cols);

/// Per-thread registers of each tile type: accumulators 4 per m16 x n8
/// tile; B fragments 4 words per n8 tile; sparse A one metadata word per
/// m16 tile followed by 4 value words per (k-tile of the pair, m16 tile);
/// column-locs spread as a copy one 32-bit word (four offsets) per group of
/// the thread's rows, spread as 8-bit B fragments one prmt selector per
/// group the lane's B registers select from (M = 8).
int64_t getColLocWords(ColLocType type);
void addTileTypeConversions(mlir::TypeConverter &converter);

/// The thread's coordinates in an MMA layout.
struct ThreadCoordinates {
  mlir::Value tid, lane, g, t, warpM, warpN;
};
ThreadCoordinates getThreadCoordinates(kernel::KernelIRBuilder &kb,
                                       MmaLayoutAttr layout);

/// The row of a tile starting at `firstRow` that accumulator registers
/// 2 half and 2 half + 1 of m16 tile `mt` hold: g + 8 half of the tile.
mlir::Value getAccumulatorRow(kernel::KernelIRBuilder &kb,
                              const ThreadCoordinates &at, WarpTiles tiles,
                              mlir::Value firstRow, int64_t mt, int half);
/// The column within a tile of the first accumulator register of n8 tile
/// `nt`: 2t of the tile (the next register holds 2t + 1).
mlir::Value getAccumulatorColumn(kernel::KernelIRBuilder &kb,
                                 const ThreadCoordinates &at, WarpTiles tiles,
                                 int64_t nt);

/// The thread's first row and 16-byte chunk in a copy that `layout`
/// distributes over rows of `rowBytes` bytes.
struct CopyCoordinates {
  mlir::Value firstRow, chunk;
};
CopyCoordinates getCopyCoordinates(kernel::KernelIRBuilder &kb,
                                   CopyLayoutAttr layout, int64_t rowBytes);

/// Whether the lowering handles `ring`'s layout (16-byte swizzle chunks, as
/// the copies and ldmatrix address them); a match failure on `op` if not.
mlir::LogicalResult
checkLowerableRing(mlir::Operation *op, RingType ring,
                   mlir::ConversionPatternRewriter &rewriter);

/// Byte offset of 16-byte chunk `chunk` of row `row` in a slot of `ring`
/// (i32 values), per the ring's swizzle.
mlir::Value getSwizzledOffset(kernel::KernelIRBuilder &kb, RingType ring,
                              mlir::Value row, mlir::Value chunk);

/// `offset` (of row r, chunk c) moved to row r + dr, for r aligned to the
/// power of two above dr (so that the swizzle phase of r + dr is that of r
/// XOR dr / rows per phase).
mlir::Value moveSwizzledRows(kernel::KernelIRBuilder &kb, RingType ring,
                             mlir::Value offset, int64_t dr);

/// Byte offset within a slot of the row and first n8 chunk that this lane
/// addresses for ldmatrix when loading a B fragment of `cols` columns:
/// row = lane, chunk = the warp's first n8 tile.
mlir::Value getFragmentLaneOffset(kernel::KernelIRBuilder &kb, RingType ring,
                                  MmaLayoutAttr layout, int64_t cols);

/// Byte offset within a slot of the thread's first row and chunk in a copy.
mlir::Value getCopyRowOffset(kernel::KernelIRBuilder &kb, RingType ring,
                             CopyLayoutAttr layout);

/// The four i8 registers of eight packed i4 values (value j in nibble j,
/// two's complement): bytes n0..n3 and n4..n7, each sign-extended.
std::pair<mlir::Value, mlir::Value> widenNibbles(kernel::KernelIRBuilder &kb,
                                                 mlir::Value word);

/// The shared-memory address of the first byte of `slot` of a ring whose
/// base pointer is `base`.
mlir::Value getSlotOffset(kernel::KernelIRBuilder &kb, RingType ring,
                          mlir::Value slot);

/// The mbarriers of a kernel's vnm_gpu.produce_consume of `stages` stages,
/// a shared array `<kernel>_mbarriers` made at its first use: the full
/// barrier of each slot (the producer's copies land on it), then the empty
/// barrier of each slot (the consumers release the slot on it). The barrier
/// of `slot` as a 32-bit shared address.
mlir::Value getSlotBarrier(kernel::KernelIRBuilder &kb, mlir::Operation *op,
                           int64_t stages, mlir::Value slot, bool empty);

/// Rewrites `func`'s vnm_gpu.produce_consume, if any, into the sm_90a
/// protocol (ProduceConsumeLowering.cpp): mbarrier ring, role split with
/// setmaxnreg, the producer's loop issued by one thread, the consumers'
/// loop unrolled by two; the ops after it move into the consumers' branch.
/// Fails with a diagnostic on what the protocol cannot lower.
mlir::LogicalResult expandProduceConsume(mlir::gpu::GPUFuncOp func);

/// Turns each kernel parameter that vnm_gpu.tma_copy_tile reads into a
/// generic pointer to its tensor map (a grid-constant parameter once
/// vnm-mark-tensor-map-params has run after convert-gpu-to-nvvm), listed
/// in the kernel's `kTensorMapParamsAttrName`.
void bindTensorMapParameters(mlir::gpu::GPUFuncOp func);
inline constexpr llvm::StringLiteral kTensorMapParamsAttrName =
    "vnm_gpu.tensor_map_params";

void populateRingPatterns(mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
void populateCopyPatterns(mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
void populateFragmentPatterns(mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns);
void populateMmaSpPatterns(mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
void populateWgmmaSpPatterns(mlir::TypeConverter &converter,
                             mlir::RewritePatternSet &patterns);
void populateStagedCopyPatterns(mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
void populateEpiloguePatterns(mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns);
void populateSampledStorePatterns(mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateGroupScalePatterns(mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
void populateSplitReducePatterns(mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace vnm::vnm_gpu::lowering

#endif // VNM_LIB_CONVERSION_VNMGPUTONVVM_TILELOWERING_H
