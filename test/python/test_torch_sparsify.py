"""vnm.torch.sparsify and VNMLinear on the CPU; the kernel cache.

The sparsified model is checked against PyTorch's dense forward of an
independently pruned copy (vnm.pruning.prune_model with the same method),
on fresh random weights and inputs. The GPU path of the layer runs on the
H200 (bench/run_python_gpu_tests.sh); here its kernels are compiled and
cached, and the launcher is tested against a driver stand-in
(test_gpu_launch.py).
"""

import copy
import os

import pytest

torch = pytest.importorskip("torch")

import vnm  # noqa: E402
import vnm.kernel_cache as kc  # noqa: E402
import vnm.pruning as vp  # noqa: E402
import vnm.torch as vt  # noqa: E402


def seed():
    value = int.from_bytes(os.urandom(4), "little")
    print(f"seed {value}")
    torch.manual_seed(value)
    return value


def mlp(features=(96, 200, 40), bias=True):
    layers = []
    for i, (k, r) in enumerate(zip(features, features[1:])):
        if i:
            layers.append(torch.nn.GELU())
        layers.append(torch.nn.Linear(k, r, bias=bias))
    return torch.nn.Sequential(*layers)


def calibration(features, batches=4):
    return [torch.randn(24, features) for _ in range(batches)]


@pytest.mark.parametrize("encoding", ["2:4", "64:2:8", "32:2:16"])
@pytest.mark.parametrize("method,bias", [("magnitude", True), ("sparsegpt", False),
                                         ("wanda", True)])
