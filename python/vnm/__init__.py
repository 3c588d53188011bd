"""vnm: V:N:M structured sparsity for NVIDIA sparse tensor cores.

    import vnm
    c = vnm.format.compress(w, (64, 2, 8))   # the format library on numpy
    result = vnm.compile(mlir_text)          # the compiler (CPU pipeline)
    gpu = vnm.compile(mlir_text, target="sm_90")  # PTX + launch contracts

The package is pure Python over libVNMCAPI.so (the C API, through ctypes);
see vnm.format and vnm.compiler. vnm.jax (JAX frontend), vnm.runtime (CuPy
launches) and vnm.torch (SparseLinear) are imported on demand.
"""

__version__ = "0.1.0"

from . import format
from ._capi import library_path
from ._errors import CompileError, Diagnostic, VNMError
from .compiler import (CPU_PIPELINE, CompileResult, Compiler, Kernel, Module,
                       compile, gpu_pipeline)

__all__ = [
    "CPU_PIPELINE",
    "CompileError",
    "CompileResult",
    "Compiler",
    "Diagnostic",
    "Kernel",
    "Module",
    "VNMError",
    "compile",
    "format",
    "gpu_pipeline",
    "library_path",
]
