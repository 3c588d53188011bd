"""bench/compare_logs.py: the case lines device_bench.py writes parsed back
and compared case by case, a case not correct in both logs kept out of the
ratios."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import compare_logs  # noqa: E402
import device_bench  # noqa: E402


def row(case, correct, ms, tflops, speedup):
    return {"case": case, "correct": correct, "rel_error": 2.07e-4,
            "vnm_ms": ms, "vnm_tflops": tflops, "speedup_vs_cublas": speedup}


def write_log(tmp_path, name, rows):
    """A log as device_bench.py prints it: a header, warnings between the
    case lines, and the count at the end."""
    lines = ["NVIDIA H100 80GB HBM3, torch 2.11.0+cu130, cupy 14.2.0, 3 cases"]
    for r in rows:
        lines += ["  r = run_case(torch, cp, case, prep,", device_bench.case_line(r)]
    lines.append(f"{sum(r['correct'] for r in rows)}/{len(rows)} correct")
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


BEFORE = [row("r4096_k4096_v64_m4_f16_n512", True, 0.032, 300.0, 0.48),
          row("r4096_k4096_v64_m8_f16_n4096", True, 0.199, 700.0, 0.85),
          row("r1024_k4096_v64_m32_f16_n4096", True, 0.026, 1300.0, 1.74)]
AFTER = [row("r4096_k4096_v64_m4_f16_n512", True, 0.040, 240.0, 0.38),
         row("r4096_k4096_v64_m8_f16_n4096", True, 0.199, 707.0, 0.86),
         row("r1024_k4096_v64_m32_f16_n4096", False, 0.026, 1310.0, 1.75)]


def test_parse_log_reads_every_case_line(tmp_path):
    cases = compare_logs.parse_log(write_log(tmp_path, "before.log", BEFORE))
    assert sorted(cases) == ["r1024_k4096_v64_m32_f16_n4096",
                             "r4096_k4096_v64_m4_f16_n512",
                             "r4096_k4096_v64_m8_f16_n4096"]
    assert cases["r4096_k4096_v64_m4_f16_n512"] == ("ok", 300.0, 0.48)


def test_compare_orders_by_ratio_and_keeps_failures_apart(tmp_path):
    before = compare_logs.parse_log(write_log(tmp_path, "before.log", BEFORE))
    after = compare_logs.parse_log(write_log(tmp_path, "after.log", AFTER))
    assert after["r1024_k4096_v64_m32_f16_n4096"][0] == "BAD"
    rows, summary = compare_logs.compare(before, after, worse=0.97)
    assert [r[0] for r in rows] == ["r4096_k4096_v64_m4_f16_n512",
                                    "r4096_k4096_v64_m8_f16_n4096"]
    assert abs(rows[0][3] - 0.8) < 1e-12 and abs(rows[1][3] - 1.01) < 1e-12
    assert summary["cases"] == 2 and summary["worse"] == 1
    assert summary["not_ok"] == ["r1024_k4096_v64_m32_f16_n4096"]
    assert abs(summary["median"] - 0.905) < 1e-12
