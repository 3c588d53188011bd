"""Runs a vnm program on the CPU: compiles MLIR text through the CPU
pipeline (vnm.compile) and executes its @main with mlir-runner.

Programs print their results with printMemrefI32 so that every value is
compared bit for bit: integers as they are, floats as their f32 bit patterns
(see `print_exactly`).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import vnm


def runner():
    """mlir-runner and the libraries a vnm CPU program needs, or None."""
    path = shutil.which("mlir-runner") or "/usr/lib/llvm-22/bin/mlir-runner"
    if not os.access(path, os.X_OK):
        return None
    llvm_lib = Path(path).resolve().parent.parent / "lib"
    libs = [Path(vnm.library_path).parent / "libvnm_cpu_runtime.so",
            llvm_lib / "libmlir_c_runner_utils.so", llvm_lib / "libmlir_runner_utils.so"]
    if not all(lib.exists() for lib in libs):
        return None
    return [path, "-e", "main", "-entry-point-result=void",
            "-shared-libs=" + ",".join(map(str, libs))]


def run(tmp_path, program: str) -> str:
    """Compiles `program` through the CPU pipeline and returns what its @main
    printed (the test is skipped where the runner is missing)."""
    command = runner()
    if command is None:
        pytest.skip("needs mlir-runner, libmlir_(c_)runner_utils.so and "
                    "libvnm_cpu_runtime.so beside libVNMCAPI.so")
    path = tmp_path / "program.mlir"
    path.write_text(vnm.compile(program).ir)
    return subprocess.run(command + [str(path)], capture_output=True, text=True,
                          check=True, timeout=300).stdout


def printed_int32(stdout: str, shapes):
    """The int32 memrefs printed by printMemrefI32, in order, reshaped."""
    sections = stdout.split("Unranked Memref")[1:]
    assert len(sections) == len(shapes), stdout[-2000:]
    arrays = []
    for section, shape in zip(sections, shapes):
        numbers = re.findall(r"-?\d+", section.split("data =", 1)[1])
        arrays.append(np.array(numbers, np.int64).astype(np.int32).reshape(shape))
    return arrays


def literal(array: np.ndarray, element: str) -> str:
    """An MLIR dense constant of `array` with element type `element`."""
    shape = "x".join(map(str, array.shape))
    if element == "i4":
        body = np.array2string(array.astype(np.int64), separator=", ", threshold=1 << 30,
                               max_line_width=1 << 30)
        return f"dense<{body}> : tensor<{shape}xi4>"
    numpy_type = (_bfloat16() if element == "bf16" else
                  {"i8": np.int8, "i32": np.int32, "f32": np.float32,
                   "f16": np.float16}[element])
    data = np.ascontiguousarray(array.astype(numpy_type)).tobytes().hex().upper()
    return f'dense<"0x{data}"> : tensor<{shape}x{element}>'


def _bfloat16():
    import ml_dtypes
    return ml_dtypes.bfloat16


_PRINT_COUNTER = [0]


def print_exactly(value: str, tensor_type: str) -> str:
    """MLIR lines that print `value` (of `tensor_type`, e.g.
    "tensor<4x?xf16>", static or not) as an int32 memref: integers
    sign-extended, floats widened exactly to f32 and bitcast."""
    _PRINT_COUNTER[0] += 1
    n = _PRINT_COUNTER[0]
    match = re.fullmatch(r"tensor<((?:[0-9?]+x)*)(\w+)>", tensor_type)
    dims, element = match.group(1), match.group(2)
    rank = dims.count("x")
    int_type = f"tensor<{dims}i32>"
    lines = []
    dynamic = [i for i, d in enumerate(dims.split("x")[:-1]) if d == "?"]
    sizes = []
    for i in dynamic:
        lines += [f"%pc{n}_{i} = arith.constant {i} : index",
                  f"%pd{n}_{i} = tensor.dim {value}, %pc{n}_{i} : {tensor_type}"]
        sizes.append(f"%pd{n}_{i}")
    if element == "i32":
        converted = value
    else:
        # Region values may not shadow the enclosing function's names.
        value_in, wide, bits = f"%pin{n}", f"%pwide{n}", f"%pbits{n}"
        if element in ("i8", "i4"):
            body = [f"{bits} = arith.extsi {value_in} : {element} to i32"]
        elif element == "f32":
            body = [f"{bits} = arith.bitcast {value_in} : f32 to i32"]
        else:
            body = [f"{wide} = arith.extf {value_in} : {element} to f32",
                    f"{bits} = arith.bitcast {wide} : f32 to i32"]
        dims_list = ", ".join(f"d{i}" for i in range(rank))
        identity = f"affine_map<({dims_list}) -> ({dims_list})>"
        iterators = ", ".join(['"parallel"'] * rank)
        lines += [f"%pe{n} = tensor.empty({', '.join(sizes)}) : {int_type}",
                  f"%pg{n} = linalg.generic {{indexing_maps = [{identity}, {identity}], "
                  f"iterator_types = [{iterators}]}} ins({value} : {tensor_type}) "
                  f"outs(%pe{n} : {int_type}) {{",
                  f"^bb0({value_in}: {element}, %pout{n}: i32):", *body,
                  f"  linalg.yield {bits} : i32",
                  f"}} -> {int_type}"]
        converted = f"%pg{n}"
    memref_type = int_type.replace("tensor", "memref")
    lines += [f"%pb{n} = bufferization.to_buffer {converted} : {int_type} to {memref_type}",
              f"%pu{n} = memref.cast %pb{n} : {memref_type} to memref<*xi32>",
              f"func.call @printMemrefI32(%pu{n}) : (memref<*xi32>) -> ()"]
    return "\n".join(lines)
