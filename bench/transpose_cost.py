#!/usr/bin/env python3
"""Times the transpose a K x N kernel needs in front of a linear layer.

A kernel that reads rhs as K x N needs x[N][K] transposed first; one that
reads it token-major does not. This times that transpose
(x.t().contiguous(), f16) on the GPU for the benchmark's shapes, so that a
token-major kernel's time can be compared with a K x N kernel's plus it
(CUDA events, warm-up, median of 20 samples of 10 calls, four inputs in
rotation).

  python3 bench/transpose_cost.py
"""

import torch


def main():
    for n, k in [(4096, 4096), (4096, 11008), (512, 4096), (1000, 4000)]:
        xs = [torch.randn(n, k, device="cuda").half() for _ in range(4)]
        for x in xs:
            x.t().contiguous()
        torch.cuda.synchronize()
        samples = []
        for _ in range(20):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            for i in range(10):
                xs[i % 4].t().contiguous()
            end.record()
            torch.cuda.synchronize()
            samples.append(start.elapsed_time(end) / 10)
        samples.sort()
        print(f"transpose x[{n}][{k}] f16 to K x N: median "
              f"{samples[len(samples) // 2]:.4f} ms", flush=True)


if __name__ == "__main__":
    main()
