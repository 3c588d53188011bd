"""vnm.torch.sparsify's layers on a GPU (marked gpu): vnm's generated
kernels launched through vnm's own runtime (the CUDA driver API, no CuPy)
on PyTorch's current stream, eagerly, under torch.compile and captured in
CUDA graphs, against PyTorch's dense forward on the same pruned weights.

The kernels are compiled where libVNMCAPI.so is, into the kernel cache that
$VNM_CACHE_DIR names (bench/prepare_python_gpu_tests.py calls fill_cache);
the GPU host runs this file with the format library alone
(bench/run_python_gpu_tests.sh). Without a GPU every test is skipped.
"""

import copy
import os

import pytest

torch = pytest.importorskip("torch")

# (name, encoding, weight dtype, model dtype, layer sizes): 2:4 f16 reads x
# token-major, 64:2:8 a K x N copy; the f32 model gets f16 kernels with f32
# results; 300 and 1000 are ragged for the kernels' 64-row tiles.
CASES = [
    ("2:4 f16", "2:4", torch.float16, torch.float16, (512, 1024, 256)),
    ("64:2:8 f16", "64:2:8", torch.float16, torch.float16, (512, 1024, 256)),
    ("128:2:16 bf16", "128:2:16", torch.bfloat16, torch.bfloat16, (1024, 768, 512)),
    ("2:4 f16 on f32", "2:4", torch.float16, torch.float32, (384, 1000, 300)),
]


def build_model(sizes, dtype, seed=0):
    generator = torch.Generator().manual_seed(seed)
    layers = []
    for i, (k, r) in enumerate(zip(sizes, sizes[1:])):
        if i:
            layers.append(torch.nn.GELU())
        linear = torch.nn.Linear(k, r)
        with torch.no_grad():
            linear.weight.copy_(torch.randn(r, k, generator=generator) / k ** 0.5)
            linear.bias.copy_(torch.randn(r, generator=generator) * 0.1)
        layers.append(linear)
    return torch.nn.Sequential(*layers).to(dtype)


# Weight-only quantized layers: (name, encoding, quantization, model dtype,
# layer sizes); 2:4 reads x token-major, 64:2:8 a K x N copy.
QUANTIZED_CASES = [
    ("2:4 w8a16 f16", "2:4", "w8a16", torch.float16, (512, 1024, 256)),
    ("64:2:8 w4a16 f16", "64:2:8", "w4a16", torch.float16, (512, 1024, 256)),
    ("2:4 w4a16 bf16", "2:4", "w4a16", torch.bfloat16, (384, 1000, 300)),
]


def fill_cache(directory, target="sm_90"):
    """Compiles every layer program of CASES and QUANTIZED_CASES into the
    cache `directory`."""
    import vnm.torch as vt

    for _, encoding, weight_dtype, model_dtype, sizes in CASES:
        vt.sparsify(build_model(sizes, model_dtype), encoding, dtype=weight_dtype,
                    target=target, cache_dir=directory)
    for _, encoding, quantization, model_dtype, sizes in QUANTIZED_CASES:
        vt.sparsify(build_model(sizes, model_dtype), encoding, dtype=model_dtype,
                    quantization=quantization, target=target, cache_dir=directory)


pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU"),
    pytest.mark.skipif(not os.environ.get("VNM_CACHE_DIR"), reason="VNM_CACHE_DIR is not set"),
]


def relative_error(actual, expected):
    actual, expected = actual.double(), expected.double()
    return float((actual - expected).norm() / expected.norm())


def sparse_and_dense(case, quantization=None):
    import vnm.torch as vt

    _, encoding, weight_dtype, model_dtype, sizes = case
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed}")
    model = build_model(sizes, model_dtype, seed).cuda()
    vt.sparsify(model, encoding, dtype=weight_dtype, target="sm_90", quantization=quantization)
    # PyTorch's dense layers on the weights the kernels multiply.
    dense = copy.deepcopy(model)
    for index, layer in enumerate(model):
        if isinstance(layer, vt.VNMLinear):
            linear = torch.nn.Linear(layer.in_features, layer.out_features)
            with torch.no_grad():
                linear.weight.copy_(layer.pruned_weight.float())
                linear.bias.copy_(layer.bias.float())
            dense[index] = linear.to("cuda", model_dtype)
    return model, dense, weight_dtype, model_dtype


def reference(dense, x, weight_dtype):
    """The dense forward in f32 on x rounded as the kernels round it."""
    with torch.no_grad():
        return copy.deepcopy(dense).float()(x.to(weight_dtype).float())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("shape", [(1,), (37,), (3, 129)])
