#!/usr/bin/env python3
"""Compares token-major kernels with K x N kernels plus the transpose.

Takes device_bench.py's results.csv of a `compile_cases.py --token-major`
build and of a plain build, timed in one GPU run, and the output of
transpose_cost.py from the same run, and prints a markdown table per (M, N):
the range of the token-major kernel's time over the K x N kernel's, and
over the K x N kernel's plus the transpose of x[N][K] that it needs in
front of a linear layer (below 1: the token-major kernel is faster). Only
cases that both builds ran, correctly, with the token-major layout.

  python3 bench/compare_token_major.py \\
      bench/results/2026-12-03-h200-token-major.csv \\
      bench/results/2026-12-03-h200-token-major-vs-k-by-n.csv \\
      bench/results/2026-12-03-h200-transpose-cost.txt
"""

import argparse
import collections
import csv
import re
import sys


def read(path):
    with open(path, newline="") as f:
        return {row["case"]: row for row in csv.DictReader(f)}


def transposes(path):
    """{(N, K): ms} from transpose_cost.py's lines."""
    found = {}
    with open(path) as f:
        for line in f:
            match = re.search(r"x\[(\d+)\]\[(\d+)\].*median ([0-9.]+) ms", line)
            if match:
                found[(int(match.group(1)), int(match.group(2)))] = float(
                    match.group(3))
    return found


def span(values):
    return f"{min(values):.2f}-{max(values):.2f}" if values else "-"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("token_major", help="results.csv of the token-major build")
    ap.add_argument("k_by_n", help="results.csv of the plain build")
    ap.add_argument("transpose", help="transpose_cost.py's output")
    args = ap.parse_args()
    token_major, k_by_n = read(args.token_major), read(args.k_by_n)
    cost = transposes(args.transpose)
    groups = collections.defaultdict(lambda: ([], []))
    for case, row in token_major.items():
        other = k_by_n.get(case)
        if (other is None or row.get("rhs_layout") != "token_major"
                or row["correct"] != "True" or other["correct"] != "True"):
            continue
        n, k = int(row["n"]), int(row["cols"])
        mine, theirs = float(row["vnm_ms"]), float(other["vnm_ms"])
        alone, with_transpose = groups[(int(row["m"]), n)]
        alone.append(mine / theirs)
        if (n, k) in cost:
            with_transpose.append(mine / (theirs + cost[(n, k)]))
    print("| M | N | cases | token-major / K x N | "
          "token-major / (K x N + transpose of x) |")
    print("|---|---|---|---|---|")
    for (m, n), (alone, with_transpose) in sorted(groups.items()):
        print(f"| {m} | {n} | {len(alone)} | {span(alone)} | "
              f"{span(with_transpose)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
