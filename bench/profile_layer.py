#!/usr/bin/env python3
"""One linear layer of a real model through vnm.torch.sparsify, next to
PyTorch's dense layer, a few times each, for a profiler (ncu):

  ncu --clock-control none -k regex:"spmm|nvjet" --launch-skip 4 --launch-count 2 \\
      --section SpeedOfLight --section Occupancy --section LaunchStats \\
      --section WarpStateStats python3 bench/profile_layer.py 384 384 2:4 8192

Arguments: R (out features), K (in features), the format and the token
count N; fp16 with a bias. The kernels come from the kernel cache
($VNM_CACHE_DIR; examples/minilm_sparse.py --compile-only fills it for
MiniLM's layers). Prints each layer's median time (CUDA events) too.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples"))


def main():
    import torch
    import vnm.torch as vt
    from torch_mlp import median_ms

    rows, cols, encoding, tokens = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                    int(sys.argv[4]))
    dense = torch.nn.Sequential(torch.nn.Linear(cols, rows)).half().cuda()
    sparse = vt.sparsify(torch.nn.Sequential(torch.nn.Linear(cols, rows)).half().cuda(),
                         encoding, target="sm_90")
    x = torch.randn(tokens, cols, device="cuda", dtype=torch.float16)
    with torch.no_grad():
        for _ in range(3):
            sparse(x)
            dense(x)
        torch.cuda.synchronize()
        t_sparse = median_ms(torch, lambda: sparse(x), runs=20, warmup=3)
        t_dense = median_ms(torch, lambda: dense(x), runs=20, warmup=3)
    contract = sparse[0].kernel.kernels[0].contract
    print(f"{rows} x {cols}, {encoding}, N = {tokens}: vnm {t_sparse * 1000:.1f} us "
          f"(rhs {contract['rhs_layout']}, out {contract['out_layout']}, block tile "
          f"{contract['block_tile']}, grid {-(-tokens // contract['grid_x_divisor'])} x "
          f"{contract['grid_y']}), dense {t_dense * 1000:.1f} us")


if __name__ == "__main__":
    main()
