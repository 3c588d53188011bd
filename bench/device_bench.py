#!/usr/bin/env python3
"""SpMM correctness and speed on the GPU machine (run there, by run.sh).

Needs bench/build from compile_cases.py (PTX, launch contracts, the format
library). For every case of the manifest:

1. a fresh random weight W (normal, f16/bf16) is pruned, compressed and
   packed into the fragment layout by the format library (one source of
   truth for the format; in parallel worker processes);
2. correctness: fresh random B, output poisoned with NaN, one launch; every
   element must be written and ||Y - ref|| / ||ref|| <= 1e-2 against a
   float32 product of the pruned dense W (torch, upcast operands);
3. speed, in the same run and on the same shapes: the generated kernel,
   torch.mm (cuBLAS, dense) on the pruned W, and cuSPARSELt 2:4
   (torch.sparse.to_sparse_semi_structured on a 2:4-pruned W) - CUDA events,
   warm-up, median of the timed runs, inputs rotated among enough copies to
   exceed the L2 cache.

Writes results.csv (again after every case) and results.md to --out and
prints the table last.
"""

import argparse
import datetime
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MMA_SP_F16_CEILING = 953.0  # TFLOP/s dense-equivalent for 2:4, measured
L2_BYTES = 50 * 2**20


# ----------------------------------------------------------------------------
# Host side: weights through the package's vnm.format (one binding of the
# format library; on the GPU host VNM_LIBRARY_PATH names libVNMFormatC.so).
# ----------------------------------------------------------------------------
def prepare(args):
    """Worker: random weight -> pruned dense, fragments, colidx."""
    from vnm import format as vf

    case, seed, packed = args
    rng = np.random.default_rng(seed)
    w32 = rng.standard_normal((case["rows"], case["cols"]), dtype=np.float32)
    if case["dtype"] == "f16":
        w = w32.astype(np.float16)
    else:  # bf16 bits: round to nearest even from float32
        bits = w32.view(np.uint32)
        w = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    encoding = vf.Encoding(case["v"], 2, case["m"])
    t0 = time.time()
    compressed = vf.compress(w, encoding, dtype=case["dtype"])
    compress_s = time.time() - t0
    # Pruned as the case's V:2:M, packed as the kernel's contract says
    # (V:2:4 where it runs the weight as 2:4).
    compressed = vf.repack(compressed, packed)
    fragments = vf.pack_fragments(compressed)
    return dict(pruned=vf.decompress(compressed).view(np.uint16),
                frag_values=fragments.values.view(np.uint8),
                frag_meta=fragments.meta, colidx=compressed.colidx.reshape(-1),
                seed=seed, compress_s=compress_s)


# ----------------------------------------------------------------------------
# GPU side.
# ----------------------------------------------------------------------------
def torch_dtype(torch, name):
    return {"f16": torch.float16, "bf16": torch.bfloat16,
            "f32": torch.float32}[name]


def reference_epilogue(torch, y, acc, bias, act):
    """The spec's epilogue in float32: act(y + acc + bias[row])."""
    if acc is not None:
        y = y + acc.float()
    if bias is not None:
        y = y + bias.float()[:, None]
    if act == "relu":
        y = torch.relu(y)
    elif act == "gelu":
        y = torch.nn.functional.gelu(y, approximate="tanh")
    return y


def median_ms(torch, fn, sets, warmup, runs, inner=10):
    """Median over `runs` samples of the time per call; a sample times
    `inner` back-to-back calls (rotating input sets) between two events, so
    host launch overhead does not leave the GPU idle inside the sample."""
    for i in range(warmup):
        fn(sets[i % len(sets)])
    torch.cuda.synchronize()
    times = []
    for i in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for j in range(inner):
            fn(sets[(i * inner + j) % len(sets)])
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / inner)
    return float(np.median(times)), float(np.min(times)), float(np.max(times))


