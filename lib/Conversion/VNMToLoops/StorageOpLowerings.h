//===- StorageOpLowerings.h - vnm storage ops to loops ----------*- C++ -*-===//

#ifndef VNM_LIB_CONVERSION_VNMTOLOOPS_STORAGEOPLOWERINGS_H
#define VNM_LIB_CONVERSION_VNMTOLOOPS_STORAGEOPLOWERINGS_H

#include "mlir/IR/PatternMatch.h"

namespace vnm::loops {

/// Patterns lowering each memref-form vnm.storage op to loops and runtime
/// calls.
void populateStorageOpLoweringPatterns(mlir::RewritePatternSet &patterns);

/// The pattern lowering vnm.storage.quantize (QuantizeLowering.cpp).
void populateQuantizeLoweringPatterns(mlir::RewritePatternSet &patterns);

} // namespace vnm::loops

#endif // VNM_LIB_CONVERSION_VNMTOLOOPS_STORAGEOPLOWERINGS_H
