"""JAX arrays on vnm's generated kernels, on an NVIDIA GPU.

The kernels of `vnm.jax.lower(..., target="sm_90")` (or of `vnm.compile`)
are launched through vnm.runtime (CuPy); JAX arrays cross to CuPy and back
through DLPack without copies, and DLPack's stream argument orders the work
of the two libraries' streams.

    kernel = vnm.runtime.SpmmKernel.from_files("kernels", "spmm_0")
    layer = vnm.jax_runtime.SparseMatmul(kernel, w)   # R x K, pruned and packed
    y = layer(x)            # x: JAX (..., K) -> JAX (..., R) = x @ W_pruned.T (+ b)
    w_pruned = layer.pruned_weight()                  # JAX, for references

The kernel computes OUT = W RHS with the activations feature-major (K x N,
N tokens), so `__call__` transposes into a padded K x ldb buffer and back,
as vnm.torch.SparseLinear does; `apply_t` works on feature-major CuPy
buffers directly, which lets a chain of layers skip the transposes between
them. The launch happens from Python: these are eager calls, not ops that
jax.jit can trace.
"""

from typing import Optional

import numpy as np

from ._errors import VNMError
from .runtime import SpmmKernel, _cupy


def _jax():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise VNMError("vnm.jax_runtime needs JAX") from e
    return jax, jnp


def to_cupy(array):
    """A CuPy view of a JAX GPU array (DLPack, no copy). bf16 arrays cross
    as their uint16 bit patterns (CuPy has no bfloat16)."""
    jax, jnp = _jax()
    if getattr(array, "dtype", None) == jnp.bfloat16:
        array = jax.lax.bitcast_convert_type(array, jnp.uint16)
    return _cupy().from_dlpack(array)


def to_jax(array, dtype: Optional[str] = None):
    """A JAX view of a C-contiguous CuPy array (DLPack, no copy); with
    dtype "bf16" a uint16 array is read as bfloat16."""
    jax, jnp = _jax()
    result = jax.dlpack.from_dlpack(array)
    if dtype == "bf16":
        result = jax.lax.bitcast_convert_type(result, jnp.bfloat16)
    return result


def host_weight(weight, element_type: str) -> np.ndarray:
    """A weight (JAX or numpy) as the host array SpmmKernel.pack takes for
    the kernel's element type ("f16", "bf16" as uint16 bits, "f32")."""
    array = np.asarray(weight)
    if element_type == "f16":
        return array.astype(np.float16, copy=False)
    if element_type == "f32":
        return array.astype(np.float32, copy=False)
    if element_type == "bf16":
        if array.dtype == np.uint16:
            return array
        if array.dtype.name != "bfloat16":
            import ml_dtypes  # a dependency of JAX

            array = array.astype(ml_dtypes.bfloat16)
        return array.view(np.uint16)
    raise VNMError(f"no JAX runtime support for element type {element_type!r}")


class _KeepAlive:
    """Holds objects that work queued on a CuPy stream still reads (DLPack
    views of JAX buffers, scratch buffers) until that work has finished."""

    def __init__(self):
        self._pending = []

    def add(self, stream, *objects):
        cupy = _cupy()
        event = cupy.cuda.Event(disable_timing=True)
        event.record(stream)
        self._pending = [(e, o) for e, o in self._pending if not e.done]
        self._pending.append((event, objects))


class SparseMatmul:
    """y = act(x W^T (+ b)) for JAX activations x, W pruned to the kernel's
    V:N:M format and packed once (kernels without an accumulator)."""

    def __init__(self, kernel: SpmmKernel, weight, bias=None):
        if kernel.contract["accumulate"]:
            raise VNMError("SparseMatmul needs a kernel without accumulator")
        if (bias is not None) != kernel.contract["bias"]:
            raise VNMError("bias must be given exactly when the kernel was compiled with one")
        cupy = _cupy()
        self.kernel = kernel
        self.rows, self.cols = kernel.rows, kernel.cols
        self.weight = kernel.pack(host_weight(weight, kernel.dtype))
        self.bias = None
        if bias is not None:
            self.bias = cupy.asarray(host_weight(bias, kernel.result_type))
        self._keep = _KeepAlive()

    def pruned_weight(self):
        """The dense pruned weight (R x K) as a JAX array of the kernel's type."""
        jax, jnp = _jax()
        pruned = self.weight.pruned
        if self.kernel.dtype == "bf16":
            return jax.lax.bitcast_convert_type(jnp.asarray(pruned.view(np.uint16)),
                                                jnp.bfloat16)
        return jnp.asarray(pruned)

    def apply_t(self, rhs, out=None, n: Optional[int] = None):
        """out[:, :n] = act(W rhs[:, :n] (+ b)) on CuPy buffers: rhs K x ldb,
        out R x ldc, feature-major, or ldb x R (y[N][R]) for a kernel that
        stores its result token-major (the contract's out_layout);
        allocated when None. Returns out."""
        cupy = _cupy()
        if out is None:
            shape = ((rhs.shape[1], self.rows) if self.kernel.token_major_out
                     else (self.rows, rhs.shape[1]))
            out = cupy.empty(shape, dtype=_cupy_type(self.kernel.result_type))
        return self.kernel(self.weight, rhs, out, n=n, bias=self.bias)

    def __call__(self, x):
        """x: JAX array (..., K) of the kernel's element type -> JAX (..., R)."""
        cupy = _cupy()
        if x.shape[-1] != self.cols:
            raise VNMError(f"x has {x.shape[-1]} features, the kernel takes {self.cols}")
        lead = x.shape[:-1]
        x2 = to_cupy(x).reshape(-1, self.cols)
        if x2.dtype != _cupy_type(self.kernel.dtype):
            raise VNMError(f"x has dtype {x.dtype}, the kernel takes {self.kernel.dtype}")
        n = x2.shape[0]
        ld = (n + 7) // 8 * 8
        rhs = cupy.zeros((self.cols, ld), dtype=x2.dtype)
        rhs[:, :n] = x2.T
        out = self.apply_t(rhs, n=n)
        y = out[:n] if self.kernel.token_major_out else out[:, :n].T
        y = cupy.ascontiguousarray(y).reshape(*lead, self.rows)
        self._keep.add(cupy.cuda.get_current_stream(), x2, rhs, out)
        return to_jax(y, "bf16" if self.kernel.result_type == "bf16" else None)


def _cupy_type(element_type: str):
    # bf16 travels as uint16 bits.
    return {"f16": np.float16, "bf16": np.uint16, "f32": np.float32}[element_type]
