//===- Passes.h - vnm dialect passes ----------------------------*- C++ -*-===//

#ifndef VNM_DIALECT_VNM_TRANSFORMS_PASSES_H
#define VNM_DIALECT_VNM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace vnm {

#define GEN_PASS_DECL
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"

} // namespace vnm

#endif // VNM_DIALECT_VNM_TRANSFORMS_PASSES_H
