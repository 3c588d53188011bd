#!/usr/bin/env python3
"""Quantized SpMM correctness and speed on the GPU machine (run there):
W8A8 and W4A8 (i8 activations, token-major), W8A16 and W4A16 (f16
activations K x N, the weight dequantized in registers).

Needs the output of compile_quantized_cases.py (PTX, launch contracts, the
format library). For every case of its manifest:

1. a fresh random i8 weight (uniform in [-127, 127]; i4 in [-7, 7] for
   W4A8) is pruned, compressed and packed into the 8-bit fragment layout by
   the format library; fresh
   random i8 activations x[N][K] (token-major, row pitch ldb = K rounded up
   to 16, the padding filled with -128), fresh per-row and per-token scales;
2. correctness, output poisoned first (NaN, or the sentinel 0x7fa5a5a5 for
   i32) and every element required to be written: the i32 kernels must
   equal the exact product of the pruned weight (float64 on the GPU, exact
   below 2^53); the f16 kernels (y = s_w[r] s_x[n] acc) must be within 1e-2
   relative error (norm) of it scaled in float64;
   (the weight-only forms: y = s_w[r] (w x), f16, against float64);
3. speed of the f16 kernels in the same run: the kernel, torch._int_mm
   (cuBLAS int8, dense, i32 out, no scaling) on x and the pruned weight, and
   dense fp16 torch.mm; CUDA events, warm-up, medians, inputs rotated among
   copies that exceed the L2.

Writes results.csv (again after every case) and results.md to --out and
prints the table last.
"""

import argparse
import datetime
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import quantized_cases  # noqa: E402
from device_bench import (L2_BYTES, load_kernel, median_ms,  # noqa: E402
                          open_build, write_csv)

MMA_SP_S8_CEILING = 1909.0  # TOP/s dense-equivalent for 2:4 s8, H200
MMA_SP_F16_CEILING = 953.0  # TFLOP/s dense-equivalent for 2:4 f16, H200
I32_POISON = 0x7FA5A5A5


def prepare(case, seed):
    from vnm import format as vf

    rng = np.random.default_rng(seed)
    # W4A8, W4A16: i4 weights in [-7, 7] (one per byte logically; the
    # fragments pack two per byte). The weight-only forms take the 16-bit
    # fragment class (the f16 MMA's layout).
    form = case.get("form", "w8a8")
    w4 = quantized_cases.weight_type(form) == "i4"
    qmax = 7 if w4 else 127
    w = rng.integers(-qmax, qmax + 1, size=(case["rows"], case["cols"]),
                     dtype=np.int8)
    compressed = vf.compress(w, vf.Encoding(case["v"], 2, case["m"]),
                             dtype="i4" if w4 else "i8")
    fragments = vf.pack_fragments(
        compressed,
        fragment_class="16bit" if form in WEIGHT_ONLY else None)
    return dict(pruned=vf.decompress(compressed),
                frag_values=fragments.values.view(np.uint8),
                frag_meta=fragments.meta, colidx=compressed.colidx.reshape(-1))


WEIGHT_ONLY = quantized_cases.WEIGHT_ONLY


