"""bench/compare_logs.py: device_bench.py log lines parsed and compared
case by case, a case not correct in both logs kept out of the ratios."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import compare_logs  # noqa: E402

BEFORE = """\
NVIDIA H100 80GB HBM3, torch 2.11.0+cu130, cupy 14.2.0, 3 cases
r4096_k4096_v64_m4_f16_n512        ok  err 2.07e-04  vnm 0.032 ms (300 TF/s, 0.48x cuBLAS)
  r = run_case(torch, cp, case, prep,
r4096_k4096_v64_m8_f16_n4096       ok  err 2.07e-04  vnm 0.199 ms (700 TF/s, 0.85x cuBLAS)
r1024_k4096_v64_m32_f16_n4096      ok  err 2.07e-04  vnm 0.026 ms (1300 TF/s, 1.74x cuBLAS)
3/3 correct
"""
AFTER = """\
r4096_k4096_v64_m4_f16_n512        ok  err 2.07e-04  vnm 0.040 ms (240 TF/s, 0.38x cuBLAS)
r4096_k4096_v64_m8_f16_n4096       ok  err 2.07e-04  vnm 0.199 ms (707 TF/s, 0.86x cuBLAS)
r1024_k4096_v64_m32_f16_n4096      WRONG  err 3.00e-01  vnm 0.026 ms (1310 TF/s, 1.75x cuBLAS)
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_parse_log_reads_every_case_line(tmp_path):
    cases = compare_logs.parse_log(write(tmp_path, "before.log", BEFORE))
    assert sorted(cases) == ["r1024_k4096_v64_m32_f16_n4096",
                             "r4096_k4096_v64_m4_f16_n512",
                             "r4096_k4096_v64_m8_f16_n4096"]
    assert cases["r4096_k4096_v64_m4_f16_n512"] == ("ok", 300.0, 0.48)


def test_compare_orders_by_ratio_and_keeps_failures_apart(tmp_path):
    before = compare_logs.parse_log(write(tmp_path, "before.log", BEFORE))
    after = compare_logs.parse_log(write(tmp_path, "after.log", AFTER))
    rows, summary = compare_logs.compare(before, after, worse=0.97)
    assert [r[0] for r in rows] == ["r4096_k4096_v64_m4_f16_n512",
                                    "r4096_k4096_v64_m8_f16_n4096"]
    assert abs(rows[0][3] - 0.8) < 1e-12 and abs(rows[1][3] - 1.01) < 1e-12
    assert summary["cases"] == 2 and summary["worse"] == 1
    assert summary["not_ok"] == ["r1024_k4096_v64_m32_f16_n4096"]
    assert abs(summary["median"] - 0.905) < 1e-12
