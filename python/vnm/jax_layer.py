"""A vnm linear layer for JAX: y = x W^T (+ b) as one XLA custom call,
usable inside jax.jit (docs/jax.md).

    w = vnm.pruning.prune_weight(w_dense, "64:2:8", "sparsegpt", inputs=x_cal)
    layer = vnm.jax_layer.SparseDense(w, "64:2:8", bias=b, target="sm_90")
    y = jax.jit(lambda x: layer(x))(x)      # x (..., K) -> y (..., R)

The weight is R x K, as nn.Linear holds it, and must already be V:N:M
(nothing is pruned silently). The call is an XLA FFI custom call
(lib/CAPI/JaxFFI.cpp), staged out for both platforms with
jax.lax.platform_dependent, so one jitted function runs on either:

* on the CPU the format library decompresses the layer's storage and the
  handler multiplies densely: x rounded to the weight's element type, f32
  accumulation, one rounding to the result's type (the weight's original
  dtype) -- the numbers of vnm.torch's VNMLinear on the CPU;
* on an NVIDIA GPU (a layer made with `target=`) it launches the layer's
  generated kernel on XLA's stream, loaded on the device at its first call
  there; x and y reach the kernel in the layouts its launch contract names
  (token-major x and y need no transposes; the others are transposed by
  jnp operations in the same jit).

The kernel is compiled through vnm.kernel_cache, so a GPU host that has
only the format library (libVNMFormatC.so) uses kernels compiled elsewhere.
No autodiff rule is defined: the layer is for inference.
"""

import hashlib
import threading
from typing import Optional

import numpy as np

from . import _capi
from . import format as vf
from ._errors import VNMError
from ._linear_layer import compress_weight, layer_program
from .pruning import parse_encoding

# The float spmm kernels' parameters, in the order the CUDA handler passes
# them (the launch contract, docs/gpu.md).
_FLOAT_KERNEL_PARAMS = ["frag_values", "frag_meta", "colidx", "rhs", "out", "bias", "n",
                        "ldb", "ldc"]
_ELEMENT_TYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32"}
# How the handler's tensor_maps attribute names the call's own sizes.
_TENSOR_MAP_SIZES = {"n": -1, "ldb": -2, "ldc": -3}


def _tensor_map_attribute(contract) -> np.ndarray:
    """The handler's tensor_maps attribute: for each pointer parameter
    (the first six), 1 and the contract's tensor_maps entry (element_bytes,
    rows, cols, ld, box_rows, box_cols, swizzle_bytes; sizes named by a
    parameter as _TENSOR_MAP_SIZES codes them) where the kernel takes it as a
    tensor map, else eight zeros."""
    entries = contract.get("tensor_maps", {})
    fields = []
    for name, kind in zip(contract["params"][:6], contract["param_types"][:6]):
        if kind == "ptr":
            fields += [0] * 8
            continue
        entry = entries.get(name) if kind == "tensor_map" else None
        if entry is None:
            raise VNMError(f"the kernel takes {name} as {kind!r}, which the JAX layer's "
                           "handler cannot pass")

        def size(key):
            value = entry[key]
            if isinstance(value, str):
                if value not in _TENSOR_MAP_SIZES:
                    raise VNMError(f"{name}'s tensor map has {key} {value!r}, which the "
                                   "JAX layer's handler does not know")
                return _TENSOR_MAP_SIZES[value]
            return int(value)

        fields += [1, int(entry["element_bytes"]), size("rows"), size("cols"), size("ld"),
                   int(entry["box_rows"]), int(entry["box_cols"]),
                   int(entry["swizzle_bytes"])]
    return np.asarray(fields, np.int64)

_lock = threading.Lock()
_targets_registered = False
_kernel_ids = {}


def _jax():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise VNMError("vnm.jax_layer needs JAX") from e
    return jax, jnp


def _register_targets():
    """Registers the two FFI handlers with XLA, once per process."""
    global _targets_registered
    with _lock:
        if _targets_registered:
            return
        lib = _capi.lib
        if not hasattr(lib, "vnmJaxSparseLinearCpu"):
            raise VNMError(f"{_capi.library_path} was built without vnm's JAX FFI handlers "
                           "(XLA's FFI headers, which jaxlib ships, were not found when it "
                           "was configured); rebuild it with JAX installed")
        jax, _ = _jax()
        jax.ffi.register_ffi_target("vnm_sparse_linear_cpu",
                                    jax.ffi.pycapsule(lib.vnmJaxSparseLinearCpu),
                                    platform="cpu")
        jax.ffi.register_ffi_target("vnm_sparse_linear_cuda",
                                    jax.ffi.pycapsule(lib.vnmJaxSparseLinearCuda),
                                    platform="CUDA")
        _targets_registered = True


