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

/// Whether the kernel parameter `arg` is the `src` of a
/// vnm_gpu.tma_copy_tile: the host passes it as a tensor map (and, by the
/// op's C3, nothing else reads it).
bool isTensorMapParameter(mlir::BlockArgument arg);

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