def test_sparsified_model_equals_dense_forward_of_pruned_copy(encoding, method, bias):
    seed()
    # Ragged: neither K = 100 nor R = 70 is a multiple of M or V.
    model = mlp((100, 70, 33), bias=bias)
    reference = copy.deepcopy(model)
    cal = None if method == "magnitude" else calibration(100)
    vt.sparsify(model, encoding, cal, method=method)
    vp.prune_model(reference, encoding, cal, method)
    assert isinstance(model[0], vt.VNMLinear) and isinstance(model[2], vt.VNMLinear)
    for index in (0, 2):
        assert torch.equal(model[index].pruned_weight, reference[index].weight.detach())
        assert model[index].pruning.mask.shape == reference[index].weight.shape
    x = torch.randn(3, 5, 100)
    with torch.no_grad():
        actual, expected = model(x), reference(x)
    assert actual.shape == expected.shape == (3, 5, 33)
    torch.testing.assert_close(actual, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_layer_rounds_x_and_w_and_accumulates_in_f32(dtype):
    seed()
    model = mlp((64, 48))
    vt.sparsify(model, "2:4", dtype=dtype)
    layer = model[0]
    assert layer.values.dtype == dtype
    weight = layer.pruned_weight.float()
    # The stored weight is the f32 model's pruned weight rounded to dtype.
    x = torch.randn(9, 64)
    expected = x.to(dtype).float() @ weight.t() + layer.bias.float()
    with torch.no_grad():
        actual = model(x)
    assert actual.dtype == torch.float32
    torch.testing.assert_close(actual, expected, rtol=1e-5, atol=1e-5)


def test_only_the_named_layers_are_replaced():
    seed()
    model = mlp((64, 64, 64))
    vt.sparsify(model, {"2.weight": "64:2:8"})
    assert isinstance(model[0], torch.nn.Linear)
    assert isinstance(model[2], vt.VNMLinear)
    assert model[2].encoding == vnm.format.Encoding(64, 2, 8)


def test_unpruned_weight_is_refused_with_prune_false_and_model_kept():
    seed()
    model = mlp((64, 32))
    before = model[0].weight.detach().clone()
    with pytest.raises(ValueError, match=r"layer '0': the weight is not 64:2:8 sparse"):
        vt.sparsify(model, "64:2:8", prune=False)
    assert isinstance(model[0], torch.nn.Linear)
    assert torch.equal(model[0].weight, before)


def test_prune_false_takes_weights_pruned_by_the_caller():
    seed()
    model = mlp((64, 40))
    vp.prune_model(model, "64:2:8", method="magnitude")
    weight = model[0].weight.detach().clone()
    vt.sparsify(model, "64:2:8", prune=False)
    assert torch.equal(model[0].pruned_weight, weight)
    assert model[0].pruning is None


@pytest.mark.parametrize("kwargs,message", [
    ({"sparsity": {"nope": "2:4"}}, "not a parameter or module"),
    ({"sparsity": "2:5"}, "invalid encoding '2:5'"),
    ({"sparsity": "2:4", "dtype": torch.int8}, "dtype must be"),
    ({"sparsity": "2:4", "dtype": torch.float32, "target": "sm_90"}, "f16 or bf16"),
    ({"sparsity": "2:4", "prune": False, "method": "wanda"}, "takes no calibration"),
])
def test_bad_arguments_are_refused_before_anything_changes(kwargs, message):
    model = mlp((64, 32))
    before = copy.deepcopy(model)
    with pytest.raises(ValueError, match=message):
        vt.sparsify(model, **kwargs)
    assert isinstance(model[0], torch.nn.Linear)
    assert torch.equal(model[0].weight, before[0].weight)


def test_a_float64_model_is_refused():
    model = mlp((64, 32)).double()
    with pytest.raises(ValueError, match="layer '0' is torch.float64"):
        vt.sparsify(model, "2:4", target="sm_90")
    assert isinstance(model[0], torch.nn.Linear)


def test_a_kernel_of_another_layer_is_refused(tmp_path):
    model = vt.sparsify(mlp((64, 32)), "2:4", target="sm_90", cache_dir=tmp_path)
    other = torch.nn.Linear(64, 48).half()
    vp.prune_model(torch.nn.Sequential(other), "2:4", method="magnitude")
    with pytest.raises(ValueError, match="the kernel computes"):
        vt.VNMLinear(other, (16, 2, 4), kernel=model[0].kernel)


def test_a_bare_linear_model_is_refused():
    with pytest.raises(ValueError, match="itself an nn.Linear"):
        vt.sparsify(torch.nn.Linear(64, 32), "2:4")


def test_an_empty_batch_gives_an_empty_result():
    model = vt.sparsify(mlp((64, 32)), "2:4")
    with torch.no_grad():
        assert model(torch.randn(0, 64)).shape == (0, 32)


def test_wrong_input_width_is_refused():
    model = vt.sparsify(mlp((64, 32)), "2:4")
    with pytest.raises(ValueError, match="x has 60 features, the layer takes 64"):
        model(torch.randn(2, 60))


def test_custom_op_passes_opcheck():
    seed()
    model = vt.sparsify(mlp((64, 48)), "64:2:8", dtype=torch.float16)
    layer = model[0]
    x = torch.randn(2, 7, 64)
    torch.library.opcheck(vt.sparse_linear,
                          (x, [layer.values, layer.colidx, layer.meta], layer.bias,
                           layer._layer))


def test_torch_compile_traces_the_layer_without_graph_breaks():
    seed()
    model = vt.sparsify(mlp((64, 96, 32)), "2:4", calibration(64))
    compiled = torch.compile(model, fullgraph=True, dynamic=True)
    with torch.no_grad():
        for shape in [(5, 64), (2, 9, 64)]:
            x = torch.randn(*shape)
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-5, atol=1e-5)


def kernels_of(model):
    return [m.kernel for m in model.modules() if isinstance(m, vt.VNMLinear)]


