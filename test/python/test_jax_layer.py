"""vnm.jax_layer.SparseDense on the CPU: the XLA FFI custom call inside
jax.jit against a dense numpy product of the pruned weight, the handler's
own checks of the storage it is given, and the layer's refusals.

Every test draws fresh random data; the seed is printed (pytest shows it
for a failing test) and `VNM_JAX_LAYER_SEED=<seed>` replays it.
"""

import os
import secrets

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

import vnm.pruning as vp  # noqa: E402
from vnm.jax_layer import SparseDense  # noqa: E402

if not hasattr(__import__("vnm")._capi.lib, "vnmJaxSparseLinearCpu"):
    pytest.skip("the library was built without the JAX FFI handlers", allow_module_level=True)

TYPES = {"f32": jnp.float32, "f16": jnp.float16, "bf16": jnp.bfloat16}


@pytest.fixture
def rng():
    seed = int(os.environ.get("VNM_JAX_LAYER_SEED", secrets.randbits(32)))
    print(f"VNM_JAX_LAYER_SEED={seed}")
    return np.random.default_rng(seed)


def pruned(rng, rows, cols, encoding, dtype=np.float32):
    w = rng.standard_normal((rows, cols)).astype(np.float32) / np.sqrt(cols)
    return vp.prune_weight(w, encoding, "magnitude").astype(dtype)


def reference(layer, x, bias):
    """x rounded to the layer's element type, times the pruned W, in f32."""
    w = np.asarray(layer.pruned_weight).astype(np.float32)
    xr = np.asarray(jnp.asarray(x).astype(TYPES[layer.element_type])).astype(np.float32)
    y = xr @ w.T
    return y if bias is None else y + bias.astype(np.float32)


@pytest.mark.parametrize("encoding, rows, cols", [("2:4", 64, 96), ("16:2:8", 100, 70),
                                                  ("64:2:8", 128, 256), ("32:2:16", 96, 200)])
