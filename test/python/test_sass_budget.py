"""bench/sass_budget.py's check: over budget fails, better or equal passes."""

import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import sass_budget  # noqa: E402


def row(kernel, spills, instructions, hmma, ptxas="13.5.37", scope="loop"):
    r = dict.fromkeys(sass_budget.FIELDS, 0)
    r.update(kernel=kernel, ptxas=ptxas, scope=scope, registers=128,
             spill_bytes=spills, loop_instructions=instructions, hmma=hmma,
             instructions_per_hmma=round(instructions / hmma, 3))
    return r


def write_budget(tmp_path, rows):
    path = tmp_path / "budget.csv"
    sass_budget.write(str(path), rows)
    return str(path)


def test_equal_and_better_pass(tmp_path, capsys):
    budget = write_budget(tmp_path, [row("a", 8, 200, 32), row("b", 0, 160, 32)])
    assert sass_budget.check(budget, [row("a", 8, 200, 32),
                                      row("b", 0, 150, 32)]) == 0
    assert "better than the budget" in capsys.readouterr().out


def test_more_instructions_per_hmma_fails(tmp_path, capsys):
    budget = write_budget(tmp_path, [row("a", 0, 200, 32)])
    assert sass_budget.check(budget, [row("a", 0, 201, 32)]) == 1
    assert "OVER BUDGET: a: 6.281" in capsys.readouterr().out


def test_more_spills_fails(tmp_path):
    budget = write_budget(tmp_path, [row("a", 0, 200, 32)])
    assert sass_budget.check(budget, [row("a", 4, 190, 32)]) == 1


def test_missing_kernel_or_other_ptxas_or_scope_fails(tmp_path):
    budget = write_budget(tmp_path, [row("a", 0, 200, 32)])
    assert sass_budget.check(budget, []) == 1
    assert sass_budget.check(budget, [row("a", 0, 200, 32, ptxas="13.0.88")]) == 1
    assert sass_budget.check(budget, [row("a", 0, 200, 32, scope="kernel")]) == 1


def test_recorded_budget_covers_the_case_matrix():
    import cases
    path = os.path.join(os.path.dirname(sass_budget.__file__),
                        "sass_budget.csv")
    with open(path, newline="") as f:
        recorded = {r["kernel"] for r in csv.DictReader(f)}
    names = {c["kernel"] for c in cases.all_cases()}
    assert recorded == names
