"""The V:N:M format library on numpy arrays (docs/format.md).

Every function calls the C++ library (through libVNMCAPI.so), so Python,
the compiler's constant folder and the CPU runtime prune and pack alike.

Element types and the numpy arrays that hold them:

    f16   np.float16
    bf16  np.uint16 bit patterns, or ml_dtypes.bfloat16 if installed
    f32   np.float32
    i8    np.int8
    i4    np.int8 holding values in [-8, 7] (pass dtype="i4")

The element type is taken from the array unless `dtype` names it; it must
be given for bf16 bit patterns (np.uint16) and for i4.

    enc = vnm.format.Encoding(64, 2, 8)        # or (64, 2, 8) or "64:2:8"
    c = vnm.format.compress(w, enc)            # w: R x K np.float16
    assert (vnm.format.decompress(c) == vnm.format.prune(w, enc)).all()
    frags = vnm.format.pack_fragments(c)       # mma.sp fragment storage

Quantization (docs/format.md, "Quantization") maps f16, bf16 or f32
weights to i8 or i4 with f32 scales, by exactly the rule the compiler's
generated code uses: qmax = 127 (i8) or 7 (i4); per scale group amax =
max |x| in f32, scale = amax / qmax in f32 (1 where amax = 0), and
q = clamp(roundeven(x / scale), -qmax, qmax). A group is a row (axis=0),
a column (axis=1) or the whole matrix (axis=None), or with group_size=g
chunks of g entries along the row (axis=0) or the column (axis=1), the
last one ragged:

    q, scales = vnm.format.quantize(w, target="i8", axis=0, group_size=64)
    w_approx = vnm.format.dequantize(q, scales, target="i8", axis=0,
                                     group_size=64)   # scale * q, in f32

quantize_weights prunes, quantizes the pruned matrix per row (scales from
the kept values only, since the dropped ones are zero) and compresses it:

    c, scales = vnm.format.quantize_weights(w, enc, target="i4")
    assert (vnm.format.decompress(c) == vnm.format.quantize(
        vnm.format.prune(w, enc), target="i4")[0]).all()

Its storage keeps the positions that pruning `w` chose (the colidx and
meta of vnm.format.compress(w, enc)), holding their quantized values;
group_size, if given, must be a positive multiple of the encoding's m.
A NaN or infinite weight is an error naming its row and column.

Errors the library detects (bad encoding, inconsistent storage, i4 values
out of range, ...) raise vnm.VNMError with the library's message; an array
of the wrong numpy dtype raises TypeError.
"""

import ctypes
from dataclasses import dataclass, fields
from typing import NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _capi
from ._capi import lib
from ._errors import VNMError

ELEMENT_TYPES = tuple(_capi.ELEMENT_TYPES)


class Encoding(NamedTuple):
    """A V:N:M encoding: v in {16, 32, 64, 128, 256}, n in {1, 2}, 4 <= m <= 32."""

    v: int
    n: int
    m: int

    def __str__(self) -> str:
        return f"{self.v}:{self.n}:{self.m}"


EncodingLike = Union[Encoding, Tuple[int, int, int], str]


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _int64(value, what: str) -> int:
    """`value` as a Python int that the C library's int64_t holds; ctypes
    would silently wrap a larger one (2**64 + 1 becomes 1)."""
    try:
        number = int(value)
    except (TypeError, ValueError) as error:
        raise VNMError(f"{what} must be an integer, got {value!r}") from error
    if not _INT64_MIN <= number <= _INT64_MAX:
        raise VNMError(f"{what} = {number} does not fit a 64-bit signed integer")
    return number


def as_encoding(encoding: EncodingLike) -> Encoding:
    """Converts (v, n, m) or "v:n:m" to an Encoding and validates it."""
    try:
        parts = encoding.split(":") if isinstance(encoding, str) else encoding
        numbers = [int(x) for x in parts]
    except (TypeError, ValueError) as error:
        raise VNMError(
            f"invalid encoding {encoding!r}: expected (v, n, m) or 'v:n:m'"
        ) from error
    if len(numbers) != 3:
        raise VNMError(
            f"invalid encoding {encoding!r}: expected (v, n, m) or 'v:n:m'")
    result = Encoding(*(_int64(x, name) for x, name in zip(numbers, "vnm")))
    _capi.check(lib.vnmFormatValidateEncoding(_c_encoding(result)))
    return result


