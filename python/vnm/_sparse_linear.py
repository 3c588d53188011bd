"""The vnm linear layer of a whole PyTorch model (vnm.torch.sparsify).

`VNMLinear` holds its weight in the V:N:M storage and computes
y = x W^T + b through one custom op, `vnm::sparse_linear`, so that
torch.compile traces it (its fake implementation gives the result's shape)
and CUDA graphs capture it (a launch only enqueues work on PyTorch's current
stream):

* on a CUDA device it launches the layer's generated kernel through vnm's
  own runtime (vnm.launch, the CUDA driver API), reading x token-major
  where the kernel does (the contract's rhs_layout) and a K x N copy of it
  otherwise, and taking y[N][R] as the kernel stores it (out_layout), or
  transposing its R x N result;
* on the CPU it decompresses the storage with the format library and
  multiplies densely: the same result (x rounded to the layer's element
  type, f32 accumulation), for tests and for hosts without a GPU.

The op's static facts (shape, format, kernel) sit in a registry indexed by
the int the layer passes, so the op's tensor inputs are exactly the data;
an entry lives as long as a layer (or a copy of it) that uses it.
"""

import itertools
import secrets
import threading
import weakref
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import numpy as np
import torch

from . import format as vf
from ._errors import VNMError
from ._linear_layer import WEIGHT_ONLY_FORMS, compress_weight
from .launch import weight_encodings

_ELEMENT_TYPES = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32"}
_TORCH_TYPES = {name: dtype for dtype, name in _ELEMENT_TYPES.items()}


@dataclass
class _Plan:
    """What every call of one layer shares."""

    rows: int
    cols: int
    encoding: vf.Encoding
    dtype: str                 # x's element type (and the weight's, unquantized)
    out_dtype: torch.dtype     # the result's
    has_bias: bool
    kernel: Optional[object] = None    # the CompileResult, None: CPU only
    quantization: Optional[str] = None  # "w8a16", "w4a16": i8/i4 W, per-row scales
    loaded: Dict[int, object] = field(default_factory=dict)  # device -> GpuKernel

    @property
    def weight_type(self) -> str:
        """The element type of the stored weight values."""
        return WEIGHT_ONLY_FORMS[self.quantization] if self.quantization else self.dtype

    @property
    def contract(self) -> Optional[dict]:
        return None if self.kernel is None else self.kernel.kernels[0].contract

    @property
    def token_major(self) -> bool:
        return self.contract is not None and self.contract.get("rhs_layout") == "token_major"

    @property
    def token_major_out(self) -> bool:
        return self.contract is not None and self.contract.get("out_layout") == "token_major"

    def gpu_kernel(self, device: int):
        from .launch import GpuKernel

        if device not in self.loaded:
            kernel = self.kernel.kernels[0]
            self.loaded[device] = GpuKernel(self.kernel.binaries[kernel.binary],
                                            kernel.contract, device)
        return self.loaded[device]


# The plans of the living layers, each with the number of layers (a layer
# and its copies) that use it: the last one to go takes the plan and its
# loaded kernels with it.
_PLANS: Dict[int, _Plan] = {}
_PLAN_USERS: Dict[int, int] = {}
_PLAN_IDS = itertools.count()
_PLAN_LOCK = threading.Lock()
# Which process's registry a layer's plan index refers to (an index
# unpickled in another process would name another layer's plan there).
_PROCESS_TOKEN = secrets.token_hex(16)


def _register(plan: _Plan) -> int:
    with _PLAN_LOCK:
        index = next(_PLAN_IDS)
        _PLANS[index] = plan
        _PLAN_USERS[index] = 0
    return index


def _use_plan(layer: "VNMLinear", index: int, owner: str) -> None:
    """Makes `layer` one of plan `index`'s users until it is collected."""
    with _PLAN_LOCK:
        if owner != _PROCESS_TOKEN or index not in _PLANS:
            raise VNMError("this VNMLinear refers to a kernel plan that this process does "
                           "not have (it was pickled in another process); make the layer "
                           "again with vnm.torch.sparsify")
        _PLAN_USERS[index] += 1
    weakref.finalize(layer, _release_plan, index)


