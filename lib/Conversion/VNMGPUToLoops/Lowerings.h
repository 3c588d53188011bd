//===- Lowerings.h - CPU code of each tile op ------------------*- C++ -*-===//
//
// Each function emits, before the op, the CPU code that runs it on whole
// tiles (docs/spec.md section 5), reading and writing the buffers that
// TileStorage gave its tiles. The op itself stays for the caller to erase
// once every op is lowered. A failure comes with a diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMGPUTOLOOPS_LOWERINGS_H
#define VNM_LIB_CONVERSION_VNMGPUTOLOOPS_LOWERINGS_H

#include "TileStorage.h"

#include <string>

namespace vnm::gpu_loops {

// Ring and copies (RingLowering.cpp).
mlir::LogicalResult lowerAllocRing(vnm_gpu::AllocRingOp op,
                                   const TileStorage &storage);
mlir::LogicalResult lowerGather(vnm_gpu::GatherOp op,
                                const TileStorage &storage);
mlir::LogicalResult lowerCopyTile(vnm_gpu::CopyTileOp op,
                                  const TileStorage &storage);
mlir::LogicalResult lowerTmaCopyTile(vnm_gpu::TmaCopyTileOp op,
                                     const TileStorage &storage);
mlir::LogicalResult lowerWait(vnm_gpu::WaitOp op, const TileStorage &storage);
mlir::LogicalResult lowerLoadB(vnm_gpu::LoadBOp op, const TileStorage &storage);

// Fragments and MMA (FragmentLowering.cpp).
mlir::LogicalResult lowerLoadColLoc(vnm_gpu::LoadColLocOp op,
                                    const TileStorage &storage);
mlir::LogicalResult lowerLoadSparseA(vnm_gpu::LoadSparseAOp op,
                                     const TileStorage &storage);
mlir::LogicalResult lowerStageSparseA(vnm_gpu::StageSparseAOp op,
                                      const TileStorage &storage);
mlir::LogicalResult lowerLoadStagedA(vnm_gpu::LoadStagedAOp op,
                                     const TileStorage &storage);
mlir::LogicalResult lowerMmaSp(vnm_gpu::MmaSpOp op, const TileStorage &storage);
mlir::LogicalResult lowerWgmmaSp(vnm_gpu::WgmmaSpOp op,
                                 const TileStorage &storage);
mlir::LogicalResult lowerZero(vnm_gpu::ZeroOp op, const TileStorage &storage);
mlir::LogicalResult lowerReduceKSplits(vnm_gpu::ReduceKSplitsOp op,
                                       const TileStorage &storage);
mlir::LogicalResult lowerGroupScale(vnm_gpu::GroupScaleOp op,
                                    const TileStorage &storage);

// Epilogue (EpilogueLowering.cpp).
mlir::LogicalResult lowerEpilogue(vnm_gpu::EpilogueOp op,
                                  const TileStorage &storage);
mlir::LogicalResult lowerSampledStore(vnm_gpu::SampledStoreOp op,
                                      const TileStorage &storage);

/// The message of a run-time check of `op`: its name and location, then
/// `what`.
std::string describeFailure(mlir::Operation *op, llvm::StringRef what);

class CodeGen;
// The ring protocol of an op that copies into, or reads, a ring with
// RingBuffers (RingLowering.cpp): a copy is checked to start on a slot
// with no copy in flight and not read since the last wait, and numbered
// when it is done (its data in the slot's shadow); a read is checked to
// find its slot landed, and marks it read. Each returns the slot as an
// index.
mlir::Value startRingCopy(CodeGen &cg, const RingBuffers &ring,
                          mlir::Value slot, mlir::Operation *op);
void finishRingCopy(CodeGen &cg, const RingBuffers &ring, mlir::Value slot);
mlir::Value readRingSlot(CodeGen &cg, const RingBuffers &ring, mlir::Value slot,
                         mlir::Operation *op);

} // namespace vnm::gpu_loops

#endif // VNM_LIB_CONVERSION_VNMGPUTOLOOPS_LOWERINGS_H
