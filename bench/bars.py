#!/usr/bin/env python3
"""Prints the GPU issue's bars against one run's results.

Each argument is FAMILY=RESULTS_CSV, where FAMILY names the bars the CSV
is held to:

  mma.sp     device_bench.py results of an sm_90 build
  wgmma.sp   device_bench.py results of an sm_90a build (its default
             recipe chooses per case, mma.sp included)
  quantized  quantized_device_bench.py results

The float bars are speedups over cuBLAS in the same run, f16 in and out,
no epilogue, at 4096 x 4096 x 4096 and 11008 x 4096 x 4096 (R x K x N);
2:4 is every V at M = 4. The quantized bars: W8A8 2:4 and W8A8 V = 128
2:8 over torch._int_mm at N = 4096 (R = 4096 and 11008, K = 4096), and
W4A16 64:2:8 (with or without group scales) at N <= 16 over dense fp16.
One markdown row per bar: the cases, their speedups, the bar, and whether
every case meets it.

  python3 bench/bars.py mma.sp=run/build-sm90/results.csv \\
      wgmma.sp=run/build-sm90a/results.csv quantized=run/build-q/results.csv
"""

import argparse
import csv
import sys

from compare_recipes import form_of

# (V, M) -> bar; V None: any V (the 2:4 bar).
FLOAT_BARS = {
    "mma.sp": {(None, 4): 0.8, (128, 8): 1.5, (128, 16): 2.5, (128, 32): 3.5,
               (64, 8): 1.3, (64, 16): 2.2, (64, 32): 3.5},
    "wgmma.sp": {(None, 4): 1.6, (128, 8): 2.5, (128, 16): 4.5, (128, 32): 7.0,
                 (64, 8): 1.6, (64, 16): 2.8, (64, 32): 5.0},
}
BAR_SHAPES = {(4096, 4096, 4096), (11008, 4096, 4096)}


def label(v, m):
    return "2:4" if m == 4 else f"V = {v} 2:{m}"


def float_rows(family, rows):
    out = []
    for (v, m), bar in FLOAT_BARS[family].items():
        cases = [r for r in rows
                 if r["correct"] == "True" and r["dtype"] == "f16" and r["out"] == "f16"
                 and r["epilogue"] == "none" and int(r["m"]) == m
                 and (v is None or int(r["v"]) == v)
                 and (int(r["rows"]), int(r["cols"]), int(r["n"])) in BAR_SHAPES]
        out.append((f"{family} {label(v, m)}", cases, "speedup_vs_cublas", bar,
                    "cuBLAS"))
    return out


def quantized_rows(rows):
    ok = [r for r in rows if r["correct"] == "True"]
    w8a8 = [r for r in ok if form_of(r["case"]) == "w8a8" and int(r["n"]) == 4096
            and int(r["cols"]) == 4096 and int(r["rows"]) in (4096, 11008)]
    return [
        ("W8A8 2:4", [r for r in w8a8 if int(r["m"]) == 4], "speedup_vs_int_mm", 1.2,
         "torch._int_mm"),
        ("W8A8 V = 128 2:8", [r for r in w8a8 if int(r["v"]) == 128 and int(r["m"]) == 8],
         "speedup_vs_int_mm", 2.0, "torch._int_mm"),
        ("W4A16 64:2:8, N <= 16",
         [r for r in ok if form_of(r["case"]).startswith("w4a16") and int(r["v"]) == 64
          and int(r["m"]) == 8 and int(r["n"]) <= 16],
         "speedup_vs_fp16_mm", 4.0, "dense fp16"),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="FAMILY=RESULTS_CSV")
    args = ap.parse_args()
    print("| bar | cases | speedup | over | bar | met |")
    print("|---|---|---|---|---|---|")
    status = 0
    for item in args.runs:
        family, _, path = item.partition("=")
        if family not in ("mma.sp", "wgmma.sp", "quantized") or not path:
            ap.error(f"expected mma.sp|wgmma.sp|quantized=RESULTS_CSV, got {item!r}")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        bars = quantized_rows(rows) if family == "quantized" else float_rows(family, rows)
        for name, cases, column, bar, reference in bars:
            values = [float(r[column]) for r in cases if r.get(column)]
            if not values:
                print(f"| {name} | 0 | - | {reference} | {bar}x | no case |")
                status = 1
                continue
            met = "yes" if min(values) >= bar else f"no (best {max(values):.2f}x)"
            print(f"| {name} | {len(values)} | {min(values):.2f}-{max(values):.2f}x | "
                  f"{reference} | {bar}x | {met} |")
    return status


if __name__ == "__main__":
    sys.exit(main())
