"""vnm: V:N:M structured sparsity for NVIDIA sparse tensor cores.

    import vnm
    c = vnm.format.compress(w, (64, 2, 8))   # the format library on numpy
    result = vnm.compile(mlir_text)          # the compiler (CPU pipeline)

The package is pure Python over libVNMCAPI.so (the C API, through ctypes);
see vnm.format and vnm.compiler.
"""

__version__ = "0.1.0"

from . import format
from ._capi import library_path
from ._errors import CompileError, Diagnostic, VNMError
from .compiler import CPU_PIPELINE, CompileResult, Compiler, Module, compile

__all__ = [
    "CPU_PIPELINE",
    "CompileError",
    "CompileResult",
    "Compiler",
    "Diagnostic",
    "Module",
    "VNMError",
    "compile",
    "format",
    "library_path",
]