def _c_encoding(encoding: Encoding) -> _capi.Encoding:
    return _capi.Encoding(encoding.v, encoding.n, encoding.m)


def _is_bfloat16(dtype: np.dtype) -> bool:
    # ml_dtypes.bfloat16 without importing ml_dtypes, an optional dependency.
    return dtype.name == "bfloat16" and dtype.itemsize == 2


_NUMPY_TYPES = {
    "f16": (np.dtype(np.float16),),
    "bf16": (np.dtype(np.uint16),),
    "f32": (np.dtype(np.float32),),
    "i8": (np.dtype(np.int8),),
    "i4": (np.dtype(np.int8),),
}


def _element_type(array_dtype: np.dtype, dtype: Optional[str]) -> str:
    """The element type of an array, checked against an explicit `dtype`."""
    if dtype is None:
        if _is_bfloat16(array_dtype):
            return "bf16"
        for name in ("f16", "f32", "i8"):
            if array_dtype == _NUMPY_TYPES[name][0]:
                return name
        if array_dtype == np.uint16:
            raise TypeError("uint16 arrays are bf16 bit patterns only with dtype='bf16'")
        raise TypeError(
            f"no vnm element type for numpy {array_dtype}: use float16, float32, "
            "int8, or uint16 with dtype='bf16' (int8 with dtype='i4')"
        )
    if dtype not in _capi.ELEMENT_TYPES:
        raise VNMError(f"unknown element type {dtype!r}: expected one of {ELEMENT_TYPES}")
    if array_dtype in _NUMPY_TYPES[dtype] or (dtype == "bf16" and _is_bfloat16(array_dtype)):
        return dtype
    raise TypeError(f"a {dtype} array must have numpy dtype {_NUMPY_TYPES[dtype][0]}, not {array_dtype}")


def _matrix(array, name: str) -> np.ndarray:
    array = np.ascontiguousarray(array)
    if array.ndim != 2:
        raise VNMError(f"{name} must be a 2-d array, got shape {array.shape}")
    return array


def _ptr(array: np.ndarray):
    return array.ctypes.data_as(ctypes.c_void_p)


def _u8(array: np.ndarray):
    return array.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))


def _u32(array: np.ndarray):
    return array.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32))


def _i8(array: np.ndarray):
    return array.ctypes.data_as(ctypes.POINTER(ctypes.c_int8))


def _f32(array: np.ndarray):
    return array.ctypes.data_as(ctypes.POINTER(ctypes.c_float))


@dataclass(frozen=True)
class StorageShape:
    """Sizes of the storage arrays of an R x K matrix, in elements of each
    array (bytes where named so); see docs/format.md."""

    rows: int
    cols: int
    groups: int
    blocks: int
    compressed_cols: int
    dense_count: int
    dense_bytes: int
    value_count: int
    value_bytes: int
    colidx_count: int
    meta_count: int
    padded_rows: int
    padded_groups: int
    padded_compressed_cols: int
    row_tiles: int
    k_tiles: int
    frag_value_count: int
    frag_value_bytes: int
    frag_meta_words: int


assert [f.name for f in fields(StorageShape)] == [py for _, py in _capi.STORAGE_SHAPE_FIELDS]


def _type_name(dtype) -> str:
    """An element type name from a name ("f16", ...) or a numpy dtype."""
    if isinstance(dtype, str):
        if dtype not in _capi.ELEMENT_TYPES:
            raise VNMError(f"unknown element type {dtype!r}: expected one of {ELEMENT_TYPES}")
        return dtype
    return _element_type(np.dtype(dtype), None)


def storage_shape(encoding: EncodingLike, dtype, rows: int, cols: int) -> StorageShape:
    """Storage sizes of an R x K matrix; `dtype` is an element type name
    ("f16", "bf16", "f32", "i8", "i4") or a numpy dtype (np.float16, ...)."""
    encoding = as_encoding(encoding)
    dtype = _type_name(dtype)
    out = _capi.StorageShape()
    _capi.check(
        lib.vnmFormatGetStorageShape(
            _c_encoding(encoding),
            _capi.ELEMENT_TYPES[dtype],
            _int64(rows, "rows"),
            _int64(cols, "cols"),
            ctypes.byref(out),
        )
    )
    return StorageShape(*(getattr(out, c_name) for c_name, _ in _capi.STORAGE_SHAPE_FIELDS))