def test_gpu_target_compiles_each_program_once_through_the_cache(tmp_path, monkeypatch):
    seed()
    # Two layers of the same shape share a program: 3 programs, 4 layers.
    model = mlp((64, 64, 64, 128, 64))
    reference = copy.deepcopy(model)
    vt.sparsify(model, "2:4", target="sm_90", cache_dir=tmp_path)
    entries = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    assert len(entries) == 3
    contracts = [k.kernels[0].contract for k in kernels_of(model)]
    assert all(c["op"] == "vnm.storage.spmm" for c in contracts)
    # f16 2:4 (M = 4): the kernels read x and store y token-major, as the
    # layer holds them: no transposes.
    assert all(c["rhs_layout"] == "token_major" for c in contracts)
    assert all(c["out_layout"] == "token_major" for c in contracts)
    # A second model of the same shapes compiles nothing.
    calls = []
    monkeypatch.setattr(kc, "compile", lambda *a, **k: calls.append(a))
    again = vt.sparsify(copy.deepcopy(reference), "2:4", target="sm_90", cache_dir=tmp_path)
    assert calls == []
    assert [k.binaries for k in kernels_of(again)] == [k.binaries for k in kernels_of(model)]
    # The CPU path of a layer with a kernel computes the same product.
    vp.prune_model(reference, "2:4", method="magnitude")
    x = torch.randn(6, 64)
    expected = reference(x.half().float()).detach()
    with torch.no_grad():
        actual = model(x)
    torch.testing.assert_close(actual, expected, rtol=2e-2, atol=2e-2)


def test_64_2_8_f16_kernels_read_a_k_by_n_copy_and_store_y_token_major(tmp_path):
    model = vt.sparsify(mlp((128, 64)), "64:2:8", target="sm_90", cache_dir=tmp_path)
    contract = model[0].kernel.kernels[0].contract
    assert contract["rhs_layout"] == "k_by_n" and contract["out_layout"] == "token_major"


def test_64_2_8_layer_runs_as_2_4_on_sm_90a(tmp_path):
    """On sm_90a (dynamic N) a 64:2:8 layer gets the warp-specialized kernel,
    which runs it as 2:4: the layer packs its GPU storage as 64:2:4 (every
    value kept), while its CPU storage stays 64:2:8."""
    seed()
    model = mlp((128, 200, 40))
    reference = copy.deepcopy(model)
    vt.sparsify(model, "64:2:8", target="sm_90a", cache_dir=tmp_path)
    layer = model[0]
    contract = layer.kernel.kernels[0].contract
    assert (contract["m"], contract["op_m"]) == (4, 8)
    assert "tensor_map" in contract["param_types"]
    pruned = layer.pruned_weight.half().numpy()
    packed = vnm.format.compress(pruned, (64, 2, 4), dtype="f16")
    fragments = vnm.format.pack_fragments(packed)
    assert torch.equal(layer.frag_colidx, torch.from_numpy(packed.colidx))
    assert torch.equal(layer.frag_values, torch.from_numpy(fragments.values.view("uint8")))
    assert torch.equal(layer.frag_meta, torch.from_numpy(fragments.meta.view("int32")))
    assert layer.colidx.shape == vnm.format.compress(pruned, (64, 2, 8), dtype="f16").colidx.shape
    vp.prune_model(reference, "64:2:8", method="magnitude")
    x = torch.randn(5, 128)
    with torch.no_grad():
        torch.testing.assert_close(model(x), reference(x.half().float()), rtol=2e-2, atol=2e-2)


