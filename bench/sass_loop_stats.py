#!/usr/bin/env python3
"""Counts what the K loop of compiled benchmark kernels executes, in SASS.

For each kernel of a compile_cases.py build (default bench/build) it
assembles the PTX with ptxas for sm_90, disassembles the cubin with
nvdisasm, finds the loops (a branch back to an earlier label) that hold
HMMA instructions, and prints their instruction, HMMA and register-move
counts and the instructions per HMMA.

nvdisasm is not part of the CUDA install here; `pip install
nvidia-cuda-nvdisasm` provides it (pass --nvdisasm with its path).

  python3 bench/sass_loop_stats.py --filter r4096_k4096_v64_m8_f16
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LABEL = re.compile(r"^\s*(\.L_x_\d+):")
BACK_BRANCH = re.compile(r"BRA `\((\.L_x_\d+)\)")


def loops(sass_lines):
    """(instructions, HMMAs, moves) of each loop that holds HMMAs."""
    labels = {}
    found = []
    for i, line in enumerate(sass_lines):
        match = LABEL.match(line)
        if match:
            labels[match.group(1)] = i
        branch = BACK_BRANCH.search(line)
        if branch and labels.get(branch.group(1), len(sass_lines)) < i:
            body = [x for x in sass_lines[labels[branch.group(1)]:i + 1]
                    if ";" in x]
            hmma = sum("HMMA" in x for x in body)
            if hmma:
                found.append((len(body), hmma, sum(" MOV" in x or "IMAD.MOV" in x
                                                   for x in body)))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--filter", default="", help="substring of kernel names")
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "nvdisasm")
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.build, "manifest.json")))
    print("kernel,loop_instructions,hmma,moves,instructions_per_hmma")
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel in sorted(manifest["kernels"].items()):
            if args.filter not in name:
                continue
            cubin = os.path.join(tmp, name + ".cubin")
            subprocess.run([args.ptxas, "-arch=sm_90", "-o", cubin,
                            os.path.join(args.build, "kernels", kernel["ptx"])],
                           check=True)
            sass = subprocess.run([args.nvdisasm, "-c", cubin], check=True,
                                  capture_output=True, text=True).stdout
            for instructions, hmma, moves in loops(sass.splitlines()):
                print(f"{name},{instructions},{hmma},{moves},"
                      f"{instructions / hmma:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
