"""vnm.compile(..., target=...) for chips outside the supported list.

These once took the interpreter down inside LLVM (an abort for sm_70,
sm_75, gfx90a, sm_100 and sm_120, a segfault for ""), so each runs in a
child interpreter: a crash there fails the test instead of killing pytest.
The child prints the exception's type and message as JSON.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import vnm

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "linear_spmm.mlir"

CHILD = """
import json, sys
import vnm
source = open(sys.argv[1]).read()
outcome = {}
for call in json.loads(sys.argv[2]):
    try:
        result = vnm.compile(source, **call)
        outcome = {"ok": True, "ptx": result.ptx}
    except vnm.VNMError as error:
        outcome = {"ok": False, "type": type(error).__name__, "message": str(error)}
print(json.dumps(outcome))
"""

SUPPORTED = "supported chips: sm_80, sm_90, sm_90a"


def compile_in_child(*calls):
    """Runs vnm.compile with each keyword set in one child interpreter and
    returns the last call's outcome."""
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(EXAMPLE), json.dumps(list(calls))],
        capture_output=True, text=True, env=os.environ.copy(), timeout=600)
    assert child.returncode == 0, (
        f"the child interpreter died with {child.returncode}: {child.stderr[-2000:]}")
    return json.loads(child.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("target, reason", [
    ("sm_75", "chip 'sm_75' cannot run the kernels: mma.sp::ordered_metadata "
              "and cp.async need sm_80 or newer"),
    ("sm_70", "chip 'sm_70' cannot run the kernels: mma.sp::ordered_metadata "
              "and cp.async need sm_80 or newer"),
    ("gfx90a", "chip 'gfx90a' is not an NVIDIA GPU architecture (sm_NN)"),
    ("", "chip is empty"),
    ("sm_100", "chip 'sm_100' is not supported: there are no kernels for the "
               "sm_100 generation and later yet, and they would need PTX 8.6 "
               "or newer"),
    ("sm_120", "chip 'sm_120' is not supported: there are no kernels for the "
               "sm_100 generation and later yet, and they would need PTX 8.6 "
               "or newer"),
    ("cuda", "chip 'cuda' is not an NVIDIA GPU architecture (sm_NN)"),
])
def test_unsupported_chip_raises_compile_error(target, reason):
    outcome = compile_in_child({"target": target})
    assert outcome["ok"] is False
    assert outcome["type"] == "CompileError"
    assert f"vnm-lower-to-nvvm-pipeline: {reason}; {SUPPORTED}" in outcome["message"]


def test_unsupported_chip_after_a_compile_in_the_same_process():
    outcome = compile_in_child({"target": "sm_90"}, {"target": "cuda"})
    assert outcome["ok"] is False and outcome["type"] == "CompileError"
    assert f"chip 'cuda' is not an NVIDIA GPU architecture (sm_NN); {SUPPORTED}" \
        in outcome["message"]


@pytest.mark.parametrize("features, reason", [
    ("+ptx80", "sm_90 needs PTX 8.5 or newer (mma.sp::ordered_metadata), got +ptx80"),
    ("", "features is empty, so the NVVM target would write PTX 6.0, and "
         "mma.sp::ordered_metadata needs PTX 8.5 (+ptx85)"),
    ("+ptx99", "features '+ptx99' is not a PTX version LLVM 22 writes"),
])
def test_unsupported_ptx_version_raises_compile_error(features, reason):
    outcome = compile_in_child({"target": "sm_90", "features": features})
    assert outcome["ok"] is False and outcome["type"] == "CompileError"
    assert (f"{reason}; supported features: +ptx85, +ptx86, +ptx87, +ptx88, +ptx90"
            in outcome["message"])


@pytest.mark.parametrize("target", ["sm_90 dump-dir=/tmp", "sm_90}", "sm_90,cse"])
def test_target_that_is_not_one_option_value_raises(target):
    with pytest.raises(vnm.CompileError) as error:
        vnm.compile(EXAMPLE.read_text(), target=target)
    assert str(error.value) == f"target {target!r} is not a pipeline option value"


def test_sm_90a_compiles():
    outcome = compile_in_child({"target": "sm_90a"})
    assert outcome["ok"] is True
    assert ".target sm_90a" in outcome["ptx"]
    # recipe=auto gives the example's weight the warp-specialized wgmma.sp
    # kernel there.
    assert "wgmma.mma_async.sp" in outcome["ptx"]
