"""What a vnm linear layer is whatever the framework (vnm.torch.sparsify's
VNMLinear, vnm.jax_layer's SparseDense): the program its kernel is
compiled from, and its weight's V:N:M storage."""

from typing import Optional

import numpy as np

from . import format as vf


# Weight-only quantized forms: the weight's storage type. The activations
# keep the layer's float type; the weights carry one f32 scale per row.
WEIGHT_ONLY_FORMS = {"w8a16": "i8", "w4a16": "i4"}


def layer_program(rows: int, cols: int, encoding: vf.Encoding, dtype: str, out: str,
                  bias: bool, quantization: Optional[str] = None) -> str:
    """The program of one linear layer y[N][R] = x[N][K] W^T (+ b): the
    kernel computes W x^T, and the pipeline's vnm-fold-transposed-rhs and
    vnm-fold-transposed-result let it read x and write y themselves where
    it can (the contract's rhs_layout and out_layout). With `quantization`
    (a WEIGHT_ONLY_FORMS key) W is i8 or i4 with per-row scales, x is
    `dtype`."""
    enc = f"#vnm.encoding<v = {encoding.v}, n = {encoding.n}, m = {encoding.m}>"
    weight_type = WEIGHT_ONLY_FORMS[quantization] if quantization else dtype
    w = f"tensor<{rows}x{cols}x{weight_type}, {enc}>"
    x = f"tensor<?x{cols}x{dtype}>"
    xt = f"tensor<{cols}x?x{dtype}>"
    yt = f"tensor<{rows}x?x{out}>"
    y = f"tensor<?x{rows}x{out}>"
    args = f"%w: {w}, %x: {x}" + (f", %b: tensor<{rows}x{out}>" if bias else "")
    extra = f" bias(%b : tensor<{rows}x{out}>)" if bias else ""
    if quantization:
        args += f", %sw: tensor<{rows}xf32>"
        extra += f" weight_scales(%sw : tensor<{rows}xf32>)"
    return f"""func.func @linear({args}) -> {y} {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : {x}
  %e = tensor.empty(%n) : {xt}
  %xt = linalg.transpose ins(%x : {x}) outs(%e : {xt}) permutation = [1, 0]
  %yt = vnm.spmm %w, %xt{extra} : {w}, {xt} -> {yt}
  %f = tensor.empty(%n) : {y}
  %y = linalg.transpose ins(%yt : {yt}) outs(%f : {y}) permutation = [1, 0]
  return %y : {y}
}}
"""


def compress_weight(bits: np.ndarray, encoding: vf.Encoding, element: str, name: str,
                    how_to_prune: str) -> vf.Compressed:
    """The storage of a weight that is V:N:M already (`bits`: the format
    library's numpy form, bf16 as uint16); a weight the format would change
    is refused, naming the layer and `how_to_prune`, never pruned
    silently."""
    compressed = vf.compress(bits, encoding, dtype=element)
    restored = vf.decompress(compressed)
    if not np.array_equal(restored.view(np.uint8), bits.view(np.uint8)):
        kept = np.count_nonzero(restored) / max(np.count_nonzero(bits), 1)
        raise ValueError(f"layer {name!r}: the weight is not {encoding} sparse (the format "
                         f"would keep {kept:.1%} of its nonzeros); prune it first "
                         f"({how_to_prune})")
    return compressed
