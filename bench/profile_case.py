#!/usr/bin/env python3
"""Runs one benchmark case's kernel a few times, for a profiler (ncu).

  ncu --clock-control none -k regex:spmm --launch-skip 2 --launch-count 1 \\
      --section SpeedOfLight --section MemoryWorkloadAnalysis \\
      --section WarpStateStats --section Occupancy \\
      python3 bench/profile_case.py r4096_k4096_v64_m4_f16 [build directory] [N]

The build directory is a compile_cases.py output (default bench/build). A
kernel serves several cases of the matrix (one per N); N picks one of them
(default: the first the manifest lists).

Uses the same preparation as device_bench.py (format library, fragment
layout) so that the profiled launch is the benchmarked one.
"""

import json
import os
import sys

import numpy as np

import device_bench as bench


def main():
    import cupy as cp
    import torch

    name = sys.argv[1]
    build = sys.argv[2] if len(sys.argv) > 2 else os.path.join(bench.HERE, "build")
    manifest = json.load(open(os.path.join(build, "manifest.json")))
    n = int(sys.argv[3]) if len(sys.argv) > 3 else None
    cases = [c for c in manifest["cases"]
             if c["kernel"] == name and n in (None, c["n"])]
    if not cases:
        sys.exit(f"no case of kernel {name}" + (f" with N = {n}" if n else "")
                 + f" in {build}")
    case = cases[0]
    os.environ.setdefault("VNM_LIBRARY_PATH",
                          os.path.join(build, "libVNMFormatC.so"))
    sys.path.insert(0, os.path.join(os.path.dirname(bench.HERE), "python"))
    prep = bench.prepare((case, 1, bench.packed_encoding(build, manifest["kernels"][name])))

    class Args:
        warmup, runs, check_only = 1, 1, False

    bench.run_case(torch, cp, case, prep, manifest["kernels"][name], build,
                   Args, {None: None})
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
