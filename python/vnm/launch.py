"""Launching generated kernels through vnm's own runtime library.

The launcher is part of the C API (include/vnm-c/GPURuntime.h): it opens
the CUDA driver when the first kernel is loaded and enqueues launches on a
stream the caller names, such as PyTorch's current stream, so that they
follow the framework's order and are captured by CUDA graphs. It needs no
CuPy and no CUDA toolkit; libVNMFormatC.so carries it to hosts without
LLVM.

    kernel = GpuKernel(binary, contract)         # PTX text or cubin bytes
    kernel.launch({"frag_values": ptr, ..., "n": 37, "ldb": 40, "ldc": 40},
                  n=37, stream=torch.cuda.current_stream().cuda_stream)

Values are device pointers (ints) for the contract's "ptr" parameters and
ints for its "i32" ones; a pointer parameter given None is passed as null
(an absent bias). A "tensor_map" parameter is given the device pointer of
its matrix too: the launcher makes the tensor map the contract's
`tensor_maps` entry describes (bounds and pitch from constants or other
parameters) and passes it by value. docs/gpu.md describes the contract.
"""

import ctypes
import threading
from typing import Mapping, Optional, Tuple

from . import _capi
from ._capi import lib
from ._errors import VNMError

_TENSOR_MAP_BYTES = 128
_CTYPES = {"ptr": ctypes.c_uint64, "i32": ctypes.c_int32,
           "tensor_map": ctypes.c_uint8 * _TENSOR_MAP_BYTES}


def encode_tensor_map(address: int, entry: Mapping, values: Mapping[str, Optional[int]],
                      into=None):
    """The tensor map (128 bytes) of the matrix at device address `address`
    that a contract's `tensor_maps` entry describes; its rows, cols and ld
    are ints or names of parameters whose `values` hold them."""
    def number(key):
        value = entry[key]
        if isinstance(value, str):
            if values.get(value) is None:
                raise VNMError(f"the tensor map's {key} is parameter {value}, which has "
                               "no value")
            value = values[value]
        return int(value)

    box = into if into is not None else (ctypes.c_uint8 * _TENSOR_MAP_BYTES)()
    _capi.check(lib.vnmGpuTensorMapEncode(
        ctypes.c_void_p(int(address)), int(entry["element_bytes"]), number("rows"),
        number("cols"), number("ld"), int(entry["box_rows"]), int(entry["box_cols"]),
        int(entry["swizzle_bytes"]), ctypes.cast(box, ctypes.c_void_p)))
    return box


def launch_grid(contract: Mapping, n: int) -> Tuple[int, int, int]:
    """The grid of a launch over n columns of the result (the contract's
    grid_x_divisor and grid_y)."""
    divisor = contract["grid_x_divisor"]
    return ((n + divisor - 1) // divisor, contract["grid_y"], 1)


def weight_encodings(contract: Mapping):
    """(the op's format, the format the kernel's fragment arrays and colidx
    are packed in). They differ where a V:N:M weight runs as 2:4 (the
    contract's op_m is M, its m 4): the weight is pruned as the first and
    packed as the second (vnm.format.repack)."""
    from . import format as vf

    packed = vf.Encoding(contract["v"], contract["n"], contract["m"])
    return packed._replace(m=contract.get("op_m", packed.m)), packed


class GpuKernel:
    """One kernel of a generated module, loaded on a CUDA device.

    Loading fails with a VNMError that names the reason: no CUDA driver on
    this host, no such device, an image the driver rejects (with the JIT's
    error log), a kernel name the image lacks, or more dynamic shared memory
    than the device allows."""

    def __init__(self, binary, contract: Mapping, device: int = 0):
        self.contract = dict(contract)
        self.params = list(self.contract["params"])
        types = self.contract.get("param_types", ["ptr"] * len(self.params))
        unknown = sorted(set(types) - set(_CTYPES))
        if len(types) != len(self.params) or unknown:
            raise VNMError(f"the contract's param_types {types} do not describe its "
                           f"params {self.params}")
        self.param_types = list(types)
        self.tensor_maps = dict(self.contract.get("tensor_maps", {}))
        unmapped = [p for p, t in zip(self.params, types)
                    if t == "tensor_map" and p not in self.tensor_maps]
        if unmapped:
            raise VNMError(f"the contract's tensor_maps do not describe {unmapped}")
        self.block = tuple(int(b) for b in self.contract["block"])
        image = binary.encode() if isinstance(binary, str) else bytes(binary)
        image_ref, keep_image = _capi.string_ref(image)
        name_ref, keep_name = _capi.string_ref(self.contract["kernel"].encode())
        handle = _capi.GpuKernel()
        _capi.check(lib.vnmGpuKernelLoad(
            int(device), image_ref, name_ref,
            int(self.contract.get("dynamic_shared_bytes", 0)), ctypes.byref(handle)))
        del keep_image, keep_name
        self._handle = handle
        self.device = int(device)
        # One set of parameter boxes and their pointer array, filled per
        # launch under a lock: packing them anew costs more than the launch.
        self._boxes = [_CTYPES[kind]() for kind in self.param_types]
        self._pointers = (ctypes.c_void_p * max(len(self._boxes), 1))(
            *[ctypes.cast(ctypes.byref(box), ctypes.c_void_p) for box in self._boxes])
        self._grid = _capi.U32x3()
        self._block = _capi.U32x3(*self.block)
        self._divisor = int(self.contract["grid_x_divisor"])
        self._grid[1], self._grid[2] = int(self.contract["grid_y"]), 1
        self._lock = threading.Lock()

    def launch(self, values: Mapping[str, Optional[int]], n: int, stream: int = 0) -> None:
        """Enqueues the kernel over n result columns on `stream` (a CUstream
        handle as an int; 0 is the legacy default stream)."""
        if n <= 0:
            raise VNMError(f"a launch needs n > 0 result columns, not {n}")
        if self._handle is None:
            raise VNMError("the kernel was closed")
        with self._lock:
            for name, kind, box in zip(self.params, self.param_types, self._boxes):
                try:
                    value = values[name]
                except KeyError:
                    missing = [p for p in self.params if p not in values]
                    raise VNMError(f"no value for the kernel parameters {missing}") from None
                if value is None and kind != "ptr":
                    raise VNMError(f"parameter {name} ({kind}) needs a value")
                if kind == "tensor_map":
                    encode_tensor_map(value, self.tensor_maps[name], values, into=box)
                    continue
                value = 0 if value is None else int(value)
                if kind == "i32" and not -2**31 <= value < 2**31:
                    raise VNMError(f"parameter {name} (i32) cannot hold {value}")
                box.value = value
            self._grid[0] = (n + self._divisor - 1) // self._divisor
            _capi.check(lib.vnmGpuKernelLaunch(self._handle, self._grid, self._block,
                                               ctypes.c_void_p(int(stream)),
                                               self._pointers))

    def close(self) -> None:
        """Unloads the kernel's module (also done when it is collected)."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None and handle.ptr:
            lib.vnmGpuKernelDestroy(handle)

    def __del__(self):
        self.close()

    def __reduce__(self):
        # A copy would own the same module twice; load the binary again.
        raise TypeError("a loaded GpuKernel cannot be copied or pickled")
