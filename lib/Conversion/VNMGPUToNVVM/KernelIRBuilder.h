//===- KernelIRBuilder.h - building blocks of lowered tile ops --*- C++ -*-===//
//
// The tile ops' NVVM lowerings build at the level of the LLVM and NVVM
// dialects (raw global and shared pointers, 32-bit index arithmetic) with
// scf control flow: the data movement of a tensor-core kernel is explicit
// about bytes, lanes and registers, which memref-level IR would hide.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMGPUTONVVM_KERNELIRBUILDER_H
#define VNM_LIB_CONVERSION_VNMGPUTONVVM_KERNELIRBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "vnm/Conversion/Utils/IntegerArith.h"

namespace vnm::kernel {

/// Address spaces of NVPTX.
inline constexpr unsigned kGlobalSpace = 1;
inline constexpr unsigned kSharedSpace = 3;

class KernelIRBuilder : public IntegerArith {
public:
  using IntegerArith::IntegerArith;

  mlir::Type i32() { return b.getI32Type(); }
  mlir::Type f32() { return b.getF32Type(); }

  // 32-bit integer arithmetic (thread and tile indices), beyond
  // IntegerArith's.
  mlir::Value c32(int64_t value);
  mlir::Value c64(int64_t value);
  /// prmt: byte i of the result is byte nibble i of `selector` (its low 3
  /// bits) of the 8 bytes lo (0..3), hi (4..7).
  mlir::Value permuteBytes(mlir::Value lo, mlir::Value hi,
                           mlir::Value selector);
  mlir::Value zext64(mlir::Value x);
  /// The 64-bit product of two unsigned 32-bit values, as one
  /// mul.wide.u32. LLVM makes that of a multiplication of two zero
  /// extensions only where both sit in the multiplication's block; once
  /// loop-invariant code motion hoists one out of a K loop, the product
  /// becomes a 64-bit mad.lo.s64, which ptxas issues as 2-3 instructions
  /// instead of one multiply-add with the address it is added to.
  mlir::Value mulWide(mlir::Value x, mlir::Value y);
  /// `x` (f32) rounded once to the float type `type`; `x` itself when it
  /// has that type already.
  mlir::Value roundTo(mlir::Type type, mlir::Value x);

  /// `base + byteOffset` (offset i32 or i64).
  mlir::Value offsetBytes(mlir::Value base, mlir::Value byteOffset);
  /// The address of element `index` (i32, unsigned) of an array of
  /// `elementBytes`-byte elements at `base`.
  mlir::Value elementAddress(mlir::Value base, mlir::Value index,
                             int64_t elementBytes);
  mlir::Value load(mlir::Type type, mlir::Value ptr, unsigned alignment);
  /// Loads `words` (1, 2 or 4) consecutive 32-bit words from read-only global
  /// memory at `ptr` (aligned to 4 * words bytes) with an instruction that
  /// stays where it is issued. Prefetches need this: LLVM would sink an
  /// ordinary load whose value is only used in the next loop iteration down
  /// to that use, exposing the latency the prefetch was meant to hide.
  llvm::SmallVector<mlir::Value> loadWordsHere(mlir::Value ptr, int words);
  void store(mlir::Value value, mlir::Value ptr, unsigned alignment);
  /// One PTX instruction (or braced block) without results, `$i` naming
  /// operand i with its `constraints` ("r", "l", comma-separated), issued
  /// where it stands: it may read and write memory, so no load or store
  /// moves across it.
  void ptx(llvm::StringRef text, mlir::ValueRange operands,
           llvm::StringRef constraints);
  /// One PTX instruction with one result ($0, constraint first in
  /// `constraints`, e.g. "=r,r,r"), the operands $1...; with `sideEffects`
  /// it is issued where it stands (it may read memory written before a
  /// barrier), without it LLVM may hoist or merge it, but not rewrite it.
  mlir::Value ptxValue(mlir::Type type, llvm::StringRef text,
                       mlir::ValueRange operands, llvm::StringRef constraints,
                       bool sideEffects);
  /// The 32-bit shared-window address of a shared pointer.
  mlir::Value sharedAddress(mlir::Value ptr);

  mlir::Value threadIdX();

  /// Builds `if (cond) { then(); }`.
  void ifThen(mlir::Value cond, llvm::function_ref<void()> thenBody);
  /// Builds `if (cond) { then(); } else { otherwise(); }`.
  void ifThenElse(mlir::Value cond, llvm::function_ref<void()> thenBody,
                  llvm::function_ref<void()> elseBody);
};

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMGPUTONVVM_KERNELIRBUILDER_H
