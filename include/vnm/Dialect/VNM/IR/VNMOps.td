//===- VNMOps.td - vnm operations --------------------------*- tablegen -*-===//
//
// Constraint numbers (Cn) in the descriptions and verifier messages refer to
// docs/spec.md.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNM_IR_VNMOPS_TD
#define VNM_DIALECT_VNM_IR_VNMOPS_TD

include "vnm/Dialect/VNM/IR/VNMAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class VNM_Op<string mnemonic, list<Trait> traits = []>
    : Op<VNM_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Encoded-tensor ops.
//===----------------------------------------------------------------------===//

def VNM_PruneOp : VNM_Op<"prune", [Pure]> {
  let summary = "zero every entry the V:N:M pruning rule drops";
  let description = [{
    Applies VENOM's pruning rule for `encoding` to a dense matrix and returns
    the dense matrix with the dropped entries set to +0: in each VxM block the
    four columns maximising the summed top-n magnitudes of the block's rows
    are selected, and each row keeps its n largest magnitudes among them.
    Kept entries are returned bit-exactly (including -0.0 and NaN).

    ```mlir
    %p = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
        : tensor<128x64xf16> -> tensor<128x64xf16>
    ```
  }];
  let arguments = (ins AnyType:$input, VNM_EncodingAttr:$encoding);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def VNM_CompressOp : VNM_Op<"compress", [Pure]> {
  let summary = "prune a dense matrix and hold it in the V:N:M format";
  let description = [{
    Returns a V:N:M encoding of `vnm.prune(input)` in the result type's
    encoding. When the input already fits the format (prune leaves it
    unchanged) any storage that encodes it is a valid result; this is what
    makes `compress(decompress(s))` fold to `s`.

    ```mlir
    %s = vnm.compress %w : tensor<128x64xf16>
        -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def VNM_DecompressOp : VNM_Op<"decompress", [Pure]> {
  let summary = "expand a V:N:M matrix to a dense one";
  let description = [{
    Returns the dense matrix the encoded operand represents: kept values at
    their positions, +0 everywhere else.

    ```mlir
    %d = vnm.decompress %s
        : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
        -> tensor<128x64xf16>
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def VNM_AssembleOp : VNM_Op<"assemble", [Pure]> {
  let summary = "build a V:N:M matrix from its three storage arrays";
  let description = [{
    `values` (R x 2G), `colidx` (ceil(R/V) x G x 4, i8 offsets inside each
    group) and `meta` (R x 2G, i8 positions 0..3 inside the four selected
    columns) become one encoded tensor, with G = ceil(K/M). The arrays are
    taken as they are; the consistency of their contents is checked where
    they are consumed (see docs/spec.md, "Storage contents").

    ```mlir
    %s = vnm.assemble %values, %colidx, %meta
        : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
        -> tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
    ```
  }];
  let arguments = (ins AnyType:$values, AnyType:$colidx,
                   AnyType:$meta);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $values `,` $colidx `,` $meta attr-dict `:` type($values) `,`
    type($colidx) `,` type($meta) `->` type($result)
  }];
  let hasFolder = 1;
}

def VNM_DisassembleOp : VNM_Op<"disassemble", [Pure]> {
  let summary = "return the three storage arrays of a V:N:M matrix";
  let description = [{
    The inverse of `vnm.assemble`.

    ```mlir
    %v, %c, %m = vnm.disassemble %s
        : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
        -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$values, AnyType:$colidx,
                 AnyType:$meta);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($values) `,` type($colidx) `,`
    type($meta)
  }];
  let hasFolder = 1;
}

def VNM_SpmmOp : VNM_Op<"spmm", [Pure, AttrSizedOperandSegments]> {
  let summary = "V:N:M sparse times dense matrix product with an epilogue";
  let description = [{
    `result = activation(lhs * rhs + acc + bias)` where `lhs` is R x K in the
    V:N:M format, `rhs` is dense K x N, the optional `acc` is R x N and the
    optional `bias` has R entries (one per row of `lhs`, i.e. per output
    feature of `x @ W.T`). Products are accumulated in f32 (i32 for integer
    operands); the sum is converted to the result type last.

    Quantized forms (docs/spec.md, "Quantized spmm"): an i8/i4 `lhs` with
    `weight_scales` (f32, one per row, or per row and group of `group_size`
    columns) is dequantized: `y = act((sum_g s_w[r][g] * acc_g) * s_x[n] +
    acc + bias)`, where `acc_g` is the i32 (integer `rhs`) or f32 (float
    `rhs`) product over group g and the optional `input_scales` (f32, one for
    the tensor or one per column of an i8 `rhs`) gives `s_x`.

    ```mlir
    %y = vnm.spmm %wq, %xq weight_scales(%sw : tensor<128xf32>)
        input_scales(%sx : tensor<32xf32>)
        : tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>,
          tensor<64x32xi8> -> tensor<128x32xf16>
    ```

    ```mlir
    %y = vnm.spmm %w, %x acc(%c : tensor<128x32xf32>)
        bias(%b : tensor<128xf32>) {activation = #vnm.activation<relu>}
        : tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
          tensor<64x32xf16> -> tensor<128x32xf32>
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs,
                   Optional<AnyType>:$acc,
                   Optional<AnyType>:$bias,
                   Optional<AnyType>:$weight_scales,
                   Optional<AnyType>:$input_scales,
                   DefaultValuedAttr<VNM_ActivationAttr,
                                     "::vnm::Activation::none">:$activation,
                   OptionalAttr<I64Attr>:$group_size);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`acc` `(` $acc^ `:` type($acc) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`weight_scales` `(` $weight_scales^ `:` type($weight_scales) `)`)?
    (`input_scales` `(` $input_scales^ `:` type($input_scales) `)`)?
    attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// Whether the op dequantizes (carries weight scales).
    bool isQuantized() { return static_cast<bool>(getWeightScales()); }
  }];
}

def VNM_QuantizeOp : VNM_Op<"quantize", [Pure]> {
  let summary = "symmetric quantization of a dense matrix to i8 or i4";
  let description = [{
    Quantizes a float matrix symmetrically: each scale group (the whole
    matrix; with `axis = 0` each row, with `axis = 1` each column; with
    `group_size = g` also cut into chunks of g along the other dimension)
    gets `scale = amax / qmax` (1 where amax = 0) and each entry
    `clamp(roundeven(x / scale), -qmax, qmax)` with qmax = 127 (i8) or 7
    (i4). A group holding NaN or an infinity gets a NaN or infinite scale, so
    every result computed from it is NaN (docs/spec.md).

    ```mlir
    %q, %s = vnm.quantize %x {axis = 1} : tensor<64x?xf16>
        -> tensor<64x?xi8>, tensor<?xf32>
    ```
  }];
  let arguments = (ins AnyType:$input, OptionalAttr<I64Attr>:$axis,
                   OptionalAttr<I64Attr>:$group_size);
  let results = (outs AnyType:$quantized, AnyType:$scales);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($quantized) `,` type($scales)
  }];
  let hasFolder = 1;
}

