#!/usr/bin/env python3
"""Compares kernel recipes timed in one GPU run, case by case.

Takes the results.csv of device_bench.py for each build (LABEL=PATH, the
first is the baseline), all timed in the same session so that cuBLAS and
the clocks are the same for each, and prints a markdown table per (V, M):
each build's speedup over cuBLAS at N = 4096 and the median ratio of each
build's speedup to the baseline's, at N = 4096 and over all N; the last
row over all cases. With --speedup it compares another column of the
results, for the quantized kernels (quantized_device_bench.py) e.g.
speedup_vs_int_mm, per form (w8a8, ...), V and M; rows without it (the
i32 checks) are left out.

  python3 bench/compare_recipes.py mma.sp=run/build-sm90/results.csv \\
      wgmma.sp-128=run/build-sm90a/results.csv \\
      wgmma.sp-256=run/build-sm90a-256/results.csv
  python3 bench/compare_recipes.py --speedup speedup_vs_int_mm \\
      rolled=run/build-quant-rolled/results.csv \\
      unrolled=run/build-quant/results.csv
"""

import argparse
import collections
import csv
import sys


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else float("nan")


def span(values):
    return f"{min(values):.2f}-{max(values):.2f}x" if values else "-"


def form_of(case):
    """The quantized form a case name starts with (w8a8_r4096_...), or ""
    for the float kernels' cases (r4096_...)."""
    first = case.split("_")[0]
    return "" if first.startswith("r") and first[1:].isdigit() else first


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", metavar="LABEL=RESULTS_CSV")
    ap.add_argument("--speedup", default="speedup_vs_cublas",
                    help="the results column compared (default "
                         "speedup_vs_cublas)")
    args = ap.parse_args()
    labels, runs = [], []
    for item in args.builds:
        label, _, path = item.partition("=")
        if not path:
            ap.error(f"expected LABEL=RESULTS_CSV, got {item!r}")
        labels.append(label)
        with open(path, newline="") as f:
            runs.append({row["case"]: row for row in csv.DictReader(f)})
    wrong = [(label, case) for label, run in zip(labels, runs)
             for case, row in run.items() if row["correct"] != "True"]
    if wrong:
        print(f"incorrect cases, not compared: {wrong}", file=sys.stderr)
    groups = collections.defaultdict(list)
    for case, base in runs[0].items():
        if not all(case in run and run[case]["correct"] == "True"
                   and run[case].get(args.speedup) for run in runs):
            continue
        speedups = [float(run[case][args.speedup]) for run in runs]
        groups[(form_of(case), int(base["v"]), int(base["m"]))].append(
            (speedups, int(base["n"])))
    if not groups:
        print(f"no case is correct with a {args.speedup} in every build",
              file=sys.stderr)
        return 1
    forms = any(form for form, _, _ in groups)
    header = (["form"] if forms else []) + ["V", "M", "cases"] + [f"{label} (N = 4096)" for label in labels]
    for label in labels[1:]:
        header += [f"{label} / {labels[0]} (N = 4096)",
                   f"{label} / {labels[0]} (all N)"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    def print_row(form, v, m, cases):
        big = [s for s, n in cases if n == 4096]
        cells = ([form] if forms else []) + [v, m, str(len(cases))]
        cells += [span([s[i] for s in big]) for i in range(len(labels))]
        for i in range(1, len(labels)):
            cells.append(f"{median([s[i] / s[0] for s in big]):.2f}"
                         if big else "-")
            cells.append(f"{median([s[i] / s[0] for s, _ in cases]):.2f}")
        print("| " + " | ".join(cells) + " |")

    for (form, v, m) in sorted(groups, key=lambda key: (key[0], key[2], key[1])):
        print_row(form, str(v), str(m), groups[(form, v, m)])
    print_row("all", "all", "all",
              [case for cases in groups.values() for case in cases])
    return 0


if __name__ == "__main__":
    sys.exit(main())
