"""Quantized vnm ops on the CPU pipeline (docs/spec.md, "Quantization").

Every program here runs through vnm.compile's CPU pipeline and mlir-runner
on fresh random data, and its results are compared bit for bit:

* vnm.quantize, at run time and folded at compile time, against a numpy
  implementation of the rule and against the format library;
* integer spmm (i32 results) against a dense integer product;
* dequantizing spmm against a numpy emulation of the rule in the order
  spec.md states (f32 arithmetic step by step), and within the output
  type's rounding of a float64 dense product of the dequantized operands.
"""

import os

import numpy as np
import pytest

import vnm.format as vf

import cpu_runner

ml_dtypes = pytest.importorskip("ml_dtypes")

QMAX = {"i8": 127, "i4": 7}
NUMPY_FLOAT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}


def _seed():
    return int.from_bytes(os.urandom(4), "little")


class Program:
    """A @main built line by line; values are named by the caller."""

    def __init__(self):
        self.lines = []
        self.prints = []

    def constant(self, name, array, element):
        self.lines.append(f"%{name} = arith.constant {cpu_runner.literal(array, element)}")

    def runtime(self, name, array, element, dynamic_cols=False):
        """`array` as a value the compiler cannot see through: a copy into a
        fresh buffer, so that no folder computes with it at compile time."""
        shape = "x".join(map(str, array.shape))
        tensor = f"tensor<{shape}x{element}>"
        memref = tensor.replace("tensor", "memref")
        self.constant(f"{name}_c", array, element)
        self.lines += [
            f"%{name}_b = bufferization.to_buffer %{name}_c : {tensor} to {memref}",
            f"%{name}_m = memref.alloc() : {memref}",
            f"memref.copy %{name}_b, %{name}_m : {memref} to {memref}",
            f"%{name}_s = bufferization.to_tensor %{name}_m restrict writable : "
            f"{memref} to {tensor}"]
        if dynamic_cols:
            rows = array.shape[0]
            self.lines.append(f"%{name} = tensor.cast %{name}_s : {tensor} to "
                              f"tensor<{rows}x?x{element}>")
            return f"tensor<{rows}x?x{element}>"
        self.lines.append(f"%{name} = tensor.cast %{name}_s : {tensor} to {tensor}")
        return tensor

    def line(self, text):
        self.lines.append(text)

    def print(self, value, tensor_type, shape):
        self.lines.append(cpu_runner.print_exactly(value, tensor_type))
        self.prints.append(shape)

    def text(self):
        return "\n".join(["func.func private @printMemrefI32(memref<*xi32>)",
                          "func.func @main() {", *self.lines, "return", "}"])

    def run(self, tmp_path, text=None):
        """Runs the program (or `text`, a compiled form of it) and returns
        what it printed."""
        output = cpu_runner.run(tmp_path, text or self.text())
        return cpu_runner.printed_int32(output, self.prints)


def _f32_bits(values) -> np.ndarray:
    return np.asarray(values, np.float32).view(np.int32)


def _float_bits(values, element) -> np.ndarray:
    """The printed form of a float result: its value widened to f32."""
    return _f32_bits(np.asarray(values).astype(NUMPY_FLOAT[element]).astype(np.float32))