def test_warp_specialized_layers_read_x_token_major_on_sm_90a(tmp_path):
    """On sm_90a (recipe=auto, or recipe=wgmma-sp-ws) the warp-specialized
    kernel takes a layer's x[N][K] as it is, through a tensor map (no K x N
    copy), and stores y token-major; 64:2:8 runs as 2:4. recipe=mma-sp keeps
    the pointer kernels."""
    for options in ("", "recipe=wgmma-sp-ws"):
        for encoding, op_m in (("2:4", 4), ("64:2:8", 8)):
            model = vt.sparsify(mlp((128, 200)), encoding, target="sm_90a",
                                gpu_options=options, cache_dir=tmp_path)
            contract = model[0].kernel.kernels[0].contract
            assert (contract["m"], contract.get("op_m", 4)) == (4, op_m)
            assert contract["rhs_layout"] == "token_major"
            assert contract["out_layout"] == "token_major"
            assert contract["tensor_maps"]["rhs"]["rows"] == "n"
            assert contract["tensor_maps"]["rhs"]["cols"] == 128
    model = vt.sparsify(mlp((128, 200)), "2:4", target="sm_90a", gpu_options="recipe=mma-sp",
                        cache_dir=tmp_path)
    contract = model[0].kernel.kernels[0].contract
    assert contract["rhs_layout"] == "token_major"
    assert "tensor_map" not in contract["param_types"]


def test_a_layer_the_kernels_cannot_tile_names_the_layer(tmp_path):
    # V = 16 with M = 8 runs on the CPU pipeline only.
    model = mlp((64, 32))
    before = model[0].weight.detach().clone()
    with pytest.raises(vnm.CompileError, match=r"layer '0' \(32 x 64, 16:2:8\) does not "
                       r"compile for sm_90(.|\n)*multiple of its 64-row block tile"):
        vt.sparsify(model, "16:2:8", target="sm_90", cache_dir=tmp_path)
    # Nothing was pruned either.
    assert isinstance(model[0], torch.nn.Linear)
    assert torch.equal(model[0].weight, before)


PROGRAM = vt.layer_program(64, 64, vnm.format.Encoding(16, 2, 4), "f16", "f16", False)


def test_cache_recompiles_an_entry_of_another_compiler(tmp_path, monkeypatch):
    first = kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path)
    calls = []
    real = kc.compile
    monkeypatch.setattr(kc, "compile", lambda *a, **k: calls.append(a) or real(*a, **k))
    kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path)
    assert calls == []
    kc.compiler_identity.cache_clear()
    monkeypatch.setattr(kc, "compiler_identity", lambda: "another build")
    again = kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path)
    assert len(calls) == 1 and again.binaries == first.binaries


def test_cache_recompiles_a_damaged_entry(tmp_path, monkeypatch):
    kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path)
    (entry,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    (entry / "entry.json").write_text("{ truncated")
    calls = []
    real = kc.compile
    monkeypatch.setattr(kc, "compile", lambda *a, **k: calls.append(a) or real(*a, **k))
    result = kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path)
    assert len(calls) == 1 and result.kernels


def test_cache_key_covers_target_and_options():
    keys = {kc.cache_key(PROGRAM, t, "+ptx85", "isa", o)
            for t in ("sm_80", "sm_90") for o in ("", "block-rows=64")}
    assert len(keys) == 4


def test_host_without_compiler_uses_entries_and_names_missing_ones(tmp_path, monkeypatch):
    made = kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path)
    monkeypatch.setattr(kc, "compiler_identity", lambda: None)
    assert kc.cached_compile(PROGRAM, target="sm_90", directory=tmp_path).binaries == \
        made.binaries
    with pytest.raises(vnm.VNMError, match="no cached kernels for this program"):
        kc.cached_compile(PROGRAM, target="sm_80", directory=tmp_path)