def _storage_header(storage):
    """The normalized encoding, rows, cols, storage shape and contiguous
    values of a Compressed or Fragments being constructed."""
    encoding = as_encoding(storage.encoding)
    rows, cols = (int(x) for x in storage.shape)
    dims = storage_shape(encoding, storage.dtype, rows, cols)
    return encoding, rows, cols, dims, np.ascontiguousarray(storage.values)


def _freeze(storage, **fields) -> None:
    """Sets the normalized fields of a frozen dataclass being constructed."""
    for name, value in fields.items():
        object.__setattr__(storage, name, value)


@dataclass(frozen=True, eq=False)
class Compressed:
    """The logical storage of an R x K matrix (docs/format.md):

    values  R x 2G, the element type's numpy dtype
    colidx  B x G x 4, uint8: each block's four column offsets per group
    meta    R x 2G, uint8: positions (0..3) of the kept values

    Constructing one checks the arrays' shapes and dtypes against `shape`,
    `encoding` and `dtype` (not their contents: see verify_storage).
    """

    values: np.ndarray
    colidx: np.ndarray
    meta: np.ndarray
    shape: Tuple[int, int]
    encoding: Encoding
    dtype: str

    def __post_init__(self):
        encoding, rows, cols, dims, values = _storage_header(self)
        _element_type(values.dtype, self.dtype)
        expected = {
            "values": (values, (rows, dims.compressed_cols)),
            "colidx": (np.ascontiguousarray(self.colidx), (dims.blocks, dims.groups, 4)),
            "meta": (np.ascontiguousarray(self.meta), (rows, dims.compressed_cols)),
        }
        for name, (array, shape) in expected.items():
            if array.shape != shape:
                raise VNMError(f"{name} has shape {array.shape}, expected {shape}")
            if name != "values" and array.dtype != np.uint8:
                raise TypeError(f"{name} must have numpy dtype uint8, not {array.dtype}")
            object.__setattr__(self, name, array)
        _freeze(self, shape=(rows, cols), encoding=encoding)


@dataclass(frozen=True, eq=False)
class Fragments:
    """The fragment (mma.sp) storage of a matrix (docs/format.md):

    values  frag_value_count elements of the element type's numpy dtype;
            for i4, frag_value_bytes uint8 bytes holding two values each
    meta    frag_meta_words uint32 words
    """

    values: np.ndarray
    meta: np.ndarray
    shape: Tuple[int, int]
    encoding: Encoding
    dtype: str
    # "16bit" (m16n8k32) or "8bit" (m16n8k64); None: the dtype's own (8-bit
    # for i8 and i4). i8/i4 weights take "16bit" for kernels that dequantize
    # them to f16/bf16 (W8A16, W4A16).
    fragment_class: Optional[str] = None

    def __post_init__(self):
        _fragment_class(self.fragment_class, self.dtype)
        encoding, rows, cols, dims, values = _storage_header(self)
        if self.dtype == "i4":
            if values.dtype != np.uint8:
                raise TypeError(f"i4 fragment values must have numpy dtype uint8, not {values.dtype}")
            count = dims.frag_value_bytes
        else:
            _element_type(values.dtype, self.dtype)
            count = dims.frag_value_count
        meta = np.ascontiguousarray(self.meta)
        if meta.dtype != np.uint32:
            raise TypeError(f"fragment meta must have numpy dtype uint32, not {meta.dtype}")
        if values.shape != (count,):
            raise VNMError(f"fragment values have shape {values.shape}, expected ({count},)")
        if meta.shape != (dims.frag_meta_words,):
            raise VNMError(f"fragment meta has shape {meta.shape}, expected ({dims.frag_meta_words},)")
        _freeze(self, values=values, meta=meta, shape=(rows, cols),
                encoding=encoding)


def prune(dense, encoding: EncodingLike, *, dtype: Optional[str] = None,
          allow_nonfinite: bool = False) -> np.ndarray:
    """The V:N:M pruning of `dense`: kept entries bit-exact, the others +0.

    A NaN or infinite entry is a VNMError unless `allow_nonfinite` (then NaN
    ranks above infinity, above every number, in its block's choice)."""
    encoding = as_encoding(encoding)
    dense = _matrix(dense, "dense")
    element_type = _element_type(dense.dtype, dtype)
    pruned = np.empty_like(dense)
    rows, cols = dense.shape
    _capi.check(
        lib.vnmFormatPrune(
            _c_encoding(encoding),
            _capi.ELEMENT_TYPES[element_type],
            _ptr(dense),
            rows,
            cols,
            _ptr(pruned),
            int(bool(allow_nonfinite)),
        )
    )
    return pruned