def run_weight_only_case(torch, cp, case, prep, kernel, build_dir, args,
                         seed):
    """W8A16, W4A16: f16 activations K x N (row pitch ldb = N rounded up to
    8), f16 out, y = s_w[r] (w x), or with per-group scales the sum over
    groups q of s_w[r][q] (w_q x_q); timed against dense fp16 torch.mm on
    the same (pruned, dequantized) weight."""
    dev = torch.device("cuda")
    rows, cols, n = case["rows"], case["cols"], case["n"]
    ldb = (n + 7) // 8 * 8
    ldc = ldb
    contract, fn, grid, block, dynamic_shared = load_kernel(cp, build_dir,
                                                            kernel, n)
    assert contract["rhs_layout"] == "k_by_n", contract["rhs_layout"]
    assert contract["fragment_class"] == "16bit", contract["fragment_class"]
    gen = torch.Generator(device=dev).manual_seed(seed)
    w = torch.from_numpy(prep["pruned"]).to(dev)
    fv = torch.from_numpy(prep["frag_values"]).to(dev)
    fm = torch.from_numpy(prep["frag_meta"].view(np.int32)).to(dev)
    ci = torch.from_numpy(prep["colidx"]).to(dev)
    dummy = torch.zeros(16, dtype=torch.float16, device=dev)
    group = contract.get("group_size", 0)
    groups = -(-cols // group) if group else 1
    sw = torch.rand(rows, groups, generator=gen, device=dev) / 64 + 1 / 512
    # The weight as the kernel scales it: each column by its group's scale.
    column_scales = sw.double().repeat_interleave(group or cols, dim=1)[:, :cols]
    set_bytes = cols * ldb * 2 + rows * ldc * 2
    nsets = max(2, min(8, math.ceil(3 * L2_BYTES / max(set_bytes, 1))))
    sets = []
    for _ in range(nsets):
        x = torch.full((cols, ldb), float("nan"), dtype=torch.float16,
                       device=dev)
        x[:, :n] = torch.rand(cols, n, generator=gen, device=dev) * 2 - 1
        y = torch.empty(rows, ldc, dtype=torch.float16, device=dev)
        sets.append((x, y))
    cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream).use()

    def launch(s):
        x, y = s
        params = [fv, fm, ci, x, y, dummy, sw]
        fn(grid, block, tuple(np.uint64(t.data_ptr()) for t in params)
           + (np.int32(n), np.int32(ldb), np.int32(ldc)),
           shared_mem=dynamic_shared)

    x, y = sets[0]
    y.fill_(float("nan"))
    launch(sets[0])
    torch.cuda.synchronize()
    cp.cuda.runtime.deviceSynchronize()
    ref = (w.double() * column_scales) @ x[:, :n].double()
    got = y[:, :n]
    written = not bool(torch.isnan(got).any())
    rel = (float((got.double() - ref).norm() / ref.norm())
           if written else float("nan"))
    correct = written and rel <= 1e-2
    row = dict(case=case["kernel"] + f"_n{n}", rows=rows, cols=cols, n=n,
               v=case["v"], m=case["m"], out="f16", seed=seed,
               written=written, mismatches=None, rel_error=rel,
               correct=correct, registers=kernel.get("registers"),
               spill_bytes=kernel.get("spill_bytes"),
               ptx_sha256=kernel.get("ptx_sha256"))
    if args.no_timing:
        return row
    t_vnm = median_ms(torch, launch, sets, args.warmup, args.runs)
    w16 = (w.double() * column_scales).half()
    xs = [(s[0][:, :n].contiguous(),) for s in sets]
    t_f16 = median_ms(torch, lambda s: torch.mm(w16, s[0]), xs,
                      args.warmup, args.runs)[0]
    tops = 2.0 * rows * cols * n / (t_vnm[0] * 1e-3) / 1e12
    # The weight bytes the kernel streams (values, metadata, column-locs)
    # per second: the decode bound.
    weight_bytes = fv.numel() + 4 * fm.numel() + 4 * ci.numel()
    row.update(vnm_ms=t_vnm[0], vnm_min_ms=t_vnm[1], int_mm_ms=None,
               fp16_mm_ms=t_f16, speedup_vs_int_mm=None,
               speedup_vs_fp16_mm=t_f16 / t_vnm[0], vnm_tops=tops,
               weight_gb_per_s=weight_bytes / (t_vnm[0] * 1e-3) / 1e9,
               fraction_of_s8_ceiling=tops / (MMA_SP_F16_CEILING * case["m"] / 4))
    return row


