"""The program of one linear layer, compiled for vnm.torch.sparsify and
vnm.jax_layer (no framework needed to build it)."""

from . import format as vf


def layer_program(rows: int, cols: int, encoding: vf.Encoding, dtype: str, out: str,
                  bias: bool) -> str:
    """The program of one linear layer y[N][R] = x[N][K] W^T (+ b): the
    kernel computes W x^T, and the pipeline's vnm-fold-transposed-rhs and
    vnm-fold-transposed-result let it read x and write y themselves where
    it can (the contract's rhs_layout and out_layout)."""
    enc = f"#vnm.encoding<v = {encoding.v}, n = {encoding.n}, m = {encoding.m}>"
    w = f"tensor<{rows}x{cols}x{dtype}, {enc}>"
    x = f"tensor<?x{cols}x{dtype}>"
    xt = f"tensor<{cols}x?x{dtype}>"
    yt = f"tensor<{rows}x?x{out}>"
    y = f"tensor<?x{rows}x{out}>"
    args = f"%w: {w}, %x: {x}" + (f", %b: tensor<{rows}x{out}>" if bias else "")
    extra = f" bias(%b : tensor<{rows}x{out}>)" if bias else ""
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
