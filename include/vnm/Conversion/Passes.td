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

def VNMLowerRuntimeChecks : Pass<"vnm-lower-runtime-checks",
                                  "mlir::ModuleOp"> {
  let summary = "Turn cf.assert into calls of the CPU runtime's check_failed";
  let description = [{
    Every `cf.assert` of the module's host code (not inside a nested
    symbol table such as a `gpu.module`; the run-time checks of
    `vnm-lower-to-loops` and `convert-vnm-gpu-to-loops`: dynamic sizes,
    bounds, ring slots) becomes `scf.if` on the failed condition around a
    call of `vnm_rt_check_failed` with the message as a constant
    `memref<Nxi8>` global. The runtime (`libvnm_cpu_runtime.so`) prints
    `vnm runtime check failed: <message>` to stderr and exits with status 1;
    upstream's lowering of `cf.assert` writes to stdout and aborts, which
    loses the message when stdout is not a terminal and, under LLVM's signal
    handlers, prints a stack dump. `vnm-lower-to-cpu-pipeline` runs it after
    `vnm-lower-to-loops`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def VNMWidenMath : Pass<"vnm-widen-math"> {
  let summary = "Compute 16-bit float math ops in f32 for the CPU";
  let description = [{
    Every `math` op on f16 or bf16 scalars (a LayerNorm's `rsqrt`, a GELU's
    `erf` or `tanh` in a 16-bit model) becomes the same op on f32 between
    `arith.extf` and `arith.truncf`: libm, which the CPU pipeline calls for
    them, has no 16-bit functions. The result is the f32 function rounded
    once to the 16-bit type. Unlike upstream's
    `math-extend-to-supported-types`, the conversions carry no fast-math
    flags (LLVM 22's arith-to-LLVM lowering passes those through to
    `llvm.fpext` as an `arith` attribute, which `mlir-runner` cannot parse).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def VNMLowerToGPU : Pass<"vnm-lower-to-gpu", "mlir::ModuleOp"> {
  let summary = "Build the vnm_gpu tile program of each vnm.storage.spmm";
  let description = [{
    For each `vnm.storage.spmm` on memrefs (f16 or bf16 operands, or the
    quantized forms W8A8, W4A8, W8A16 and W4A16 (docs/gpu.md); f16, bf16 or
    f32 result, i32 for unscaled i8; V a multiple of the block tile's rows
    unless M = 4; static R and K), builds a kernel into
    `gpu.module @vnm_kernels` as a
    `vnm_gpu` tile program (docs/spec.md section 5), tiled as the op's
    `vnm.config` says (`vnm-choose-config`'s default when it has none): a
    plain K loop over k-tile pairs (column-locs, `vnm_gpu.gather` through
    them, or `vnm_gpu.copy_tile` for M = 4, into ring slot p % S; the A
    fragments; a wait; two B fragment loads and sparse MMAs), then the
    epilogue (accumulate, bias, relu/gelu, scales, conversion) predicated
    on R and N. rhs is read as its memref says: K x N with contiguous rows,
    or token-major (K contiguous, the transpose of an x[N][K]: the i8
    kernels always, the f16/bf16 ones at M = 4 and 8); the launch
    contract's `rhs_layout` tells the host which. `vnm-pipeline-kernels` overlaps the loop's steps,
    `convert-vnm-gpu-to-nvvm` lowers the program to NVVM.

    The op gets a `vnm.gpu_kernel` symbol reference to its kernel, and the
    module a `vnm.launch_contracts` array describing each kernel's
    parameters (from its signature), grid, block and shared memory for the
    host that launches it (see `vnm-dump-kernels`). Every op is checked
    before anything is built: an unsupported configuration is an error
    that says why, and leaves the module unchanged.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect", "::vnm::vnm_gpu::VNMGPUDialect"
  ];
}

def ConvertVNMGPUToNVVM : Pass<"convert-vnm-gpu-to-nvvm",
                               "mlir::gpu::GPUModuleOp"> {
  let summary = "Lower vnm_gpu tile programs to NVVM";
  let description = [{
    One conversion pattern per `vnm_gpu` op, grouped in files by family
    (ring and waits, copies, fragments, the `mma.sp` m16n8k32 MMA, the
    epilogue). Tile values become the registers each thread holds of them
    (the layout attribute says which), carried through scf loops; flat
    memref kernel arguments become bare global pointers. The result uses
    `cp.async.cg` 16-byte copies with zero fill, XOR-swizzled shared rows
    read by `ldmatrix.x4.trans`, A fragments and metadata read in lane order
    with `ld.global.nc` that stay where they are issued, and
    `mma.sp::ordered_metadata`; on sm_90a `wgmma.mma_async.sp`, and for a
    `vnm_gpu.produce_consume` an mbarrier ring with a producer warpgroup
    that copies by the TMA (a tensor-map parameter) and bulk copies.
    docs/gpu.md describes each op's lowering.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def VNMMarkTensorMapParams : Pass<"vnm-mark-tensor-map-params",
                                   "mlir::gpu::GPUModuleOp"> {
  let summary = "Pass tensor-map kernel parameters by value as grid constants";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. The parameters that
    `convert-vnm-gpu-to-nvvm` bound to tensor maps (the kernel's
    `vnm_gpu.tensor_map_params`) become 128-byte, 64-byte aligned `byval`
    parameters marked `nvvm.grid_constant`: the kernel receives the
    `CUtensorMap` the host made, and the TMA reads it where the launch put
    it (`.param .align 64 .b8 name[128]`, addressed through `cvta.param`).
    The attribute is only accepted on the LLVM kernel, hence this separate
    step.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def VNMPipelineKernels : Pass<"vnm-pipeline-kernels", "mlir::ModuleOp"> {
  let summary = "Software-pipeline the K loops of tile programs";
  let description = [{
    `vnm-lower-to-gpu` emits each kernel's K loop as a plain sequence per
    k-tile pair, correct by itself. This pass gives each tile op of the loop
    a pipeline stage from its kind and the ring's depth S (column-locs 0,
    copies into the ring 1, A fragments S - 1, the wait, B fragments and
    MMAs S; side-effect-free ops go with their users, cloned per stage so
    that only loaded data crosses stages), checks the schedule, and hands it
    to upstream's scf loop pipeliner: in the resulting loop, iteration i
    computes pair i, copies pair i + S - 1, loads the fragments of pair
    i + 1 and the column-locs of pair i + S, after a prologue that starts
    the first pairs and before an epilogue that drains them. The waits in
    the loop leave the copies of the pairs after the awaited one in flight
    (S - 2); those of the epilogue wait for all. A loop with fewer pairs
    than stages stays as it is.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def VNMUnrollKernelLoops : Pass<"vnm-unroll-kernel-loops", "mlir::ModuleOp"> {
  let summary = "Unroll pipelined K loops so that ring slots become constants";
  let description = [{
    After `vnm-pipeline-kernels`, iteration i of a kernel's K loop reads
    ring slot i mod S and fills slot (i + S - 1) mod S: two remainders per
    iteration, and every shared-memory address of the ring depends on them.
    This pass unrolls each pipelined K loop by the factor its kernel asks
    for (the `vnm_gpu.unroll` attribute of the `gpu.func`, which
    `vnm-lower-to-gpu` copies from the tiling; `factor`, when nonzero,
    overrides it). With a factor that is a multiple of S and a loop that
    starts at a multiple of S, each copy of the body reads fixed slots: the
    remainders of the induction variable plus a constant fold to constants,
    and the slot addresses to immediate offsets. The iterations left over
    (the trip count is static) are unrolled completely after the loop.
    Loops with a dynamic trip count, or fewer iterations than the factor,
    stay as they are.
  }];
  let options = [
    Option<"factor", "factor", "int64_t", /*default=*/"0",
           "Unroll factor for every kernel K loop (0: each kernel's "
           "vnm_gpu.unroll attribute; 1: none)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def VNMChooseConfig : Pass<"vnm-choose-config", "mlir::ModuleOp"> {
  let summary = "Pick the GPU kernel tiling (vnm.config) of each spmm";
  let description = [{
    Sets `vnm.config` to a kernel recipe's tiling attribute (for the
    `chip`: `#vnm_gpu.mma_sp_tiling<...>` for the `mma.sp` kernels of sm_80
    and sm_90 and for the quantized kernels everywhere but W8A8 and W4A8
    2:4 under `recipe=wgmma-sp-ws`; `#vnm_gpu.wgmma_sp_tiling<...>` for
    f16/bf16 weights on sm_90a with `recipe=wgmma-sp`: one or two
    warpgroups of 64 rows (two where the format allows 128-row tiles), 128
    columns, 4 stages, with `block-rows`, `block-cols` and `stages` as
    overrides; `recipe=wgmma-sp-ws` the warp-specialized kernel for M = 4
    (W8A8 and W4A8 2:4 too, on s8 `wgmma.sp`) and, with `as-2-4`, for
    V:2:8 run as 2:4; `recipe=auto` takes the recipe measured fastest: on
    sm_90a the
    warp-specialized kernel for f16/bf16 2:4 and V:2:8 weights whose B is
    read as K x N and for W8A8 and W4A8 2:4 where N is static and at least
    2048, mma.sp for the rest and on sm_80 and sm_90, and mma.sp
    everywhere when mma.sp tiling options are given) on every `vnm.spmm` and
    `vnm.storage.spmm` that has none: 128-row block tiles when V is a
    multiple of 128 or M = 4 (every group keeps its four columns, so a tile
    may span V blocks), else 64 rows; 4 x 2 (or 2 x 2) warps of 32 x 64;
    3 stages (2 for the gathers in 64-row blocks, which take A through the
    ring); 16 warps per multiprocessor (128 registers; 8 with 64-row
    warp tiles, registers left to ptxas for the quantized kernels); the
    pipelined K loop unrolled by the ring's stages for 32-row warp tiles
    that read B as K x N, in blocks of 8 warps, at M = 4 or with registers
    left to ptxas (`unroll`, done by vnm-unroll-kernel-loops); the
    warp-specialized kernel in 128 x 256 tiles, 128 x 128 where N is static
    and at most 1024 (float weights, B read K x N); A's fragments through
    a shared ring with B (`staged-a`) for 64-row warp tiles and for the
    gathers of float weights read K x N (two stages in 64-row blocks, M = 8
    and 16 in 128-row blocks), not where K is split; the K loop split
    over a cluster of blocks only where `k-splits` asks for it. An
    op that already carries a
    `vnm.config` keeps it (per-op override); the options override the
    choice for the others. `vnm-lower-to-gpu` follows the attribute.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU the kernels are for, which picks the kernel recipe "
           "(sm_80, sm_90, sm_90a)">,
    Option<"recipe", "recipe", "std::string", /*default=*/"\"auto\"",
           "The kernel recipe: auto (the one measured fastest for the "
           "chip: on sm_90a wgmma-sp-ws for f16/bf16 2:4 and V:2:8 with B "
           "read as K x N and for W8A8/W4A8 2:4 at a static N >= 2048, else "
           "mma.sp), mma-sp, wgmma-sp (sm_90a; "
           "f16/bf16 weights, the quantized kernels keep mma.sp), or "
           "wgmma-sp-ws (wgmma-sp with a producer warpgroup copying B by "
           "the TMA for M = 4, W8A8 and W4A8 2:4 on s8 wgmma.sp too; the "
           "other M as wgmma-sp)">,
    Option<"blockCols", "block-cols", "int64_t", /*default=*/"0",
           "Columns of Y per thread block of the wgmma.sp kernels: 128, "
           "256, or 0 to choose (the warp-specialized kernel 256, 128 at a "
           "static N of at most 1024; the multistage one 128; the mma.sp "
           "kernels have 128)">,
    Option<"blockRows", "block-rows", "int64_t", /*default=*/"0",
           "Rows of Y per thread block: 64, 128, or 0 to choose">,
    Option<"clusterRows", "cluster-rows", "int64_t", /*default=*/"0",
           "Consecutive row blocks launched as one cluster by the wgmma.sp "
           "kernels: 1 (no clusters), 2, 4, 8, or 0 to choose (2 for the "
           "warp-specialized kernel where its row blocks pair up, else 1); a "
           "kernel whose row blocks are not a multiple of it is refused">,
    Option<"warpRows", "warp-rows", "int64_t", /*default=*/"0",
           "Rows of a warp tile: 32, 64 (half the shared-memory reads per "
           "MMA, 128 accumulators per thread), or 0 to choose (32)">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Stages of the shared-memory ring (2 to 6, 16 KiB each; beyond 3 "
           "the ring is dynamic shared memory), or 0 to choose (3; 2 for the "
           "gathers in 64-row blocks that take A through the ring)">,
    Option<"warpsN", "warps-n", "int64_t", /*default=*/"0",
           "Columns of warps per block tile: 2 (32 x 64 warp tiles), 4 "
           "(32 x 32), or 0 to choose (2)">,
    Option<"unroll", "unroll", "int64_t", /*default=*/"0",
           "Factor by which vnm-unroll-kernel-loops unrolls the mma.sp "
           "kernels' pipelined K loops: 1 (none) to 12, or 0 to choose (the "
           "ring's stages for 32-row warp tiles that read B as K x N in "
           "blocks of 8 warps, at M = 4 or with registers left to ptxas, "
           "else 1)">,
    Option<"blocksPerSM", "blocks-per-sm", "int64_t", /*default=*/"-1",
           "Resident blocks per multiprocessor ptxas must allow (caps "
           "registers; .minnctapersm); 0 leaves registers to ptxas; -1 "
           "chooses (16 warps per multiprocessor, 8 with 64-row warp "
           "tiles)">,
    Option<"kSplits", "k-splits", "int64_t", /*default=*/"0",
           "Split each mma.sp kernel's K loop over up to this many blocks "
           "(sm_90: one cluster per tile, the last block sums the partial "
           "tiles): the largest count up to it that divides the k-tile "
           "pairs (and keeps whole scale groups), for problems with too few "
           "tiles to fill the GPU, as at decode-sized N; 0 or 1: no split, "
           "at most 8">,
    Option<"stagedA", "staged-a", "int64_t", /*default=*/"-1",
           "Copy the mma.sp kernels' A fragments and metadata into a shared "
           "ring with B (cp.async by the block's threads) instead of "
           "loading them into registers one pair ahead: 1 always, 0 never, "
           "-1 chooses (float weights reading B as K x N over all of K: 64-row "
           "warp tiles, gathers in 64-row blocks with two stages, M = 8 and "
           "16 in 128-row blocks; weight-only quantized kernels cannot)">,
    Option<"registerGather", "register-gather", "bool", /*default=*/"false",
           "Tile for the kernels that vnm-fold-transposed-rhs with the same "
           "option hands x[N][K] at M = 8 (registers left to ptxas)">,
    Option<"as24", "as-2-4", "int64_t", /*default=*/"-1",
           "Run a V:2:M weight (M > 4) as 2:4 over its original columns on "
           "the warp-specialized sm_90a kernel (B a dense tile, M / 4 times "
           "the MMAs): 1 always, 0 never, -1 chooses (at M = 8 where N is "
           "dynamic or at least 2048)">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Attach a remark to each spmm it tiles: the recipe chosen and, "
           "for every recipe the chip offers, the predicted bytes of A and "
           "B through L2 and MMA time (lib/Conversion/VNMToGPU/"
           "RecipeCostModel.h), so that the choice can be checked against "
           "measurements">
  ];
  // The tiling attributes it sets.
  let dependentDialects = ["::vnm::vnm_gpu::VNMGPUDialect"];
}

def ConvertVNMGPUToLoops : Pass<"convert-vnm-gpu-to-loops", "mlir::ModuleOp"> {
  let summary = "Run vnm_gpu tile programs on the CPU, one thread block at a time";
  let description = [{
    For every kernel `gpu.func` whose body is a `vnm_gpu` tile program,
    adds to the top-level module a host function
    `func.func @<kernel>_cpu(<the kernel's arguments>, %grid_x: index,
    %grid_y: index)` (with `llvm.emit_c_interface`) that runs the kernel
    body once per block of the grid: `gpu.block_id x/y` become the indices
    of loops over grid x and y (y innermost: the K splits of a tile run one
    after another), `gpu.grid_dim x/y` the grid sizes, and every
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

def VNMFoldTransposedRhs : Pass<"vnm-fold-transposed-rhs", "mlir::ModuleOp"> {
  let summary = "Let spmm kernels read activations token-major instead of "
                "through a transposed copy";
  let description = [{
    A linear layer `y = x W^T` reaches `vnm.spmm` as W times the transpose
    of the activations `x[N][K]`: `vnm-sparsify` writes a
    `linalg.transpose`, and bufferization makes it a copy of x into a fresh
    K x N buffer. The kernels that read rhs token-major (K contiguous: the
    i8 kernels always, the f16/bf16 `mma.sp` kernels at M = 4 and 8 and the
    warp-specialized sm_90a `wgmma.sp` kernel, with K a multiple of 8) take
    x as it is. On memrefs (after bufferization and
    `vnm-choose-config`, whose tiling decides the kernel), this pass
    replaces such a copy by `memref.transpose` of x (a view with strides
    [1, pitch], no data moved) when

    * the copy is a `memref.alloc` that only the `linalg.transpose` writes
      (permutation [1, 0]) and only `vnm.storage.spmm` ops read, as rhs,
      later in the same block (deallocations of it are removed);
    * every such spmm's kernel reads the view token-major (the same checks
      as `vnm-lower-to-gpu`);
    * no op between the copy and its last reader may write memory that x
      may share (function arguments may alias each other; fresh
      allocations alias nothing else).

    Otherwise the copy stays and the kernel reads it as K x N. The launch
    contract's `rhs_layout` says which the kernel reads. The f16/bf16
    kernels at M = 8 can read x too, selecting the kept values in
    registers, but their K loop issues about three times the instructions
    of the K x N kernel's: this pass hands them x only with
    `register-gather`. `vnm-lower-to-nvvm-pipeline` runs it after
    `vnm-choose-config`.
  }];
  let options = [
    Option<"registerGather", "register-gather", "bool", /*default=*/"false",
           "Also hand x to the f16/bf16 kernels at M = 8, which select the "
           "kept values in registers (slower loops than the K x N kernel's "
           "by their static count)">
  ];
  // The kernel checks build vnm_gpu tiling attributes.
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::vnm::vnm_gpu::VNMGPUDialect"];
}

def VNMFoldTransposedResult
    : Pass<"vnm-fold-transposed-result", "mlir::ModuleOp"> {
  let summary = "Let spmm kernels store a linear layer's result token-major "
                "instead of through a transposed copy";
  let description = [{
    A linear layer `y = x W^T` computes `W x^T` (R x N) with `vnm.spmm` and
    transposes it back into `y[N][R]`; bufferization makes the transpose a
    copy of the spmm's fresh R x N buffer into another one. The spmm kernels
    can store their tile transposed instead (`vnm_gpu.epilogue ...
    {transposed}`). On memrefs (after bufferization), this pass lets the
    spmm write the copy's destination through `memref.transpose` (a view
    with strides [1, pitch]) and removes the copy, when

    * the spmm's result buffer is a `memref.alloc` that only the spmm
      writes (it does not accumulate) and only the `linalg.transpose`
      (permutation [1, 0]) reads, later in the same block (deallocations
      and sizes of it are rewritten);
    * the destination is a `memref.alloc` whose sizes are known where the
      spmm runs, and nothing uses it before the transpose;
    * the spmm's kernel stores the view (the checks of
      `vnm-lower-to-gpu`).

    The launch contract's `out_layout` says how the kernel stores y.
    `vnm-lower-to-nvvm-pipeline` runs it after `vnm-fold-transposed-rhs`.
  }];
  // The kernel checks build vnm_gpu tiling attributes.
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::vnm::vnm_gpu::VNMGPUDialect"];
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
