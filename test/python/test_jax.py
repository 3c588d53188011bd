"""vnm.jax.lower: a JAX MLP with V:N:M weight arguments through vnm."""

import pytest
import vnm

jax = pytest.importorskip("jax")
jnp = jax.numpy
import vnm.jax as vj  # noqa: E402


def mlp(x, w1, w2):
    return jax.nn.relu(x @ w1.T) @ w2.T


ARGS = (jnp.zeros((8, 64), jnp.float16), jnp.zeros((128, 64), jnp.float16),
        jnp.zeros((32, 128), jnp.float16))


def test_weights_become_encoded_arguments_and_spmm():
    result = vj.lower(mlp, *ARGS, sparsity={1: "64:2:8", 2: (64, 2, 16)})
    ir = result.ir
    assert "%arg1: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>" in ir
    assert "%arg2: tensor<32x128xf16, #vnm.encoding<v = 64, n = 2, m = 16>>" in ir
    assert ir.count("vnm.spmm") == 2
    assert "linalg.matmul" not in ir


def test_bias_and_relu_are_the_spmm_epilogue():
    """relu(x @ w.T + b) in bf16: the bias add and relu (inlined from JAX's
    private @relu) are folded into the spmm, which applies them in f32 before
    its one rounding to bf16, instead of rounding the product first."""
    def linear(x, w, b):
        return jax.nn.relu(x @ w.T + b)
    args = (jax.ShapeDtypeStruct((8, 256), jnp.bfloat16),
            jax.ShapeDtypeStruct((128, 256), jnp.bfloat16),
            jax.ShapeDtypeStruct((128,), jnp.bfloat16))
    ir = vj.lower(linear, *args, sparsity={1: "64:2:8"}).ir
    assert ("bias(%arg2 : tensor<128xbf16>) {activation = #vnm.activation<relu>}"
            in ir)
    assert "linalg.add" not in ir and "maximumf" not in ir and "@relu" not in ir


def test_unannotated_weights_stay_dense():
    result = vj.lower(mlp, *ARGS, sparsity={1: "64:2:8"})
    assert result.ir.count("vnm.spmm") == 1
    assert result.ir.count("linalg.matmul") == 1


def test_gpu_kernels_for_each_layer():
    result = vj.lower(mlp, *ARGS, sparsity={1: "64:2:8", 2: "64:2:16"}, target="sm_90")
    shapes = sorted((k.contract["rows"], k.contract["cols"], k.contract["m"])
                    for k in result.kernels)
    assert shapes == [(32, 128, 16), (128, 64, 8)]
    assert "mma.sp::ordered_metadata" in result.ptx


def test_gpu_kernels_read_activations_as_jax_holds_them():
    # At 2:4 the first layer's kernel reads x[N][K] itself (no transposed
    # copy); the second reads the first's R x N result, K x N for it. At
    # 2:8 the K x N kernel is the faster one (docs/gpu.md).
    def layouts(fmt):
        result = vj.lower(mlp, *ARGS, sparsity={1: fmt, 2: fmt}, target="sm_90")
        return sorted((k.contract["rows"], k.contract["rhs_layout"])
                      for k in result.kernels)
    assert layouts("64:2:4") == [(32, "k_by_n"), (128, "token_major")]
    assert layouts("64:2:8") == [(32, "k_by_n"), (128, "k_by_n")]


def test_bad_argument_index_and_format():
    with pytest.raises(ValueError, match="argument 5"):
        vj.lower(mlp, *ARGS, sparsity={5: "64:2:8"})
    with pytest.raises(vnm.VNMError):
        vj.lower(mlp, *ARGS, sparsity={1: "64:3:8"})


def test_indices_name_the_functions_own_arguments_with_symbolic_shapes():
    """A symbolic N makes JAX add a leading dimension argument to @main;
    index 1 still names w1 (it made x's neighbour sparse before)."""
    from jax import export
    n, = export.symbolic_shape("n")
    args = (jax.ShapeDtypeStruct((n, 64), jnp.float16),
            jax.ShapeDtypeStruct((128, 64), jnp.float16),
            jax.ShapeDtypeStruct((32, 128), jnp.float16))
    ir = vj.lower(mlp, *args, sparsity={2: "64:2:16"}).ir
    assert "tensor<32x128xf16, #vnm.encoding<v = 64, n = 2, m = 16>>" in ir
    assert "tensor<128x64xf16, #vnm.encoding" not in ir
    assert ir.count("vnm.spmm") == 1