def _kernel_id(binary, contract) -> int:
    """The id under which the CUDA handler finds this kernel (one per
    distinct image, name and shared memory)."""
    import ctypes

    image = binary.encode() if isinstance(binary, str) else bytes(binary)
    name = contract["kernel"].encode()
    shared = int(contract.get("dynamic_shared_bytes", 0))
    key = (hashlib.sha256(image).hexdigest(), name, shared)
    with _lock:
        if key not in _kernel_ids:
            image_ref, keep_image = _capi.string_ref(image)
            name_ref, keep_name = _capi.string_ref(name)
            index = ctypes.c_int64()
            _capi.check(_capi.lib.vnmJaxKernelRegister(image_ref, name_ref, shared,
                                                       ctypes.byref(index)))
            del keep_image, keep_name
            _kernel_ids[key] = index.value
        return _kernel_ids[key]


def _round_up(value: int, multiple: int) -> int:
    return (value + multiple - 1) // multiple * multiple


def _element_type(dtype) -> str:
    if isinstance(dtype, str) and dtype in ("f16", "bf16", "f32"):
        return dtype
    name = np.dtype(dtype).name
    if name not in _ELEMENT_TYPES:
        raise ValueError(f"vnm layers store f16, bf16 or f32 weights, not {name}")
    return _ELEMENT_TYPES[name]


def _jnp_type(element: str):
    _, jnp = _jax()
    return {"f16": jnp.float16, "bf16": jnp.bfloat16, "f32": jnp.float32}[element]


