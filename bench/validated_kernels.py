#!/usr/bin/env python3
"""Lists which kernels of the current case matrix are validated on a GPU.

A kernel counts as validated only if a results CSV under bench/results/
records a correct GPU run (`correct` True) for exactly its PTX: the row's
`ptx_sha256` equals the sha256 of the PTX that the current compiler
produces for it. Rows without a `ptx_sha256` (runs recorded before kernels
carried their identity) validate nothing.

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
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def recorded_correct_runs(results_dir):
    """{ptx sha256: [results file, ...]} of the correct runs recorded."""
    found = {}
    for path in sorted(glob.glob(os.path.join(results_dir, "*.csv"))):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                sha = row.get("ptx_sha256")
                if sha and row.get("correct") == "True":
                    found.setdefault(sha, []).append(os.path.basename(path))
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
    validated = 0
    for name, kernel in sorted(manifest["kernels"].items()):
        sha = kernel.get("ptx_sha256")
        files = runs.get(sha, []) if sha else []
        if files:
            validated += 1
            print(f"validated on the GPU   {name}  ({', '.join(sorted(set(files)))})")
        else:
            print(f"untested on a GPU      {name}  (ptx {sha[:12] if sha else '?'})")
    total = len(manifest["kernels"])
    print(f"{validated}/{total} kernels of the case matrix have a correct GPU "
          f"result recorded for exactly their PTX")
    return 0


if __name__ == "__main__":
    sys.exit(main())
