#!/usr/bin/env python3
"""Writes an MLIR program that checks one vnm op against a dense reference.

The program fills its inputs with fresh random data (vnm_test_fill_random,
nonzero values of random sign), runs the vnm op through whatever pipeline
compiles it, computes the same result densely with linalg.matmul on the
decompressed (pruned) operand, and prints one `vnm-compare <id>: PASS|FAIL`
line per check (vnm_test_compare). Checks:

  spmm:  1  decompress(compress(W)) == prune(W)             (exact)
         2  spmm(compress(W), X) [+acc][+bias][act]  vs  act(D X + acc + bias)
  sddmm: 1  decompress(compress(W)) == prune(W)             (exact)
         2  decompress(sddmm(A, B, compress(W)))  vs  (A B) masked by D != 0

where D = decompress(compress(W)). W has no zeros, so D != 0 marks exactly
the kept entries. The dense operand read through the sparse structure (X for
spmm, B for sddmm) is a slice of a buffer whose next row or column is NaN,
so reading one past the matrix shows up as NaN.
"""

import argparse

# Both sides compute from the same rounded inputs, so the bound only covers
# f32 summation order and the final rounding to the result type.
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 1e-2}


class Program:
    def __init__(self, args):
        self.a = args
        self.lines = []
        self.counter = 0

    def emit(self, text):
        self.lines.append("    " + text)

    def fresh(self, stem):
        self.counter += 1
        return f"%{stem}{self.counter}"

    def random_matrix(self, rows, cols, elem, poison_axis=None):
        """A rows x cols tensor of `elem` filled with random values.

        With `poison_axis` the data is allocated one row (0) or column (1)
        larger, that edge is set to NaN, and the tensor is a slice without
        it: an op reading past its operand then produces NaN."""
        full_rows = rows + (poison_axis == 0)
        full_cols = cols + (poison_axis == 1)
        buf = self.fresh("buf")
        dyn = self.fresh("dyn")
        self.emit(f"{buf} = memref.alloc() : memref<{full_rows}x{full_cols}xf32>")
        self.emit(f"{dyn} = memref.cast {buf} : memref<{full_rows}x{full_cols}xf32> "
                  f"to memref<?x?xf32>")
        self.emit(f"func.call @vnm_test_fill_random({dyn}) : (memref<?x?xf32>) -> ()")
        if poison_axis is not None:
            axis = self.fresh("axis")
            self.emit(f"{axis} = arith.constant {poison_axis} : i64")
            self.emit(f"func.call @vnm_test_poison_edge({dyn}, {axis}) : "
                      f"(memref<?x?xf32>, i64) -> ()")
        t = self.fresh("t")
        self.emit(f"{t} = bufferization.to_tensor {buf} restrict : "
                  f"memref<{full_rows}x{full_cols}xf32> to "
                  f"tensor<{full_rows}x{full_cols}xf32>")
        full = self.convert(t, full_rows, full_cols, "f32", elem)
        if poison_axis is None:
            return full
        view = self.fresh("view")
        self.emit(f"{view} = tensor.extract_slice {full}[0, 0] [{rows}, {cols}] "
                  f"[1, 1] : tensor<{full_rows}x{full_cols}x{elem}> to "
                  f"tensor<{rows}x{cols}x{elem}>")
        return view

    def convert(self, value, rows, cols, src, dst):
        """Elementwise extf/truncf of a rows x cols tensor."""
        if src == dst:
            return value
        op = "arith.truncf" if dst != "f32" else "arith.extf"
        empty = self.fresh("e")
        out = self.fresh("c")
        self.emit(f"{empty} = tensor.empty() : tensor<{rows}x{cols}x{dst}>")
        self.emit(f"{out} = linalg.generic {{indexing_maps = [#id2, #id2], "
                  f"iterator_types = [\"parallel\", \"parallel\"]}} "
                  f"ins({value} : tensor<{rows}x{cols}x{src}>) "
                  f"outs({empty} : tensor<{rows}x{cols}x{dst}>) {{")
        self.emit(f"^bb0(%in: {src}, %o: {dst}):")
        self.emit(f"  %r = {op} %in : {src} to {dst}")
        self.emit(f"  linalg.yield %r : {dst}")
        self.emit(f"}} -> tensor<{rows}x{cols}x{dst}>")
        return out

    def matmul(self, lhs, rhs, m, k, n):
        """f32 lhs (m x k) times rhs (k x n) with linalg.matmul."""
        zero = self.fresh("z")
        empty = self.fresh("e")
        fill = self.fresh("f")
        out = self.fresh("mm")
        self.emit(f"{zero} = arith.constant 0.0 : f32")
        self.emit(f"{empty} = tensor.empty() : tensor<{m}x{n}xf32>")
        self.emit(f"{fill} = linalg.fill ins({zero} : f32) outs({empty} : "
                  f"tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>")
        self.emit(f"{out} = linalg.matmul ins({lhs}, {rhs} : tensor<{m}x{k}xf32>, "
                  f"tensor<{k}x{n}xf32>) outs({fill} : tensor<{m}x{n}xf32>) "
                  f"-> tensor<{m}x{n}xf32>")
        return out

    def compare(self, check_id, actual, expected, rows, cols, tolerance):
        am = self.fresh("am")
        em = self.fresh("em")
        ad = self.fresh("ad")
        ed = self.fresh("ed")
        tol = self.fresh("tol")
        cid = self.fresh("id")
        for t, m, d in ((actual, am, ad), (expected, em, ed)):
            self.emit(f"{m} = bufferization.to_buffer {t} : "
                      f"tensor<{rows}x{cols}xf32> to memref<{rows}x{cols}xf32>")
            self.emit(f"{d} = memref.cast {m} : memref<{rows}x{cols}xf32> "
                      f"to memref<?x?xf32>")
        self.emit(f"{tol} = arith.constant {tolerance:e} : f64")
        self.emit(f"{cid} = arith.constant {check_id} : i64")
        self.emit(f"func.call @vnm_test_compare({cid}, {ad}, {ed}, {tol}) : "
                  f"(i64, memref<?x?xf32>, memref<?x?xf32>, f64) -> ()")

    def text(self):
        a = self.a
        enc = f"#vnm.encoding<v = {a.v}, n = {a.n}, m = {a.m}>"
        body = "\n".join(self.lines)
        return f"""// Generated by gen_test.py {a.op} v={a.v} n={a.n} m={a.m} type={a.type}
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
!enc = tensor<{a.rows}x{a.cols}x{a.type}, {enc}>
module {{
  func.func private @vnm_test_fill_random(memref<?x?xf32>)
      attributes {{llvm.emit_c_interface}}
  func.func private @vnm_test_compare(i64, memref<?x?xf32>, memref<?x?xf32>, f64)
      attributes {{llvm.emit_c_interface}}
  func.func private @vnm_test_poison_edge(memref<?x?xf32>, i64)
      attributes {{llvm.emit_c_interface}}
  func.func @main() {{
{body}
    return
  }}
}}
"""


