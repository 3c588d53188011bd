"""Launching generated SpMM kernels on an NVIDIA GPU, through CuPy.

A kernel comes from `vnm.compile(..., target="sm_90")` (or from the files
`vnm-dump-kernels` writes) with its launch contract; this module checks a
launch against that contract and issues it. Compiling needs libVNMCAPI.so,
launching does not: a GPU host can run kernels compiled elsewhere, with the
format library alone (libVNMFormatC.so) to pack weights.

    kernel = SpmmKernel.from_result(vnm.compile(src, target="sm_90"))
    weight = kernel.pack(w)                 # prune, compress, fragment layout
    kernel(weight, rhs, out)                # cupy arrays, rhs K x ldb, out R x ldc
"""

import contextlib
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from . import format as vf
from ._errors import VNMError

_NUMPY_TYPES = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32}


def _cupy():
    try:
        import cupy
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise VNMError("vnm.runtime needs CuPy and a CUDA GPU") from e
    return cupy


@dataclass(frozen=True)
class PackedWeight:
    """A weight in the kernel's storage, on the GPU."""

    frag_values: object
    frag_meta: object
    colidx: object
    pruned: np.ndarray  # the dense pruned weight (host), for references


class SpmmKernel:
    """One generated spmm kernel and its launch contract (docs/gpu.md)."""

    def __init__(self, binary, contract: dict):
        if contract.get("op") != "vnm.storage.spmm":
            raise VNMError(f"not an spmm kernel contract: {contract.get('op')!r}")
        self.contract = dict(contract)
        self.rows = contract["rows"]
        self.cols = contract["cols"]
        self.encoding = vf.Encoding(contract["v"], contract["n"], contract["m"])
        self.dtype = contract["element_type"]
        self.result_type = contract["result_type"]
        ptx = binary.encode() if isinstance(binary, str) else binary
        cupy = _cupy()
        # CuPy loads PTX from a file (code= would be compiled as CUDA C).
        with tempfile.NamedTemporaryFile(suffix=".ptx") as f:
            f.write(ptx)
            f.flush()
            module = cupy.RawModule(path=f.name)
            self._function = module.get_function(contract["kernel"])
        self._module = module
        # Rings beyond 48 KiB are dynamic shared memory, which a kernel may
        # only use above that size after the host allows it.
        self._dynamic_shared = int(contract.get("dynamic_shared_bytes", 0))
        if self._dynamic_shared > 48 * 1024:
            self._function.max_dynamic_shared_size_bytes = self._dynamic_shared

    @classmethod
    def from_result(cls, result, index: int = 0) -> "SpmmKernel":
        kernel = result.kernels[index]
        return cls(result.binaries[kernel.binary], kernel.contract)

    @classmethod
    def from_files(cls, directory, kernel: str = "spmm_0") -> "SpmmKernel":
        directory = Path(directory)
        contract = json.loads((directory / f"{kernel}.json").read_text())
        binary = (directory / f"{contract['module']}.ptx").read_text()
        return cls(binary, contract)

    def pack(self, weight: np.ndarray) -> PackedWeight:
        """Prunes and compresses an R x K weight (numpy; f16, or bf16 as
        uint16 bits) and uploads it in the kernel's fragment layout."""
        weight = np.asarray(weight)
        if weight.shape != (self.rows, self.cols):
            raise VNMError(f"weight has shape {weight.shape}, the kernel was "
                           f"compiled for {(self.rows, self.cols)}")
        compressed = vf.compress(weight, self.encoding, dtype=self.dtype)
        fragments = vf.pack_fragments(compressed)
        pruned = vf.decompress(compressed)
        cupy = _cupy()
        return PackedWeight(cupy.asarray(fragments.values.view(np.uint8)),
                            cupy.asarray(fragments.meta),
                            cupy.asarray(compressed.colidx), pruned)

    def __call__(self, weight: PackedWeight, rhs, out, n: Optional[int] = None,
                 bias=None, stream=None):
        """out[:, :n] = act(W rhs[:, :n] (+ out) (+ bias)) on the GPU.

        `rhs` is K x ldb and `out` R x ldc (cupy arrays or any object with
        __cuda_array_interface__, C-contiguous), ldb and ldc multiples of 8."""
        cupy = _cupy()
        rhs, out = cupy.asarray(rhs), cupy.asarray(out)
        n = rhs.shape[1] if n is None else n
        ldb, ldc = rhs.shape[1], out.shape[1]
        checks = [
            (rhs.shape[0] == self.cols, f"rhs has {rhs.shape[0]} rows, expected {self.cols}"),
            (out.shape[0] == self.rows, f"out has {out.shape[0]} rows, expected {self.rows}"),
            (ldb % 8 == 0 and ldc % 8 == 0, "row strides must be multiples of 8 elements"),
            (0 < n <= min(ldb, ldc), f"n = {n} does not fit ldb = {ldb}, ldc = {ldc}"),
            (rhs.flags.c_contiguous and out.flags.c_contiguous, "rhs and out must be C-contiguous"),
            ((bias is not None) == self.contract["bias"],
             "bias must be given exactly when the kernel was compiled with one"),
        ]
        for ok, message in checks:
            if not ok:
                raise VNMError(message)
        if bias is not None:
            bias = cupy.asarray(bias)
            if bias.shape != (self.rows,):
                raise VNMError(f"bias has shape {bias.shape}, expected ({self.rows},)")
        grid = ((n + self.contract["grid_x_divisor"] - 1) // self.contract["grid_x_divisor"],
                self.contract["grid_y"], 1)
        pointer = lambda a: np.uint64(a.data.ptr)  # noqa: E731
        args = (pointer(weight.frag_values), pointer(weight.frag_meta),
                pointer(weight.colidx), pointer(rhs), pointer(out),
                pointer(bias) if bias is not None else np.uint64(0),
                np.int32(n), np.int32(ldb), np.int32(ldc))
        with stream if stream is not None else contextlib.nullcontext():
            self._function(grid, tuple(self.contract["block"]), args,
                           shared_mem=self._dynamic_shared)
        return out
