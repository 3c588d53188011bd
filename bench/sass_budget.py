#!/usr/bin/env python3
"""The K loops' static cost, kernel by kernel, against a recorded budget.

Compiles the kernels of the case matrix (bench/cases.py, the default
tiling) with vnm-opt, assembles each with ptxas for sm_90 and counts, in
the SASS of its K loops (nvdisasm; where the loop is unrolled completely,
the span from the first MMA to the last, scope "span"): instructions,
instructions per HMMA and the
instructions of each category (sass_loop_stats.CATEGORIES), with ptxas's
registers and spill bytes.

  --report FILE   writes those counts as CSV (the static performance report)
  --record FILE   writes them as the budget
  --check FILE    compares them with the budget: exits 1 when a kernel
                  spills more or issues more instructions per HMMA than
                  recorded (or a budgeted kernel is missing); prints the
                  kernels that got better, whose budget can be lowered

SASS depends on the ptxas version: the budget records the one it was
measured with, and a check with another ptxas is an error. The tools come
from PyPI (nvidia-cuda-nvcc, nvidia-cuda-nvdisasm); scripts/setup.sh puts
them in build/cuda-tools/.

  python3 bench/sass_budget.py --tools build/cuda-tools \\
      --check bench/sass_budget.csv
  python3 bench/sass_budget.py --tools build/cuda-tools --token-major \\
      --check bench/sass_budget_token_major.csv
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases as case_matrix  # noqa: E402
import compile_cases  # noqa: E402
import sass_loop_stats  # noqa: E402

FIELDS = (["kernel", "ptxas", "registers", "spill_bytes", "scope",
           "loop_instructions",
           "hmma", "instructions_per_hmma"] + sass_loop_stats.CATEGORIES)


def ptxas_version(ptxas):
    out = subprocess.run([ptxas, "--version"], capture_output=True,
                         text=True, check=True).stdout
    return re.search(r"V(\d+\.\d+\.\d+)", out).group(1)


def measure(vnm_opt, ptxas, nvdisasm, version, key, tmp, token_major=False):
    # Compiled as compile_cases.py compiles it, at the default tiling;
    # token-major: x given as x[N][K], handed to every kernel that reads it
    # (M = 8 too).
    kernel = compile_cases.compile_one(vnm_opt, None, tmp, key, 0, 0, -1,
                                       token_major=token_major,
                                       register_gather=token_major)
    name = kernel["name"]
    registers, spill_bytes, sass = sass_loop_stats.assemble(
        ptxas, nvdisasm, os.path.join(tmp, kernel["ptx"]),
        os.path.join(tmp, name + ".cubin"))
    # A K loop unrolled completely: the span from the first MMA to the
    # last is counted (the setup and the epilogue around it are not, as a
    # loop's count leaves them out).
    scope, body = sass_loop_stats.k_loop_body(sass)
    counts = sass_loop_stats.categories(body)
    row = {"kernel": name, "ptxas": version, "registers": registers,
           "spill_bytes": spill_bytes, "scope": scope,
           "loop_instructions": len(body), "hmma": counts["hmma"],
           "instructions_per_hmma": round(len(body) / counts["hmma"], 3)
           if counts["hmma"] else 0.0}
    row.update(counts)
    return row


def measure_all(args):
    version = ptxas_version(args.ptxas)
    keys = sorted({(c["rows"], c["cols"], c["v"], c["m"], c["dtype"], c["out"],
                    c["acc"], c["bias"], c["act"])
                   for c in case_matrix.all_cases()})
    with tempfile.TemporaryDirectory() as tmp, \
            ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        return list(pool.map(
            lambda k: measure(args.vnm_opt, args.ptxas, args.nvdisasm,
                              version, k, tmp, args.token_major), keys))


def write(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def check(budget_path, rows):
    with open(budget_path, newline="") as f:
        budget = {r["kernel"]: r for r in csv.DictReader(f)}
    now = {r["kernel"]: r for r in rows}
    failures, better = [], []
    for name, limit in sorted(budget.items()):
        row = now.get(name)
        if row is None:
            failures.append(f"{name}: in the budget but not compiled")
            continue
        if row["ptxas"] != limit["ptxas"] or row["scope"] != limit["scope"]:
            failures.append(f"{name}: measured with ptxas {row['ptxas']} "
                            f"over its {row['scope']}, the budget with "
                            f"{limit['ptxas']} over its {limit['scope']}")
            continue
        spills, allowed_spills = row["spill_bytes"], int(limit["spill_bytes"])
        ratio, allowed = row["instructions_per_hmma"], float(
            limit["instructions_per_hmma"])
        if spills > allowed_spills:
            failures.append(f"{name}: {spills} spill bytes, budget "
                            f"{allowed_spills}")
        if ratio > allowed:
            failures.append(f"{name}: {ratio} K-loop instructions per HMMA "
                            f"({row['loop_instructions']} for {row['hmma']}), "
                            f"budget {allowed}")
        if spills < allowed_spills or ratio < allowed:
            better.append(f"{name}: {spills} spill bytes (budget "
                          f"{allowed_spills}), {ratio} per HMMA (budget "
                          f"{allowed})")
    for line in better:
        print("better than the budget (lower it with --record):", line)
    for line in failures:
        print("OVER BUDGET:", line)
    print(f"{len(budget)} kernels checked, {len(failures)} over budget, "
          f"{len(better)} better")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vnm-opt", default=os.path.join(
        os.path.dirname(HERE), "build", "bin", "vnm-opt"))
    ap.add_argument("--tools", default="",
                    help="directory holding ptxas and nvdisasm")
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--nvdisasm", default="")
    ap.add_argument("--token-major", action="store_true",
                    help="x given as x[N][K] (compile_cases.py --token-major "
                         "--register-gather): the token-major kernels at M = 4 "
                         "and 8")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--report")
    mode.add_argument("--record")
    mode.add_argument("--check")
    args = ap.parse_args()
    for tool in ("ptxas", "nvdisasm"):
        if not getattr(args, tool):
            setattr(args, tool, os.path.join(args.tools, tool) if args.tools
                    else tool)
        path = getattr(args, tool)
        if os.sep in path and not os.access(path, os.X_OK):
            sys.exit(f"sass_budget: no {tool} at {path} (scripts/setup.sh "
                     "installs it into build/cuda-tools)")
    rows = measure_all(args)
    if args.check:
        return check(args.check, rows)
    write(args.report or args.record, rows)
    print(f"{len(rows)} kernels written to {args.report or args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