def test_sparse_model_matches_dense_forward_on_pruned_weights(case, shape):
    model, dense, weight_dtype, model_dtype = sparse_and_dense(case)
    x = torch.randn(*shape, case[4][0], device="cuda", dtype=model_dtype)
    with torch.no_grad():
        y = model(x)
    torch.cuda.synchronize()
    assert y.shape == (*shape, case[4][-1]) and y.dtype == model_dtype
    assert torch.isfinite(y).all()
    assert relative_error(y, reference(dense, x, weight_dtype)) < 1e-2


@pytest.mark.parametrize("case", QUANTIZED_CASES, ids=[c[0] for c in QUANTIZED_CASES])
@pytest.mark.parametrize("shape", [(1,), (37,), (3, 129)])
def test_quantized_model_matches_dense_forward_on_dequantized_weights(case, shape):
    name, encoding, quantization, model_dtype, sizes = case
    model, dense, weight_dtype, _ = sparse_and_dense(
        (name, encoding, model_dtype, model_dtype, sizes), quantization)
    assert all(layer.values.dtype == torch.int8 for layer in model
               if hasattr(layer, "weight_scales"))
    x = torch.randn(*shape, sizes[0], device="cuda", dtype=model_dtype)
    with torch.no_grad():
        y = model(x)
        # Each case is a new model: start dynamo afresh, as its recompile
        # limit counts the models of earlier cases.
        torch._dynamo.reset()
        graphed = torch.compile(model, mode="reduce-overhead", fullgraph=True)
        y_graphed = graphed(x).clone()
    torch.cuda.synchronize()
    assert y.shape == (*shape, sizes[-1]) and y.dtype == model_dtype
    assert torch.isfinite(y).all()
    expected = reference(dense, x, weight_dtype)
    assert relative_error(y, expected) < 1e-2
    assert relative_error(y_graphed, expected) < 1e-2


@pytest.mark.parametrize("case", CASES[:2], ids=[c[0] for c in CASES[:2]])
def test_torch_compile_and_cuda_graphs_run_the_kernels(case):
    model, dense, weight_dtype, model_dtype = sparse_and_dense(case)
    width = case[4][0]
    compiled = torch.compile(model, fullgraph=True)
    graphed = torch.compile(model, mode="reduce-overhead", fullgraph=True)
    with torch.no_grad():
        for tokens in (64, 200):
            x = torch.randn(tokens, width, device="cuda", dtype=model_dtype)
            expected = reference(dense, x, weight_dtype)
            for run in (compiled, graphed, graphed):
                assert relative_error(run(x).clone(), expected) < 1e-2
        # A CUDA graph captured by hand replays the launches on new input.
        static_x = torch.randn(96, width, device="cuda", dtype=model_dtype)
        model(static_x)  # warm up: load the kernels before capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_y = model(static_x)
        for _ in range(2):
            fresh = torch.randn_like(static_x)
            static_x.copy_(fresh)
            graph.replay()
            torch.cuda.synchronize()
            assert relative_error(static_y, reference(dense, fresh, weight_dtype)) < 1e-2


def test_x_views_at_any_address_and_empty_batches():
    model, dense, weight_dtype, model_dtype = sparse_and_dense(CASES[0])
    width = CASES[0][4][0]
    # A contiguous view starting 3 elements into its storage: not 16-byte
    # aligned, which the token-major kernel's loads need.
    storage = torch.randn(5 * width + 3, device="cuda", dtype=model_dtype)
    x = storage[3:].view(5, width)
    with torch.no_grad():
        y = model(x)
        empty = model(x[:0])
    torch.cuda.synchronize()
    assert relative_error(y, reference(dense, x, weight_dtype)) < 1e-2
    assert empty.shape == (0, CASES[0][4][-1])


def test_launches_follow_the_current_stream():
    model, dense, weight_dtype, model_dtype = sparse_and_dense(CASES[0])
    side = torch.cuda.Stream()
    x = torch.randn(512, CASES[0][4][0], device="cuda", dtype=model_dtype)
    expected = reference(dense, x, weight_dtype)
    side.wait_stream(torch.cuda.current_stream())
    with torch.no_grad(), torch.cuda.stream(side):
        # Work queued before the layer on the same stream must finish first.
        xs = x * 1.0
        y = model(xs)
    torch.cuda.current_stream().wait_stream(side)
    assert relative_error(y, expected) < 1e-2
