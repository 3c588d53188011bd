"""The quantized SpMM benchmark's case matrix (compile and device steps).

W8A8: an i8 V:N:M weight (per-row scales) times i8 token-major activations
x[N][K] (per-token scales). The GPU kernels cover M = 4 (2:4: each pair's
K bytes are copied) and M = 8 (2:8: each pair's groups are copied whole and
the B-fragment load selects the kept bytes).

W8A16 and W4A16: i8/i4 weights with per-row scales times f16 activations
K x N, dequantized to f16 in registers for the f16 MMA (the decode case:
the weight bytes are the cost).

W4A16g128: W4A16 with per-group scales over groups of 128 K columns.

W4A8: the same kernels with an i4 weight (packed two per fragment byte,
widened to i8 in registers), at the 4096^3 and decode shapes and the
ragged ones.

Each (form, R, K, V, M) is compiled twice: `f16`, the dequantizing kernel a model
runs (f16 out, timed against torch._int_mm and dense fp16 torch.mm), and
`i32`, the plain integer kernel whose results are checked exactly.
"""

# (R, K, N): the SpMM matrix's square and LLaMA-FFN shapes, then decode
# shapes (few tokens: the weight bytes are the cost).
SHAPES = [
    (4096, 4096, 4096),
    (11008, 4096, 4096),
    (4096, 4096, 1),
    (4096, 4096, 16),
    (4096, 4096, 64),
    (11008, 4096, 16),
    (4096, 11008, 16),
]
# Ragged in R, K and N (K not a multiple of 16: the last 16-byte chunk of a
# token's row straddles K).
RAGGED_SHAPES = [(1000, 1035, 77), (200, 100, 5)]
VS = [64, 128]
MS = [4, 8]
OUTS = ["f16", "i32"]


FORMS = ["w8a8", "w4a8", "w8a16", "w4a16", "w4a16g128"]
# W4A8 runs at these (R, K) (all N of SHAPES with them).
W4A8_SHAPES = {(4096, 4096)}
# Weight-only forms: i8/i4 weights dequantized in registers for the f16
# MMA, f16 activations K x N; f16 out (there is no integer result).
WEIGHT_ONLY = {"w8a16", "w4a16", "w4a16g128"}
# Per-group weight scales (groups of K columns) of a form.
GROUP_SIZE = {"w4a16g128": 128}


def kernel_name(form, rows, cols, v, m, out):
    return f"{form}_r{rows}_k{cols}_v{v}_m{m}_{out}"


def weight_type(form):
    return "i4" if form in ("w4a8", "w4a16", "w4a16g128") else "i8"


def all_cases():
    """Every (kernel, N) pair: bar shapes for both V, ragged shapes at V = 64."""
    cases = []

    def add(form, rows, cols, n, v, m, out):
        cases.append(dict(form=form, rows=rows, cols=cols, n=n, v=v, m=m,
                          out=out,
                          kernel=kernel_name(form, rows, cols, v, m, out)))

    for form in FORMS:
        for rows, cols, n in SHAPES:
            if form == "w4a8" and (rows, cols) not in W4A8_SHAPES:
                continue
            outs = ["f16"] if form in WEIGHT_ONLY else OUTS
            for v in VS:
                for m in MS:
                    for out in outs:
                        add(form, rows, cols, n, v, m, out)
        for rows, cols, n in RAGGED_SHAPES:
            outs = ["f16"] if form in WEIGHT_ONLY else OUTS
            for m in MS:
                for out in outs:
                    add(form, rows, cols, n, 64, m, out)
    return cases
