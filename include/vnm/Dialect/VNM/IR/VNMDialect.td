//===- VNMDialect.td - vnm dialect definition --------------*- tablegen -*-===//
//
// The vnm dialect carries matrices in the V:N:M structured-sparse format and
// the operations that compute with them.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNM_IR_VNMDIALECT_TD
#define VNM_DIALECT_VNM_IR_VNMDIALECT_TD

include "mlir/IR/OpBase.td"

def VNM_Dialect : Dialect {
  let name = "vnm";
  let cppNamespace = "::vnm";
  let summary = "V:N:M structured-sparse matrices and their products";
  let description = [{
    The `vnm` dialect represents matrices pruned to the V:N:M format
    (rows in blocks of V, columns in groups of M, four columns selected per
    VxM block, N = 1 or 2 values kept per row among those four) and the
    computations on them.

    Ops come in two levels:

    * Encoded-tensor ops (`vnm.compress`, `vnm.spmm`, ...) take and produce
      `tensor<RxKxT, #vnm.encoding<...>>` values; they are pure and are the
      form frontends and `vnm-sparsify` produce.
    * Storage ops (`vnm.storage.*`) spell the encoded operand as its three
      storage arrays (values, column-loc, metadata). They are in destination
      style, work on tensors and on memrefs, and are what bufferization and
      the code generators consume. `vnm-expand-storage` rewrites the first
      level into the second.

    docs/spec.md gives every constraint of every attribute and op a number;
    verifier messages cite those numbers.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
  // Folding vnm.prune of a constant yields a constant (an arith.constant).
  let hasConstantMaterializer = 1;
  // vnm.encoding on function arguments and linalg ops (vnm-sparsify),
  // vnm.gpu_kernel and vnm.launch_contracts (vnm-lower-to-gpu).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

#endif // VNM_DIALECT_VNM_IR_VNMDIALECT_TD
