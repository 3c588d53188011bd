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
    `vnm.assemble`/`vnm.disassemble` pair. Argument and result attributes
    stay with their values (an encoded one's go on each storage array);
    `cf.br` and `cf.cond_br` are expanded too.

    Refused before anything is rewritten: a value whose type holds an
    encoded tensor inside another type (a function value, a tuple), a
    reference other than `func.call` to a function with an encoded
    signature, and any other branch forwarding an encoded tensor.

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

def VNMSparsify : Pass<"vnm-sparsify", "mlir::ModuleOp"> {
  let summary = "Rewrite linalg matmuls with a V:N:M weight into vnm.spmm";
  let description = [{
    How programs from Torch-MLIR and JAX (linalg on tensors) enter vnm. A
    `linalg.matmul` or `linalg.batch_matmul` (plain or with transposed-operand
    `indexing_maps`) becomes `vnm.spmm` when one input, the weight, is

    * an `arith.constant` (dense or `dense_resource`) and a format applies to
      it: the op's own `vnm.encoding = #vnm.encoding<...>` attribute, else
      `default-format` (and then only for constants of at least
      `min-elements` elements); or
    * a `func.func` argument annotated `{vnm.encoding = #vnm.encoding<...>}`
      (it is preferred over a constant on the other side),

    or a `linalg.transpose` of one swapping its last two dimensions (how
    Torch-MLIR feeds `nn.Linear` weights to a plain matmul; for an argument
    only when the matmul is the transpose's one user).

    Other matmuls are left alone. spmm's encoded operand is the R x K weight
    (R output features, K the reduction dimension) and its dense operand is
    K x N, so:

    * `W @ x`: `spmm(compress(W), x)`;
    * `x @ W.T` (transposed-B maps, Torch `nn.Linear`), W held R x K:
      `transpose(spmm(compress(W), transpose(x)))`;
    * `x @ W` (plain maps, JAX `Dense`), W held K x R: as above with
      `compress(transpose(W))`; the transpose of a constant is folded into a
      new constant (a new resource for `dense_resource`) when its data is in
      memory, else it is a `linalg.transpose`.

    An init that is not `tensor.empty`, a `linalg.fill` of zero or a zero
    splat becomes the spmm accumulator (transposed like the result). A
    `batch_matmul` with a constant rank-3 weight becomes one spmm per batch
    (each batch's weight its own constant) on `tensor.extract_slice`s of the
    other input, put together with `tensor.insert_slice`.

    An annotated argument that every matmul reads R x K is retyped to
    `tensor<RxKxT, #vnm.encoding<...>>`: the caller passes the V:N:M matrix,
    `func.call`s in the module get a `vnm.compress` of the dense value they
    passed, and uses other than those matmuls read `vnm.decompress` of the
    argument. An argument some matmul reads K x R cannot take the R x K
    encoded type: it stays dense and the function compresses it (transposed)
    on entry, so the weight is pruned at run time, on every call. The
    annotation is removed either way. Declarations are not changed.

    Errors (the pass fails): a malformed `default-format`; a weight that was
    asked for (annotation, op attribute, or `default-format` on a constant)
    and cannot be encoded (not rank 2, a dynamic dimension, an element type
    other than f16, bf16, f32, i8, i4, both inputs candidates); an op
    attribute without a weight, or that differs from its argument's
    annotation. A matmul spmm cannot express (result element type, mixed
    input types, unsigned integer casts, broadcasting maps) is an error when
    an annotation or the op attribute asked for it, and is otherwise left as
    it is and counted in the `skipped` statistic.

    ```mlir
    // before: y = x @ W.T
    %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>]
        {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
        ins(%x, %w : tensor<?x64xf16>, tensor<128x64xf16>)
        outs(%empty : tensor<?x128xf32>) -> tensor<?x128xf32>
    // after
    %s = vnm.compress %w : tensor<128x64xf16> -> tensor<128x64xf16, #enc>
    %xt = linalg.transpose ins(%x : tensor<?x64xf16>) ...
    %yt = vnm.spmm %s, %xt : ..., tensor<64x?xf16> -> tensor<128x?xf32>
    %y = linalg.transpose ins(%yt : tensor<128x?xf32>) ...
    ```
  }];
  let options = [
    Option<"defaultFormat", "default-format", "std::string", /*default=*/"",
           "V:N:M format (e.g. 64:2:8) for constant weights of matmuls "
           "without a vnm.encoding attribute; empty: they stay dense">,
    Option<"minElements", "min-elements", "int64_t", /*default=*/"0",
           "constant weights with fewer elements stay dense under "
           "default-format (an op's vnm.encoding attribute still applies)">,
  ];
  let statistics = [
    Statistic<"numSparsified", "sparsified",
              "matmuls rewritten into vnm.spmm">,
    Statistic<"numSkipped", "skipped",
              "default-format matmuls left alone: vnm.spmm cannot express "
              "them">,
  ];
  let dependentDialects = ["::vnm::VNMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def VNMQuantize : Pass<"vnm-quantize", "mlir::ModuleOp"> {
  let summary = "Quantize the weights (and activations) of vnm.spmm ops";
  let description = [{
    Rewrites a `vnm.spmm` whose weight is `vnm.compress` of a dense float
    matrix (what `vnm-sparsify` produces for constant weights) or an encoded
    function argument (an annotated weight argument) into its quantized
    form (docs/spec.md, "Quantized spmm"). The choice comes from the op's
    `vnm.quantization` attribute (carried over by `vnm-sparsify` from the
    matmul or from the weight argument's own `vnm.quantization`), else from
    `default`; ops with neither stay as they are.
    A choice is `w8a8`, `w4a8`, `w8a16` or `w4a16`, optionally with
    `-g<group size>` (a multiple of the encoding's M):

    * the weight is pruned first and the kept values are quantized
      symmetrically per row (or per row and group of K): `vnm.prune`,
      `vnm.quantize {axis = 0}`, `vnm.compress` to an i8 or i4 encoding; for
      a constant weight canonicalization folds all three at compile time
      through the format library;
    * `a8`: the activations (spmm's rhs) are quantized at run time with one
      scale per column (per token): `vnm.quantize {axis = 1}`; when rhs is
      the `linalg.transpose` of activations x[N][K] (a linear layer), x is
      quantized per row (`axis = 0`, the same values) and the i8 result is
      transposed, which `vnm-fold-transposed-rhs` folds away for the i8
      kernels, as they read x[N][K] itself;
    * an encoded argument takes the quantized encoding (the caller passes
      `vnm.format.quantize_weights`' storage) and its f32 scales as a new
      argument right after it; `func.call`s in the module quantize what
      they pass (`vnm.decompress`, `vnm.quantize`, `vnm.compress`);
    * the spmm takes the scales and keeps its result type, accumulator,
      bias and activation.

    ```mlir
    // before
    %c = vnm.compress %w : tensor<128x64xf16> -> tensor<128x64xf16, #enc>
    %y = vnm.spmm %c, %x {vnm.quantization = "w8a8"} : ... -> tensor<128x?xf32>
    // after
    %p = vnm.prune %w {encoding = #enc} : ...
    %q, %s = vnm.quantize %p {axis = 0} : tensor<128x64xf16>
        -> tensor<128x64xi8>, tensor<128xf32>
    %cq = vnm.compress %q : tensor<128x64xi8> -> tensor<128x64xi8, #enc>
    %xq, %sx = vnm.quantize %x {axis = 1} : tensor<64x?xf16>
        -> tensor<64x?xi8>, tensor<?xf32>
    %y = vnm.spmm %cq, %xq weight_scales(%s : tensor<128xf32>)
        input_scales(%sx : tensor<?xf32>) : ... -> tensor<128x?xf32>
    ```

    Errors (the pass fails and rewrites nothing): a malformed `default`; a
    group size that is not a multiple of M; a chosen spmm whose weight is
    neither, that already is quantized, or whose result is not a float; a
    weight argument with another use than spmm weights, read with two
    choices or by an spmm without one, or whose function is referenced
    other than by `func.call`; `vnm.quantization` on any other op or on an
    argument without `vnm.encoding`.
  }];
  let options = [
    Option<"defaultChoice", "default", "std::string", /*default=*/"",
           "quantization (w8a8, w4a8, w8a16, w4a16, optionally -g<group "
           "size>) for spmm ops without a vnm.quantization attribute; "
           "empty: they stay as they are">,
  ];
  let statistics = [
    Statistic<"numQuantized", "quantized", "vnm.spmm ops quantized">,
  ];
  let dependentDialects = ["::vnm::VNMDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def VNMFuseEpilogue : Pass<"vnm-fuse-epilogue"> {
  let summary = "Fold the bias, relu and conversion after a vnm.spmm into it";
  let description = [{
    Frontends write a linear layer's bias and activation as element-wise
    linalg ops after the matmul: Torch-MLIR truncates the matmul's f32 result
    to bf16 or f16 and adds the (broadcast) bias to the truncated value, JAX
    adds it to a matmul on the storage type. As written the product is
    rounded before the bias is added and rounded again. This pass folds such
    ops into the `vnm.spmm` (without bias or activation) whose result they
    read, so that the bias and the activation are applied in f32 before the
    single rounding to the result type, on the CPU and GPU paths alike (as
    PyTorch's `addmm` and cuBLAS compute a linear layer).

    Folded, op by op along the spmm's single-use result (through the
    `linalg.transpose` of `x @ W.T`): element-wise linalg ops (`generic` or
    named, parallel loops, an init the body does not read) whose body
    converts the product (`arith.extf`, `arith.truncf`), adds a per-row bias
    once (a rank-1 tensor of R entries read at the product's row, directly
    or through `linalg.broadcast`), then applies relu at most once
    (`arith.maximumf`/`arith.maxnumf` with zero, or `x > 0 ? x : 0`). The
    longest such run whose result spmm can hold is folded: a float result
    type, the bias of that type, an `acc` of that type. Anything else (other
    operands, a value read twice, an erf GELU that spmm's tanh GELU would
    change) ends the run and stays as it is. The pass never fails.

    ```mlir
    // before
    %p = vnm.spmm %w, %xt : tensor<32x64xbf16, #enc>, tensor<64x4xbf16>
        -> tensor<32x4xf32>
    %t = linalg.transpose ins(%p : tensor<32x4xf32>) ... permutation = [1, 0]
    %r = linalg.generic ... ins(%t : tensor<4x32xf32>) { arith.truncf }
    %b = linalg.broadcast ins(%bias : tensor<32xbf16>) ... dimensions = [0]
    %y = linalg.add ins(%b, %r : tensor<4x32xbf16>, tensor<4x32xbf16>) ...
    // after
    %p = vnm.spmm %w, %xt bias(%bias : tensor<32xbf16>)
        : tensor<32x64xbf16, #enc>, tensor<64x4xbf16> -> tensor<32x4xbf16>
    %y = linalg.transpose ins(%p : tensor<32x4xbf16>) ... permutation = [1, 0]
    ```
  }];
  let statistics = [
    Statistic<"numFused", "fused", "vnm.spmm ops that took an epilogue">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def VNMSpecializeTransposes : Pass<"vnm-specialize-transposes"> {
  let summary = "Rewrite linalg.generic transposes into linalg.transpose";
  let description = [{
    A `linalg.generic` on tensors that only copies its one input through a
    permutation (as JAX's StableHLO lowering writes `W.T`) becomes the
    `linalg.transpose` that `vnm-sparsify` recognizes; every other op is
    left as it is. The frontends run this instead of upstream's
    `linalg-specialize-generic-ops`, which in LLVM 22 also turns a batched
    contraction with a transposed operand (JAX's `einsum("htd,hsd->hts")`)
    into a `linalg.batch_matmul` that does not verify.

    ```mlir
    // before
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%w : tensor<128x256xf16>) outs(%e : tensor<256x128xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<256x128xf16>
    // after
    %t = linalg.transpose ins(%w : tensor<128x256xf16>)
        outs(%e : tensor<256x128xf16>) permutation = [1, 0]
    ```
  }];
  let statistics = [
    Statistic<"numSpecialized", "specialized",
              "generics rewritten into linalg.transpose">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def VNMFlattenBroadcastMatmuls : Pass<"vnm-flatten-broadcast-matmuls"> {
  let summary = "Rewrite batch matmuls of one broadcast weight into matmuls";
  let description = [{
    A `linalg.batch_matmul` (plain maps) whose second operand broadcasts one
    K x N matrix along the batch (`linalg.broadcast` with `dimensions = [0]`
    or a copying generic) becomes a `linalg.matmul` of the first operand
    and the init with their batch and row dimensions collapsed, expanded
    back after. PyTorch writes a linear layer on a non-contiguous 3-d input
    so (a BERT's attention output projection under `sdpa` at batch > 1:
    `bmm(x, expand(W.T))`); as a matmul, `vnm-sparsify` makes its weight
    sparse like any other. Discardable attributes (`vnm.encoding`) move to
    the matmul. An init that is a `linalg.fill` (Torch-MLIR's zero) stays a
    fill, of its collapsed destination, so that the product still reads as
    one that accumulates into nothing.

    ```mlir
    // before
    %b = linalg.broadcast ins(%wt : tensor<384x384xf32>)
        outs(%e : tensor<2x384x384xf32>) dimensions = [0]
    %y = linalg.batch_matmul ins(%x, %b : tensor<2x16x384xf32>, tensor<2x384x384xf32>)
        outs(%c : tensor<2x16x384xf32>) -> tensor<2x16x384xf32>
    // after
    %xf = tensor.collapse_shape %x [[0, 1], [2]] : ... into tensor<32x384xf32>
    %cf = tensor.collapse_shape %c [[0, 1], [2]] : ... into tensor<32x384xf32>
    %m = linalg.matmul ins(%xf, %wt : tensor<32x384xf32>, tensor<384x384xf32>)
        outs(%cf : tensor<32x384xf32>) -> tensor<32x384xf32>
    %y = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 16, 384] ...
    ```
  }];
  let statistics = [
    Statistic<"numFlattened", "flattened",
              "batch matmuls rewritten into matmuls">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // VNM_DIALECT_VNM_TRANSFORMS_PASSES_TD
