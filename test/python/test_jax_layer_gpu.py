"""vnm.jax_layer.SparseDense on a GPU (marked gpu): the layer's generated
kernel launched by the XLA FFI custom call on XLA's stream, eagerly and
inside jax.jit, against JAX's dense product of the same pruned weight on
the same GPU.

The kernels are compiled where libVNMCAPI.so is, into the kernel cache that
$VNM_CACHE_DIR names (bench/prepare_python_gpu_tests.py calls fill_cache);
the GPU host runs this file with the format library alone
(bench/run_python_gpu_tests.sh). Without a CUDA JAX every test is skipped.
"""

import os

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

# (name, encoding, weight dtype, element type, R, K, target, GPU options):
# on sm_90 2:4 f16 reads x and writes y token-major, 64:2:8 reads a K x N
# copy; f32 weights get f16 kernels with f32 results; 300 and 1000 are
# ragged for the kernels' tiles. On sm_90a the warp-specialized kernels take
# tensor maps, which the handler encodes: 2:4 by recipe, and 64:2:8 run as
# 2:4 (packed anew) by recipe=auto.
CASES = [
    ("2:4 f16", "2:4", np.float16, "f16", 512, 1024, "sm_90", ""),
    ("64:2:8 f16", "64:2:8", np.float16, "f16", 1024, 768, "sm_90", ""),
    ("128:2:16 bf16", "128:2:16", "bfloat16", "bf16", 1024, 512, "sm_90", ""),
    ("2:4 f16 on f32", "2:4", np.float32, "f16", 300, 1000, "sm_90", ""),
    ("sm_90a 2:4 f16 ws", "2:4", np.float16, "f16", 300, 1000, "sm_90a",
     "recipe=wgmma-sp-ws"),
    ("sm_90a 64:2:8 bf16", "64:2:8", "bfloat16", "bf16", 1024, 768, "sm_90a", ""),
]


def make_layer(case, seed=0, cache_dir=None):
    import vnm.pruning as vp
    from vnm.jax_layer import SparseDense

    _, encoding, weight_dtype, element, rows, cols, target, gpu_options = case
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((rows, cols)).astype(np.float32) / np.sqrt(cols)
    w = vp.prune_weight(w, encoding, "magnitude")
    bias = (rng.standard_normal(rows) * 0.1).astype(np.float32)
    dtype = jnp.bfloat16 if weight_dtype == "bfloat16" else weight_dtype
    return SparseDense(np.asarray(jnp.asarray(w).astype(dtype)), encoding,
                       bias=np.asarray(jnp.asarray(bias).astype(dtype)), dtype=element,
                       target=target, gpu_options=gpu_options, cache_dir=cache_dir)


def fill_cache(directory):
    """Compiles every layer program of CASES into the cache `directory`."""
    for case in CASES:
        make_layer(case, cache_dir=directory)


def _has_cuda():
    try:
        return any(d.platform == "gpu" for d in jax.devices())
    except RuntimeError:
        return False


pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _has_cuda(), reason="no CUDA JAX"),
    pytest.mark.skipif(not os.environ.get("VNM_CACHE_DIR"), reason="VNM_CACHE_DIR is not set"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("shape", [(37,), (3, 129)], ids=["37", "3x129"])
def test_gpu_layer_matches_dense_product(case, shape):
    layer = make_layer(case, cache_dir=os.environ["VNM_CACHE_DIR"])
    rng = np.random.default_rng()
    x = jnp.asarray(rng.standard_normal((*shape, layer.in_features)).astype(np.float32))
    x = x.astype(layer.values.dtype)
    w = jnp.asarray(np.asarray(layer.pruned_weight)).astype(jnp.float32)
    expected = x.astype(jnp.float32) @ w.T + layer.bias.astype(jnp.float32)
    for run in (layer, jax.jit(lambda x: layer(x))):
        y = run(x)
        assert y.shape == (*shape, layer.out_features)
        assert y.dtype == layer.bias.dtype
        assert list(y.devices())[0].platform == "gpu"
        y32 = y.astype(jnp.float32)
        assert bool(jnp.all(jnp.isfinite(y32)))
        error = float(jnp.linalg.norm(y32 - expected) / jnp.linalg.norm(expected))
        assert error < 1e-2, error
