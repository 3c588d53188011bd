"""PyTorch integration: a drop-in sparse Linear running a generated kernel.

    kernel = vnm.runtime.SpmmKernel.from_result(
        vnm.compile(linear_mlir, target="sm_90"))   # R x K weight, bias
    layer = vnm.torch.SparseLinear(kernel, dense_linear.weight, dense_linear.bias)
    y = layer(x)            # x @ W_pruned.T + b, on the sparse tensor cores

The kernel computes Y^T = W X^T (R x N from the R x K weight), so the layer
transposes the activations into a padded K x ldb buffer and back.
"""

import numpy as np
import torch

from .runtime import SpmmKernel

_TORCH_TYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


class SparseLinear(torch.nn.Module):
    """y = x W^T + b with W pruned to the kernel's V:N:M format."""

    def __init__(self, kernel: SpmmKernel, weight: torch.Tensor, bias=None):
        super().__init__()
        if kernel.contract["activation"] != "none" or kernel.contract["accumulate"]:
            raise ValueError("SparseLinear needs a kernel without activation or accumulator")
        self.kernel = kernel
        self.dtype = _TORCH_TYPES[kernel.dtype]
        self.out_dtype = _TORCH_TYPES[kernel.result_type]
        host = weight.detach().to("cpu", self.dtype)
        bits = host.view(torch.int16).numpy().view(np.uint16)
        if kernel.dtype == "f16":
            bits = bits.view(np.float16)
        self._weight = kernel.pack(bits)
        # The pruned dense weight, for references and inspection.
        pruned = torch.from_numpy(self._weight.pruned.view(np.int16)).view(self.dtype)
        self.register_buffer("pruned_weight", pruned, persistent=False)
        self.bias = None if bias is None else bias.detach().to("cuda", self.out_dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        import cupy

        lead = x.shape[:-1]
        x2 = x.reshape(-1, x.shape[-1]).to(self.dtype)
        n = x2.shape[0]
        ld = (n + 7) // 8 * 8
        rhs = torch.zeros(self.kernel.cols, ld, dtype=self.dtype, device=x.device)
        rhs[:, :n] = x2.t()
        out = torch.empty(self.kernel.rows, ld, dtype=self.out_dtype, device=x.device)
        stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
        self.kernel(self._weight, cupy.asarray(rhs), cupy.asarray(out), n=n,
                    bias=None if self.bias is None else cupy.asarray(self.bias),
                    stream=stream)
        return out[:, :n].t().reshape(*lead, self.kernel.rows)
