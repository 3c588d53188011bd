"""vnm.compile, vnm.Compiler and vnm.Module: success, failure, diagnostics."""

import re
from pathlib import Path

import numpy as np
import pytest
import vnm
from vnm import format as vf

EXAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "linear_spmm.mlir").read_text()

LINEAR = """\
!w = tensor<32x16xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
func.func @linear(%w: tensor<32x16xf32>, %x: tensor<16x4xf32>) -> tensor<32x4xf32> {
  %s = vnm.compress %w : tensor<32x16xf32> -> !w
  %y = vnm.spmm %s, %x : !w, tensor<16x4xf32> -> tensor<32x4xf32>
  return %y : tensor<32x4xf32>
}
"""

FOLD = """\
func.func @f() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %a : i32
  return %b : i32
}
"""


def test_library_is_loaded():
    assert Path(vnm.library_path).is_file()


def test_cpu_pipeline_is_the_default():
    result = vnm.compile(LINEAR)
    assert result.pipeline == vnm.CPU_PIPELINE
    assert "llvm.func @linear" in result.ir
    assert "vnm." not in result.ir.replace("vnm_rt_", "")
    assert result.diagnostics == ()
    assert str(result) == result.ir


def test_shipped_example_expands_storage():
    result = vnm.compile(EXAMPLE, pipeline="builtin.module(vnm-expand-storage)", name="linear_spmm.mlir")
    assert "vnm.storage.spmm" in result.ir
    assert "vnm.storage.compress" in result.ir
    assert "#vnm.encoding" in result.ir  # the storage ops' attribute
    assert "tensor<4096x4096xf16, #vnm" not in result.ir  # no encoded tensor left


def test_no_pipeline_parses_and_verifies():
    result = vnm.compile(LINEAR, pipeline=None)
    assert result.pipeline is None
    assert "vnm.spmm" in result.ir
    # The printed form parses back to itself.
    assert vnm.compile(result.ir, pipeline=None).ir == result.ir


def test_module_pipeline_runs_on_the_module():
    # A builtin.module(...) pipeline must not be nested under a second
    # builtin.module, where it would silently run on nothing.
    assert "arith.addi" not in vnm.compile(FOLD, pipeline="builtin.module(canonicalize)").ir
    assert "arith.addi" not in vnm.compile(FOLD, pipeline="func.func(canonicalize)").ir
    assert "arith.addi" in vnm.compile(FOLD, pipeline="builtin.module(cse)").ir


def test_printing_options():
    result = vnm.compile(FOLD, pipeline=None, name="fold.mlir", generic=True, debug_info=True)
    assert '"arith.addi"' in result.ir
    assert 'loc("fold.mlir":3:8)' in result.ir


def test_compiler_session_and_bytecode():
    with vnm.Compiler() as compiler:
        module = compiler.parse(LINEAR, name="linear.mlir")
        assert compiler.diagnostics == ()
        module.run("builtin.module(vnm-expand-storage)").run("builtin.module(canonicalize)")
        text = module.to_text()
        data = module.to_bytecode()
        assert data[:4] == b"ML\xefR"
        assert compiler.parse(data).to_text() == text
        # vnm.compile takes bytecode too.
        assert vnm.compile(data, pipeline=None).ir == text
    with pytest.raises(ValueError, match="closed"):
        module.to_text()