def run_case(torch, cp, case, prep, kernel, build_dir, args, seed):
    if case.get("form") in WEIGHT_ONLY:
        return run_weight_only_case(torch, cp, case, prep, kernel, build_dir,
                                    args, seed)
    dev = torch.device("cuda")
    rows, cols, n, out = case["rows"], case["cols"], case["n"], case["out"]
    ldb = (cols + 15) // 16 * 16
    ldc = (n + 7) // 8 * 8
    contract, fn, grid, block, dynamic_shared = load_kernel(cp, build_dir,
                                                            kernel, n)
    assert contract["rhs_layout"] == "token_major", contract["rhs_layout"]
    gen = torch.Generator(device=dev).manual_seed(seed)

    w = torch.from_numpy(prep["pruned"]).to(dev)  # R x K int8, pruned
    fv = torch.from_numpy(prep["frag_values"]).to(dev)
    fm = torch.from_numpy(prep["frag_meta"].view(np.int32)).to(dev)
    ci = torch.from_numpy(prep["colidx"]).to(dev)
    out_dt = torch.float16 if out == "f16" else torch.int32
    dummy = torch.zeros(16, dtype=out_dt, device=dev)  # bias: unused
    sw = torch.rand(rows, generator=gen, device=dev) / 64 + 1 / 512
    set_bytes = n * ldb + rows * ldc * (2 if out == "f16" else 4)
    nsets = max(2, min(8, math.ceil(3 * L2_BYTES / set_bytes)))
    sets = []
    for _ in range(nsets):
        x = torch.full((n, ldb), -128, dtype=torch.int8, device=dev)
        x[:, :cols] = torch.randint(-127, 128, (n, cols), generator=gen,
                                    device=dev, dtype=torch.int8)
        sx = torch.rand(n, generator=gen, device=dev) / 64 + 1 / 512
        y = torch.empty(rows, ldc, dtype=out_dt, device=dev)
        sets.append((x, sx, y))
    cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream).use()

    def launch(s):
        x, sx, y = s
        params = [fv, fm, ci, x, y, dummy]
        if out == "f16":
            params += [sw, sx]
        fn(grid, block, tuple(np.uint64(t.data_ptr()) for t in params)
           + (np.int32(n), np.int32(ldb), np.int32(ldc)),
           shared_mem=dynamic_shared)

    if "tensor_maps" in contract:
        # The sm_90a s8 wgmma.sp kernel takes x and the fragment arrays as
        # tensor maps: vnm's own launcher makes them (CuPy passes no
        # 128-byte values) and launches the contract's cluster.
        from vnm.launch import GpuKernel
        with open(os.path.join(build_dir, "kernels", kernel["ptx"])) as f:
            gpu_kernel = GpuKernel(f.read(), contract)
        stream = torch.cuda.current_stream().cuda_stream

        def launch(s):  # noqa: F811 (replaces the CuPy launch)
            x, sx, y = s
            values = {"frag_values": fv.data_ptr(), "frag_meta": fm.data_ptr(),
                      "colidx": ci.data_ptr(), "rhs": x.data_ptr(),
                      "out": y.data_ptr(), "bias": dummy.data_ptr(),
                      "n": n, "ldb": ldb, "ldc": ldc}
            if out == "f16":
                values.update(weight_scales=sw.data_ptr(),
                              input_scales=sx.data_ptr())
            gpu_kernel.launch(values, n, stream)

    x, sx, y = sets[0]
    if out == "f16":
        y.fill_(float("nan"))
    else:
        y.fill_(I32_POISON)
    launch(sets[0])
    torch.cuda.synchronize()
    cp.cuda.runtime.deviceSynchronize()  # surfaces launch errors
    exact = w.double() @ x[:, :cols].double().t()  # R x N, exact
    got = y[:, :n]
    if out == "i32":
        written = not bool((got == I32_POISON).any())
        mismatches = int((got.double() != exact).sum())
        rel = float((got.double() - exact).norm() / exact.norm())
        correct = written and mismatches == 0
    else:
        ref = exact * sw.double()[:, None] * sx.double()[None, :]
        written = not bool(torch.isnan(got).any())
        mismatches = None
        rel = (float((got.double() - ref).norm() / ref.norm())
               if written else float("nan"))
        correct = written and rel <= 1e-2
    row = dict(case=case["kernel"] + f"_n{n}", rows=rows, cols=cols, n=n,
               v=case["v"], m=case["m"], out=out, seed=seed, written=written,
               mismatches=mismatches, rel_error=rel, correct=correct,
               registers=kernel.get("registers"),
               spill_bytes=kernel.get("spill_bytes"),
               ptx_sha256=kernel.get("ptx_sha256"))
    if out != "f16" or args.no_timing:
        return row

    ops = 2.0 * rows * cols * n
    t_vnm = median_ms(torch, launch, sets, args.warmup, args.runs)
    xs = [(s[0][:, :cols].contiguous(),) for s in sets]
    wt = w.t()
    try:
        t_int = median_ms(torch, lambda s: torch._int_mm(s[0], wt), xs,
                          args.warmup, args.runs)[0]
    except RuntimeError as e:  # shapes cuBLAS int8 refuses (e.g. N <= 16)
        t_int = None
        print(f"  torch._int_mm n/a for N = {n}: {str(e).splitlines()[0][:90]}")
    w16 = w.half()
    x16 = [(s[0].half(),) for s in xs]
    t_f16 = median_ms(torch, lambda s: torch.mm(s[0], w16.t()), x16,
                      args.warmup, args.runs)[0]
    tops = ops / (t_vnm[0] * 1e-3) / 1e12
    row.update(vnm_ms=t_vnm[0], vnm_min_ms=t_vnm[1], int_mm_ms=t_int,
               fp16_mm_ms=t_f16,
               speedup_vs_int_mm=(t_int / t_vnm[0]) if t_int else None,
               speedup_vs_fp16_mm=t_f16 / t_vnm[0], vnm_tops=tops,
               fraction_of_s8_ceiling=tops / (MMA_SP_S8_CEILING * case["m"] / 4))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default=os.path.join(HERE, "build-quantized"))
    ap.add_argument("--out", default=".")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--filter", default="", help="substring of kernel names")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--command", default="", help="recorded in results.md")
    args = ap.parse_args()

    import cupy as cp
    import torch

    manifest, cases, seeds = open_build(args.build, args.filter)
    device = torch.cuda.get_device_name()
    print(f"{device}, torch {torch.__version__}, cupy {cp.__version__}, "
          f"{len(cases)} cases", flush=True)
    results = []
    for case, seed in zip(cases, seeds):
        prep = prepare(case, seed)
        r = run_case(torch, cp, case, prep,
                     manifest["kernels"][case["kernel"]], args.build, args,
                     int(seed))
        r["device"] = device
        results.append(r)
        timing = (f"  vnm {r['vnm_ms']:.3f} ms ({r['vnm_tops']:.0f} TOP/s), "
                  f"{r['speedup_vs_fp16_mm']:.2f}x fp16 mm"
                  + (f", {r['speedup_vs_int_mm']:.2f}x int_mm"
                     if r.get("speedup_vs_int_mm") else "")
                  if "vnm_ms" in r else "")
        print(f"{r['case']:40s} {'ok ' if r['correct'] else 'BAD'} "
              f"err {r['rel_error']:.2e}{timing}", flush=True)
        # Written after every case: a run stopped by a time limit keeps
        # the rows it has.
        write_csv(os.path.join(args.out, "results.csv"), results)

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    lines = [f"# vnm quantized SpMM on {device}", "",
             f"Date: {date}. Device: {device}. torch {torch.__version__}. "
             f"Command: `{args.command or ' '.join(sys.argv)}`.", "",
             "i32 kernels: exact against the float64 product of the pruned "
             "weight. f16 kernels: relative error (norm) against it scaled "
             "in float64; timed as the median of samples of 10 back-to-back "
             "calls (CUDA events, after warm-up, inputs rotated beyond the "
             "L2), next to torch._int_mm (cuBLAS int8, i32 out, no scaling) "
             "and dense fp16 torch.mm on the same weight. Dense-equivalent "
             "TOP/s = 2RKN / time; ceiling 1909 TOP/s (mma.sp s8) x M/4, "
             "for W8A16/W4A16 953 TFLOP/s (mma.sp f16) x M/4; their fp16 "
             "torch.mm multiplies the dequantized f16 weight.", "",
             "| case | N | ok | rel err | vnm ms | int_mm ms | fp16 mm ms "
             "| vs int_mm | vs fp16 mm | TOP/s | of ceiling |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "vnm_ms" not in r:
            lines.append(f"| {r['case']} | {r['n']} | "
                         f"{'yes' if r['correct'] else 'NO'} | "
                         f"{r['rel_error']:.1e} | | | | | | | |")
            continue
        im = f"{r['int_mm_ms']:.3f}" if r["int_mm_ms"] else "n/a"
        vs_im = (f"{r['speedup_vs_int_mm']:.2f}x" if r["speedup_vs_int_mm"]
                 else "n/a")
        lines.append(
            f"| {r['case']} | {r['n']} | {'yes' if r['correct'] else 'NO'} | "
            f"{r['rel_error']:.1e} | {r['vnm_ms']:.3f} | {im} | "
            f"{r['fp16_mm_ms']:.3f} | {vs_im} | "
            f"{r['speedup_vs_fp16_mm']:.2f}x | {r['vnm_tops']:.0f} | "
            f"{100 * r['fraction_of_s8_ceiling']:.0f}% |")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    bad = [r["case"] for r in results if not r["correct"]]
    print(f"\n{len(results) - len(bad)}/{len(results)} correct"
          + (f"; WRONG: {bad}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