def prune_2_4(torch, w):
    """Keeps the 2 largest magnitudes of every 4 consecutive row entries."""
    rows, cols = w.shape
    g = w[:, : cols // 4 * 4].reshape(rows, -1, 4)
    idx = g.abs().float().topk(2, dim=-1).indices
    mask = torch.zeros_like(g, dtype=torch.bool).scatter_(-1, idx, True)
    out = torch.zeros_like(w)
    out[:, : cols // 4 * 4] = (g * mask).reshape(rows, -1)
    return out


def case_line(r):
    """The log line of one timed case (bench/compare_logs.py reads it back
    where a run's results CSV did not come back)."""
    return (f"{r['case']:34s} {'ok ' if r['correct'] else 'BAD'} "
            f"err {r['rel_error']:.2e}  vnm {r['vnm_ms']:.3f} ms "
            f"({r['vnm_tflops']:.0f} TF/s, {r['speedup_vs_cublas']:.2f}x cuBLAS)")


def load_kernel(cp, build_dir, kernel, n):
    """A compiled kernel's launch contract, its CuPy function (with the
    dynamic shared memory it needs allowed), and its grid and block for N
    columns: (contract, fn, grid, block, dynamic_shared_bytes)."""
    contract = json.load(open(os.path.join(build_dir, "kernels",
                                           kernel["contract"])))
    module = cp.RawModule(path=os.path.join(build_dir, "kernels",
                                            kernel["ptx"]))
    fn = module.get_function(contract["kernel"])
    dynamic_shared = int(contract["dynamic_shared_bytes"])
    # Static and dynamic shared memory share the 48 KiB a launch may take
    # unasked: a kernel with both (an A ring and B's ring) needs the
    # dynamic size allowed even below 48 KiB of it.
    if dynamic_shared > 0:
        fn.max_dynamic_shared_size_bytes = dynamic_shared
    grid = ((n + contract["grid_x_divisor"] - 1) // contract["grid_x_divisor"],
            contract["grid_y"], 1)
    return contract, fn, grid, tuple(contract["block"]), dynamic_shared


def packed_encoding(build_dir, kernel):
    """The format a compiled kernel's contract packs the weight in."""
    from vnm.launch import weight_encodings

    with open(os.path.join(build_dir, "kernels", kernel["contract"])) as f:
        return weight_encodings(json.load(f))[1]


def open_build(build_dir, name_filter):
    """A compiled build's manifest, its cases whose kernel names hold one of
    the comma-separated substrings of `name_filter`, and a fresh seed for
    each; the package is set up over
    the build's format library alone (no LLVM on the GPU host)."""
    manifest = json.load(open(os.path.join(build_dir, "manifest.json")))
    filters = name_filter.split(",")
    cases = [c for c in manifest["cases"]
             if any(f in c["kernel"] for f in filters)]
    os.environ.setdefault("VNM_LIBRARY_PATH",
                          os.path.join(build_dir, "libVNMFormatC.so"))
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
    seeds = np.random.SeedSequence().generate_state(len(cases)).tolist()
    return manifest, cases, seeds


def run_case(torch, cp, case, prep, kernel, build_dir, args, cusparselt_cache):
    dev = torch.device("cuda")
    dt = torch_dtype(torch, case["dtype"])
    out_dt = torch_dtype(torch, case["out"])
    rows, cols, n = case["rows"], case["cols"], case["n"]
    ld = (n + 7) // 8 * 8
    contract, fn, grid, block, dynamic_shared = load_kernel(cp, build_dir,
                                                            kernel, n)
    # B as the kernel reads it: K x ld, or token-major x[N][K] (ld tokens
    # of ldk values); `kxn` is the K x ld view either way.
    token_major = contract.get("rhs_layout") == "token_major"
    ldk = (cols + 7) // 8 * 8
    ldb = ldk if token_major else ld

    def kxn(b):
        return b[:, :cols].t() if token_major else b

    w = torch.from_numpy(prep["pruned"].view(np.int16)).view(dt).to(dev)
    fv = torch.from_numpy(prep["frag_values"]).to(dev)
    fm = torch.from_numpy(prep["frag_meta"].view(np.int32)).to(dev)
    ci = torch.from_numpy(prep["colidx"]).to(dev)
    bias = (torch.randn(rows, device=dev).to(out_dt) if case["bias"]
            else torch.zeros(16, dtype=out_dt, device=dev))
    set_bytes = 2 * (cols * ld + rows * ld)
    nsets = max(2, min(8, math.ceil(3 * L2_BYTES / set_bytes)))
    sets = []
    for _ in range(nsets):
        b = (torch.randn(ld, ldk, device=dev) if token_major
             else torch.randn(cols, ld, device=dev)).to(dt)
        y = torch.empty(rows, ld, dtype=out_dt, device=dev)
        sets.append((b, y))
    # Launch on torch's stream so that events and torch ops order with it.
    cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream).use()

    def launch(s):
        b, y = s
        fn(grid, block, (np.uint64(fv.data_ptr()), np.uint64(fm.data_ptr()),
                         np.uint64(ci.data_ptr()), np.uint64(b.data_ptr()),
                         np.uint64(y.data_ptr()), np.uint64(bias.data_ptr()),
                         np.int32(n), np.int32(ldb), np.int32(ld)),
           shared_mem=dynamic_shared)

    if "tensor_maps" in contract:
        # A kernel that takes B as a tensor map runs through vnm's own
        # launcher, which makes the map (CuPy passes no 128-byte values).
        from vnm.launch import GpuKernel
        with open(os.path.join(build_dir, "kernels", kernel["ptx"])) as f:
            gpu_kernel = GpuKernel(f.read(), contract)
        stream = torch.cuda.current_stream().cuda_stream

        def launch(s):  # noqa: F811 (replaces the CuPy launch)
            b, y = s
            gpu_kernel.launch({"frag_values": fv.data_ptr(),
                               "frag_meta": fm.data_ptr(),
                               "colidx": ci.data_ptr(), "rhs": b.data_ptr(),
                               "out": y.data_ptr(), "bias": bias.data_ptr(),
                               "n": n, "ldb": ldb, "ldc": ld}, n, stream)

    # Correctness on fresh data. The output is poisoned with NaN, or, when
    # the kernel accumulates into it, filled with a random accumulator whose
    # padding columns are NaN.
    b, y = sets[0]
    y.fill_(float("nan"))
    acc = None
    if case["acc"]:
        acc = torch.randn(rows, n, device=dev).to(out_dt)
        y[:, :n] = acc
    launch(sets[0])
    torch.cuda.synchronize()
    cp.cuda.runtime.deviceSynchronize()  # surfaces launch errors
    out = y[:, :n].float()
    ref = reference_epilogue(torch, w.float() @ kxn(b)[:, :n].float(), acc,
                             bias if case["bias"] else None, case["act"])
    written = not bool(torch.isnan(out).any())
    rel = float((out - ref).norm() / ref.norm()) if written else float("nan")
    correct = written and rel <= 1e-2

    flops = 2.0 * rows * cols * n
    if args.check_only:  # e.g. under compute-sanitizer: the kernel alone
        return dict(case=case["kernel"] + f"_n{n}", correct=correct,
                    rel_error=rel, ptx_sha256=kernel.get("ptx_sha256"))
    t_vnm = median_ms(torch, launch, sets, args.warmup, args.runs)
    # cuBLAS reads a transposed operand in place, as the kernel does.
    t_cublas = median_ms(torch, lambda s: torch.mm(w, kxn(s[0])[:, :n]), sets,
                         args.warmup, args.runs)
    key = (rows, cols, n, case["dtype"])
    if case["acc"] or case["bias"] or case["act"] != "none":
        key = None  # cuSPARSELt has no such epilogue: not compared
    if key is None:
        cusparselt_cache[key] = None
    elif key not in cusparselt_cache:
        try:
            from torch.sparse import to_sparse_semi_structured
            w24 = to_sparse_semi_structured(prune_2_4(torch, w))
            cusparselt_cache[key] = median_ms(
                torch, lambda s: torch.mm(w24, kxn(s[0])[:, :n]), sets,
                args.warmup, args.runs)[0]
        except Exception as e:  # shapes cuSPARSELt refuses
            cusparselt_cache[key] = None
            print(f"  cuSPARSELt n/a for {key}: {str(e).splitlines()[0][:100]}")
    t_lt = cusparselt_cache[key]
    tflops = flops / (t_vnm[0] * 1e-3) / 1e12
    ceiling = MMA_SP_F16_CEILING * case["m"] / 4
    return dict(
        case=case["kernel"] + f"_n{n}", rhs_layout=contract.get("rhs_layout", "k_by_n"),
        rows=rows, cols=cols, n=n, v=case["v"],
        m=case["m"], dtype=case["dtype"], out=case["out"],
        epilogue=("acc+" if case["acc"] else "") + ("bias+" if case["bias"]
                                                    else "") + case["act"],
        seed=prep["seed"],
        written=written, rel_error=rel, correct=correct,
        vnm_ms=t_vnm[0], vnm_min_ms=t_vnm[1], cublas_ms=t_cublas[0],
        cusparselt_ms=t_lt, speedup_vs_cublas=t_cublas[0] / t_vnm[0],
        speedup_vs_cusparselt=(t_lt / t_vnm[0]) if t_lt else None,
        vnm_tflops=tflops, cublas_tflops=flops / (t_cublas[0] * 1e-3) / 1e12,
        fraction_of_mma_sp_ceiling=tflops / ceiling,
        registers=kernel.get("registers"), spill_bytes=kernel.get("spill_bytes"),
        compress_s=prep["compress_s"], ptx_sha256=kernel.get("ptx_sha256"))


def write_csv(path, results):
    """The results so far as CSV, the union of their fields as columns (a
    field a row lacks, or holds as None, is empty)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fields = list(dict.fromkeys(k for r in results for k in r))
    with open(path, "w") as f:
        f.write(",".join(fields) + "\n")
        for r in results:
            f.write(",".join("" if r.get(k) is None else str(r[k])
                             for k in fields) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--out", default=".")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--filter", default="",
                    help="substrings of case names, comma-separated (any)")
    ap.add_argument("--command", default="", help="recorded in results.md")
    ap.add_argument("--check-only", action="store_true",
                    help="correctness only: no timing, no results files "
                         "(for compute-sanitizer)")
    args = ap.parse_args()

    import cupy as cp
    import torch

    manifest, cases, seeds = open_build(args.build, args.filter)
    device = torch.cuda.get_device_name()
    print(f"{device}, torch {torch.__version__}, cupy {cp.__version__}, "
          f"{len(cases)} cases", flush=True)

    results = []
    cache = {}
    with ProcessPoolExecutor(max_workers=min(16, os.cpu_count())) as pool:
        futures = [pool.submit(prepare, (c, s, packed_encoding(
                       args.build, manifest["kernels"][c["kernel"]])))
                   for c, s in zip(cases, seeds)]
        for case, future in zip(cases, futures):
            prep = future.result()
            r = run_case(torch, cp, case, prep,
                         manifest["kernels"][case["kernel"]], args.build, args,
                         cache)
            r["device"] = device
            results.append(r)
            if args.check_only:
                print(f"{r['case']:34s} {'ok ' if r['correct'] else 'BAD'} "
                      f"err {r['rel_error']:.2e}", flush=True)
                continue
            # Written after every case: a run stopped by a time limit keeps
            # the rows it has.
            write_csv(os.path.join(args.out, "results.csv"), results)
            print(case_line(r), flush=True)

    bad = [r["case"] for r in results if not r["correct"]]
    if args.check_only:
        print(f"\n{len(results) - len(bad)}/{len(results)} correct")
        return 1 if bad else 0
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    lines = [f"# vnm SpMM on {device}", "",
             f"Date: {date}. Device: {device}. torch {torch.__version__}. "
             f"Command: `{args.command or ' '.join(sys.argv)}`.", "",
             f"Median of {args.runs} samples of 10 back-to-back calls each "
             "(CUDA events, after warm-up; inputs rotated among copies that "
             "exceed the L2); dense-equivalent TFLOP/s = 2RKN / time; "
             "ceiling = 953 TFLOP/s (mma.sp f16, measured) x M/4.", "",
             "| case | N | ok | rel err | vnm ms | cuBLAS ms | cuSPARSELt 2:4 ms "
             "| vs cuBLAS | vs cuSPARSELt | TFLOP/s | of ceiling |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lt = f"{r['cusparselt_ms']:.3f}" if r["cusparselt_ms"] else "n/a"
        vs_lt = (f"{r['speedup_vs_cusparselt']:.2f}x"
                 if r["speedup_vs_cusparselt"] else "n/a")
        lines.append(
            f"| {r['case']} | {r['n']} | {'yes' if r['correct'] else 'NO'} | "
            f"{r['rel_error']:.1e} | {r['vnm_ms']:.3f} | {r['cublas_ms']:.3f} | "
            f"{lt} | {r['speedup_vs_cublas']:.2f}x | {vs_lt} | "
            f"{r['vnm_tflops']:.0f} | {100 * r['fraction_of_mma_sp_ceiling']:.0f}% |")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"\n{len(results) - len(bad)}/{len(results)} correct"
          + (f"; WRONG: {bad}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
