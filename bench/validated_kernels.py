#!/usr/bin/env python3
"""Lists which kernels of the current case matrix are validated on a GPU.

A kernel counts as validated only if a results CSV under bench/results/
(at any depth: a record's folder holds its CSVs) records a correct GPU
run (`correct` True) for exactly its PTX: the row's `ptx_sha256` equals
the sha256 of the PTX that the current compiler produces for it. Rows
without a `ptx_sha256` (runs recorded before kernels carried their
identity) validate nothing. Each kernel is listed with the GPU its results
came from: the row's `device` column, or for files recorded before rows
carried it, the h100/h200 their path under bench/results/ holds. Only a
result from an H200 makes a kernel "validated on the H200".

  python3 bench/compile_cases.py --out bench/build     # the current PTX
  python3 bench/validated_kernels.py --build bench/build

Prints one line per kernel (validated / not validated, with the results
file that validates it) and a summary; exits 0 either way.
"""

import argparse
import csv
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def device_of(row, path):
    """The GPU a results row came from: H100, H200, another recorded name,
    or "an unrecorded GPU"."""
    name = row.get("device") or ""
    match = re.search(r"h(100|200)", name or path, re.IGNORECASE)
    if match:
        return "H" + match.group(1)
    return name or "an unrecorded GPU"


def recorded_correct_runs(results_dir):
    """{ptx sha256: [(results file, device), ...]} of the correct runs
    recorded."""
    found = {}
    pattern = os.path.join(results_dir, "**", "*.csv")
    for path in sorted(glob.glob(pattern, recursive=True)):
        # A record's folder names its date and GPU as a file's name does.
        name = os.path.relpath(path, results_dir)
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                sha = row.get("ptx_sha256")
                if sha and row.get("correct") == "True":
                    found.setdefault(sha, []).append((name, device_of(row, name)))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(HERE, "build"),
                    help="a compile_cases.py output directory")
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.build, "manifest.json")))
    runs = recorded_correct_runs(args.results)
    validated = on_h200 = 0
    for name, kernel in sorted(manifest["kernels"].items()):
        sha = kernel.get("ptx_sha256")
        records = runs.get(sha, []) if sha else []
        if records:
            validated += 1
            devices = sorted({device for _, device in records})
            on_h200 += "H200" in devices
            files = ", ".join(sorted({file for file, _ in records}))
            print(f"validated on {' and '.join(devices)}   {name}  ({files})")
        else:
            print(f"untested on a GPU      {name}  (ptx {sha[:12] if sha else '?'})")
    total = len(manifest["kernels"])
    print(f"{validated}/{total} kernels of the case matrix have a correct GPU "
          f"result recorded for exactly their PTX; {on_h200}/{total} on an H200")
    return 0


if __name__ == "__main__":
    sys.exit(main())
