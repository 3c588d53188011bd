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

With --summary it reads such CSVs instead (several, or one holding several
labels) and prints a markdown table per label: kernels, worse ones (by
spills only, by instructions per HMMA), the mean instructions per HMMA
and the summed spill bytes before and after.

  python3 bench/compare_kernels.py --summary default.csv stages-2.csv ...
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


def more_instructions(before, after):
    """Whether `after` issues more instructions per HMMA than `before`."""
    return float(after) > float(before) + 1e-9


def summarize(paths):
    """The markdown table of --summary over the rows of `paths`."""
    variants = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                variants.setdefault(row["variant"], []).append(row)
    lines = ["| variant | kernels | worse | of them by spills only | by instructions "
             "per HMMA | instructions / HMMA before -> after (mean) | spill bytes "
             "before -> after (sum) |", "|---|---|---|---|---|---|---|"]
    total = [0, 0, 0, 0]
    for variant, rows in variants.items():
        def mean(field):
            return sum(float(r[field]) for r in rows) / len(rows)

        worse = [r for r in rows if r["worse"] == "True"]
        by_instructions = [r for r in worse if more_instructions(
            r["instructions_per_hmma_before"], r["instructions_per_hmma_after"])]
        counts = [len(rows), len(worse), len(worse) - len(by_instructions),
                  len(by_instructions)]
        total = [a + b for a, b in zip(total, counts)]
        spills = [int(sum(float(r[f"spill_bytes_{side}"]) for r in rows))
                  for side in ("before", "after")]
        lines.append(
            f"| {variant} | " + " | ".join(map(str, counts))
            + f" | {mean('instructions_per_hmma_before'):.2f} -> "
            f"{mean('instructions_per_hmma_after'):.2f} | {spills[0]} -> {spills[1]} |")
    if len(variants) > 1:
        lines.append("| all | " + " | ".join(map(str, total)) + " | | |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--summary", nargs="+", metavar="CSV",
                    help="summarize these compare CSVs instead of comparing builds")
    ap.add_argument("--before")
    ap.add_argument("--after")
    ap.add_argument("--label", default="")
    ap.add_argument("--csv")
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or
                    "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "nvdisasm")
    args = ap.parse_args()
    if args.summary:
        print(summarize(args.summary))
        return 0
    if not (args.before and args.after and args.csv):
        ap.error("--before, --after and --csv are required (or --summary)")
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
                        or more_instructions(row["instructions_per_hmma_before"],
                                             row["instructions_per_hmma_after"]))
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