def test_indices_survive_unused_arguments():
    """JAX drops unused arguments from @main unless told to keep them."""
    def second_layer_only(x, w1, w2):
        return x @ w2.T
    args = (jnp.zeros((8, 128), jnp.float16), jnp.zeros((128, 64), jnp.float16),
            jnp.zeros((32, 128), jnp.float16))
    ir = vj.lower(second_layer_only, *args, sparsity={2: "64:2:8"}).ir
    assert "tensor<32x128xf16, #vnm.encoding<v = 64, n = 2, m = 8>>" in ir
    assert ir.count("vnm.spmm") == 1


def test_pytree_arguments():
    """Indices name positional arguments; one that is a pytree of several
    arrays cannot be a weight, and those after it are still found."""
    def layer(params, w):
        return jax.nn.relu(params["x"] @ w.T) + params["b"]
    params = {"x": jnp.zeros((8, 64), jnp.float16), "b": jnp.zeros((128,), jnp.float16)}
    w = jnp.zeros((128, 64), jnp.float16)
    ir = vj.lower(layer, params, w, sparsity={1: "64:2:8"}).ir
    assert "tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>" in ir
    with pytest.raises(ValueError, match="holds 2 arrays"):
        vj.lower(layer, params, w, sparsity={0: "64:2:8"})


def test_einsum_attention_lowers():
    """Attention scores as einsum("htd,hsd->hts") stay a generic contraction
    (upstream's linalg-specialize-generic-ops made an invalid batch_matmul
    of it); the output projection's weight is sparse."""
    def attention(q, k, v, w):
        s = jnp.einsum("htd,hsd->hts", q, k)
        o = jnp.einsum("hts,hsd->htd", jax.nn.softmax(s, axis=-1), v)
        return o.transpose(1, 0, 2).reshape(o.shape[1], -1) @ w.T
    qkv = jax.ShapeDtypeStruct((4, 16, 32), jnp.float32)
    w = jax.ShapeDtypeStruct((128, 128), jnp.float32)
    ir = vj.lower(attention, qkv, qkv, qkv, w, sparsity={3: "64:2:8"}).ir
    assert "%arg3: tensor<128x128xf32, #vnm.encoding<v = 64, n = 2, m = 8>>" in ir
    assert ir.count("vnm.spmm") == 1


def test_compile_errors_name_the_function():
    def wide(x, w):
        return x @ w.T
    args = (jnp.zeros((8, 64), jnp.int16), jnp.zeros((128, 64), jnp.int16))
    with pytest.raises(vnm.CompileError, match=r"in .*wide \(.*test_jax.py:\d+\)"):
        vj.lower(wide, *args, sparsity={1: "64:2:8"})


def test_quantized_weights_take_their_scales_as_arguments():
    result = vj.lower(mlp, *ARGS, sparsity={1: "64:2:8", 2: "64:2:16"},
                      quantization={1: "w8a8", 2: "w4a16-g32"})
    ir = result.ir
    assert "%arg1: tensor<128x64xi8, #vnm.encoding<v = 64, n = 2, m = 8>>" in ir
    assert "%arg2: tensor<128xf32>" in ir
    assert "%arg3: tensor<32x128xi4, #vnm.encoding<v = 64, n = 2, m = 16>>" in ir
    assert "%arg4: tensor<32x4xf32>" in ir
    assert ir.count("weight_scales") == 2 and ir.count("input_scales") == 1
    assert "vnm.quantization" not in ir


def test_quantization_needs_sparsity_and_a_valid_choice():
    with pytest.raises(ValueError, match="quantization names argument 2"):
        vj.lower(mlp, *ARGS, sparsity={1: "64:2:8"}, quantization={2: "w8a8"})
    with pytest.raises(vnm.CompileError, match="invalid quantization 'w3a8'"):
        vj.lower(mlp, *ARGS, sparsity={1: "64:2:8"}, quantization={1: "w3a8"})