class SparseDense:
    """y = x W^T + b with W (R x K) in the V:N:M format, one custom call.

    weight    R x K, already V:N:M (vnm.pruning.prune_weight prunes one);
              its dtype (f16, bf16 or f32) is the result's
    encoding  "64:2:8", "2:4", (V, N, M) or a vnm.format.Encoding
    bias      R values, or None
    dtype     the element type W is stored in and x rounded to ("f16",
              "bf16", "f32" or a numpy/JAX dtype); default the weight's.
              The GPU kernels take f16 and bf16.
    target    a GPU ("sm_80", "sm_90", "sm_90a") to compile the layer's
              kernel for; None: the CPU path only
    gpu_options, cache_dir   as vnm.kernel_cache.cached_compile takes them

    Refused with a ValueError, before anything is compiled: a weight that is
    not a matrix of f16, bf16 or f32, one that is not V:N:M, a bias of the
    wrong size; with the format library's VNMError: NaN or infinite weight
    entries; with a CompileError: a layer the kernels cannot tile."""

    def __init__(self, weight, encoding, *, bias=None, dtype=None,
                 target: Optional[str] = None, gpu_options: str = "",
                 cache_dir: Optional[str] = None, name: str = "dense"):
        jax, jnp = _jax()
        w = np.asarray(weight)
        if w.ndim != 2:
            raise ValueError(f"layer {name!r}: the weight must be R x K, got shape {w.shape}")
        out_type = _element_type(w.dtype)
        element = out_type if dtype is None else _element_type(dtype)
        self.name = name
        self.encoding = vf.Encoding(*parse_encoding(encoding))
        self.out_features, self.in_features = rows, cols = w.shape
        self.element_type, self.result_type = element, out_type
        host = np.asarray(w.astype(_jnp_type(element)))
        bits = host.view(np.uint16) if element == "bf16" else host
        compressed = compress_weight(bits, self.encoding, element, name,
                                     "vnm.pruning.prune_weight")
        if bias is not None:
            bias = np.asarray(bias)
            if bias.shape != (rows,):
                raise ValueError(f"layer {name!r}: the bias must have {rows} values, "
                                 f"got shape {bias.shape}")
        self._compressed = compressed
        values = np.asarray(compressed.values)
        if element == "bf16":
            values = values.view(jnp.bfloat16)
        self.values = jnp.asarray(values.reshape(rows, -1))
        self.colidx = jnp.asarray(np.asarray(compressed.colidx, np.uint8).reshape(-1))
        self.meta = jnp.asarray(np.asarray(compressed.meta, np.uint8).reshape(rows, -1))
        self.bias = (jnp.zeros((0,), _jnp_type(out_type)) if bias is None
                     else jnp.asarray(bias, _jnp_type(out_type)))
        self.has_bias = bias is not None
        self.kernel = None
        self._kernel_index = None
        if target is not None:
            self._compile(target, gpu_options, cache_dir)

    def _compile(self, target, gpu_options, cache_dir):
        from ._errors import CompileError
        from .kernel_cache import cached_compile
        from .launch import weight_encodings

        _, jnp = _jax()
        program = layer_program(self.out_features, self.in_features, self.encoding,
                                self.element_type, self.result_type, self.has_bias)
        try:
            result = cached_compile(program, target=target, gpu_options=gpu_options,
                                    directory=cache_dir)
        except CompileError as error:
            raise CompileError(f"layer {self.name!r} ({self.out_features} x "
                               f"{self.in_features}, {self.encoding}) does not compile for "
                               f"{target}: {error}", error.diagnostics) from error
        kernel = result.kernels[0]
        contract = kernel.contract
        if list(contract["params"]) != _FLOAT_KERNEL_PARAMS:
            raise VNMError(f"layer {self.name!r}: its kernel takes {contract['params']}; the "
                           f"JAX layer launches kernels of parameters {_FLOAT_KERNEL_PARAMS}")
        try:
            self._tensor_maps = _tensor_map_attribute(contract)
        except VNMError as error:
            raise VNMError(f"layer {self.name!r}: {error}") from None
        # A V:2:M weight run as 2:4 is packed as 2:4 (its own values and
        # columns, stored anew): the kernel's colidx and fragment arrays.
        packed = vf.repack(self._compressed, weight_encodings(contract)[1])
        self._packed_encoding = packed.encoding
        self.frag_colidx = jnp.asarray(np.asarray(packed.colidx).reshape(-1))
        fragments = vf.pack_fragments(packed, fragment_class=contract.get("fragment_class"))
        self.frag_values = jnp.asarray(np.asarray(fragments.values).view(np.uint8).reshape(-1))
        self.frag_meta = jnp.asarray(np.asarray(fragments.meta).view(np.int32).reshape(-1))
        self.kernel = result
        self._contract = contract
        self._binary = result.binaries[kernel.binary]

    @property
    def pruned_weight(self) -> np.ndarray:
        """W as the layer multiplies it: dense R x K, in the element type
        (bf16 as JAX's bfloat16)."""
        _, jnp = _jax()
        dense = vf.decompress(self._compressed)
        return dense.view(jnp.bfloat16) if self.element_type == "bf16" else dense

    def _attributes(self, encoding=None):
        encoding = encoding or self.encoding
        return dict(rows=np.int64(self.out_features), cols=np.int64(self.in_features),
                    v=np.int64(encoding.v), n=np.int64(encoding.n),
                    m=np.int64(encoding.m), has_bias=self.has_bias)

    def _cpu(self, x2, values, colidx, meta, bias, *fragments):
        jax, _ = _jax()
        out = jax.ShapeDtypeStruct((x2.shape[0], self.out_features),
                                   _jnp_type(self.result_type))
        return jax.ffi.ffi_call("vnm_sparse_linear_cpu", out, vmap_method="sequential")(
            x2, values, colidx, meta, bias, **self._attributes())

    def _cuda(self, x2, values, colidx, meta, bias, frag_values, frag_meta, frag_colidx):
        jax, jnp = _jax()
        contract = self._contract
        tokens, cols, rows = x2.shape[0], self.in_features, self.out_features
        token_major_rhs = contract.get("rhs_layout") == "token_major"
        token_major_out = contract.get("out_layout") == "token_major"
        if token_major_rhs:
            # x[N][K] itself, rows padded to 16 bytes.
            ldb = _round_up(cols, 8)
            rhs = jnp.pad(x2, ((0, 0), (0, ldb - cols)))
        else:
            ldb = _round_up(tokens, 8)
            rhs = jnp.pad(x2.T, ((0, 0), (0, ldb - tokens)))
        ldc = rows if token_major_out else _round_up(tokens, 8)
        shape = (tokens, rows) if token_major_out else (rows, ldc)
        out = jax.ShapeDtypeStruct(shape, _jnp_type(self.result_type))
        if self._kernel_index is None:
            self._kernel_index = _kernel_id(self._binary, contract)
        y = jax.ffi.ffi_call("vnm_sparse_linear_cuda", out, vmap_method="sequential")(
            frag_values, frag_meta, frag_colidx, rhs, bias, kernel=np.int64(self._kernel_index),
            tokens=np.int64(tokens), ldb=np.int64(ldb), ldc=np.int64(ldc),
            token_major_rhs=token_major_rhs, token_major_out=token_major_out,
            grid_x_divisor=np.int64(contract["grid_x_divisor"]),
            grid_y=np.int64(contract["grid_y"]), block_x=np.int64(contract["block"][0]),
            tensor_maps=self._tensor_maps, **self._attributes(self._packed_encoding))
        return y if token_major_out else y[:, :tokens].T

    def __call__(self, x):
        jax, jnp = _jax()
        _register_targets()
        x = jnp.asarray(x)
        if x.ndim == 0 or x.shape[-1] != self.in_features:
            raise ValueError(f"layer {self.name!r}: x must end in {self.in_features} "
                             f"features, got shape {x.shape}")
        lead = x.shape[:-1]
        x2 = x.reshape(-1, self.in_features).astype(_jnp_type(self.element_type))
        if x2.shape[0] == 0:
            return jnp.zeros((*lead, self.out_features), _jnp_type(self.result_type))
        storage = (x2, self.values, self.colidx, self.meta, self.bias)
        if self.kernel is None:
            if jax.default_backend() != "cpu":
                raise VNMError(f"layer {self.name!r} was made without a GPU target; pass "
                               "target= (e.g. 'sm_90') to run it on a GPU")
            y = self._cpu(*storage)
        else:
            y = jax.lax.platform_dependent(*storage, self.frag_values, self.frag_meta,
                                           self.frag_colidx, cpu=self._cpu, cuda=self._cuda)
        return y.reshape(*lead, self.out_features)
