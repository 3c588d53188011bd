//===- Passes.td - vnm conversion passes -------------------*- tablegen -*-===//

#ifndef VNM_CONVERSION_PASSES_TD
#define VNM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def VNMLowerToLoops : Pass<"vnm-lower-to-loops", "mlir::ModuleOp"> {
  let summary = "Lower vnm storage ops on memrefs to loops and runtime calls";
  let description = [{
    The CPU reference semantics of the vnm ops, on memrefs (run
    `vnm-expand-storage` and bufferization first).

    * `vnm.storage.spmm`, `vnm.storage.sddmm` and `vnm.storage.decompress`
      become scf loop nests over the storage arrays (f32 accumulation for
      float operands, i32 for integer ones; the spmm epilogue adds the
      accumulator and bias and applies the activation before the final
      conversion).
    * `vnm.storage.prune` and `vnm.storage.compress` become calls of the
      vnm CPU runtime (`libvnm_cpu_runtime.so`), which runs the format
      library's pruning rule: the format has one implementation.
    * Before reading storage arrays, the generated code calls the runtime to
      check their contents (column-loc and metadata ranges and order, zero
      padding values); inconsistent arrays stop the program with the format
      library's message instead of reading out of bounds.

    Runtime functions are declared with `llvm.emit_c_interface`; link or
    load `libvnm_cpu_runtime.so` (e.g. `mlir-runner -shared-libs=...`).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // VNM_CONVERSION_PASSES_TD