def quantize_reference(x: np.ndarray, target: str, axis, group_size):
    """The rule of docs/spec.md in numpy float32: per scale group amax =
    max |x|, scale = amax / qmax (1 where amax == 0), q = clamp(rint(x /
    scale)), 0 where x / scale is NaN."""
    x = np.asarray(x, np.float32)
    rows, cols = x.shape
    qmax = np.float32(QMAX[target])
    if axis is None:
        groups = [((slice(0, rows), slice(0, cols)), ())]
        scales = np.zeros((), np.float32)
    else:
        kept, other = (rows, cols) if axis == 0 else (cols, rows)
        size = group_size or other
        count = -(-other // size)
        shape = {(0, False): (rows,), (1, False): (cols,),
                 (0, True): (rows, count), (1, True): (count, cols)}[(axis, bool(group_size))]
        scales = np.zeros(shape, np.float32)
        groups = []
        for i in range(kept):
            for j in range(count):
                span = slice(j * size, min((j + 1) * size, other))
                where = (slice(i, i + 1), span) if axis == 0 else (span, slice(i, i + 1))
                index = (i,) if not group_size else ((i, j) if axis == 0 else (j, i))
                groups.append((where, index))
    q = np.zeros((rows, cols), np.int8)
    with np.errstate(invalid="ignore", divide="ignore"):
        for where, index in groups:
            block = x[where]
            amax = np.float32(np.max(np.abs(block))) if block.size else np.float32(0)
            scale = np.float32(1) if amax == 0 else np.float32(amax / qmax)
            scales[index] = scale
            quotient = (block / scale).astype(np.float32)
            rounded = np.clip(np.rint(quotient), -qmax, qmax)
            q[where] = np.where(np.isnan(quotient), 0, rounded).astype(np.int8)
    return q, scales


def test_quantize_runtime_and_folded_match_the_rule(tmp_path):
    """Every grouping, i8 and i4, f16/bf16/f32 input; the same op on a
    constant (folded by the format library) and at run time (the loop
    lowering) give the reference's bits, including exact halves."""
    seed = _seed()
    rng = np.random.default_rng(seed)
    cases = [  # (element, rows, cols, target, axis, group_size)
        ("f16", 40, 9, "i8", 1, None),
        ("f32", 35, 40, "i4", 0, 16),
        ("bf16", 33, 12, "i8", 1, 8),
        ("f32", 20, 7, "i8", None, None),
        ("f16", 17, 30, "i4", 0, None),
    ]
    program = Program()
    expected = []
    for index, (element, rows, cols, target, axis, group) in enumerate(cases):
        x = rng.standard_normal((rows, cols)).astype(np.float32) * rng.uniform(0.01, 10)
        x = x.astype(NUMPY_FLOAT[element]).astype(np.float32)
        if element == "f32":
            # Exact halves: x / scale = k + 0.5 for the group's largest entry
            # 127 (i8) or 7 (i4) times a power of two.
            x[0, 0] = np.float32(QMAX[target] * 2.0**-3)
            x[0, 1] = np.float32(2.5 * 2.0**-3)
            x[1, 1] = np.float32(-3.5 * 2.0**-3)
        q_ref, s_ref = quantize_reference(x, target, axis, group)
        q_lib, s_lib = vf.quantize(x.astype(NUMPY_FLOAT[element]), dtype=element,
                                   target=target, axis=axis, group_size=group)
        np.testing.assert_array_equal(q_lib, q_ref, err_msg=f"seed {seed}")
        np.testing.assert_array_equal(_f32_bits(s_lib), _f32_bits(s_ref.reshape(s_lib.shape)))
        attrs = []
        if axis is not None:
            attrs.append(f"axis = {axis}")
        if group:
            attrs.append(f"group_size = {group}")
        attr = f" {{{', '.join(attrs)}}}" if attrs else ""
        scale_type = "tensor<" + "".join(f"{d}x" for d in s_ref.shape) + "f32>"
        in_type = f"tensor<{rows}x{cols}x{element}>"
        q_type = f"tensor<{rows}x{cols}x{target}>"
        program.constant(f"c{index}", x, element)
        program.runtime(f"r{index}", x, element)
        for source in ("c", "r"):
            program.line(f"%q{source}{index}, %s{source}{index} = vnm.quantize "
                         f"%{source}{index}{attr} : {in_type} -> {q_type}, {scale_type}")
            program.print(f"%q{source}{index}", q_type, (rows, cols))
            program.print(f"%s{source}{index}", scale_type, s_ref.shape)
            expected += [q_ref.astype(np.int32), _f32_bits(s_ref)]
    results = program.run(tmp_path)
    for index, (got, want) in enumerate(zip(results, expected)):
        case = cases[index // 4]
        what = ("folded", "run-time")[(index // 2) % 2] + (" q", " scales")[index % 2]
        np.testing.assert_array_equal(got, want, err_msg=f"seed {seed}, {case}, {what}")


def test_quantize_runtime_non_finite_columns_give_nan_scales(tmp_path):
    """A column holding NaN or an infinity gets a NaN or infinite scale and
    zeros, never a plausible finite scale; the other columns are unchanged."""
    seed = _seed()
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((16, 6)).astype(np.float32)
    x[3, 1] = np.nan
    x[5, 2] = np.inf
    x[7, 4] = -np.inf
    program = Program()
    in_type = program.runtime("x", x, "f32", dynamic_cols=True)
    program.line(f"%q, %s = vnm.quantize %x {{axis = 1}} : {in_type} -> "
                 "tensor<16x?xi8>, tensor<?xf32>")
    program.print("%q", "tensor<16x?xi8>", x.shape)
    program.print("%s", "tensor<?xf32>", (6,))
    q, scales = program.run(tmp_path)
    scales = scales.view(np.float32)
    assert np.isnan(scales[1]) and scales[2] == np.inf and scales[4] == np.inf, seed
    assert (q[:, [1, 2, 4]] == 0).all(), seed
    q_ref, s_ref = quantize_reference(x, "i8", 1, None)
    finite = [0, 3, 5]
    np.testing.assert_array_equal(q[:, finite], q_ref[:, finite], err_msg=f"seed {seed}")
    np.testing.assert_array_equal(_f32_bits(scales[finite]), _f32_bits(s_ref[finite]))


def _slot_columns(storage: vf.Compressed) -> np.ndarray:
    """The dense column of every storage slot (>= K for padding slots)."""
    rows = storage.meta.shape[0]
    group = np.arange(storage.meta.shape[1]) // 2
    chosen = storage.colidx[(np.arange(rows) // storage.encoding.v)[:, None],
                            group[None, :], storage.meta]
    return group[None, :] * storage.encoding.m + chosen.astype(np.int64)


def _slot_products(storage, x, first_slot, end_slot, integer):
    """Sum over slots [first_slot, end_slot) of values * x[column], in slot
    order: i32 (wrapping) for an integer x, f32 step by step otherwise."""
    columns = _slot_columns(storage)
    cols, n = x.shape
    rows = columns.shape[0]
    acc = np.zeros((rows, n), np.int64 if integer else np.float32)
    padded = np.concatenate([x, np.zeros((1, n), x.dtype)])
    for slot in range(first_slot, end_slot):
        column = np.minimum(columns[:, slot], cols)  # padding: a zero row
        if integer:
            acc = acc + storage.values[:, slot].astype(np.int64)[:, None] * \
                padded[column].astype(np.int64)
        else:
            product = (storage.values[:, slot].astype(np.float32)[:, None] *
                       padded[column].astype(np.float32)).astype(np.float32)
            acc = (acc + product).astype(np.float32)
    if integer:
        acc = ((acc + 2**31) % 2**32 - 2**31).astype(np.int32)
    return acc


def _storage_lines(program, name, storage, target):
    """Constants for the storage arrays and their vnm.assemble."""
    rows, cols = storage.shape
    enc = storage.encoding
    encoded = (f"tensor<{rows}x{cols}x{target}, #vnm.encoding<v = {enc.v}, n = {enc.n}, "
               f"m = {enc.m}>>")
    program.constant(f"{name}v", storage.values, target)
    program.constant(f"{name}c", storage.colidx.astype(np.int8), "i8")
    program.constant(f"{name}m", storage.meta.astype(np.int8), "i8")
    v_type = f"tensor<{storage.values.shape[0]}x{storage.values.shape[1]}x{target}>"
    c_type = "tensor<" + "x".join(map(str, storage.colidx.shape)) + "xi8>"
    m_type = "tensor<" + "x".join(map(str, storage.meta.shape)) + "xi8>"
    program.line(f"%{name} = vnm.assemble %{name}v, %{name}c, %{name}m : "
                 f"{v_type}, {c_type}, {m_type} -> {encoded}")
    return encoded


@pytest.mark.parametrize("encoding, target, rows, cols, n", [
    ("64:2:8", "i8", 70, 40, 9),
    ("32:2:16", "i4", 45, 40, 5),
    ("16:1:4", "i8", 33, 13, 3),
])
def test_integer_spmm_is_exact(tmp_path, encoding, target, rows, cols, n):
    """i8/i4 weights times i8 activations with an i32 result, plain and
    accumulating, equal the dense integer product."""
    seed = _seed()
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((rows, cols)).astype(np.float32)
    storage, _ = vf.quantize_weights(w, encoding, target=target)
    x = rng.integers(-128, 128, (cols, n)).astype(np.int8)
    acc = rng.integers(-2**20, 2**20, (rows, n)).astype(np.int32)
    program = Program()
    encoded = _storage_lines(program, "w", storage, target)
    x_type = program.runtime("x", x, "i8", dynamic_cols=True)
    program.constant("acc", acc, "i32")
    program.line(f"%accd = tensor.cast %acc : tensor<{rows}x{n}xi32> to tensor<{rows}x?xi32>")
    y_type = f"tensor<{rows}x?xi32>"
    program.line(f"%y = vnm.spmm %w, %x : {encoded}, {x_type} -> {y_type}")
    program.line(f"%ya = vnm.spmm %w, %x acc(%accd : {y_type}) : {encoded}, {x_type} -> "
                 f"{y_type}")
    program.print("%y", y_type, (rows, n))
    program.print("%ya", y_type, (rows, n))
    y, ya = program.run(tmp_path)
    dense = vf.decompress(storage).astype(np.int64) @ x.astype(np.int64)
    np.testing.assert_array_equal(y, dense.astype(np.int32), err_msg=f"seed {seed}")
    np.testing.assert_array_equal(ya, (dense + acc).astype(np.int32), err_msg=f"seed {seed}")
    np.testing.assert_array_equal(y, _slot_products(storage, x, 0, storage.meta.shape[1], True))


# (encoding, weight target, activations, group_size, input scales, result,
#  bias, relu, accumulate, rows, cols, n)
DEQUANTIZED = [
    # W8A8, per-channel weight scales, per-token activation scales.
    ("64:2:8", "i8", "i8", None, "token", "f16", True, True, False, 70, 40, 9),
    # W4A8 per group (ragged last group), one activation scale.
    ("32:2:16", "i4", "i8", 32, "tensor", "bf16", False, False, True, 45, 40, 5),
    # W8A8 without activation scales, f32 out.
    ("16:2:4", "i8", "i8", 8, None, "f32", True, False, False, 20, 22, 4),
    # W8A16 per group, accumulating.
    ("64:2:8", "i8", "f16", 16, None, "f32", False, False, True, 64, 48, 6),
    # W4A16 per channel, bf16 activations, bias and relu.
    ("16:1:8", "i4", "bf16", None, None, "bf16", True, True, False, 19, 24, 3),
]


@pytest.mark.parametrize("case", DEQUANTIZED, ids=lambda c: f"{c[1]}{c[2]}-g{c[3]}-{c[5]}")
def test_dequantizing_spmm(tmp_path, case):
    (encoding, target, activations, group, input_scales, result, with_bias, relu,
     accumulate, rows, cols, n) = case
    seed = _seed()
    rng = np.random.default_rng(seed)
    encoding = vf.as_encoding(encoding)
    w = (rng.standard_normal((rows, cols)) * 0.2).astype(np.float32)
    storage, w_scales = vf.quantize_weights(w, encoding, target=target, group_size=group)
    if not group:
        w_scales = w_scales.reshape(rows)  # spmm takes per-row scales as R
    x_float = rng.standard_normal((cols, n)).astype(np.float32)
    program = Program()
    encoded = _storage_lines(program, "w", storage, target)
    program.constant("sw", w_scales, "f32")
    sw_type = "tensor<" + "".join(f"{d}x" for d in w_scales.shape) + "f32>"
    operands = f" weight_scales(%sw : {sw_type})"
    if activations == "i8":
        # Activations quantized at run time by vnm.quantize.
        axis_attr = " {axis = 1}" if input_scales == "token" else ""
        s_type = "tensor<?xf32>" if input_scales == "token" else "tensor<f32>"
        xf_type = program.runtime("xf", x_float, "f32", dynamic_cols=True)
        program.line(f"%x, %sx = vnm.quantize %xf{axis_attr} : {xf_type} -> "
                     f"tensor<{cols}x?xi8>, {s_type}")
        x_type = f"tensor<{cols}x?xi8>"
        x_q, x_s = quantize_reference(x_float, "i8", 1 if input_scales == "token" else None,
                                      None)
        x_used = x_q
        if input_scales:
            operands += f" input_scales(%sx : {s_type})"
        else:
            x_s = None
    else:
        x_used = x_float.astype(NUMPY_FLOAT[activations])
        x_type = program.runtime("x", x_used, activations, dynamic_cols=True)
        x_s = None
    result_numpy = NUMPY_FLOAT[result]
    bias = (rng.standard_normal(rows)).astype(result_numpy)
    acc = (rng.standard_normal((rows, n))).astype(result_numpy)
    y_type = f"tensor<{rows}x?x{result}>"
    prefix = ""
    if accumulate:
        program.constant("acc", acc, result)
        program.line(f"%accd = tensor.cast %acc : tensor<{rows}x{n}x{result}> to {y_type}")
        prefix += f" acc(%accd : {y_type})"
    if with_bias:
        program.constant("bias", bias, result)
        prefix += f" bias(%bias : tensor<{rows}x{result}>)"
    attrs = []
    if relu:
        attrs.append("activation = #vnm.activation<relu>")
    if group:
        attrs.append(f"group_size = {group}")
    attr = f" {{{', '.join(attrs)}}}" if attrs else ""
    program.line(f"%y = vnm.spmm %w, %x{prefix}{operands}{attr} : {encoded}, {x_type} -> "
                 f"{y_type}")
    program.print("%y", y_type, (rows, n))
    (y_bits,) = program.run(tmp_path)

    # The rule in spec.md's order, in f32 step by step.
    integer = activations == "i8"
    slots_per_scale = 2 * (group // encoding.m) if group else storage.meta.shape[1]
    total = np.zeros((rows, n), np.float32)
    for j, first in enumerate(range(0, storage.meta.shape[1], slots_per_scale)):
        part = _slot_products(storage, x_used, first,
                              min(first + slots_per_scale, storage.meta.shape[1]), integer)
        scale = w_scales[:, j] if group else w_scales
        total = (total + (scale[:, None] * part.astype(np.float32)).astype(np.float32)
                 ).astype(np.float32)
    if x_s is not None:
        total = (total * np.asarray(x_s, np.float32)).astype(np.float32)
    if accumulate:
        total = (total + acc.astype(np.float32)).astype(np.float32)
    if with_bias:
        total = (total + bias.astype(np.float32)[:, None]).astype(np.float32)
    if relu:
        total = np.maximum(total, np.float32(0))
    np.testing.assert_array_equal(y_bits, _float_bits(total, result),
                                  err_msg=f"seed {seed}: not the rule's bits")

    # Independently: the float64 product of the dequantized operands.
    w_deq = vf.dequantize(vf.decompress(storage), w_scales.reshape(rows, -1),
                          target=target, axis=0, group_size=group).astype(np.float64)
    x_deq = x_used.astype(np.float64)
    if x_s is not None:
        x_deq = x_deq * np.asarray(x_s, np.float64)
    exact = w_deq @ x_deq
    if accumulate:
        exact += acc.astype(np.float64)
    if with_bias:
        exact += bias.astype(np.float64)[:, None]
    if relu:
        exact = np.maximum(exact, 0)
    y = y_bits.view(np.float32).astype(np.float64)
    unit = {"f32": 2.0**-23, "f16": 2.0**-10, "bf16": 2.0**-7}[result]
    bound = unit * (np.abs(exact) + np.abs(w_deq) @ np.abs(x_deq) + 1e-30) + 1e-6
    assert (np.abs(y - exact) <= bound).all(), (
        f"seed {seed}: max error {np.abs(y - exact).max()} beyond the rounding of {result}")


@pytest.mark.parametrize("choice, target, group", [("w8a8", "i8", None), ("w4a8-g16", "i4", 16)])
def test_vnm_quantize_pass_runs_a_matmul(tmp_path, choice, target, group):
    """A linalg.matmul with a constant weight, marked for vnm-sparsify and
    vnm-quantize, runs quantized: the weight quantized at compile time (by
    the format library), the activations at run time."""
    import vnm
    seed = _seed()
    rng = np.random.default_rng(seed)
    rows, cols, n = 70, 40, 6
    w = (rng.standard_normal((rows, cols)) * 0.3).astype(np.float32)
    x = rng.standard_normal((cols, n)).astype(np.float32)
    program = Program()
    program.constant("w", w, "f32")
    x_type = program.runtime("x", x, "f32", dynamic_cols=True)
    program.line("%c1 = arith.constant 1 : index")
    program.line(f"%n = tensor.dim %x, %c1 : {x_type}")
    program.line(f"%e = tensor.empty(%n) : tensor<{rows}x?xf32>")
    program.line("%zero = arith.constant 0.0 : f32")
    program.line(f"%init = linalg.fill ins(%zero : f32) outs(%e : tensor<{rows}x?xf32>) -> "
                 f"tensor<{rows}x?xf32>")
    program.line(f'%y = linalg.matmul {{vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>, '
                 f'vnm.quantization = "{choice}"}} ins(%w, %x : tensor<{rows}x{cols}xf32>, '
                 f'{x_type}) outs(%init : tensor<{rows}x?xf32>) -> tensor<{rows}x?xf32>')
    program.print("%y", f"tensor<{rows}x?xf32>", (rows, n))
    quantized = vnm.compile(program.text(),
                            "builtin.module(vnm-sparsify, vnm-quantize, canonicalize)").ir
    assert "vnm.quantization" not in quantized and "xi8>" in quantized
    (y_bits,) = program.run(tmp_path, quantized)

    storage, w_scales = vf.quantize_weights(w, "64:2:8", target=target, group_size=group)
    x_q, x_s = quantize_reference(x, "i8", 1, None)
    slots = storage.meta.shape[1]
    per_scale = 2 * (group // 8) if group else slots
    total = np.zeros((rows, n), np.float32)
    for j, first in enumerate(range(0, slots, per_scale)):
        part = _slot_products(storage, x_q, first, min(first + per_scale, slots), True)
        total = (total + (w_scales[:, j][:, None] * part.astype(np.float32))
                 .astype(np.float32)).astype(np.float32)
    total = (total * x_s).astype(np.float32)
    np.testing.assert_array_equal(y_bits, _f32_bits(total), err_msg=f"seed {seed}")
    # And as close to the float product of the pruned weight as the
    # quantization errors of both operands allow:
    # |P x - Wd Xd| <= |P| |x - Xd| + |P - Wd| |Xd|, plus f32 rounding.
    pruned = vf.prune(w, "64:2:8").astype(np.float64)
    w_deq = vf.dequantize(vf.decompress(storage), w_scales, target=target, axis=0,
                          group_size=group).astype(np.float64)
    x_deq = x_q.astype(np.float64) * x_s.astype(np.float64)
    bound = (np.abs(pruned) @ np.abs(x - x_deq) + np.abs(pruned - w_deq) @ np.abs(x_deq)
             + 1e-5 * (np.abs(w_deq) @ np.abs(x_deq)))
    error = np.abs(y_bits.view(np.float32) - pruned @ x.astype(np.float64))
    assert (error <= bound).all(), f"seed {seed}: error {error.max()} beyond the bound"
