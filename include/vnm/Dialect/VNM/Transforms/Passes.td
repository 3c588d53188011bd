//===- Passes.td - vnm dialect passes ----------------------*- tablegen -*-===//

#ifndef VNM_DIALECT_VNM_TRANSFORMS_PASSES_TD
#define VNM_DIALECT_VNM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VNMExpandStorage : Pass<"vnm-expand-storage", "mlir::ModuleOp"> {
  let summary = "Rewrite encoded tensors into their three storage tensors";
  let description = [{
    Replaces every value of type `tensor<RxKxT, #vnm.encoding<...>>` by its
    storage arrays (values, colidx, meta) and every encoded-tensor op by its
    destination-style `vnm.storage.*` form, whose `outs` are fresh
    `tensor.empty` values (or the accumulator of `vnm.spmm`). Function
    signatures, calls, returns and structured control flow (scf) are
    rewritten with them: an encoded argument becomes three arguments.
    `vnm.assemble` and `vnm.disassemble` disappear. An op of another dialect
    that takes or yields an encoded tensor keeps it through a
    `vnm.assemble`/`vnm.disassemble` pair.

    After this pass the module bufferizes with `one-shot-bufferize`.

    ```mlir
    // before
    %y = vnm.spmm %w, %x : tensor<128x64xf16, #enc>, tensor<64x32xf16>
        -> tensor<128x32xf32>
    // after (%v, %c, %m are the storage arrays of %w)
    %e = tensor.empty() : tensor<128x32xf32>
    %y = vnm.storage.spmm ins(%v, %c, %m, %x : ...) outs(%e : ...)
        {encoding = #enc} -> tensor<128x32xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // VNM_DIALECT_VNM_TRANSFORMS_PASSES_TD