def compress(dense, encoding: EncodingLike, *, dtype: Optional[str] = None,
             allow_nonfinite: bool = False) -> Compressed:
    """Prunes `dense` and returns its logical storage (NaN and infinite
    entries as for `prune`)."""
    encoding = as_encoding(encoding)
    dense = _matrix(dense, "dense")
    element_type = _element_type(dense.dtype, dtype)
    rows, cols = dense.shape
    dims = storage_shape(encoding, element_type, rows, cols)
    values = np.empty((rows, dims.compressed_cols), dtype=dense.dtype)
    colidx = np.empty((dims.blocks, dims.groups, 4), dtype=np.uint8)
    meta = np.empty((rows, dims.compressed_cols), dtype=np.uint8)
    _capi.check(
        lib.vnmFormatCompress(
            _c_encoding(encoding),
            _capi.ELEMENT_TYPES[element_type],
            _ptr(dense),
            rows,
            cols,
            _ptr(values),
            _u8(colidx),
            _u8(meta),
            int(bool(allow_nonfinite)),
        )
    )
    return Compressed(values, colidx, meta, (rows, cols), encoding, element_type)


def verify_storage(compressed: Compressed) -> None:
    """Raises VNMError, naming the array and index, if the storage is not a
    valid encoding (colidx ascending and < m, meta pairs ascending in 0..3,
    zero values at padding columns, ...)."""
    c = compressed
    _capi.check(
        lib.vnmFormatVerifyStorage(
            _c_encoding(c.encoding),
            _capi.ELEMENT_TYPES[c.dtype],
            _ptr(c.values),
            _u8(c.colidx),
            _u8(c.meta),
            *c.shape,
        )
    )


def decompress(compressed: Compressed) -> np.ndarray:
    """The dense R x K matrix a storage encodes (+0 where nothing is kept).
    The storage is verified first."""
    c = compressed
    dense = np.empty(c.shape, dtype=c.values.dtype)
    _capi.check(
        lib.vnmFormatDecompress(
            _c_encoding(c.encoding),
            _capi.ELEMENT_TYPES[c.dtype],
            _ptr(c.values),
            _u8(c.colidx),
            _u8(c.meta),
            *c.shape,
            _ptr(dense),
        )
    )
    return dense


def repack(compressed: Compressed, encoding: EncodingLike) -> Compressed:
    """The same matrix stored in another format, every value kept: for
    example a V:N:M matrix of N <= 2 and M a multiple of 4 as V:N:4, which
    the sm_90a kernels run as 2:4 (a launch contract whose `m` differs from
    its `op_m`). Raises VNMError if `encoding` cannot hold the matrix
    exactly."""
    target = as_encoding(encoding)
    if target == compressed.encoding:
        return compressed
    dense = decompress(compressed)
    result = compress(dense, target, dtype=compressed.dtype)

    def canonical(matrix):  # -0 and +0 compare equal (bf16 as uint16 bits)
        return np.where(matrix == 0x8000, 0, matrix) if matrix.dtype == np.uint16 else matrix

    if not np.array_equal(canonical(decompress(result)), canonical(dense)):
        raise VNMError(f"a {compressed.encoding} matrix does not fit {target} "
                       f"without dropping values")
    return result


_FRAGMENT_CLASSES = {None: 0, "16bit": 1, "8bit": 2}


def _fragment_class(fragment_class, dtype) -> int:
    if fragment_class not in _FRAGMENT_CLASSES:
        raise VNMError(f"invalid fragment class {fragment_class!r}: expected "
                       "None, '16bit' or '8bit'")
    if fragment_class == "8bit" and dtype not in ("i8", "i4"):
        raise VNMError(f"the 8-bit fragment class holds i8 and i4 values "
                       f"only, got {dtype}")
    return _FRAGMENT_CLASSES[fragment_class]