def test_constant_weights_fold_through_the_format_library():
    # canonicalize folds vnm.compress of a constant with the same C++ library
    # vnm.format calls: the folded storage constants equal compress()'s.
    rng = np.random.default_rng(11)
    weight = rng.integers(-8, 8, (16, 16)).astype(np.float32)
    rows = ", ".join("[" + ", ".join(f"{x:.1f}" for x in row) + "]" for row in weight)
    encoded = "tensor<16x16xf32, #vnm.encoding<v = 16, n = 2, m = 8>>"
    storage = "tensor<16x4xf32>, tensor<1x2x4xi8>, tensor<16x4xi8>"
    source = f"""\
func.func @f() -> ({storage}) {{
  %w = arith.constant dense<[{rows}]> : tensor<16x16xf32>
  %s = vnm.compress %w : tensor<16x16xf32> -> {encoded}
  %v, %c, %m = vnm.disassemble %s : {encoded} -> {storage}
  return %v, %c, %m : {storage}
}}
"""
    ir = vnm.compile(source, pipeline="builtin.module(canonicalize)").ir
    assert "vnm.compress" not in ir

    def constant(type_text):
        match = re.search(r"arith\.constant dense<(.*?)> : " + re.escape(type_text), ir)
        assert match, f"no {type_text} constant in\n{ir}"
        return np.array([float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", match.group(1))])

    expected = vf.compress(weight, (16, 2, 8))
    np.testing.assert_array_equal(constant("tensor<16x4xf32>"), expected.values.ravel())
    np.testing.assert_array_equal(constant("tensor<1x2x4xi8>"), expected.colidx.ravel())
    np.testing.assert_array_equal(constant("tensor<16x4xi8>"), expected.meta.ravel())


#
# Failures: vnm.CompileError with the MLIR diagnostics.
#


def test_syntax_error():
    with pytest.raises(vnm.CompileError) as info:
        vnm.compile("func.func @f() {\n  %0 = vnm.bogus\n}\n", name="bad.mlir")
    error = info.value
    assert isinstance(error, vnm.VNMError)
    assert error.diagnostics == (vnm.Diagnostic("error", "bad.mlir:2:8", "custom op 'vnm.bogus' is unknown"),)
    assert str(error) == "failed to parse 'bad.mlir'\nbad.mlir:2:8: error: custom op 'vnm.bogus' is unknown"


def test_verifier_error_cites_the_constraint():
    source = """\
func.func @f(%w: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %p = vnm.prune %w {encoding = #vnm.encoding<v = 16, n = 2, m = 40>} : tensor<8x8xf16> -> tensor<8x8xf16>
  return %p : tensor<8x8xf16>
}
"""
    with pytest.raises(vnm.CompileError) as info:
        vnm.compile(source, name="verify.mlir")
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.severity == "error"
    assert diagnostic.location.startswith("verify.mlir:2:")
    assert "(C3)" in diagnostic.message


def test_diagnostic_notes_follow_their_error():
    source = "func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n"
    with pytest.raises(vnm.CompileError) as info:
        vnm.compile(source, name="twice.mlir")
    severities = [d.severity for d in info.value.diagnostics]
    assert severities == ["error", "note"]
    assert info.value.diagnostics[1].location == "twice.mlir:1:1"


@pytest.mark.parametrize(
    "pipeline, location, message",
    [
        ("builtin.module(no-such-pass)", "<pass pipeline>:1:16", "'no-such-pass' does not refer to a registered pass"),
        ("canonicalize", "", "expected pass pipeline to be wrapped with the anchor operation type"),
        ("builtin.module(canonicalize{no-such-option=1})", "", "no such option no-such-option"),
    ],
)
def test_invalid_pipeline(pipeline, location, message):
    with pytest.raises(vnm.CompileError) as info:
        vnm.compile(FOLD, pipeline=pipeline)
    assert str(info.value).startswith(f"invalid pass pipeline '{pipeline}'")
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.location == location
    assert message in diagnostic.message


def test_failing_pass():
    with pytest.raises(vnm.CompileError) as info:
        vnm.compile(LINEAR, pipeline="builtin.module(one-shot-bufferize)", name="linear.mlir")
    assert str(info.value).startswith("pass pipeline 'builtin.module(one-shot-bufferize)' failed")
    first = info.value.diagnostics[0]
    assert first.location == "linear.mlir:3:8"
    assert "run --vnm-expand-storage before bufferization" in first.message


def test_failed_call_keeps_the_module_usable():
    with vnm.Compiler() as compiler:
        module = compiler.parse(FOLD)
        with pytest.raises(vnm.CompileError):
            module.run("builtin.module(no-such-pass)")
        assert len(compiler.diagnostics) == 1
        module.run("builtin.module(canonicalize)")
        assert compiler.diagnostics == ()
        assert "arith.addi" not in module.to_text()