def VNM_SddmmOp : VNM_Op<"sddmm", [Pure]> {
  let summary = "dense times dense product sampled on a V:N:M pattern";
  let description = [{
    Computes `lhs * rhs` (R x D times D x K) only at the positions `pattern`
    keeps, and returns them as a V:N:M matrix with the pattern's structure
    (column-loc and metadata). Accumulation is in f32.

    ```mlir
    %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>,
        tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
        -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs,
                   AnyType:$pattern);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $pattern attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($pattern) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Storage ops: destination style, on tensors or memrefs.
//===----------------------------------------------------------------------===//

// Storage ops are in destination style: their `outs` operands (the inits)
// are always the trailing operands, and on tensors each init has a tied
// result of the same type.
class VNM_StorageOp<string mnemonic, int numInits, list<Trait> traits = []>
    : VNM_Op<"storage." # mnemonic,
             !listconcat(traits, [
               DeclareOpInterfaceMethods<MemoryEffectsOpInterface>])> {
  let results = (outs Variadic<AnyType>:$results);
  let extraClassDeclaration = [{
    /// Number of trailing `outs` operands.
    static unsigned getNumInits() { return }] # numInits # [{; }
  }];
}

def VNM_StoragePruneOp : VNM_StorageOp<"prune", 1> {
  let summary = "vnm.prune in destination style";
  let description = [{
    Writes `vnm.prune(input)` into `init`.

    ```mlir
    vnm.storage.prune ins(%w : memref<128x64xf16>)
        outs(%p : memref<128x64xf16>)
        {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
    ```
  }];
  let arguments = (ins AnyType:$input, AnyType:$init,
                   VNM_EncodingAttr:$encoding);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $init `:` type($init) `)`
    attr-dict (`->` type($results)^)?
  }];
}

def VNM_StorageCompressOp : VNM_StorageOp<"compress", 3> {
  let summary = "vnm.compress in destination style";
  let description = [{
    Prunes `input` and writes its storage arrays into `values`, `colidx` and
    `meta`.

    ```mlir
    vnm.storage.compress ins(%w : memref<128x64xf16>)
        outs(%v, %c, %m : memref<128x16xf16>, memref<2x8x4xi8>,
             memref<128x16xi8>)
        {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
    ```
  }];
  let arguments = (ins AnyType:$input, AnyType:$values,
                   AnyType:$colidx, AnyType:$meta,
                   VNM_EncodingAttr:$encoding);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $values `,` $colidx `,`
    $meta `:` type($values) `,` type($colidx) `,` type($meta) `)` attr-dict
    (`->` type($results)^)?
  }];
}

def VNM_StorageDecompressOp : VNM_StorageOp<"decompress", 1> {
  let summary = "vnm.decompress in destination style";
  let description = [{
    Writes the dense matrix the storage arrays encode into `init`.

    ```mlir
    vnm.storage.decompress
        ins(%v, %c, %m : memref<128x16xf16>, memref<2x8x4xi8>,
            memref<128x16xi8>)
        outs(%d : memref<128x64xf16>)
        {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
    ```
  }];
  let arguments = (ins AnyType:$values, AnyType:$colidx, AnyType:$meta,
                   AnyType:$init, VNM_EncodingAttr:$encoding);
  let assemblyFormat = [{
    `ins` `(` $values `,` $colidx `,` $meta `:` type($values) `,`
    type($colidx) `,` type($meta) `)` `outs` `(` $init `:` type($init) `)`
    attr-dict (`->` type($results)^)?
  }];
}

def VNM_StorageSpmmOp : VNM_StorageOp<"spmm", 1, [AttrSizedOperandSegments]> {
  let summary = "vnm.spmm in destination style";
  let description = [{
    `init = activation(A * rhs + (accumulate ? init : 0) + bias)` with A given
    by its storage arrays.

    ```mlir
    vnm.storage.spmm
        ins(%v, %c, %m, %x : memref<128x16xf16>, memref<2x8x4xi8>,
            memref<128x16xi8>, memref<64x32xf16>)
        outs(%y : memref<128x32xf32>)
        {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, accumulate}
    ```
  }];
  let arguments = (ins AnyType:$values, AnyType:$colidx, AnyType:$meta,
                   AnyType:$rhs, Optional<AnyType>:$bias,
                   Optional<AnyType>:$weight_scales,
                   Optional<AnyType>:$input_scales,
                   AnyType:$init, VNM_EncodingAttr:$encoding,
                   UnitAttr:$accumulate,
                   DefaultValuedAttr<VNM_ActivationAttr,
                                     "::vnm::Activation::none">:$activation,
                   OptionalAttr<I64Attr>:$group_size);
  let assemblyFormat = [{
    `ins` `(` $values `,` $colidx `,` $meta `,` $rhs `:` type($values) `,`
    type($colidx) `,` type($meta) `,` type($rhs) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`weight_scales` `(` $weight_scales^ `:` type($weight_scales) `)`)?
    (`input_scales` `(` $input_scales^ `:` type($input_scales) `)`)?
    `outs` `(` $init `:` type($init) `)` attr-dict (`->` type($results)^)?
  }];
}

def VNM_StorageQuantizeOp : VNM_StorageOp<"quantize", 2> {
  let summary = "vnm.quantize in destination style";
  let description = [{
    Writes `vnm.quantize(input)` into `quantized` and `scales`.

    ```mlir
    vnm.storage.quantize ins(%x : memref<64x?xf16>)
        outs(%q, %s : memref<64x?xi8>, memref<?xf32>) {axis = 1}
    ```
  }];
  let arguments = (ins AnyType:$input, AnyType:$quantized, AnyType:$scales,
                   OptionalAttr<I64Attr>:$axis,
                   OptionalAttr<I64Attr>:$group_size);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $quantized `,` $scales
    `:` type($quantized) `,` type($scales) `)` attr-dict
    (`->` type($results)^)?
  }];
}

def VNM_StorageSddmmOp : VNM_StorageOp<"sddmm", 1> {
  let summary = "vnm.sddmm in destination style";
  let description = [{
    Writes `(lhs * rhs)` sampled at the pattern given by `colidx` and `meta`
    into the values array `init`.

    ```mlir
    vnm.storage.sddmm
        ins(%a, %b, %c, %m : memref<128x32xf16>, memref<32x64xf16>,
            memref<2x8x4xi8>, memref<128x16xi8>)
        outs(%v : memref<128x16xf32>)
        {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs, AnyType:$colidx,
                   AnyType:$meta, AnyType:$init,
                   VNM_EncodingAttr:$encoding);
  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `,` $colidx `,` $meta `:` type($lhs) `,`
    type($rhs) `,` type($colidx) `,` type($meta) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict (`->` type($results)^)?
  }];
}

#endif // VNM_DIALECT_VNM_IR_VNMOPS_TD
