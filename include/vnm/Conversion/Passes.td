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

def VNMLowerToGPU : Pass<"vnm-lower-to-gpu", "mlir::ModuleOp"> {
  let summary = "Generate sparse-tensor-core kernels for vnm.storage.spmm";
  let description = [{
    For each `vnm.storage.spmm` on memrefs (f16 or bf16 operands; f16, bf16
    or f32 result; V a multiple of 64; static R and K), builds a kernel into
    `gpu.module @vnm_kernels` that runs `mma.sp::ordered_metadata`
    m16n8k32 with f32 accumulation, tiled as the op's `vnm.config` says
    (`vnm-choose-config`'s default when it has none): 64 x 128 or 128 x 128
    block tiles, a 2- or 3-stage
    shared-memory ring filled by 16-byte `cp.async` that gathers the dense
    operand's rows through the block's column-loc, XOR-swizzled shared rows
    read with `ldmatrix.x4.trans`, A fragments and metadata read in mma lane
    order from the format library's fragment layout, and a fused epilogue
    (accumulate, bias, relu/gelu, conversion) predicated on R and N.

    The op gets a `vnm.gpu_kernel` symbol reference to its kernel, and the
    module a `vnm.launch_contracts` array describing each kernel's
    parameters, grid, block and shared memory for the host that launches
    it (see `vnm-dump-kernels`). Unsupported configurations are errors that
    say why.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def VNMPipelineKernels : Pass<"vnm-pipeline-kernels", "mlir::ModuleOp"> {
  let summary = "Software-pipeline the K loops of generated GPU kernels";
  let description = [{
    `vnm-lower-to-gpu` emits each kernel's K loop as a plain sequence per
    k-tile pair (colidx words, gather into ring slot p % S, A fragments,
    wait for the gather, barrier, MMAs), correct by itself, whose ops carry
    `vnm.pipeline_stage` and `vnm.pipeline_order`. This pass hoists the
    loop-invariant arithmetic and hands the schedule to upstream's scf loop
    pipeliner: in the resulting loop, iteration i computes pair i, gathers
    pair i + S - 1, loads the fragments of pair i + 1 and the colidx words
    of pair i + S, after a prologue that starts the first pairs and before
    an epilogue that drains them. The cp.async waits in the loop leave the
    gathers of the pairs after the awaited one in flight (wait stage -
    commit stage - 1 groups); those of the epilogue wait for all. A loop
    with fewer pairs than stages stays as it is. The tags are removed.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def VNMChooseConfig : Pass<"vnm-choose-config", "mlir::ModuleOp"> {
  let summary = "Pick the GPU tiling (#vnm.config) of each spmm";
  let description = [{
    Sets `vnm.config = #vnm.config<...>` on every `vnm.spmm` and
    `vnm.storage.spmm` that has none: 128-row block tiles when V is a
    multiple of 128 or M = 4 (every group keeps its four columns, so a tile
    may span V blocks), else 64 rows; 4 x 2 (or 2 x 2) warps of 32 x 64;
    3 stages; registers left to ptxas, except two blocks per multiprocessor
    for M = 4 (its hoisted gather addresses would otherwise take 165
    registers). An op that already carries a
    `vnm.config` keeps it (per-op override); the options override the
    choice for the others. `vnm-lower-to-gpu` follows the attribute.
  }];
  let options = [
    Option<"blockRows", "block-rows", "int64_t", /*default=*/"0",
           "Rows of Y per thread block: 64, 128, or 0 to choose">,
    Option<"warpRows", "warp-rows", "int64_t", /*default=*/"0",
           "Rows of a warp tile: 32, 64 (half the shared-memory reads per "
           "MMA, 128 accumulators per thread), or 0 to choose (32)">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Stages of the shared-memory ring (2 to 6, 16 KiB each; beyond 3 "
           "the ring is dynamic shared memory), or 0 to choose (3)">,
    Option<"warpsN", "warps-n", "int64_t", /*default=*/"0",
           "Columns of warps per block tile: 2 (32 x 64 warp tiles), 4 "
           "(32 x 32), or 0 to choose (2)">,
    Option<"blocksPerSM", "blocks-per-sm", "int64_t", /*default=*/"-1",
           "Resident blocks per multiprocessor ptxas must allow (caps "
           "registers; .minnctapersm); 0 leaves registers to ptxas; -1 "
           "chooses (16 warps per multiprocessor, 8 with 64-row warp "
           "tiles)">
  ];
}

def ConvertVNMGPUToLoops : Pass<"convert-vnm-gpu-to-loops", "mlir::ModuleOp"> {
  let summary = "Run vnm_gpu tile programs on the CPU, one thread block at a time";
  let description = [{
    For every kernel `gpu.func` whose body is a `vnm_gpu` tile program,
    adds to the top-level module a host function
    `func.func @<kernel>_cpu(<the kernel's arguments>, %grid_x: index,
    %grid_y: index)` (with `llvm.emit_c_interface`) that runs the kernel
    body once per block of the grid: `gpu.block_id x/y` become the indices
    of loops over grid y and x, `gpu.grid_dim x/y` the grid sizes, and every
    tile op becomes scf/memref/arith code on whole tiles (docs/spec.md
    section 5; the choices where the spec leaves room are in
    docs/gpu-cpu-execution.md).

    Tile values live in heap buffers allocated once per call (one per tile
    value; loop-carried tiles are copied into their iter_arg's buffer at
    the yield), so nothing is allocated per K-loop iteration and the stack
    does not grow. Asynchronous copies land only at the `vnm_gpu.wait` that
    covers them: a copy writes a shadow of its slot, and the wait moves it
    into the ring, which starts out poisoned with NaN. The generated code
    stops with a message (`cf.assert`) when a tile program reads a slot
    whose copy has not landed, overwrites a slot read since the last wait,
    starts two copies into one slot, or indexes a buffer out of bounds.
  }];
  let options = [
    Option<"keepKernels", "keep-kernels", "bool", /*default=*/"false",
           "Keep the converted gpu.func kernels (by default they are removed, "
           "with gpu.modules left empty, so that the module lowers for the "
           "CPU alone)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def VNMDumpKernels : Pass<"vnm-dump-kernels", "mlir::ModuleOp"> {
  let summary = "Write GPU binaries and launch contracts to files";
  let description = [{
    After `gpu-module-to-binary`: writes each `gpu.binary` object to
    `<output-dir>/<binary>.ptx` (format isa) or `.cubin` (format bin), and
    each entry of the module's `vnm.launch_contracts` to
    `<output-dir>/<kernel>.json`. The IR is left unchanged.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory the files are written to (created if missing)">
  ];
}

#endif // VNM_CONVERSION_PASSES_TD
