#!/usr/bin/env python3
"""Host cost of one vnm.launch.GpuKernel.launch, without a GPU.

Launches a generated kernel through the CUDA driver stand-in of the tests
(libvnm_fake_cuda_driver.so, which records the launch and returns), so the
time is what vnm's side of a launch costs: checking and packing the
parameters in Python and the C API call.

    VNM_CUDA_DRIVER=build/lib/libvnm_fake_cuda_driver.so PYTHONPATH=python \\
        VNM_LIBRARY_PATH=build/lib python3 bench/launch_overhead.py
"""

import argparse
import statistics
import time

import vnm
from vnm.launch import GpuKernel

PROGRAM = """func.func @linear(%w: tensor<256x128xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
    %x: tensor<128x?xf16>, %b: tensor<256xf32>) -> tensor<256x?xf32> {
  %y = vnm.spmm %w, %x bias(%b : tensor<256xf32>)
      : tensor<256x128xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<128x?xf16>
      -> tensor<256x?xf32>
  return %y : tensor<256x?xf32>
}"""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    result = vnm.compile(PROGRAM, target="sm_90")
    kernel = result.kernels[0]
    launcher = GpuKernel(result.binaries[kernel.binary], kernel.contract)
    values = {"frag_values": 1 << 20, "frag_meta": 2 << 20, "colidx": 3 << 20,
              "rhs": 4 << 20, "out": 5 << 20, "bias": None, "n": 37, "ldb": 40, "ldc": 40}
    for _ in range(1000):
        launcher.launch(values, 37, 0)
    per_launch = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for _ in range(args.launches):
            launcher.launch(values, 37, 0)
        per_launch.append((time.perf_counter() - start) / args.launches * 1e6)
    print(f"{statistics.median(per_launch):.1f} us per launch (median of {args.repeats} "
          f"x {args.launches})")


if __name__ == "__main__":
    main()