def _release_plan(index: int) -> None:
    with _PLAN_LOCK:
        _PLAN_USERS[index] -= 1
        if _PLAN_USERS[index] == 0:
            del _PLAN_USERS[index]
            del _PLANS[index]


def _numpy_values(values: torch.Tensor) -> np.ndarray:
    """The format library's numpy form (bf16 as uint16 bits)."""
    values = values.detach().cpu().contiguous()
    if values.dtype == torch.bfloat16:
        return values.view(torch.int16).numpy().view(np.uint16)
    return values.numpy()


def _torch_values(array: np.ndarray, dtype: str) -> torch.Tensor:
    if dtype == "bf16":
        return torch.from_numpy(np.ascontiguousarray(array).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(array))


def _dense_weight(plan: _Plan, values, colidx, meta, scales=None) -> torch.Tensor:
    """W as the layer multiplies it, f32 (a quantized W dequantized)."""
    compressed = vf.Compressed(_numpy_values(values), colidx.cpu().numpy(), meta.cpu().numpy(),
                               (plan.rows, plan.cols), plan.encoding, plan.weight_type)
    dense = vf.decompress(compressed)
    if plan.quantization:
        return torch.from_numpy(dense.astype(np.float32)) * scales.cpu().float()[:, None]
    return _torch_values(dense, plan.dtype).float()


def _run_cpu(plan: _Plan, x, storage: List[torch.Tensor], bias):
    weight = _dense_weight(plan, *storage)
    x32 = x.to(_TORCH_TYPES[plan.dtype]).float()
    y = x32 @ weight.t()
    if bias is not None:
        y = y + bias.float()
    return y.to(plan.out_dtype)


def _round_up(value: int, multiple: int) -> int:
    return (value + multiple - 1) // multiple * multiple


def _run_gpu(plan: _Plan, x, storage: List[torch.Tensor], bias):
    if plan.kernel is None:
        raise VNMError("this vnm layer was made without a GPU target; pass target= "
                       "(e.g. 'sm_90') to vnm.torch.sparsify to run it on a GPU")
    frag_values, frag_meta, colidx = storage[:3]
    device = x.device.index if x.device.index is not None else torch.cuda.current_device()
    kernel = plan.gpu_kernel(device)
    dtype = _TORCH_TYPES[plan.dtype]
    x2 = x.reshape(-1, plan.cols).to(dtype)
    n = x2.shape[0]
    if n == 0:
        return x.new_empty((*x.shape[:-1], plan.rows), dtype=plan.out_dtype)
    ldc = _round_up(n, 8)
    if plan.token_major:
        # x[N][K] as it is; rows of a multiple of 8 elements (16 bytes), at
        # a 16-byte aligned address (a view may start anywhere).
        ldb = _round_up(plan.cols, 8)
        rhs = x2.contiguous() if ldb == plan.cols else torch.nn.functional.pad(
            x2, (0, ldb - plan.cols))
        if rhs.data_ptr() % 16:
            rhs = rhs.clone()
    else:
        ldb = ldc
        rhs = torch.empty(plan.cols, ldb, dtype=dtype, device=x.device)
        rhs[:, :n] = x2.t()
    if plan.token_major_out:
        # The kernel stores y[N][R] itself.
        ldc = plan.rows
        out = torch.empty(n, ldc, dtype=plan.out_dtype, device=x.device)
    else:
        out = torch.empty(plan.rows, ldc, dtype=plan.out_dtype, device=x.device)
    values = {"frag_values": frag_values.data_ptr(), "frag_meta": frag_meta.data_ptr(),
              "colidx": colidx.data_ptr(), "rhs": rhs.data_ptr(), "out": out.data_ptr(),
              "bias": None if bias is None else bias.data_ptr(),
              "n": n, "ldb": ldb, "ldc": ldc}
    if plan.quantization:
        values["weight_scales"] = storage[3].data_ptr()
    kernel.launch(values, n, torch.cuda.current_stream(x.device).cuda_stream)
    if plan.token_major_out:
        return out.reshape(*x.shape[:-1], plan.rows)
    # The kernel wrote y^T (R x N); the layer's result is y[N][R].
    return out[:, :n].t().reshape(*x.shape[:-1], plan.rows)


