//===- VNM.h - vnm dialect --------------------------------------*- C++ -*-===//
//
// The vnm dialect: its attributes, ops and the helpers that describe the
// V:N:M storage arrays of an encoded matrix.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNM_IR_VNM_H
#define VNM_DIALECT_VNM_IR_VNM_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "vnm/Dialect/VNM/IR/VNMOpsDialect.h.inc"

#include "vnm/Dialect/VNM/IR/VNMEnums.h.inc"

#include "vnm/Dialect/VNM/IR/VNMAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "vnm/Dialect/VNM/IR/VNMAttrs.h.inc"

#define GET_OP_CLASSES
#include "vnm/Dialect/VNM/IR/VNMOps.h.inc"

namespace vnm {

/// Returns the vnm encoding of `type` if it is a ranked tensor carrying one.
EncodingAttr getVNMEncoding(mlir::Type type);

/// Registers the vnm dialect and its external interface models (currently
/// bufferization) in `registry`.
void registerVNMDialect(mlir::DialectRegistry &registry);

} // namespace vnm

#endif // VNM_DIALECT_VNM_IR_VNM_H
