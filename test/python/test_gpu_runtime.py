"""vnm.runtime, vnm.torch.SparseLinear and QuantizedSparseLinear on a GPU
(marked gpu).

Compiling needs libVNMCAPI.so and launching needs a GPU, which no single
machine of this project has: bench/prepare_python_gpu_tests.py compiles the
kernels here into $VNM_GPU_KERNELS, and the GPU host runs this file with the
format library alone. Without a GPU (CI) every test here is skipped.
"""

import os
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
cupy = pytest.importorskip("cupy")

KERNELS = os.environ.get("VNM_GPU_KERNELS")
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU"),
    pytest.mark.skipif(not KERNELS, reason="VNM_GPU_KERNELS is not set"),
]


def kernel(name):
    from vnm.runtime import SpmmKernel

    return SpmmKernel.from_files(Path(KERNELS) / name)


def relative_error(actual, expected):
    actual, expected = actual.double(), expected.double()
    return float((actual - expected).norm() / expected.norm())


@pytest.mark.parametrize("tokens", [1, 37, 512])
@pytest.mark.parametrize("name,features", [("linear_f16_bias", 1024),
                                           ("linear_f16_ring6", 4096)])
@torch.no_grad()
def test_sparse_linear_matches_dense_on_pruned_weight(tokens, name, features):
    from vnm.torch import SparseLinear

    rng = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))
    dense = torch.nn.Linear(features, 512, bias=True).to(torch.float16)
    with torch.no_grad():
        dense.weight.copy_(torch.randn(512, features, generator=rng))
        dense.bias.copy_(torch.randn(512, generator=rng))
    layer = SparseLinear(kernel(name), dense.weight, dense.bias)
    x = torch.randn(tokens, features, generator=rng).to("cuda", torch.float16)
    y = layer(x)
    torch.cuda.synchronize()
    reference = torch.nn.functional.linear(
        x.float(), layer.pruned_weight.cuda().float(), dense.bias.cuda().float())
    assert y.shape == (tokens, 512)
    assert not torch.isnan(y).any()
    assert relative_error(y.float(), reference) < 1e-2
    # The pruned weight keeps n/m of the entries.
    assert abs(float((layer.pruned_weight != 0).float().mean()) - 2 / 8) < 1e-3


@pytest.mark.parametrize("tokens", [1, 37, 300])
@pytest.mark.parametrize("name", ["linear_w8a8_bias", "linear_w4a16_bias",
                                  "linear_w4a16_tm_m4", "linear_w8a16_tm_m4",
                                  "linear_w4a16_tm_m8", "linear_w8a16_tm_m8"])
@torch.no_grad()
def test_quantized_sparse_linear_matches_torch_on_quantized_weight(tokens, name):
    from vnm.torch import QuantizedSparseLinear, quantize_per_token

    rng = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))
    weight = torch.randn(512, 1024, generator=rng) * 0.05
    bias = torch.randn(512, generator=rng).to(torch.float16)
    layer = QuantizedSparseLinear(kernel(name), weight, bias)
    x = torch.randn(tokens, 1024, generator=rng).to("cuda", torch.float16)
    assert layer.kernel.token_major == ("_tm_" in name or "w8a8" in name)
    y = layer(x)
    torch.cuda.synchronize()
    w = layer.dequantized_weight.cuda()
    if layer.int8_activations:
        q, scales = quantize_per_token(x)
        xin = q.float() * scales[:, None]
    else:
        xin = x.float()
    reference = xin @ w.t() + bias.cuda().float()
    assert y.shape == (tokens, 512) and y.dtype == torch.float16
    assert not torch.isnan(y).any()
    assert relative_error(y.float(), reference) < 1e-2
    # Every kept value is a quantized one: at most N of every M per row.
    encoding = layer.kernel.encoding
    assert float((w != 0).float().mean()) <= encoding.n / encoding.m + 1e-6


def test_quantized_launch_checks():
    from vnm import VNMError

    k = kernel("linear_w8a8_bias")
    assert k.token_major and k.rhs_type == "i8" and k.fragment_class == "8bit"
    rng = np.random.default_rng()
    values = rng.integers(-127, 128, size=(k.rows, k.cols), dtype=np.int8)
    with pytest.raises(VNMError, match="needs the weight's per-row scales"):
        k.pack(values)
    weight = k.pack(values, np.full(k.rows, 0.01, dtype=np.float32))
    rhs = cupy.zeros((8, 1024), dtype=cupy.int8)
    out = cupy.zeros((k.rows, 8), dtype=cupy.float16)
    bias = cupy.zeros(k.rows, dtype=cupy.float16)
    with pytest.raises(VNMError, match="input_scales must be given"):
        k(weight, rhs, out, bias=bias)
    with pytest.raises(VNMError, match="multiple of 16"):
        k(weight, cupy.zeros((8, 1000), dtype=cupy.int8), out, bias=bias,
          input_scales=cupy.ones(8, dtype=cupy.float32))


def test_raw_launch_checks_and_writes_every_element():
    from vnm import VNMError

    k = kernel("spmm_bf16_f32")
    rng = np.random.default_rng()
    w32 = rng.standard_normal((k.rows, k.cols), dtype=np.float32)
    bits = (w32.view(np.uint32) + 0x7FFF + ((w32.view(np.uint32) >> 16) & 1)) >> 16
    weight = k.pack(bits.astype(np.uint16))
    n, ld = 45, 48
    rhs = torch.randn(k.cols, ld, device="cuda").to(torch.bfloat16)
    out = torch.full((k.rows, ld), float("nan"), device="cuda")
    k(weight, cupy.asarray(rhs), cupy.asarray(out), n=n)
    cupy.cuda.runtime.deviceSynchronize()
    pruned = torch.from_numpy(weight.pruned.view(np.int16)).view(torch.bfloat16)
    reference = pruned.cuda().float() @ rhs[:, :n].float()
    assert not torch.isnan(out[:, :n]).any()
    assert torch.isnan(out[:, n:]).all()  # columns past n are not touched
    assert relative_error(out[:, :n], reference) < 1e-2
    with pytest.raises(VNMError, match="multiples of 8"):
        k(weight, cupy.asarray(rhs[:, :45].contiguous()), cupy.asarray(out), n=n)
