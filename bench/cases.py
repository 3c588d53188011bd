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
# Ragged in R, K and N (none a multiple of its tile or group).
RAGGED_SHAPES = [(1000, 4000, 1000, 64, 8), (4096, 4100, 333, 128, 16)]
VS = [64, 128]
MS = [4, 8, 16, 32]
DTYPES = ["f16", "bf16"]


def case_name(rows, cols, v, m, dtype):
    return f"r{rows}_k{cols}_v{v}_m{m}_{dtype}"


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
    for case in cases:
        case["kernel"] = case_name(case["rows"], case["cols"], case["v"],
                                   case["m"], case["dtype"])
    return cases
