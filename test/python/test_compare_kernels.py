"""bench/compare_kernels.py --summary: the per-variant table of a comparison."""

import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import compare_kernels  # noqa: E402


def row(variant, ipm_before, ipm_after, spill_before, spill_after):
    worse = spill_after > spill_before or ipm_after > ipm_before
    return {"variant": variant, "kernel": "k", "worse": str(worse),
            "instructions_per_hmma_before": ipm_before,
            "instructions_per_hmma_after": ipm_after,
            "spill_bytes_before": spill_before, "spill_bytes_after": spill_after}


def test_summary_counts_and_means(tmp_path):
    rows = [row("a", 5.0, 3.0, 0, 16),    # worse by spills only
            row("a", 4.0, 4.5, 8, 8),     # worse by instructions
            row("a", 6.0, 3.0, 8, 0),     # better
            row("b", 3.0, 3.0, 0, 0)]     # unchanged
    path = tmp_path / "sass.csv"
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = compare_kernels.summarize([str(path)]).splitlines()
    assert lines[2] == "| a | 3 | 2 | 1 | 1 | 5.00 -> 3.50 | 16 -> 24 |"
    assert lines[3] == "| b | 1 | 0 | 0 | 0 | 3.00 -> 3.00 | 0 -> 0 |"
    assert lines[4] == "| all | 4 | 2 | 1 | 1 | | |"
