#!/usr/bin/env python3
"""vnm.jax_layer.SparseDense against JAX's dense matmul, inside jax.jit.

    # here, where libVNMCAPI.so is: compile the layers' kernels into a cache
    PYTHONPATH=python VNM_LIBRARY_PATH=build/lib \\
        python3 bench/jax_layer_bench.py compile bench/build/jax-layer
    # on the GPU host, with the format library alone
    PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/libVNMFormatC.so \\
        python3 bench/jax_layer_bench.py run bench/build/jax-layer --out results.md

For each case y = x W^T with W (R x K, f16) pruned to the encoding and x
(N x K): the relative error of the jitted layer against JAX's f32 product
of the same pruned weight, then the median time of the jitted layer and
of the jitted dense `x @ W.T` (cuBLAS through XLA) on the same inputs,
timed alternately, each call waited for (wall clock over `--runs` calls,
after `--warmup`); the layer's time includes what the jitted function adds
around the custom call (padding or transposing x and y where the kernel's
contract asks).
"""

import argparse
import datetime
import os
import statistics
import sys
import time

import numpy as np

CASES = [  # (encoding, R, K, N)
    ("2:4", 4096, 4096, 4096),
    ("64:2:8", 4096, 4096, 4096),
    ("128:2:16", 4096, 4096, 4096),
    ("2:4", 4096, 4096, 512),
    ("64:2:8", 11008, 4096, 4096),
]


def make_layer(case, cache_dir):
    import vnm.format as vf
    from vnm.jax_layer import SparseDense
    from vnm.pruning import parse_encoding

    encoding, rows, cols, _ = case
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((rows, cols)) / np.sqrt(cols)).astype(np.float16)
    # Magnitude pruning by the format library (fast at these sizes).
    w = vf.prune(w, vf.Encoding(*parse_encoding(encoding)))
    return SparseDense(w, encoding, target="sm_90", cache_dir=cache_dir)


def median_ms(fn, x, warmup, runs):
    for _ in range(warmup):
        fn(x).block_until_ready()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(x).block_until_ready()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def run(directory, out, warmup, runs):
    import jax
    import jax.numpy as jnp

    rows_md = ["| encoding | R x K x N | rel. error | vnm ms | dense ms | speedup | contract |",
               "|---|---|---|---|---|---|---|"]
    for case in CASES:
        layer = make_layer(case, directory)
        _, rows, cols, n = case
        x = jnp.asarray(np.random.default_rng().standard_normal((n, cols)), jnp.float16)
        w = jnp.asarray(np.asarray(layer.pruned_weight))
        sparse = jax.jit(lambda x: layer(x))
        dense = jax.jit(lambda x: x @ w.T)
        y = sparse(x).astype(jnp.float32)
        ref = x.astype(jnp.float32) @ w.astype(jnp.float32).T
        error = float(jnp.linalg.norm(y - ref) / jnp.linalg.norm(ref))
        t_sparse, t_dense = [], []
        for _ in range(3):  # alternate, so both see the same clocks
            t_sparse.append(median_ms(sparse, x, warmup, runs))
            t_dense.append(median_ms(dense, x, warmup, runs))
        vnm_ms, dense_ms = min(t_sparse), min(t_dense)
        contract = layer.kernel.kernels[0].contract
        layout = f"x {contract.get('rhs_layout')}, y {contract.get('out_layout')}"
        line = (f"| {case[0]} | {rows} x {cols} x {n} | {error:.2e} | {vnm_ms:.3f} | "
                f"{dense_ms:.3f} | {dense_ms / vnm_ms:.2f}x | {layout} |")
        print(line, flush=True)
        rows_md.append(line)
    header = [f"# vnm.jax_layer.SparseDense vs dense, jitted ({datetime.date.today()})", "",
              f"Device: {jax.devices()[0].device_kind}; jax {jax.__version__}.",
              f"Command: `python3 bench/jax_layer_bench.py run {directory} "
              f"--warmup {warmup} --runs {runs}`; times: the lowest of three medians of "
              f"{runs} calls each, the two functions alternating.", ""]
    with open(out, "w") as f:
        f.write("\n".join(header + rows_md) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=["compile", "run"])
    ap.add_argument("directory", help="the kernel cache")
    ap.add_argument("--out", default="jax_layer_bench.md")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    if args.step == "compile":
        for case in CASES:
            make_layer(case, args.directory)
        print(f"{len(CASES)} layers compiled into {args.directory}")
        return 0
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    run(args.directory, args.out, args.warmup, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
