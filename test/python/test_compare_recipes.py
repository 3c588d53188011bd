"""bench/compare_recipes.py: builds of one run side by side, at N = 4096 or
another N (--at-n)."""

import csv
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import compare_recipes  # noqa: E402


def write(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["case", "v", "m", "n", "correct",
                                               "speedup_vs_fp16_mm"])
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


def case(n, speedup, correct=True, v=64, m=8):
    return {"case": f"w4a16_r4096_k4096_v{v}_m{m}_f16_n{n}", "v": v, "m": m,
            "n": n, "correct": str(correct), "speedup_vs_fp16_mm": speedup}


def test_at_n_picks_the_columns_n(tmp_path):
    base = write(tmp_path / "a.csv", [case(16, 0.5), case(4096, 1.0),
                                      case(1, 0.4)])
    split = write(tmp_path / "b.csv", [case(16, 1.5), case(4096, 0.9),
                                       case(1, 1.2)])
    lines = compare_recipes.compare([f"whole={base}", f"split={split}"],
                                    "speedup_vs_fp16_mm", 16).splitlines()
    assert lines[0] == ("| form | V | M | cases | whole (N = 16) | split (N = 16)"
                        " | split / whole (N = 16) | split / whole (all N) |")
    # At N = 16 split is 3.00x whole; over all N the median of 3.0, 0.9, 3.0.
    assert lines[2] == "| w4a16 | 64 | 8 | 3 | 0.50-0.50x | 1.50-1.50x | 3.00 | 3.00 |"
    # The default N = 4096.
    lines = compare_recipes.compare([f"whole={base}", f"split={split}"],
                                    "speedup_vs_fp16_mm").splitlines()
    assert lines[2] == "| w4a16 | 64 | 8 | 3 | 1.00-1.00x | 0.90-0.90x | 0.90 | 3.00 |"


def test_incorrect_cases_are_left_out(tmp_path):
    base = write(tmp_path / "a.csv", [case(16, 0.5), case(1, 0.4)])
    split = write(tmp_path / "b.csv", [case(16, 9.0, correct=False),
                                       case(1, 1.2)])
    lines = compare_recipes.compare([f"whole={base}", f"split={split}"],
                                    "speedup_vs_fp16_mm", 16).splitlines()
    # Only N = 1 is compared: no case at N = 16 remains.
    assert lines[2] == "| w4a16 | 64 | 8 | 1 | - | - | - | 3.00 |"


def test_no_comparable_case_is_an_error(tmp_path):
    base = write(tmp_path / "a.csv", [case(16, 0.5)])
    with pytest.raises(ValueError, match="no case is correct"):
        compare_recipes.compare([f"x={base}"], "speedup_vs_int_mm")