def pack_fragments(compressed: Compressed, *,
                   fragment_class: Optional[str] = None) -> Fragments:
    """Converts the logical values and meta to fragment storage (colidx has
    no fragment form and stays logical), in the dtype's own fragment class
    or in `fragment_class` ("16bit" for i8/i4 weights of W8A16/W4A16
    kernels)."""
    c = compressed
    cls = _fragment_class(fragment_class, c.dtype)
    dims = storage_shape(c.encoding, c.dtype, *c.shape)
    if c.dtype == "i4":
        values = np.zeros(dims.frag_value_bytes, dtype=np.uint8)
    else:
        values = np.zeros(dims.frag_value_count, dtype=c.values.dtype)
    meta = np.zeros(dims.frag_meta_words, dtype=np.uint32)
    _capi.check(
        lib.vnmFormatPackFragmentsAs(
            _c_encoding(c.encoding),
            _capi.ELEMENT_TYPES[c.dtype],
            cls,
            _ptr(c.values),
            _u8(c.meta),
            *c.shape,
            _ptr(values),
            _u32(meta),
        )
    )
    return Fragments(values, meta, c.shape, c.encoding, c.dtype,
                     fragment_class)


def unpack_fragments(fragments: Fragments) -> Tuple[np.ndarray, np.ndarray]:
    """Inverse of pack_fragments: the logical (values, meta)."""
    f = fragments
    rows, cols = f.shape
    dims = storage_shape(f.encoding, f.dtype, rows, cols)
    value_dtype = np.int8 if f.dtype == "i4" else f.values.dtype
    values = np.empty((rows, dims.compressed_cols), dtype=value_dtype)
    meta = np.empty((rows, dims.compressed_cols), dtype=np.uint8)
    _capi.check(
        lib.vnmFormatUnpackFragmentsAs(
            _c_encoding(f.encoding),
            _capi.ELEMENT_TYPES[f.dtype],
            _fragment_class(f.fragment_class, f.dtype),
            _ptr(f.values),
            _u32(f.meta),
            rows,
            cols,
            _ptr(values),
            _u8(meta),
        )
    )
    return values, meta


#
# Quantization
#

_QUANTIZE_TARGETS = ("i8", "i4")


def _quantize_target(target) -> str:
    if not isinstance(target, str) or target not in _QUANTIZE_TARGETS:
        raise VNMError(f"invalid quantization target {target!r}: expected 'i8' or 'i4'")
    return target


def _is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _quantize_axis(axis) -> int:
    """The C API's axis: -1 for None (one scale for the matrix), else 0 or 1.
    -1 itself is refused: in numpy it would name the last axis."""
    if axis is None:
        return -1
    if not _is_integer(axis) or int(axis) not in (0, 1):
        raise VNMError(
            f"invalid quantization axis {axis!r}: expected 0 (per row), 1 (per column) "
            "or None (one scale for the matrix)")
    return int(axis)


def _group_size(group_size) -> int:
    """The C API's group size: 0 for None (whole rows or columns)."""
    if group_size is None:
        return 0
    if not _is_integer(group_size) or int(group_size) <= 0:
        raise VNMError(
            f"invalid quantization group size {group_size!r}: expected a positive "
            "integer, or None for whole rows or columns")
    return _int64(group_size, "group_size")


def quantize_scale_shape(rows: int, cols: int, *, axis: Optional[int] = 0,
                         group_size: Optional[int] = None) -> Tuple[int, int]:
    """Shape of the scales of an R x K matrix: (1, 1) for axis=None;
    (R, ceil(K / g)) for axis=0 ((R, 1) without a group size); (ceil(R / g), K)
    for axis=1 ((1, K) without a group size)."""
    scale_rows, scale_cols = ctypes.c_int64(), ctypes.c_int64()
    _capi.check(
        lib.vnmFormatGetQuantizeScaleShape(
            _int64(rows, "rows"),
            _int64(cols, "cols"),
            _quantize_axis(axis),
            _group_size(group_size),
            ctypes.byref(scale_rows),
            ctypes.byref(scale_cols),
        )
    )
    return scale_rows.value, scale_cols.value