@pytest.mark.parametrize("element", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("with_bias", [False, True])
def test_layer_matches_dense_product_under_jit(rng, encoding, rows, cols, element, with_bias):
    w = pruned(rng, rows, cols, encoding)
    bias = rng.standard_normal(rows).astype(np.float32) if with_bias else None
    layer = SparseDense(w, encoding, bias=bias, dtype=element)
    x = rng.standard_normal((2, 7, cols)).astype(np.float32)
    y = jax.jit(lambda x: layer(x))(x)
    assert y.shape == (2, 7, rows) and y.dtype == jnp.float32
    expected = reference(layer, x.reshape(-1, cols), bias).reshape(2, 7, rows)
    np.testing.assert_allclose(np.asarray(y), expected, rtol=1e-5, atol=1e-5)


def test_result_has_the_weight_dtype(rng):
    w = pruned(rng, 64, 64, "2:4", np.float16)
    bias = rng.standard_normal(64).astype(np.float16)
    layer = SparseDense(w, "2:4", bias=bias)
    x = rng.standard_normal((5, 64)).astype(np.float16)
    y = layer(x)
    assert y.dtype == jnp.float16
    expected = reference(layer, x, bias)
    np.testing.assert_allclose(np.asarray(y, np.float32), expected, rtol=2e-3, atol=2e-3)


def test_eager_vmap_and_empty_batch(rng):
    w = pruned(rng, 48, 40, "16:2:8")
    layer = SparseDense(w, "16:2:8")
    x = rng.standard_normal((3, 4, 40)).astype(np.float32)
    expected = reference(layer, x.reshape(-1, 40), None).reshape(3, 4, 48)
    np.testing.assert_allclose(np.asarray(layer(x)), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(jax.vmap(layer)(x)), expected, rtol=1e-5, atol=1e-5)
    assert layer(np.zeros((0, 40), np.float32)).shape == (0, 48)


def test_layer_with_a_gpu_kernel_stages_both_platforms(rng, tmp_path):
    """With target= the jitted function holds the CPU call and the CUDA
    launch (jax.lax.platform_dependent); here the CPU one runs."""
    if not __import__("vnm")._capi.has_compiler:
        pytest.skip("compiling kernels needs libVNMCAPI.so")
    w = pruned(rng, 128, 256, "2:4", np.float16)
    layer = SparseDense(w, "2:4", target="sm_90", cache_dir=str(tmp_path))
    contract = layer.kernel.kernels[0].contract
    assert contract["rhs_layout"] == "token_major" and contract["out_layout"] == "token_major"
    x = rng.standard_normal((9, 256)).astype(np.float16)
    f = jax.jit(lambda x: layer(x))
    np.testing.assert_allclose(np.asarray(f(x), np.float32), reference(layer, x, None),
                               rtol=2e-3, atol=2e-3)
    cuda = f.trace(x).lower(lowering_platforms=("cuda",)).as_text()
    assert "vnm_sparse_linear_cuda" in cuda and "vnm_sparse_linear_cpu" not in cuda
    assert "token_major_rhs = true" in cuda
    cpu = f.trace(x).lower(lowering_platforms=("cpu",)).as_text()
    assert "vnm_sparse_linear_cpu" in cpu and "vnm_sparse_linear_cuda" not in cpu


def test_layer_refuses_what_it_cannot_run(rng):
    w = pruned(rng, 64, 64, "2:4")
    with pytest.raises(ValueError, match="not .*sparse.*prune it first"):
        SparseDense(rng.standard_normal((64, 64)).astype(np.float32), "2:4")
    with pytest.raises(ValueError, match="R x K"):
        SparseDense(w[None], "2:4")
    with pytest.raises(ValueError, match="f16, bf16 or f32"):
        SparseDense(w.astype(np.int32), "2:4")
    nan = w.copy()
    nan[3, 5] = np.nan
    with pytest.raises(__import__("vnm").VNMError, match="NaN or infinite"):
        SparseDense(nan, "2:4")
    with pytest.raises(ValueError, match="bias must have 64 values"):
        SparseDense(w, "2:4", bias=np.zeros(63, np.float32))
    layer = SparseDense(w, "2:4")
    with pytest.raises(ValueError, match="end in 64 features"):
        layer(np.zeros((3, 65), np.float32))


def call_cpu_handler(layer, x, values, colidx, meta, **changes):
    """The CPU custom call with storage arrays (and attributes) given."""
    import vnm.jax_layer as vj

    vj._register_targets()
    attributes = layer._attributes()
    attributes.update(changes)
    out = jax.ShapeDtypeStruct((x.shape[0], layer.out_features), jnp.float32)
    return jax.ffi.ffi_call("vnm_sparse_linear_cpu", out)(x, values, colidx, meta, layer.bias,
                                                          **attributes)


def test_handler_rejects_inconsistent_storage(rng):
    layer = SparseDense(pruned(rng, 32, 64, "16:2:8"), "16:2:8")
    x = jnp.asarray(rng.standard_normal((4, 64)).astype(np.float32))
    good = (layer.values, layer.colidx, layer.meta)
    np.testing.assert_allclose(np.asarray(call_cpu_handler(layer, x, *good)),
                               reference(layer, x, None), rtol=1e-5, atol=1e-5)
    bad_meta = layer.meta.at[3, 0].set(7)
    with pytest.raises(Exception, match="vnm sparse linear: .*meta"):
        call_cpu_handler(layer, x, layer.values, layer.colidx, bad_meta)
    bad_colidx = layer.colidx.at[0].set(9)
    with pytest.raises(Exception, match="vnm sparse linear: .*colidx"):
        call_cpu_handler(layer, x, layer.values, bad_colidx, layer.meta)
    with pytest.raises(Exception, match=r"vnm sparse linear: colidx must be a uint8 array"):
        call_cpu_handler(layer, x, layer.values, layer.colidx[:-4], layer.meta)
    with pytest.raises(Exception, match=r"vnm sparse linear: values must be"):
        call_cpu_handler(layer, x, layer.values[:, :-1], layer.colidx, layer.meta)
    with pytest.raises(Exception, match=r"vnm sparse linear: x must be"):
        call_cpu_handler(layer, x.astype(jnp.float16), *good)
    with pytest.raises(Exception, match=r"vnm sparse linear: invalid encoding: m must be"):
        call_cpu_handler(layer, x, *good, m=np.int64(3))
    # A valid encoding that is not the storage's: its shapes do not match.
    with pytest.raises(Exception, match=r"vnm sparse linear: values must be a f32 array "
                                        r"of shape \(32, 22\)"):
        call_cpu_handler(layer, x, *good, m=np.int64(6))


def expected_tensor_maps(contract):
    """The handler's tensor_maps attribute written out from the contract:
    eight numbers per pointer parameter, the sizes n, ldb, ldc as -1, -2, -3."""
    codes = {"n": -1, "ldb": -2, "ldc": -3}
    rows = []
    for name, kind in zip(contract["params"][:6], contract["param_types"][:6]):
        if kind == "ptr":
            rows.append([0] * 8)
            continue
        e = contract["tensor_maps"][name]
        rows.append([1, e["element_bytes"]] + [codes.get(e[k], e[k]) for k in ("rows", "cols", "ld")]
                    + [e["box_rows"], e["box_cols"], e["swizzle_bytes"]])
    return np.asarray(rows, np.int64)


def needs_compiler():
    if not __import__("vnm")._capi.has_compiler:
        pytest.skip("compiling kernels needs libVNMCAPI.so")


def test_layer_passes_the_tensor_maps_of_a_warp_specialized_kernel(rng, tmp_path):
    """recipe=wgmma-sp-ws takes A's arrays and x as tensor maps: the layer
    hands the handler their descriptions, x's rows as the call's token
    count and its pitch as ldb."""
    needs_compiler()
    layer = SparseDense(pruned(rng, 300, 1000, "2:4", np.float16), "2:4", target="sm_90a",
                        gpu_options="recipe=wgmma-sp-ws", cache_dir=str(tmp_path))
    contract = layer.kernel.kernels[0].contract
    assert contract["param_types"][:6] == ["tensor_map", "tensor_map", "ptr", "tensor_map",
                                           "ptr", "ptr"]
    maps = layer._tensor_maps.reshape(6, 8)
    np.testing.assert_array_equal(maps, expected_tensor_maps(contract))
    assert list(maps[3, 2:5]) == [-1, 1000, -2]  # x: n rows of K, ldb apart


def test_layer_runs_v_2_8_as_2_4_on_sm_90a(rng, tmp_path):
    """On sm_90a recipe=auto runs 64:2:8 as 2:4 on the warp-specialized
    kernel: the layer packs the weight as 64:2:4, whose colidx names the
    four columns of every group, and tells the handler that encoding."""
    needs_compiler()
    w = pruned(rng, 256, 512, "64:2:8", np.float16)
    layer = SparseDense(w, "64:2:8", target="sm_90a", cache_dir=str(tmp_path))
    contract = layer.kernel.kernels[0].contract
    assert (contract["m"], contract["op_m"]) == (4, 8)
    assert "tensor_map" in contract["param_types"]
    assert (layer._packed_encoding.v, layer._packed_encoding.n,
            layer._packed_encoding.m) == (64, 2, 4)
    np.testing.assert_array_equal(np.asarray(layer.frag_colidx),
                                  np.tile(np.arange(4, dtype=np.uint8), 256 // 64 * 512 // 4))
    assert layer.colidx.shape != layer.frag_colidx.shape  # the op's own storage is kept


def test_tensor_map_attribute_refuses_what_the_handler_cannot_pass():
    from vnm import VNMError
    from vnm.jax_layer import _tensor_map_attribute

    params = ["frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "n", "ldb", "ldc"]
    entry = dict(element_bytes=2, rows="n", cols=64, ld="ldb", box_rows=64, box_cols=64,
                 swizzle_bytes=128)
    types = ["ptr"] * 3 + ["tensor_map"] + ["ptr"] * 2 + ["i32"] * 3
    good = dict(params=params, param_types=types, tensor_maps={"rhs": entry})
    assert list(_tensor_map_attribute(good)[24:32]) == [1, 2, -1, 64, -2, 64, 64, 128]
    with pytest.raises(VNMError, match="rhs's tensor map has rows 'tokens'"):
        _tensor_map_attribute(dict(good, tensor_maps={"rhs": dict(entry, rows="tokens")}))
    with pytest.raises(VNMError, match="takes rhs as 'tensor_map'"):
        _tensor_map_attribute(dict(good, tensor_maps={}))
    with pytest.raises(VNMError, match="takes out as 'f32'"):
        _tensor_map_attribute(dict(good, param_types=types[:4] + ["f32"] + types[5:]))
