"""Compares two device_bench.py logs case by case, for runs whose results
CSVs did not come back from the GPU host (the logs hold every case's line,
as device_bench.case_line writes it).

Each case's ratio is the second log's TF/s over the first's (TF/s is
2RKN / time, so the ratio is the first time over the second); cases that
are not "ok" in both are listed apart. Prints a markdown table, worst
ratio first, and a summary line.

  python3 bench/compare_logs.py old.log new.log [--worse 0.97]
"""

import argparse
import re
import statistics

LINE = re.compile(r"^(?P<case>\S+)\s+(?P<status>\S+)\s+err \S+\s+vnm (?P<ms>\S+) ms "
                  r"\((?P<tflops>\d+(?:\.\d+)?) TF/s, (?P<speedup>\S+)x cuBLAS\)")


def parse_log(path):
    """{case: (status, TF/s, speedup over cuBLAS)} of a device_bench.py log."""
    cases = {}
    with open(path) as f:
        for line in f:
            match = LINE.match(line)
            if match:
                cases[match["case"]] = (match["status"], float(match["tflops"]),
                                        float(match["speedup"]))
    return cases


def compare(before, after, worse):
    """The table rows (case, TF/s before, after, ratio), worst first, and
    the summary: cases compared, median ratio, cases below `worse`, cases
    not correct in both."""
    common = [c for c in before if c in after]
    failed = [c for c in common if before[c][0] != "ok" or after[c][0] != "ok"]
    rows = sorted(((c, before[c][1], after[c][1], after[c][1] / before[c][1])
                   for c in common if c not in failed), key=lambda r: r[3])
    ratios = [r[3] for r in rows]
    summary = {"cases": len(rows), "median": statistics.median(ratios) if ratios else None,
               "worse": sum(r < worse for r in ratios), "not_ok": failed}
    return rows, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--worse", type=float, default=0.97,
                        help="a ratio below this counts as slower (default 0.97)")
    args = parser.parse_args()
    rows, summary = compare(parse_log(args.before), parse_log(args.after), args.worse)
    print("| case | TF/s before | TF/s after | after / before |")
    print("|---|---|---|---|")
    for case, b, a, ratio in rows:
        print(f"| {case} | {b:g} | {a:g} | {ratio:.3f} |")
    print(f"\n{summary['cases']} cases, median {summary['median']:.3f}, "
          f"{summary['worse']} below {args.worse}, not correct in both: "
          f"{summary['not_ok'] or 'none'}")


if __name__ == "__main__":
    main()
