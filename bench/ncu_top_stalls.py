#!/usr/bin/env python3
"""The instructions where a kernel's warps stall most, from ncu's source page:

  ncu -i report.ncu-rep --page source --csv --print-source sass > src.csv
  python3 bench/ncu_top_stalls.py src.csv [count]

Prints the share of all stall samples that wait on a long scoreboard
(global or local memory), then the `count` (default 8) instructions with
the most samples, each with its long-scoreboard samples. Which load an
instruction waits for is in its wait mask (bench/sass_scoreboards.py).
"""

import csv
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
LONG_SCOREBOARD = "stall_long_sb"


def read(path):
    """Rows of the source page as dicts. The page starts with a line that
    names the kernel, then the header."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = next(i for i, r in enumerate(rows) if SAMPLES in r)
    names = rows[header]
    return [dict(zip(names, r)) for r in rows[header + 1:] if len(r) == len(names)]


def number(row, column):
    return float(row.get(column) or 0)


def summary(rows, count=8):
    total = sum(number(r, SAMPLES) for r in rows)
    long_sb = sum(number(r, LONG_SCOREBOARD) for r in rows)
    lines = [f"{total:.0f} samples, {long_sb:.0f} on a long scoreboard "
             f"({long_sb / total:.0%})" if total else "no samples"]
    for r in sorted(rows, key=lambda r: -number(r, SAMPLES))[:count]:
        s = number(r, SAMPLES)
        lines.append(f"{r['Address'][-4:]} {s:6.0f} {s / total:6.1%}  "
                     f"long_sb {number(r, LONG_SCOREBOARD):6.0f}  "
                     f"{r['Source'].strip()[:70]}")
    return lines


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    print("\n".join(summary(read(sys.argv[1]), count)))


if __name__ == "__main__":
    main()