def quantize(dense, *, dtype: Optional[str] = None, target: str = "i8",
             axis: Optional[int] = 0,
             group_size: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Symmetric quantization of the f16, bf16 or f32 matrix `dense` to
    `target` ("i8" or "i4"): (q, scales), q an R x K np.int8 array and
    scales np.float32 of quantize_scale_shape's shape. axis=None: one scale
    for the matrix. A NaN or infinite entry is a VNMError."""
    dense = _matrix(dense, "dense")
    element_type = _element_type(dense.dtype, dtype)
    target = _quantize_target(target)
    c_axis, c_group_size = _quantize_axis(axis), _group_size(group_size)
    rows, cols = dense.shape
    scale_shape = quantize_scale_shape(rows, cols, axis=axis, group_size=group_size)
    q = np.empty((rows, cols), dtype=np.int8)
    scales = np.empty(scale_shape, dtype=np.float32)
    _capi.check(
        lib.vnmFormatQuantize(
            _capi.ELEMENT_TYPES[element_type],
            _ptr(dense),
            rows,
            cols,
            _capi.ELEMENT_TYPES[target],
            c_axis,
            c_group_size,
            _i8(q),
            _f32(scales),
        )
    )
    return q, scales


def dequantize(q, scales, *, target: str = "i8", axis: Optional[int] = 0,
               group_size: Optional[int] = None) -> np.ndarray:
    """scale * q as an R x K np.float32 array (one f32 multiplication per
    entry), for q and scales as quantize returns them; i4 values must lie in
    [-8, 7]."""
    q = _matrix(q, "q")
    if q.dtype != np.int8:
        raise TypeError(f"q must have numpy dtype int8, not {q.dtype}")
    scales = np.ascontiguousarray(scales)
    if scales.dtype != np.float32:
        raise TypeError(f"scales must have numpy dtype float32, not {scales.dtype}")
    target = _quantize_target(target)
    rows, cols = q.shape
    scale_shape = quantize_scale_shape(rows, cols, axis=axis, group_size=group_size)
    if scales.shape != scale_shape:
        raise VNMError(f"scales has shape {scales.shape}, expected {scale_shape}")
    dense = np.empty((rows, cols), dtype=np.float32)
    _capi.check(
        lib.vnmFormatDequantize(
            _i8(q),
            rows,
            cols,
            _capi.ELEMENT_TYPES[target],
            _quantize_axis(axis),
            _group_size(group_size),
            _f32(scales),
            _f32(dense),
        )
    )
    return dense


def quantize_weights(dense, encoding: EncodingLike, *, dtype: Optional[str] = None,
                     target: str = "i8",
                     group_size: Optional[int] = None) -> Tuple[Compressed, np.ndarray]:
    """Prunes `dense` (f16, bf16 or f32) to `encoding`, quantizes the pruned
    matrix per row (axis 0; `group_size`, if given, a positive multiple of
    the encoding's m) and returns its storage with element type `target`
    ("i8" or "i4") and the scales. The storage keeps the positions pruning
    chose (those of compress(dense, encoding)) with their quantized values,
    so decompress(result) == quantize(prune(dense, encoding), ...)[0]."""
    encoding = as_encoding(encoding)
    dense = _matrix(dense, "dense")
    element_type = _element_type(dense.dtype, dtype)
    if element_type not in ("f16", "bf16", "f32"):
        raise VNMError(f"quantize_weights needs f16, bf16 or f32 weights, not {element_type}")
    target = _quantize_target(target)
    if group_size is not None and not (
            _is_integer(group_size) and int(group_size) > 0
            and int(group_size) % encoding.m == 0):
        raise VNMError(
            f"group_size must be a positive multiple of the encoding's m = {encoding.m}, "
            f"got {group_size!r}")

    # One subset search: compress, whose decompression is prune's result.
    pruned_storage = compress(dense, encoding, dtype=element_type)
    pruned = decompress(pruned_storage)
    q, scales = quantize(pruned, dtype=element_type, target=target, axis=0,
                         group_size=group_size)

    # Gather q at the kept positions: value p of row r, group g sits at column
    # g * m + colidx[r // v][g][meta[r][2g + p]] (padding columns hold 0).
    rows, cols = dense.shape
    colidx, meta = pruned_storage.colidx, pruned_storage.meta
    group = np.arange(meta.shape[1]) // 2
    chosen = colidx[(np.arange(rows) // encoding.v)[:, None], group[None, :], meta]
    column = group[None, :] * encoding.m + chosen.astype(np.int64)
    inside = column < cols
    row = np.broadcast_to(np.arange(rows)[:, None], column.shape)
    values = np.zeros(meta.shape, dtype=np.int8)
    values[inside] = q[row[inside], column[inside]]
    result = Compressed(values, colidx, meta, (rows, cols), encoding, target)
    # Every nonzero of q is a kept entry of the pruned matrix.
    if not np.array_equal(decompress(result), q):
        raise VNMError("internal error: the quantized storage does not decompress "
                       "to the quantized pruned matrix")
    return result, scales
