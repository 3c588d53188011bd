//===- VNMGPUDialect.cpp - vnm_gpu dialect registration -------------------===//

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace vnm::vnm_gpu;

#include "vnm/Dialect/VNMGPU/IR/VNMGPUOpsDialect.cpp.inc"

#include "vnm/Dialect/VNMGPU/IR/VNMGPUEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "vnm/Dialect/VNMGPU/IR/VNMGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "vnm/Dialect/VNMGPU/IR/VNMGPUOpsTypes.cpp.inc"

void VNMGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "vnm/Dialect/VNMGPU/IR/VNMGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "vnm/Dialect/VNMGPU/IR/VNMGPUOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "vnm/Dialect/VNMGPU/IR/VNMGPUOps.cpp.inc"
      >();
}

LogicalResult
VNMGPUDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                        unsigned argIndex,
                                        NamedAttribute attribute) {
  if (attribute.getName() != kParamAttrName)
    return op->emitError() << "unknown vnm_gpu argument attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<StringAttr>(attribute.getValue()))
    return op->emitError() << "'" << kParamAttrName << "' on argument "
                           << argIndex << " must be a string, got "
                           << attribute.getValue();
  return success();
}
