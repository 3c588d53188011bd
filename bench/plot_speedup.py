#!/usr/bin/env python3
"""Plots speedup over cuBLAS against sparsity, per V, per kernel family.

Reads results CSVs of device_bench.py (each given as LABEL=PATH, one kernel
family each) and draws, for the bar shapes (4096^3 and 11008 x 4096 x 4096,
f16), the median speedup over cuBLAS `torch.mm` of each format (2:4, 2:8,
2:16, 2:32 = 50 to 94% of the weight pruned) with the range over those
cases as an error bar, one panel per V. cuSPARSELt 2:4 (from the same
runs: cuBLAS time / cuSPARSELt time), the issue's bars for the `wgmma.sp`
and `mma.sp` kernels and its figures for Spatha on this GPU are drawn next
to them. Needs matplotlib (here, not on the GPU machine).

  python3 bench/plot_speedup.py --out bench/results/speedup.png \\
      mma.sp=bench/results/2026-12-02-h200-recipes-same-run/build-sm90.csv \\
      wgmma.sp-256=bench/results/2026-12-02-h200-recipes-same-run/build-sm90a-256.csv
"""

import argparse
import csv
import statistics
import sys

BAR_SHAPES = {(4096, 4096, 4096), (11008, 4096, 4096)}
MS = [4, 8, 16, 32]
# The H200 issue's bars (f16, over cuBLAS in the same run), per V and M.
BARS = {
    "wgmma.sp bar": {64: {4: 1.6, 8: 1.6, 16: 2.8, 32: 5.0},
                     128: {4: 1.6, 8: 2.5, 16: 4.5, 32: 7.0}},
    "mma.sp bar": {64: {4: 0.8, 8: 1.3, 16: 2.2, 32: 3.5},
                   128: {4: 0.8, 8: 1.5, 16: 2.5, 32: 3.5}},
}
# Spatha on the H200 as the Hopper issue quotes it (low, high), per M.
SPATHA = {4: (0.39, 0.51), 8: (0.67, 0.69), 16: (1.19, 1.30), 32: (2.21, 2.35)}


def sparsity(m):
    return 100.0 * (1 - 2 / m)


def read(path):
    """{(v, m): [speedup over cuBLAS]} and {(v, m): [cuBLAS / cuSPARSELt]}
    of the correct f16 bar-shape rows without an epilogue."""
    speedups, lt = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            shape = (int(row["rows"]), int(row["cols"]), int(row["n"]))
            if (shape not in BAR_SHAPES or row["dtype"] != "f16"
                    or row.get("epilogue", "none") != "none"
                    or row["correct"] != "True"):
                continue
            key = (int(row["v"]), int(row["m"]))
            speedups.setdefault(key, []).append(float(row["speedup_vs_cublas"]))
            if row.get("cusparselt_ms"):
                lt.setdefault(key, []).append(
                    float(row["cublas_ms"]) / float(row["cusparselt_ms"]))
    return speedups, lt


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("families", nargs="+", help="LABEL=results.csv")
    ap.add_argument("--out", required=True, help="the PNG to write")
    ap.add_argument("--device", default="H200",
                    help="the GPU the results CSVs were measured on, for the titles")
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families = []
    for spec in args.families:
        label, sep, path = spec.partition("=")
        if not sep:
            sys.exit(f"plot_speedup: '{spec}' is not LABEL=PATH")
        families.append((label, *read(path)))

    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for ax, v in zip(axes, (64, 128)):
        for label, speedups, _ in families:
            xs, ys, lows, highs = [], [], [], []
            for m in MS:
                values = speedups.get((v, m))
                if not values:
                    continue
                median = statistics.median(values)
                xs.append(sparsity(m))
                ys.append(median)
                lows.append(median - min(values))
                highs.append(max(values) - median)
            ax.errorbar(xs, ys, yerr=[lows, highs], marker="o", capsize=3,
                        label=label)
        lt = [x for _, _, family_lt in families for x in family_lt.get((v, 4), [])]
        if lt:
            ax.plot([sparsity(4)], [statistics.median(lt)], "ks",
                    label="cuSPARSELt 2:4")
        for label, style in (("wgmma.sp bar", "r_"), ("mma.sp bar", "m_")):
            ax.plot([sparsity(m) for m in MS], [BARS[label][v][m] for m in MS],
                    style, markersize=18, label=label)
        ax.vlines([sparsity(m) for m in MS], [SPATHA[m][0] for m in MS],
                  [SPATHA[m][1] for m in MS], colors="gray", linewidth=6,
                  alpha=0.5, label="Spatha (issue figures)")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_title(f"V = {v}: f16, 4096^3 and 11008 x 4096 x 4096 ({args.device})")
        ax.set_xlabel("weight sparsity, % (2:4, 2:8, 2:16, 2:32)")
        ax.set_xticks([sparsity(m) for m in MS])
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("speedup over cuBLAS (median, range)")
    axes[1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