def spmm(p):
    a = p.a
    R, K, N, T = a.rows, a.cols, a.n_cols, a.type
    out = a.out_type or "f32"
    enc = f"#vnm.encoding<v = {a.v}, n = {a.n}, m = {a.m}>"
    w = p.random_matrix(R, K, T)
    # Row K of the rhs buffer is NaN: the product must never read it.
    x = p.random_matrix(K, N, T, poison_axis=0)
    p.emit(f"%s = vnm.compress {w} : tensor<{R}x{K}x{T}> -> !enc")
    p.emit(f"%pruned = vnm.prune {w} {{encoding = {enc}}} : tensor<{R}x{K}x{T}> "
           f"-> tensor<{R}x{K}x{T}>")
    p.emit(f"%d = vnm.decompress %s : !enc -> tensor<{R}x{K}x{T}>")
    d32 = p.convert("%d", R, K, T, "f32")
    pruned32 = p.convert("%pruned", R, K, T, "f32")
    p.compare(1, d32, pruned32, R, K, 0.0)

    extras = ""
    acc_ref = None
    bias_ref = None
    if a.acc:
        acc = p.random_matrix(R, N, out)
        extras += f" acc({acc} : tensor<{R}x{N}x{out}>)"
        acc_ref = p.convert(acc, R, N, out, "f32")
    if a.bias:
        bias2 = p.random_matrix(R, 1, out)
        p.emit(f"%bias = tensor.collapse_shape {bias2} [[0, 1]] : "
               f"tensor<{R}x1x{out}> into tensor<{R}x{out}>")
        extras += f" bias(%bias : tensor<{R}x{out}>)"
        bias_ref = p.convert(bias2, R, 1, out, "f32")
    attr = f" {{activation = #vnm.activation<{a.activation}>}}" if a.activation != "none" else ""
    p.emit(f"%y = vnm.spmm %s, {x}{extras}{attr} : !enc, tensor<{K}x{N}x{T}> "
           f"-> tensor<{R}x{N}x{out}>")
    y32 = p.convert("%y", R, N, out, "f32")

    x32 = p.convert(x, K, N, T, "f32")
    ref = p.matmul(d32, x32, R, K, N)
    if acc_ref or bias_ref or a.activation != "none":
        ref = epilogue(p, ref, acc_ref, bias_ref, a.activation, R, N)
    tol = TOLERANCE[out]
    p.compare(2, y32, ref, R, N, tol)