def test_cache_directory_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("VNM_CACHE_DIR", str(tmp_path / "c"))
    assert kc.cache_directory() == tmp_path / "c"
    monkeypatch.delenv("VNM_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert kc.cache_directory() == tmp_path / "vnm" / "kernels"
    assert str(kc.cache_directory("x")) == "x"


def test_a_cast_after_sparsify_is_refused_not_misread():
    model = vt.sparsify(mlp((64, 32)), "2:4", dtype=torch.float16)
    model.double()
    with pytest.raises(vnm.VNMError, match="cast the model before vnm.torch.sparsify"):
        model(torch.randn(2, 64))
    # A quantized layer's values are int8, which a cast leaves alone; its
    # f32 scales are not.
    quantized = vt.sparsify(mlp((64, 32), bias=False), "2:4", quantization="w8a16")
    quantized.half()
    with pytest.raises(vnm.VNMError, match="weight scales torch.float16"):
        quantized(torch.randn(2, 64).half())


def test_a_layers_plan_lives_as_long_as_the_layer_and_its_copies():
    import gc
    import pickle

    from vnm._sparse_linear import _PLANS

    seed()
    model = vt.sparsify(mlp((64, 32)), "2:4", prune=True)
    index = model[0]._layer
    x = torch.randn(5, 64)
    expected = model(x)
    copied = copy.deepcopy(model)
    unpickled = pickle.loads(pickle.dumps(model))
    del model
    gc.collect()
    assert index in _PLANS
    torch.testing.assert_close(copied(x), expected)
    del copied
    gc.collect()
    assert index in _PLANS
    torch.testing.assert_close(unpickled(x), expected)
    del unpickled
    gc.collect()
    assert index not in _PLANS


def test_a_layer_pickled_in_another_process_is_refused(monkeypatch):
    import pickle

    import vnm._sparse_linear as sl

    seed()
    data = pickle.dumps(vt.sparsify(mlp((64, 32)), "2:4", prune=True))
    # Another process has another token (and its own plans under the same
    # indices, which the layer must not take for its own).
    monkeypatch.setattr(sl, "_PROCESS_TOKEN", "another process")
    with pytest.raises(vnm.VNMError, match="pickled in another process"):
        pickle.loads(data)


@pytest.mark.parametrize("quantization", ["w8a16", "w4a16"])
@pytest.mark.parametrize("encoding", ["2:4", "64:2:8"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_quantized_layers_equal_dense_forward_of_quantized_pruned_copy(quantization, encoding,
                                                                       dtype):
    """Reference: prune a copy with prune_model, quantize and dequantize its
    weights per row with vnm.format, and run PyTorch's dense forward (x
    rounded to the layer's type, in f32)."""
    import vnm.format as vf

    seed()
    model = mlp((100, 70, 33)).to(dtype)
    reference = copy.deepcopy(model).float()
    vt.sparsify(model, encoding, quantization=quantization)
    vp.prune_model(reference, {"0.weight": encoding, "2.weight": encoding}, None, "magnitude")
    target = {"w8a16": "i8", "w4a16": "i4"}[quantization]
    with torch.no_grad():
        for index in (0, 2):
            weight = reference[index].weight.numpy()
            q, scales = vf.quantize(weight, target=target, axis=0)
            reference[index].weight.copy_(
                torch.from_numpy(vf.dequantize(q, scales, target=target, axis=0)))
            layer = model[index]
            assert layer.values.dtype == torch.int8 and layer.weight_scales.shape == (
                layer.out_features,)
            if target == "i4":
                assert int(layer.values.abs().max()) <= 8
        x = torch.randn(9, 100).to(dtype)
        y = model(x)
        assert y.dtype == dtype
        # The reference rounds at the same points: x in the layer's type,
        # GELU's output rounded to it between the layers.
        h = torch.nn.functional.gelu(reference[0](x.float())).to(dtype).float()
        expected = reference[2](h)
    tolerance = 1e-5 if dtype == torch.float32 else 2e-3
    torch.testing.assert_close(y.float(), expected, rtol=tolerance, atol=tolerance)


def test_quantized_layers_compile_weight_only_kernels(tmp_path):
    seed()
    model = vt.sparsify(mlp((64, 128, 32)), "2:4", quantization="w8a16", target="sm_90",
                        cache_dir=tmp_path)
    contract = model[0].kernel.kernels[0].contract
    assert contract["element_type"] == "i8" and contract["rhs_type"] == "f16"
    assert "weight_scales" in contract["params"]
    with pytest.raises(ValueError, match="quantization must be one of"):
        vt.sparsify(mlp((64, 32)), "2:4", quantization="w8a8")
