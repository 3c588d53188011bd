"""ctypes bindings of libVNMCAPI.so (include/vnm-c).

Everything in the package goes through this module; nothing else touches
ctypes. The library is found, in order, at ``$VNM_LIBRARY_PATH`` (the file,
or a directory holding ``libVNMCAPI.so``) and next to this file, where a
wheel installs it. ``$VNM_LIBRARY_PATH`` may also name ``libVNMFormatC.so``,
the format library alone, which needs no LLVM or MLIR (a GPU host that runs
precompiled kernels): then `has_compiler` is False and vnm.compile refuses.
"""

import ctypes
import os
from pathlib import Path

from ._errors import VNMError

LIBRARY_NAME = "libVNMCAPI.so"

# Must equal VNM_CAPI_VERSION in include/vnm-c/Support.h: the declarations
# below are only valid for that version of the library.
CAPI_VERSION = 3


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]


class String(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]


class Status(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class Compiler(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class Module(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class GpuKernel(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class Encoding(ctypes.Structure):
    _fields_ = [("v", ctypes.c_int64), ("n", ctypes.c_int64), ("m", ctypes.c_int64)]


STORAGE_SHAPE_FIELDS = (
    ("rows", "rows"),
    ("cols", "cols"),
    ("groups", "groups"),
    ("blocks", "blocks"),
    ("compressedCols", "compressed_cols"),
    ("denseCount", "dense_count"),
    ("denseBytes", "dense_bytes"),
    ("valueCount", "value_count"),
    ("valueBytes", "value_bytes"),
    ("colidxCount", "colidx_count"),
    ("metaCount", "meta_count"),
    ("paddedRows", "padded_rows"),
    ("paddedGroups", "padded_groups"),
    ("paddedCompressedCols", "padded_compressed_cols"),
    ("rowTiles", "row_tiles"),
    ("kTiles", "k_tiles"),
    ("fragValueCount", "frag_value_count"),
    ("fragValueBytes", "frag_value_bytes"),
    ("fragMetaWords", "frag_meta_words"),
)


class StorageShape(ctypes.Structure):
    _fields_ = [(c_name, ctypes.c_int64) for c_name, _ in STORAGE_SHAPE_FIELDS]


# Element types (VnmElementType), in the C API's numbering.
ELEMENT_TYPES = {"f16": 0, "bf16": 1, "f32": 2, "i8": 3, "i4": 4}

# Diagnostic severities (VnmDiagnosticSeverity), by value.
SEVERITIES = ("error", "warning", "note", "remark")

PRINT_GENERIC = 1
PRINT_DEBUG_INFO = 2

_p = ctypes.c_void_p
_u8p = ctypes.POINTER(ctypes.c_uint8)
_u32p = ctypes.POINTER(ctypes.c_uint32)
_i8p = ctypes.POINTER(ctypes.c_int8)
_f32p = ctypes.POINTER(ctypes.c_float)
_i64 = ctypes.c_int64
_i64p = ctypes.POINTER(ctypes.c_int64)

U32x3 = ctypes.c_uint32 * 3

_PROTOTYPES = {
    "vnmGetCAPIVersion": (ctypes.c_int, []),
    "vnmStringDestroy": (None, [String]),
    "vnmStatusGetMessage": (StringRef, [Status]),
    "vnmStatusDestroy": (None, [Status]),
    # Compiler.h
    "vnmCompilerCreate": (Compiler, []),
    "vnmCompilerDestroy": (None, [Compiler]),
    "vnmCompilerGetNumDiagnostics": (ctypes.c_ssize_t, [Compiler]),
    "vnmCompilerGetDiagnosticSeverity": (ctypes.c_int, [Compiler, ctypes.c_ssize_t]),
    "vnmCompilerGetDiagnosticLocation": (StringRef, [Compiler, ctypes.c_ssize_t]),
    "vnmCompilerGetDiagnosticMessage": (StringRef, [Compiler, ctypes.c_ssize_t]),
    "vnmModuleParse": (Status, [Compiler, StringRef, StringRef, ctypes.POINTER(Module)]),
    "vnmModuleDestroy": (None, [Module]),
    "vnmModuleRunPipeline": (Status, [Module, StringRef]),
    "vnmModulePrint": (Status, [Module, ctypes.c_uint32, ctypes.POINTER(String)]),
    "vnmModuleWriteBytecode": (Status, [Module, ctypes.POINTER(String)]),
    # GPURuntime.h
    "vnmGpuKernelLoad": (
        Status,
        [ctypes.c_int, StringRef, StringRef, _i64, ctypes.POINTER(GpuKernel)],
    ),
    "vnmGpuKernelLaunch": (
        Status,
        [GpuKernel, U32x3, U32x3, _p, ctypes.POINTER(ctypes.c_void_p)],
    ),
    "vnmGpuKernelDestroy": (None, [GpuKernel]),
    "vnmGpuTensorMapEncode": (
        Status,
        [_p, _i64, _i64, _i64, _i64, _i64, _i64, _i64, _p],
    ),
    # JaxFFI.cpp (built where XLA's FFI headers were found)
    "vnmJaxKernelRegister": (Status, [StringRef, StringRef, _i64, ctypes.POINTER(_i64)]),
    # Format.h
    "vnmFormatValidateEncoding": (Status, [Encoding]),
    "vnmFormatGetStorageShape": (
        Status,
        [Encoding, ctypes.c_int, _i64, _i64, ctypes.POINTER(StorageShape)],
    ),
    "vnmFormatPrune": (Status, [Encoding, ctypes.c_int, _p, _i64, _i64, _p, ctypes.c_int]),
    "vnmFormatCompress": (
        Status,
        [Encoding, ctypes.c_int, _p, _i64, _i64, _p, _u8p, _u8p, ctypes.c_int],
    ),
    "vnmFormatDecompress": (
        Status,
        [Encoding, ctypes.c_int, _p, _u8p, _u8p, _i64, _i64, _p],
    ),
    "vnmFormatVerifyStorage": (
        Status,
        [Encoding, ctypes.c_int, _p, _u8p, _u8p, _i64, _i64],
    ),
    "vnmFormatPackFragments": (
        Status,
        [Encoding, ctypes.c_int, _p, _u8p, _i64, _i64, _p, _u32p],
    ),
    "vnmFormatUnpackFragments": (
        Status,
        [Encoding, ctypes.c_int, _p, _u32p, _i64, _i64, _p, _u8p],
    ),
    "vnmFormatPackFragmentsAs": (
        Status,
        [Encoding, ctypes.c_int, ctypes.c_int, _p, _u8p, _i64, _i64, _p, _u32p],
    ),
    "vnmFormatUnpackFragmentsAs": (
        Status,
        [Encoding, ctypes.c_int, ctypes.c_int, _p, _u32p, _i64, _i64, _p, _u8p],
    ),
    "vnmFormatGetQuantizeScaleShape": (
        Status,
        [_i64, _i64, ctypes.c_int32, _i64, _i64p, _i64p],
    ),
    "vnmFormatQuantize": (
        Status,
        [ctypes.c_int, _p, _i64, _i64, ctypes.c_int, ctypes.c_int32, _i64, _i8p, _f32p],
    ),
    "vnmFormatDequantize": (
        Status,
        [_i8p, _i64, _i64, ctypes.c_int, ctypes.c_int32, _i64, _f32p, _f32p],
    ),
}


def _find_library() -> Path:
    override = os.environ.get("VNM_LIBRARY_PATH")
    if override:
        path = Path(override)
        if path.is_dir():
            path = path / LIBRARY_NAME
        if not path.is_file():
            raise ImportError(f"VNM_LIBRARY_PATH={override!r}: no {LIBRARY_NAME} there")
        return path
    path = Path(__file__).resolve().parent / LIBRARY_NAME
    if not path.is_file():
        raise ImportError(
            f"{LIBRARY_NAME} is not installed next to the vnm package ({path.parent}); "
            "install the package with pip, or set VNM_LIBRARY_PATH to a built library"
        )
    return path


def _load(path: Path) -> ctypes.CDLL:
    library = ctypes.CDLL(str(path))
    version = library.vnmGetCAPIVersion()
    if version != CAPI_VERSION:
        raise ImportError(
            f"{path} implements vnm C API version {version}; this package needs {CAPI_VERSION}"
        )
    for name, (restype, argtypes) in _PROTOTYPES.items():
        if name.startswith(("vnmCompiler", "vnmModule", "vnmJax")) and not hasattr(
                library, name):
            continue  # the format-only library, or one built without JAX
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return library


library_path = _find_library()
lib = _load(library_path)
has_compiler = hasattr(lib, "vnmCompilerCreate")


def string_ref(data: bytes):
    """A StringRef over `data`, and the object that keeps `data` alive.

    The second value must stay referenced until the call returns.
    """
    keep = ctypes.c_char_p(data)
    return StringRef(ctypes.cast(keep, ctypes.c_void_p), len(data)), keep


def read_string_ref(ref: StringRef) -> str:
    if not ref.length:
        return ""
    return ctypes.string_at(ref.data, ref.length).decode("utf-8", errors="replace")


def take_string(string: String) -> bytes:
    """Copies a library-allocated string and releases it."""
    try:
        return ctypes.string_at(string.data, string.length) if string.length else b""
    finally:
        lib.vnmStringDestroy(string)


def status_message(status: Status) -> str:
    """The message of a failing status; releases the status."""
    try:
        return read_string_ref(lib.vnmStatusGetMessage(status))
    finally:
        lib.vnmStatusDestroy(status)


def check(status: Status) -> None:
    """Raises VNMError with the library's message if `status` is a failure."""
    if status.ptr:
        raise VNMError(status_message(status))