def epilogue(p, ref, acc, bias, activation, R, N):
    """act(ref + acc + bias[r]) written as one linalg.generic (f32)."""
    ins = [ref]
    maps = ["#id2"]
    if acc:
        ins.append(acc)
        maps.append("#id2")
    if bias:
        b = p.fresh("b")
        p.emit(f"{b} = tensor.collapse_shape {bias} [[0, 1]] : "
               f"tensor<{R}x1xf32> into tensor<{R}xf32>")
        ins.append(b)
        maps.append("#row")
    empty = p.fresh("e")
    out = p.fresh("ep")
    p.emit(f"{empty} = tensor.empty() : tensor<{R}x{N}xf32>")
    types = ", ".join(f"tensor<{R}x{N}xf32>" if m == "#id2" else f"tensor<{R}xf32>"
                      for m in maps)
    args = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
    p.emit(f"{out} = linalg.generic {{indexing_maps = [{', '.join(maps)}, #id2], "
           f"iterator_types = [\"parallel\", \"parallel\"]}} ins({', '.join(ins)} : "
           f"{types}) outs({empty} : tensor<{R}x{N}xf32>) {{")
    p.emit(f"^bb0({args}, %o: f32):")
    cur = "%a0"
    for i in range(1, len(ins)):
        p.emit(f"  %s{i} = arith.addf {cur}, %a{i} : f32")
        cur = f"%s{i}"
    if activation == "relu":
        p.emit("  %g_zr = arith.constant 0.0 : f32")
        p.emit(f"  %g_act = arith.maximumf {cur}, %g_zr : f32")
        cur = "%g_act"
    elif activation == "gelu":
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), the spec's gelu.
        p.emit("  %g_h = arith.constant 0.5 : f32")
        p.emit("  %g_one = arith.constant 1.0 : f32")
        p.emit("  %g_k0 = arith.constant 0.7978845608028654 : f32")
        p.emit("  %g_k1 = arith.constant 0.044715 : f32")
        p.emit(f"  %g_x2 = arith.mulf {cur}, {cur} : f32")
        p.emit(f"  %g_x3 = arith.mulf %g_x2, {cur} : f32")
        p.emit("  %g_t1 = arith.mulf %g_k1, %g_x3 : f32")
        p.emit(f"  %g_t2 = arith.addf {cur}, %g_t1 : f32")
        p.emit("  %g_t3 = arith.mulf %g_k0, %g_t2 : f32")
        p.emit("  %g_t4 = math.tanh %g_t3 : f32")
        p.emit("  %g_t5 = arith.addf %g_one, %g_t4 : f32")
        p.emit(f"  %g_t6 = arith.mulf %g_h, {cur} : f32")
        p.emit("  %g_act = arith.mulf %g_t6, %g_t5 : f32")
        cur = "%g_act"
    p.emit(f"  linalg.yield {cur} : f32")
    p.emit(f"}} -> tensor<{R}x{N}xf32>")
    return out


