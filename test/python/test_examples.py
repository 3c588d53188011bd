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
