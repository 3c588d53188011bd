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
i32 checks) are left out. --at-n N takes the first columns at another N
(e.g. 16, a decode size, with speedup_vs_fp16_mm for W4A16).

  python3 bench/compare_recipes.py mma.sp=run/build-sm90/results.csv \\
      wgmma.sp-128=run/build-sm90a/results.csv \\
      wgmma.sp-256=run/build-sm90a-256/results.csv
  python3 bench/compare_recipes.py --speedup speedup_vs_int_mm \\
      rolled=run/build-quant-rolled/results.csv \\
      unrolled=run/build-quant/results.csv
  python3 bench/compare_recipes.py --speedup speedup_vs_fp16_mm --at-n 16 \\
      whole-k=run/build-q-w4/results.csv split-k=run/build-qks-w4/results.csv
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
    ap.add_argument("--at-n", type=int, default=4096,
                    help="the N of the first columns (default 4096)")
    args = ap.parse_args()
    try:
        print(compare(args.builds, args.speedup, args.at_n))
    except ValueError as error:
        ap.error(str(error))
    return 0


def compare(builds, speedup="speedup_vs_cublas", at_n=4096):
    """The markdown table of builds (LABEL=RESULTS_CSV, the first the
    baseline): per (form,) V and M each build's speedup at N = at_n and
    each build's median ratio to the baseline at at_n and over all N.
    Raises ValueError on a malformed build or when no case compares."""
    labels, runs = [], []
    for item in builds:
        label, _, path = item.partition("=")
        if not path:
            raise ValueError(f"expected LABEL=RESULTS_CSV, got {item!r}")
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
                   and run[case].get(speedup) for run in runs):
            continue
        speedups = [float(run[case][speedup]) for run in runs]
        groups[(form_of(case), int(base["v"]), int(base["m"]))].append(
            (speedups, int(base["n"])))
    if not groups:
        raise ValueError(f"no case is correct with a {speedup} in every build")
    forms = any(form for form, _, _ in groups)
    at = f"N = {at_n}"
    header = (["form"] if forms else []) + ["V", "M", "cases"] + [
        f"{label} ({at})" for label in labels]
    for label in labels[1:]:
        header += [f"{label} / {labels[0]} ({at})",
                   f"{label} / {labels[0]} (all N)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]

    def row(form, v, m, cases):
        chosen = [s for s, n in cases if n == at_n]
        cells = ([form] if forms else []) + [v, m, str(len(cases))]
        cells += [span([s[i] for s in chosen]) if chosen else "-"
                  for i in range(len(labels))]
        for i in range(1, len(labels)):
            cells.append(f"{median([s[i] / s[0] for s in chosen]):.2f}"
                         if chosen else "-")
            cells.append(f"{median([s[i] / s[0] for s, _ in cases]):.2f}")
        return "| " + " | ".join(cells) + " |"

    for (form, v, m) in sorted(groups, key=lambda key: (key[0], key[2], key[1])):
        lines.append(row(form, str(v), str(m), groups[(form, v, m)]))
    lines.append(row("all", "all", "all",
                     [case for cases in groups.values() for case in cases]))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
