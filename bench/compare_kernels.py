#!/usr/bin/env python3
"""Compares two compile_cases.py builds of the same case matrix, kernel by kernel.

For each kernel in both builds: whether the PTX is byte-identical (sha256),
and if not, ptxas's registers and spill bytes and the SASS of its K loops
(instructions, HMMAs, moves and instructions per HMMA, as
sass_loop_stats.py counts them; a K loop unrolled completely counts from
its first MMA to its last) on both sides. A kernel is worse when it
spills more, or when its loops issue more instructions per HMMA. Writes a
CSV (one row per kernel) and prints a summary; exits 1 if any kernel is
worse.

  python3 bench/compare_kernels.py --before OLD_BUILD --after NEW_BUILD \\
      --label default --csv out.csv --nvdisasm PATH
"""

import argparse
import csv
import hashlib
import json
import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import sass_loop_stats


def ptx_path(build, kernel):
    return os.path.join(build, "kernels", kernel["ptx"])


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def measure(ptxas, nvdisasm, ptx, tmp):
    """{registers, spill_bytes, scope, loop_instructions, loop_hmma,
    loop_moves, instructions_per_hmma} of one kernel: its K loops as
    sass_loop_stats.k_loop_body counts them (a loop unrolled completely
    over the span from its first MMA to its last)."""
    regs, spills, sass = sass_loop_stats.assemble(
        ptxas, nvdisasm, ptx, os.path.join(tmp, "k.cubin"))
    scope, body = sass_loop_stats.k_loop_body(sass)
    counts = sass_loop_stats.categories(body)
    return {"registers": regs, "spill_bytes": spills, "scope": scope,
            "loop_instructions": len(body), "loop_hmma": counts["hmma"],
            "loop_moves": counts["move"],
            "instructions_per_hmma": round(len(body) / counts["hmma"], 3)
            if counts["hmma"] else 0.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or
                    "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "nvdisasm")
    args = ap.parse_args()
    before = json.load(open(os.path.join(args.before, "manifest.json")))
    after = json.load(open(os.path.join(args.after, "manifest.json")))
    names = sorted(set(before["kernels"]) & set(after["kernels"]))
    missing = sorted(set(before["kernels"]) ^ set(after["kernels"]))

    def compare(name):
        old = ptx_path(args.before, before["kernels"][name])
        new = ptx_path(args.after, after["kernels"][name])
        row = {"variant": args.label, "kernel": name,
               "ptx_sha256_before": sha256(old),
               "ptx_sha256_after": sha256(new)}
        row["identical"] = row["ptx_sha256_before"] == row["ptx_sha256_after"]
        with tempfile.TemporaryDirectory() as tmp:
            for side, ptx in (("before", old), ("after", new)):
                for field, value in measure(args.ptxas, args.nvdisasm, ptx,
                                            tmp).items():
                    row[f"{field}_{side}"] = value
        row["worse"] = (row["spill_bytes_after"] > row["spill_bytes_before"]
                        or row["instructions_per_hmma_after"] >
                        row["instructions_per_hmma_before"] + 1e-9)
        return row

    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        rows = list(pool.map(compare, names))
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    identical = sum(r["identical"] for r in rows)
    worse = [r["kernel"] for r in rows if r["worse"]]
    print(f"{args.label}: {len(rows)} kernels, {identical} identical PTX, "
          f"{len(worse)} worse" + (f": {', '.join(worse)}" if worse else "")
          + (f"; only in one build: {', '.join(missing)}" if missing else ""))
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
