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
from .launch import launch_grid, weight_encodings

_NUMPY_TYPES = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32}
# The parameters of an f16/bf16 kernel, for contracts that do not list them.
_F16_PARAMS = ("frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "n",
               "ldb", "ldc")


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
    # Per-row f32 scales of an integer weight (W8A8, W4A8, W8A16, W4A16).
    weight_scales: object = None


class SpmmKernel:
    """One generated spmm kernel and its launch contract (docs/gpu.md)."""

    def __init__(self, binary, contract: dict):
        if contract.get("op") != "vnm.storage.spmm":
            raise VNMError(f"not an spmm kernel contract: {contract.get('op')!r}")
        if "tensor_map" in contract.get("param_types", []):
            # CuPy passes pointers and scalars, not a 128-byte tensor map.
            raise VNMError("the kernel takes tensor maps (a TMA kernel, recipe "
                           "wgmma-sp-ws): launch it through vnm.launch.GpuKernel")
        self.contract = dict(contract)
        self.rows = contract["rows"]
        self.cols = contract["cols"]
        # The weight is pruned as the op's format and packed as the kernel's.
        self.op_encoding, self.encoding = weight_encodings(contract)
        self.dtype = contract["element_type"]
        self.result_type = contract["result_type"]
        # Quantized kernels: rhs's element type (i8, or f16/bf16 under a
        # dequantized weight), its layout (token-major x[N][K] for i8 and
        # for f16/bf16 kernels compiled from a transposed x) and
        # the fragment class of the weight.
        self.rhs_type = contract.get("rhs_type", self.dtype)
        self.token_major = contract.get("rhs_layout") == "token_major"
        # The result stored as y[N][R] (a linear layer's layout) rather
        # than R x N.
        self.token_major_out = contract.get("out_layout") == "token_major"
        self.fragment_class = contract.get("fragment_class")
        self.params = list(contract.get("params", _F16_PARAMS))
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
        # only use after the host allows it: above 48 KiB of it, or of it
        # and the kernel's static shared memory together (an A ring).
        self._dynamic_shared = int(contract.get("dynamic_shared_bytes", 0))
        if self._dynamic_shared > 0:
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

    @property
    def integer_weight(self) -> bool:
        return self.dtype in ("i8", "i4")

    def pack(self, weight, weight_scales=None) -> PackedWeight:
        """Uploads an R x K weight in the kernel's fragment layout: a float
        weight (numpy; f16, or bf16 as uint16 bits) is pruned and
        compressed; an integer kernel's weight is either an int8 matrix of
        its values (pruned here; i4 values in [-7, 7]) with its per-row f32
        `weight_scales`, or the (storage, scales) pair that
        vnm.format.quantize_weights returns."""
        cupy = _cupy()
        if self.integer_weight:
            if isinstance(weight, tuple):
                compressed, weight_scales = weight
            else:
                weight = np.asarray(weight)
                if weight.dtype != np.int8:
                    raise VNMError(f"an {self.dtype} kernel packs int8 weight values, "
                                   f"not {weight.dtype}")
                compressed = None
            if weight_scales is None:
                raise VNMError(f"an {self.dtype} kernel needs the weight's per-row scales")
            scales = np.ascontiguousarray(weight_scales, dtype=np.float32).reshape(-1)
            if scales.shape != (self.rows,):
                raise VNMError(f"weight_scales has {scales.size} values, expected "
                               f"{self.rows} (one per row)")
        elif weight_scales is not None:
            raise VNMError("a float kernel takes no weight scales")
        if not self.integer_weight or compressed is None:
            weight = np.asarray(weight)
            if weight.shape != (self.rows, self.cols):
                raise VNMError(f"weight has shape {weight.shape}, the kernel was "
                               f"compiled for {(self.rows, self.cols)}")
            compressed = vf.compress(weight, self.op_encoding, dtype=self.dtype)
        elif (compressed.shape != (self.rows, self.cols) or compressed.dtype != self.dtype
              or compressed.encoding != self.op_encoding):
            raise VNMError(f"the storage holds a {compressed.shape} {compressed.dtype} "
                           f"{compressed.encoding} matrix, the kernel was compiled for "
                           f"{(self.rows, self.cols)} {self.dtype} {self.op_encoding}")
        compressed = vf.repack(compressed, self.encoding)
        fragments = vf.pack_fragments(compressed, fragment_class=self.fragment_class)
        pruned = vf.decompress(compressed)
        return PackedWeight(cupy.asarray(fragments.values.view(np.uint8)),
                            cupy.asarray(fragments.meta),
                            cupy.asarray(compressed.colidx), pruned,
                            cupy.asarray(scales) if self.integer_weight else None)

    def __call__(self, weight: PackedWeight, rhs, out, n: Optional[int] = None,
                 bias=None, input_scales=None, stream=None):
        """out[:, :n] = act(W rhs[:, :n] (+ out) (+ bias)) on the GPU.

        `rhs` is K x ldb (ldb a multiple of 8), or for the token-major
        kernels (the contract's rhs_layout; i8 always) N' x ldb holding
        x[N][K] (N' >= n tokens, ldb >= K with 16-byte rows: a multiple of
        16 for i8, of 8 for f16/bf16; with `input_scales` the n per-token
        f32 scales when the kernel dequantizes); `out` is R x ldc, ldc a
        multiple of 8, or for a kernel that stores y token-major (the
        contract's out_layout) N' x ldc holding y[N][R] (N' >= n, ldc >= R).
        Cupy arrays or any object with __cuda_array_interface__,
        C-contiguous."""
        cupy = _cupy()
        rhs, out = cupy.asarray(rhs), cupy.asarray(out)
        ldb, ldc = rhs.shape[1], out.shape[1]
        # How many result columns (tokens) out has room for.
        room = out.shape[0] if self.token_major_out else ldc
        if self.token_major:
            n = rhs.shape[0] if n is None else n
            # 16-byte rows: 16 i8 or 8 f16/bf16 elements.
            pitch = 16 if self.rhs_type == "i8" else 8
            rhs_checks = [
                (ldb >= self.cols and ldb % pitch == 0,
                 f"a token-major rhs has rows of ldb >= K = {self.cols} elements, "
                 f"a multiple of {pitch} (got {ldb})"),
                (0 < n <= min(rhs.shape[0], room),
                 f"n = {n} does not fit {rhs.shape[0]} tokens and out's {room}"),
            ]
        else:
            n = rhs.shape[1] if n is None else n
            rhs_checks = [
                (rhs.shape[0] == self.cols, f"rhs has {rhs.shape[0]} rows, expected {self.cols}"),
                (ldb % 8 == 0, "row strides must be multiples of 8 elements"),
                (0 < n <= min(ldb, room), f"n = {n} does not fit ldb = {ldb}, out's {room}"),
            ]
        wants_input_scales = "input_scales" in self.params
        if self.token_major_out:
            out_checks = [
                (out.shape[0] >= n and ldc >= self.rows,
                 f"a token-major out holds n = {n} rows of ldc >= R = {self.rows} "
                 f"elements (got {tuple(out.shape)})"),
            ]
        else:
            out_checks = [
                (out.shape[0] == self.rows,
                 f"out has {out.shape[0]} rows, expected {self.rows}"),
                (ldc % 8 == 0, "row strides must be multiples of 8 elements"),
            ]
        checks = rhs_checks + out_checks + [
            (rhs.flags.c_contiguous and out.flags.c_contiguous, "rhs and out must be C-contiguous"),
            ((bias is not None) == self.contract["bias"],
             "bias must be given exactly when the kernel was compiled with one"),
            ((input_scales is not None) == wants_input_scales,
             "input_scales must be given exactly when the kernel takes them"),
            (("weight_scales" in self.params) == (weight.weight_scales is not None),
             "the weight was not packed for this kernel"),
        ]
        for ok, message in checks:
            if not ok:
                raise VNMError(message)
        if bias is not None:
            bias = cupy.asarray(bias)
            if bias.shape != (self.rows,):
                raise VNMError(f"bias has shape {bias.shape}, expected ({self.rows},)")
        if input_scales is not None:
            input_scales = cupy.asarray(input_scales)
            if input_scales.dtype != np.float32 or input_scales.shape[0] < n:
                raise VNMError(f"input_scales must be n = {n} or more float32 values")
        grid = launch_grid(self.contract, n)
        pointer = lambda a: np.uint64(a.data.ptr)  # noqa: E731
        values = {"frag_values": pointer(weight.frag_values),
                  "frag_meta": pointer(weight.frag_meta),
                  "colidx": pointer(weight.colidx), "rhs": pointer(rhs),
                  "out": pointer(out),
                  "bias": pointer(bias) if bias is not None else np.uint64(0),
                  "weight_scales": (pointer(weight.weight_scales)
                                    if weight.weight_scales is not None else None),
                  "input_scales": (pointer(input_scales)
                                   if input_scales is not None else None),
                  "n": np.int32(n), "ldb": np.int32(ldb), "ldc": np.int32(ldc)}
        # In the contract's parameter order (docs/gpu.md).
        args = tuple(values[name] for name in self.params)
        with stream if stream is not None else contextlib.nullcontext():
            self._function(grid, tuple(self.contract["block"]), args,
                           shared_mem=self._dynamic_shared)
        return out