@torch.library.custom_op("vnm::sparse_linear", mutates_args=())
def sparse_linear(x: torch.Tensor, storage: List[torch.Tensor], bias: Optional[torch.Tensor],
                  layer: int) -> torch.Tensor:
    """y = x W^T (+ b) with W in vnm's storage: [values, colidx, meta] on
    the CPU, [frag_values, frag_meta, colidx] on a GPU; a quantized W adds
    its per-row scales to either."""
    plan = _PLANS[layer]
    if x.is_cuda:
        y = _run_gpu(plan, x, storage, bias)
    else:
        y = _run_cpu(plan, x, storage, bias)
    return y.contiguous()


@sparse_linear.register_fake
def _(x, storage, bias, layer):
    plan = _PLANS[layer]
    return x.new_empty((*x.shape[:-1], plan.rows), dtype=plan.out_dtype)


class VNMLinear(torch.nn.Module):
    """y = x W^T + b with W in the V:N:M format, on vnm's kernels.

    Made by vnm.torch.sparsify, or from an nn.Linear whose weight is already
    V:N:M (any other weight is refused: nothing is pruned silently). The
    storage follows the module across .to()/.cuda(): the CPU keeps the
    logical storage, a GPU the kernel's fragment storage (both are
    buffers). `dtype` is the element type the weight is stored in (f16 or
    bf16 for the GPU kernels; f32 runs on the CPU only); x is rounded to it
    and the result has the original layer's dtype. With `quantization`
    ("w8a16", "w4a16") the kept values are stored as i8 or i4 with one f32
    scale per row (vnm.format.quantize_weights) and `dtype` is x's type."""

    def __init__(self, linear: torch.nn.Linear, encoding, *, dtype: Optional[torch.dtype] = None,
                 kernel=None, name: str = "linear", quantization: Optional[str] = None):
        super().__init__()
        weight = linear.weight.detach()
        rows, cols = weight.shape
        dtype = weight.dtype if dtype is None else dtype
        if dtype not in _ELEMENT_TYPES:
            raise ValueError(f"layer {name!r}: vnm stores f16, bf16 or f32 weights, not {dtype}")
        element = _ELEMENT_TYPES[dtype]
        if quantization is not None and quantization not in WEIGHT_ONLY_FORMS:
            raise ValueError(f"layer {name!r}: quantization must be one of "
                             f"{sorted(WEIGHT_ONLY_FORMS)}, not {quantization!r}")
        stored = WEIGHT_ONLY_FORMS[quantization] if quantization else element
        if weight.dtype not in _ELEMENT_TYPES:
            raise ValueError(f"layer {name!r}: vnm layers return f16, bf16 or f32, not "
                             f"{weight.dtype}; cast the model first")
        if kernel is not None:
            contract = kernel.kernels[0].contract
            expected = (stored, element, _ELEMENT_TYPES[weight.dtype], rows, cols,
                        linear.bias is not None, quantization is not None)
            actual = (contract["element_type"], contract.get("rhs_type", stored),
                      contract["result_type"], contract["rows"], contract["cols"],
                      contract["bias"], "weight_scales" in contract["params"])
            if actual != expected:
                raise ValueError(f"layer {name!r}: the kernel computes {actual} (weight, x, "
                                 f"result, R, K, bias, scales), the layer needs {expected}")
        self.encoding = vf.as_encoding(encoding)
        self.in_features, self.out_features = cols, rows
        host = _numpy_values(weight.to(dtype))
        compressed = compress_weight(host, self.encoding, element, name,
                                     "vnm.torch.sparsify prunes unless prune=False")
        scales = None
        if quantization:
            # The kept values (the same positions: the weight is V:N:M
            # already), quantized per row.
            compressed, scales = vf.quantize_weights(
                weight.detach().cpu().float().numpy(), self.encoding,
                target=WEIGHT_ONLY_FORMS[quantization])
        # The module holds only the plan's index: copies of the module share
        # the plan and its loaded kernels.
        self._layer = _register(_Plan(rows, cols, self.encoding, element, weight.dtype,
                                      linear.bias is not None, kernel, quantization))
        self._plan_owner = _PROCESS_TOKEN
        _use_plan(self, self._layer, self._plan_owner)
        self.register_buffer("values", _torch_values(compressed.values, stored))
        self.register_buffer("colidx", torch.from_numpy(compressed.colidx.copy()))
        self.register_buffer("meta", torch.from_numpy(compressed.meta.copy()))
        if kernel is not None:
            contract = kernel.kernels[0].contract
            # The kernel's own packing: V:N:4 where it runs the weight as
            # 2:4, else the layer's.
            packed = vf.repack(compressed, weight_encodings(contract)[1])
            fragments = vf.pack_fragments(packed,
                                          fragment_class=contract.get("fragment_class"))
            self.register_buffer("frag_colidx", torch.from_numpy(packed.colidx.copy()),
                                 persistent=False)
            self.register_buffer("frag_values", torch.from_numpy(
                fragments.values.view(np.uint8).copy()), persistent=False)
            self.register_buffer("frag_meta", torch.from_numpy(
                fragments.meta.view(np.int32).copy()), persistent=False)
        self.register_buffer("weight_scales", None if scales is None else torch.from_numpy(
            np.ascontiguousarray(scales, np.float32).reshape(rows)))
        bias = None if linear.bias is None else linear.bias.detach().to(weight.dtype).clone()
        self.register_buffer("bias", bias)

    def __setstate__(self, state):
        # A copy (copy.deepcopy, pickle within the process) shares the plan.
        super().__setstate__(state)
        _use_plan(self, self._layer, self._plan_owner)

    @property
    def _plan(self) -> _Plan:
        return _PLANS[self._layer]

    @property
    def kernel(self):
        """The layer's CompileResult (PTX and launch contract), or None."""
        return self._plan.kernel

    @property
    def pruned_weight(self) -> torch.Tensor:
        """W as the layer multiplies it (dense, on the CPU; a quantized W
        dequantized, in f32)."""
        plan = self._plan
        if plan.quantization:
            return _dense_weight(plan, self.values, self.colidx, self.meta, self.weight_scales)
        compressed = vf.Compressed(_numpy_values(self.values), self.colidx.cpu().numpy(),
                                   self.meta.cpu().numpy(), (self.out_features, self.in_features),
                                   self.encoding, plan.dtype)
        return _torch_values(vf.decompress(compressed), plan.dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stored = torch.int8 if self._plan.quantization else _TORCH_TYPES[self._plan.dtype]
        scales_cast = (self.weight_scales is not None
                       and self.weight_scales.dtype != torch.float32)
        if self.values.dtype != stored or scales_cast or (
                self.bias is not None and self.bias.dtype != self._plan.out_dtype):
            scales = "" if self.weight_scales is None else \
                f", weight scales {self.weight_scales.dtype}"
            raise VNMError(
                f"the layer's buffers were cast (values {self.values.dtype}{scales}, bias "
                f"{None if self.bias is None else self.bias.dtype}); its kernel takes "
                f"{self._plan.weight_type} weights and returns {self._plan.out_dtype}: cast "
                "the model before vnm.torch.sparsify, not after")
        if x.shape[-1] != self.in_features:
            raise ValueError(f"x has {x.shape[-1]} features, the layer takes {self.in_features}")
        if x.is_cuda:
            if self._plan.kernel is None:
                raise VNMError("this vnm layer was made without a GPU target; pass target= "
                               "(e.g. 'sm_90') to vnm.torch.sparsify to run it on a GPU")
            storage = [self.frag_values, self.frag_meta, self.frag_colidx]
        else:
            storage = [self.values, self.colidx, self.meta]
        if self._plan.quantization:
            storage.append(self.weight_scales)
        if any(t.device != x.device for t in storage):
            raise ValueError(f"x is on {x.device}, the layer on {storage[0].device}")
        return sparse_linear(x, storage, self.bias, self._layer)

    def extra_repr(self) -> str:
        target = "cpu only" if self._plan.kernel is None else self._plan.contract["kernel"]
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"encoding={self.encoding}, dtype={self._plan.dtype}, kernel={target}")
