//===- VNMGPU.h - vnm_gpu dialect -------------------------------*- C++ -*-===//
//
// The vnm_gpu dialect: tile programs of the GPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNMGPU_IR_VNMGPU_H
#define VNM_DIALECT_VNMGPU_IR_VNMGPU_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Format/FragmentGeometry.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPUOpsDialect.h.inc"

#include "vnm/Dialect/VNMGPU/IR/VNMGPUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "vnm/Dialect/VNMGPU/IR/VNMGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "vnm/Dialect/VNMGPU/IR/VNMGPUOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "vnm/Dialect/VNMGPU/IR/VNMGPUOps.h.inc"

namespace vnm::vnm_gpu {

/// The argument attribute naming a kernel parameter (a string); launch
/// contracts list parameters by these names.
inline constexpr llvm::StringLiteral kParamAttrName = "vnm_gpu.param";

/// The kernel attribute (an integer) by which vnm-unroll-kernel-loops
/// unrolls the kernel's pipelined K loop; vnm-lower-to-gpu copies it from
/// the tiling.
inline constexpr llvm::StringLiteral kUnrollAttrName = "vnm_gpu.unroll";

/// Whether the kernel parameter `arg` is read by the TMA: the `src` of a
/// vnm_gpu.tma_copy_tile (by the op's C3, nothing else reads it), or the
/// values or metadata of a vnm_gpu.stage_sparse_a without a copy layout.
/// The host passes it as a tensor map.
bool isTensorMapParameter(mlir::BlockArgument arg);

/// The fragment geometry of an encoded f16, bf16, i8 or i4 matrix type in
/// the class of the MMA that reads it (an i8/i4 weight of a 16-bit MMA is
/// packed in the 16-bit class); none if the format library has no storage
/// for it.
std::optional<format::FragmentGeometry>
getFragmentGeometry(mlir::RankedTensorType matrix, MmaLayoutAttr layout);

/// The fragment arrays that a vnm_gpu.stage_sparse_a without a copy layout
/// reads through the TMA, as 2-D tensors of 32-bit words: one row per
/// 16-row tile (its values, or metadata, for all of K, contiguous in the
/// format library's layout), and the box of one k-tile pair for the
/// slot's row tiles, which lands as the slot holds it (no swizzle).
struct StagedATensorMaps {
  int64_t rowTiles = 0, boxRowTiles = 0;
  int64_t valueWords = 0, valueBoxWords = 0;
  int64_t metaWords = 0, metaBoxWords = 0;
};
/// None for the 8-bit fragment class (not staged by these kernels).
std::optional<StagedATensorMaps> getStagedATensorMaps(StageSparseAOp op);

/// Groups of a k-tile pair, the K step the sparse ops index by `pair`
/// (two m16n8k32 k-tiles of 8 groups): they cover groups 16 pair onward.
inline constexpr int64_t kGroupsPerPair = 16;

/// Rings up to this size are static shared arrays; larger ones live in the
/// block's dynamic shared memory, which the host must allow for the kernel.
inline constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// The shared-memory bytes of all slots of a B ring or an A ring.
inline int64_t getRingBytes(mlir::Type ring) {
  if (auto b = llvm::dyn_cast<RingType>(ring))
    return b.getTotalBytes();
  return llvm::cast<ARingType>(ring).getTotalBytes();
}

} // namespace vnm::vnm_gpu

#endif // VNM_DIALECT_VNMGPU_IR_VNMGPU_H
