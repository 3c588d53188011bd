#!/usr/bin/env python3
"""Compares two compile_cases.py builds of the same case matrix, kernel by kernel.

For each kernel in both builds: whether the PTX is byte-identical (sha256),
and if not, ptxas's registers and spill bytes and the SASS of its K loops
(instructions, HMMAs, moves and instructions per HMMA, as
sass_loop_stats.py counts them) on both sides. A kernel is worse when it
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

import sass_loop_stats


def ptx_path(build, kernel):
    return os.path.join(build, "kernels", kernel["ptx"])


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def measure(ptxas, nvdisasm, ptx, tmp):
    """(registers, spill bytes, [(loop instructions, hmma, moves,
    m16n8k32-equivalents)])."""
    regs, spills, sass = sass_loop_stats.assemble(
        ptxas, nvdisasm, ptx, os.path.join(tmp, "k.cubin"))
    return regs, spills, sass_loop_stats.loops(sass)


def per_hmma(loops):
    instructions = sum(x[0] for x in loops)
    hmma = sum(x[1] for x in loops)
    return instructions / hmma if hmma else 0.0


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
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            old = ptx_path(args.before, before["kernels"][name])
            new = ptx_path(args.after, after["kernels"][name])
            row = {"variant": args.label, "kernel": name,
                   "ptx_sha256_before": sha256(old),
                   "ptx_sha256_after": sha256(new)}
            row["identical"] = row["ptx_sha256_before"] == row["ptx_sha256_after"]
            for side, ptx in (("before", old), ("after", new)):
                regs, spills, loops = measure(args.ptxas, args.nvdisasm, ptx, tmp)
                row[f"registers_{side}"] = regs
                row[f"spill_bytes_{side}"] = spills
                row[f"loop_instructions_{side}"] = sum(x[0] for x in loops)
                row[f"loop_hmma_{side}"] = sum(x[1] for x in loops)
                row[f"loop_moves_{side}"] = sum(x[2] for x in loops)
                row[f"instructions_per_hmma_{side}"] = round(per_hmma(loops), 3)
            row["worse"] = (row["spill_bytes_after"] > row["spill_bytes_before"]
                            or row["instructions_per_hmma_after"] >
                            row["instructions_per_hmma_before"] + 1e-9)
            rows.append(row)
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
