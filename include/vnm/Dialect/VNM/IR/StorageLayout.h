//===- StorageLayout.h - storage arrays of a V:N:M matrix -------*- C++ -*-===//
//
// An R x K matrix in the V:N:M format is held as three arrays (docs/spec.md,
// "Storage arrays"): values (R x 2G, element T), colidx (ceil(R/V) x G x 4,
// i8) and meta (R x 2G, i8), with G = ceil(K/M). These helpers compute and
// verify those shapes; dynamic sizes propagate as dynamic.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNM_IR_STORAGELAYOUT_H
#define VNM_DIALECT_VNM_IR_STORAGELAYOUT_H

#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm {

/// True if two sizes agree or either is dynamic (ShapedType::kDynamic): the
/// verifiers' rule for every size they cannot see statically.
inline bool isCompatibleSize(int64_t a, int64_t b) {
  return mlir::ShapedType::isDynamic(a) || mlir::ShapedType::isDynamic(b) ||
         a == b;
}

/// Shapes of the three storage arrays of an R x K matrix.
struct StorageShapes {
  llvm::SmallVector<int64_t, 2> values;
  llvm::SmallVector<int64_t, 3> colidx;
  llvm::SmallVector<int64_t, 2> meta;
};

/// Returns the storage shapes of a `rows` x `cols` matrix in `encoding`.
/// Either size may be ShapedType::kDynamic.
StorageShapes getStorageShapes(EncodingAttr encoding, int64_t rows,
                               int64_t cols);

/// Element type of the colidx and meta arrays (i8).
mlir::Type getStorageIndexType(mlir::MLIRContext *context);

/// Returns the (values, colidx, meta) tensor types of an encoded tensor type.
llvm::SmallVector<mlir::RankedTensorType, 3>
getStorageTensorTypes(mlir::RankedTensorType encodedType);

/// True for the element types an encoded matrix may hold: f16, bf16, f32,
/// i8, i4 (signless).
bool isSupportedElementType(mlir::Type type);

/// True for f16, bf16 and f32.
bool isSupportedFloatType(mlir::Type type);

/// Verifies storage rules S1-S6 of docs/spec.md for arrays of the given
/// types describing a `rows` x `cols` matrix. `valueElementType`, when not
/// null, is the element type `values` must have (S1). Messages read
/// "(<opConstraint>/S<n>) ...".
mlir::LogicalResult
verifyStorageArrays(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                    llvm::StringRef opConstraint, EncodingAttr encoding,
                    int64_t rows, int64_t cols, mlir::Type valueElementType,
                    mlir::Type valuesType, mlir::Type colidxType,
                    mlir::Type metaType);

} // namespace vnm

#endif // VNM_DIALECT_VNM_IR_STORAGELAYOUT_H
