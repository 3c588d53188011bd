//===- Passes.h - vnm conversion passes -------------------------*- C++ -*-===//

#ifndef VNM_CONVERSION_PASSES_H
#define VNM_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

namespace vnm {

#define GEN_PASS_DECL
#include "vnm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "vnm/Conversion/Passes.h.inc"

} // namespace vnm

#endif // VNM_CONVERSION_PASSES_H
