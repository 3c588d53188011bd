"""The SpMM benchmark's case matrix (shared by the compile and device steps)."""

# (R, K, N): R output features (rows of the sparse weight), K the reduction
# dimension, N tokens.
SHAPES = [
    (4096, 4096, 4096),
    (11008, 4096, 4096),
    (4096, 11008, 4096),
    (1024, 4096, 4096),
    (4096, 4096, 512),
]
# Ragged in R, K and N (none a multiple of its tile or group); the V = 16
# 2:4 case runs 128-row tiles over 16-row V blocks, the last one reaching
# past the fragment arrays' 1008 rows; the 96-row 2:4 weight is shorter
# than one 128-row tile (on sm_90a's warp-specialized kernel, A's TMA box
# of 8 row tiles is taller than its 6).
RAGGED_SHAPES = [(1000, 4000, 1000, 64, 8), (4096, 4100, 333, 128, 16),
                 (1000, 4000, 1000, 16, 4), (96, 4096, 256, 64, 4)]
VS = [64, 128]
MS = [4, 8, 16, 32]
DTYPES = ["f16", "bf16"]


# Fused epilogues (checked for correctness; timed like the rest):
# (R, K, N, V, M, dtype, result dtype, accumulate, bias, activation).
EPILOGUE_CASES = [
    (1000, 4000, 1000, 64, 8, "f16", "f32", True, True, "relu"),
    (4096, 4096, 4096, 128, 16, "f16", "f16", False, True, "gelu"),
    (2048, 1030, 72, 64, 32, "bf16", "bf16", True, False, "gelu"),
    (4096, 4096, 512, 64, 4, "bf16", "f32", True, True, "none"),
]


def case_name(rows, cols, v, m, dtype, out=None, acc=False, bias=False,
              act="none"):
    name = f"r{rows}_k{cols}_v{v}_m{m}_{dtype}"
    if out and out != dtype:
        name += f"_to_{out}"
    if acc:
        name += "_acc"
    if bias:
        name += "_bias"
    if act != "none":
        name += f"_{act}"
    return name


def all_cases():
    """Every timed case: dict(rows, cols, n, v, m, dtype, kernel)."""
    cases = []
    for dtype in DTYPES:
        for rows, cols, n in SHAPES:
            for v in VS:
                for m in MS:
                    cases.append(dict(rows=rows, cols=cols, n=n, v=v, m=m,
                                      dtype=dtype))
        for rows, cols, n, v, m in RAGGED_SHAPES:
            cases.append(dict(rows=rows, cols=cols, n=n, v=v, m=m,
                              dtype=dtype))
    for rows, cols, n, v, m, dtype, out, acc, bias, act in EPILOGUE_CASES:
        cases.append(dict(rows=rows, cols=cols, n=n, v=v, m=m, dtype=dtype,
                          out=out, acc=acc, bias=bias, act=act))
    for case in cases:
        case.setdefault("out", case["dtype"])
        case.setdefault("acc", False)
        case.setdefault("bias", False)
        case.setdefault("act", "none")
        case["kernel"] = case_name(case["rows"], case["cols"], case["v"],
                                   case["m"], case["dtype"], case["out"],
                                   case["acc"], case["bias"], case["act"])
    return cases