def sddmm(p):
    a = p.a
    R, K, D, T = a.rows, a.cols, a.depth, a.type
    out = a.out_type or "f32"
    w = p.random_matrix(R, K, T)
    lhs = p.random_matrix(R, D, T)
    # Column K of the rhs buffer is NaN: sampling must never read it.
    rhs = p.random_matrix(D, K, T, poison_axis=1)
    enc = f"#vnm.encoding<v = {a.v}, n = {a.n}, m = {a.m}>"
    p.emit(f"%s = vnm.compress {w} : tensor<{R}x{K}x{T}> -> !enc")
    # The mask below comes from decompress; check it against the format
    # library's pruning first, so that both sides cannot share an error.
    p.emit(f"%pruned = vnm.prune {w} {{encoding = {enc}}} : tensor<{R}x{K}x{T}> "
           f"-> tensor<{R}x{K}x{T}>")
    p.emit(f"%t = vnm.sddmm {lhs}, {rhs}, %s : tensor<{R}x{D}x{T}>, "
           f"tensor<{D}x{K}x{T}>, !enc -> tensor<{R}x{K}x{out}, {enc}>")
    p.emit(f"%dt = vnm.decompress %t : tensor<{R}x{K}x{out}, {enc}> -> "
           f"tensor<{R}x{K}x{out}>")
    p.emit(f"%dp = vnm.decompress %s : !enc -> tensor<{R}x{K}x{T}>")
    dt32 = p.convert("%dt", R, K, out, "f32")
    dp32 = p.convert("%dp", R, K, T, "f32")
    full = p.matmul(p.convert(lhs, R, D, T, "f32"), p.convert(rhs, D, K, T, "f32"),
                    R, D, K)
    empty = p.fresh("e")
    p.emit(f"{empty} = tensor.empty() : tensor<{R}x{K}xf32>")
    p.emit(f"%masked = linalg.generic {{indexing_maps = [#id2, #id2, #id2], "
           f"iterator_types = [\"parallel\", \"parallel\"]}} ins({full}, {dp32} : "
           f"tensor<{R}x{K}xf32>, tensor<{R}x{K}xf32>) outs({empty} : "
           f"tensor<{R}x{K}xf32>) {{")
    p.emit("^bb0(%v: f32, %pat: f32, %o: f32):")
    p.emit("  %z = arith.constant 0.0 : f32")
    p.emit("  %kept = arith.cmpf one, %pat, %z : f32")
    p.emit("  %r = arith.select %kept, %v, %z : f32")
    p.emit("  linalg.yield %r : f32")
    p.emit(f"}} -> tensor<{R}x{K}xf32>")
    p.compare(1, dp32, p.convert("%pruned", R, K, T, "f32"), R, K, 0.0)
    tol = TOLERANCE[out]
    p.compare(2, dt32, "%masked", R, K, tol)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("op", choices=["spmm", "sddmm"])
    ap.add_argument("--v", type=int, required=True)
    ap.add_argument("--n", type=int, default=2)
    ap.add_argument("--m", type=int, required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--cols", type=int, required=True)
    ap.add_argument("--n-cols", type=int, default=8, help="spmm N")
    ap.add_argument("--depth", type=int, default=8, help="sddmm D")
    ap.add_argument("--type", default="f32", choices=["f32", "f16", "bf16"])
    ap.add_argument("--out-type", choices=["f32", "f16", "bf16"])
    ap.add_argument("--acc", action="store_true")
    ap.add_argument("--bias", action="store_true")
    ap.add_argument("--activation", default="none", choices=["none", "relu", "gelu"])
    args = ap.parse_args()
    p = Program(args)
    (spmm if args.op == "spmm" else sddmm)(p)
    print(p.text())


if __name__ == "__main__":
    main()
