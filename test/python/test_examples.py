"""The examples' compile steps (the GPU runs are on the H200): what they
derive from the lowered programs must match what the kernels do."""

import importlib.util
import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_jax_mlp_launch_plan_follows_the_kernels(tmp_path):
    pytest.importorskip("jax")
    jax_mlp = load("jax_mlp")
    jax_mlp.compile_kernels(str(tmp_path), tokens=64)
    plan = json.loads((tmp_path / "plan.json").read_text())
    spmm = [s for s in plan["steps"] if s["op"] == "spmm"]
    assert [s["weight_argument"] for s in spmm] == [1, 2]
    contracts = {s["kernel"]: json.loads((tmp_path / f"{s['kernel']}.json").read_text())
                 for s in spmm}
    for step in spmm:
        contract = contracts[step["kernel"]]
        assert (contract["rows"], contract["cols"]) == (step["rows"], step["cols"])
        assert contract["activation"] == step["activation"]
        assert contract["out_layout"] == step["out_layout"]
    # relu runs once: fused into the first kernel or as a step, not both.
    relu_steps = [s for s in plan["steps"] if s["op"] == "relu"]
    assert len(relu_steps) + sum(s["activation"] == "relu" for s in spmm) == 1
    # The activations stay K x N between the kernels; the last one stores
    # y[N][R] itself (the program's final transpose is folded into it).
    assert spmm[0]["out_layout"] == "r_by_n"
    assert spmm[1]["out_layout"] == "token_major"


def test_quantized_mlp_kernels_take_what_quantized_sparse_linear_passes(tmp_path):
    import vnm

    if not vnm._capi.has_compiler:
        pytest.skip("compiling kernels needs libVNMCAPI.so")
    quantized_mlp = load("quantized_mlp")
    assert quantized_mlp.compile_kernels(str(tmp_path)) == 0
    for form in quantized_mlp.FORMS:
        for fmt, (v, n, m) in quantized_mlp.FORMATS.items():
            for layer, (rows, cols) in {"up": (quantized_mlp.FFN, quantized_mlp.HIDDEN),
                                        "down": (quantized_mlp.HIDDEN,
                                                 quantized_mlp.FFN)}.items():
                directory = Path(quantized_mlp.kernel_dir(str(tmp_path), form, fmt, layer))
                contract = json.loads((directory / "spmm_0.json").read_text())
                assert (contract["rows"], contract["cols"]) == (rows, cols)
                assert (contract["v"], contract["n"], contract["m"]) == (v, n, m)
                assert contract["element_type"] == "i8" and contract["bias"]
                assert "weight_scales" in contract["params"]
                # W8A8 reads x quantized per token, token-major, with its
                # scales; W8A16 reads f16 x.
                if form == "w8a8":
                    assert contract["rhs_layout"] == "token_major"
                    assert "input_scales" in contract["params"]
                else:
                    assert "input_scales" not in contract["params"]


def test_heldout_overlap_best_matches():
    """examples/heldout_overlap.py: each held-out sentence's best word-set
    Jaccard similarity to a source."""
    heldout_overlap = load("heldout_overlap")
    best = heldout_overlap.best_matches(
        ["The array is sorted in place.", "Returns a new view."],
        ["the ARRAY is sorted, in place", "an unrelated line", "returns a copy"])
    assert best[0] == 1.0
    assert best[1] == 2 / 5  # {returns, a} of {returns, a, new, view, copy}
    assert heldout_overlap.best_matches(["anything"], []) == [0.0]
