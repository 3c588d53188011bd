"""vnm.format against the independent numpy model in vnm_reference.py."""

import zlib

import numpy as np
import pytest
import vnm
from vnm import format as vf
from vnm_reference import (
    NUMPY_DTYPES,
    bits,
    ceil_div,
    random_matrix,
    reference_compress,
    reference_decompress,
    reference_pack_8bit,
    reference_pack_16bit,
)

# (dtype, (v, n, m), rows, cols): every element type, n = 1 and 2, ragged R
# (rows not a multiple of v) and ragged K (cols not a multiple of m).
CASES = [
    ("f16", (16, 2, 8), 32, 24),
    ("f16", (16, 2, 5), 20, 13),
    ("f16", (32, 1, 8), 40, 16),
    ("f16", (16, 2, 4), 16, 8),
    ("bf16", (16, 2, 7), 24, 20),
    ("bf16", (16, 1, 6), 16, 12),
    ("f32", (16, 2, 8), 16, 40),
    ("f32", (64, 2, 10), 70, 25),
    ("i8", (16, 2, 8), 32, 16),
    ("i8", (16, 1, 5), 17, 11),
    ("i4", (16, 2, 6), 16, 30),
    ("i4", (32, 2, 8), 33, 9),
]


def case_id(case):
    dtype, (v, n, m), rows, cols = case
    return f"{dtype}-{v}:{n}:{m}-{rows}x{cols}"


@pytest.fixture(params=CASES, ids=case_id)
def case(request):
    dtype, encoding, rows, cols = request.param
    # A fixed seed per case (str hashes vary between runs).
    rng = np.random.default_rng(zlib.crc32(case_id(request.param).encode()))
    dense = random_matrix(rng, dtype, rows, cols)
    return dtype, vf.Encoding(*encoding), dense


def explicit(dtype):
    # uint16 (bf16 bits) and int8-as-i4 need the element type spelled out.
    return dtype if dtype in ("bf16", "i4") else None


def test_storage_shape_formulas():
    shape = vf.storage_shape((64, 2, 8), "f16", 100, 20)
    assert (shape.rows, shape.cols, shape.groups, shape.blocks) == (100, 20, 3, 2)
    assert shape.compressed_cols == 6
    assert shape.value_count == shape.meta_count == 600
    assert shape.value_bytes == 1200 and shape.dense_bytes == 4000
    assert shape.colidx_count == 2 * 3 * 4
    assert (shape.padded_rows, shape.padded_groups, shape.padded_compressed_cols) == (128, 16, 32)
    assert (shape.row_tiles, shape.k_tiles) == (8, 2)
    assert shape.frag_value_count == 128 * 32 and shape.frag_value_bytes == 2 * 128 * 32
    assert shape.frag_meta_words == 128 * 16 // 8


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32", "i8", "i4"])
def test_storage_shape_per_type(dtype):
    shape = vf.storage_shape("32:2:8", dtype, 40, 70)
    groups = ceil_div(70, 8)
    padded_groups = ceil_div(groups, 16) * 16
    assert shape.value_count == 40 * 2 * groups
    assert shape.k_tiles == 2 * padded_groups // (32 if dtype in ("i8", "i4") else 16)
    element_bytes = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "i4": 1}[dtype]
    assert shape.value_bytes == shape.value_count * element_bytes
    expected_frag_bytes = shape.frag_value_count // 2 if dtype == "i4" else shape.frag_value_count * element_bytes
    assert shape.frag_value_bytes == expected_frag_bytes


@pytest.mark.parametrize("rows, cols", [(2**64 + 1, 1), (1, 2**64 + 64),
                                        (2**63, 1), (1, -(2**63) - 1)])
def test_storage_shape_rejects_integers_past_int64(rows, cols):
    # ctypes would wrap them: 2**64 + 1 would be read as 1 row.
    with pytest.raises(vnm.VNMError, match="does not fit a 64-bit signed integer"):
        vf.storage_shape((64, 2, 8), "f16", rows, cols)


@pytest.mark.parametrize("encoding", [(2**64 + 64, 2, 8), "18446744073709551680:2:8",
                                      (64, 2**64 + 2, 8)])
def test_encoding_rejects_integers_past_int64(encoding):
    # Wrapped, (2**64 + 64, 2, 8) would be accepted as v = 64.
    with pytest.raises(vnm.VNMError, match="does not fit a 64-bit signed integer"):
        vf.as_encoding(encoding)


def test_encoding_needs_three_numbers():
    with pytest.raises(vnm.VNMError, match="expected"):
        vf.as_encoding((64, 2))


def test_storage_shape_accepts_numpy_dtypes():
    assert vf.storage_shape((16, 2, 4), np.float16, 16, 8) == vf.storage_shape((16, 2, 4), "f16", 16, 8)


def test_prune_matches_reference(case):
    dtype, encoding, dense = case
    expected, _, _, _ = reference_compress(dense, dtype, *encoding)
    pruned = vf.prune(dense, encoding, dtype=explicit(dtype))
    assert pruned.dtype == dense.dtype and pruned.shape == dense.shape
    np.testing.assert_array_equal(bits(pruned, dtype), bits(expected, dtype))


def test_compress_matches_reference(case):
    dtype, encoding, dense = case
    _, values, colidx, meta = reference_compress(dense, dtype, *encoding)
    c = vf.compress(dense, encoding, dtype=explicit(dtype))
    assert (c.shape, c.encoding, c.dtype) == (dense.shape, encoding, dtype)
    np.testing.assert_array_equal(c.colidx, colidx)
    np.testing.assert_array_equal(c.meta, meta)
    np.testing.assert_array_equal(bits(c.values, dtype), bits(values, dtype))


def test_decompress_round_trip(case):
    dtype, encoding, dense = case
    c = vf.compress(dense, encoding, dtype=explicit(dtype))
    vf.verify_storage(c)
    restored = vf.decompress(c)
    expected = reference_decompress(c.values, c.colidx, c.meta, c.shape, encoding.v, encoding.m)
    np.testing.assert_array_equal(bits(restored, dtype), bits(expected, dtype))
    pruned = vf.prune(dense, encoding, dtype=explicit(dtype))
    np.testing.assert_array_equal(bits(restored, dtype), bits(pruned, dtype))
    # Pruning is idempotent, and a pruned matrix compresses to the same storage.
    np.testing.assert_array_equal(bits(vf.prune(pruned, encoding, dtype=explicit(dtype)), dtype), bits(pruned, dtype))


def test_fragments_match_reference_layout(case):
    dtype, encoding, dense = case
    c = vf.compress(dense, encoding, dtype=explicit(dtype))
    f = vf.pack_fragments(c)
    if dtype in ("i8", "i4"):
        values, meta = reference_pack_8bit(c.values, c.meta, encoding.v, dtype)
    else:
        values, meta = reference_pack_16bit(c.values, c.meta, encoding.v)
    shape = vf.storage_shape(encoding, dtype, *dense.shape)
    assert f.meta.dtype == np.uint32 and f.meta.shape == (shape.frag_meta_words,)
    assert f.values.nbytes == shape.frag_value_bytes
    np.testing.assert_array_equal(f.meta, meta)
    np.testing.assert_array_equal(f.values.view(np.uint8), np.ascontiguousarray(values).view(np.uint8))


def test_fragments_round_trip(case):
    dtype, encoding, dense = case
    c = vf.compress(dense, encoding, dtype=explicit(dtype))
    values, meta = vf.unpack_fragments(vf.pack_fragments(c))
    np.testing.assert_array_equal(bits(values, dtype), bits(c.values, dtype))
    np.testing.assert_array_equal(meta, c.meta)


def test_integer_weights_in_the_16bit_class(case):
    # i8/i4 weights of the dequantizing kernels (W8A16, W4A16): the m16n8k32
    # layout of the f16 kernels with one byte (or nibble) per value.
    dtype, encoding, dense = case
    if dtype not in ("i8", "i4"):
        pytest.skip("the 16-bit class is the natural one of float types")
    c = vf.compress(dense, encoding, dtype=explicit(dtype))
    f = vf.pack_fragments(c, fragment_class="16bit")
    values, meta = reference_pack_16bit(c.values, c.meta, encoding.v, dtype)
    shape = vf.storage_shape(encoding, dtype, *dense.shape)
    assert f.fragment_class == "16bit" and f.values.nbytes == shape.frag_value_bytes
    np.testing.assert_array_equal(f.meta, meta)
    np.testing.assert_array_equal(f.values.view(np.uint8), np.ascontiguousarray(values).view(np.uint8))
    restored, restored_meta = vf.unpack_fragments(f)
    np.testing.assert_array_equal(bits(restored, dtype), bits(c.values, dtype))
    np.testing.assert_array_equal(restored_meta, c.meta)
    # Naming the natural class is the default.
    natural = vf.pack_fragments(c, fragment_class="8bit")
    np.testing.assert_array_equal(natural.values, vf.pack_fragments(c).values)


def test_fragment_class_errors():
    dense = np.ones((16, 16), dtype=np.float16)
    c = vf.compress(dense, (16, 2, 4))
    with pytest.raises(vnm.VNMError, match="8-bit fragment class holds i8 and i4 values only"):
        vf.pack_fragments(c, fragment_class="8bit")
    with pytest.raises(vnm.VNMError, match="invalid fragment class"):
        vf.pack_fragments(c, fragment_class="4bit")


def test_signed_zero_is_a_value():
    # Row 0 keeps its two largest magnitudes, 2.0 and 1.0, and the -0.0 next
    # to them is dropped to +0; row 1 keeps -0.0 (ties go to the smaller
    # position) with its bits.
    dense = np.zeros((16, 4), dtype=np.float32)
    dense[0] = [2.0, -0.0, 1.0, 0.0]
    dense[1] = [-0.0, 0.0, 0.0, 0.0]
    pruned = vf.prune(dense, (16, 2, 4))
    assert pruned.view(np.uint32)[0, 1] == 0  # +0
    assert pruned.view(np.uint32)[1, 0] == 0x80000000  # -0.0 kept
    c = vf.compress(dense, (16, 2, 4))
    assert vf.decompress(c).view(np.uint32)[1, 0] == 0x80000000


@pytest.mark.parametrize("shape", [(0, 0), (0, 8), (16, 0)])
def test_empty_matrices(shape):
    dense = np.zeros(shape, dtype=np.float16)
    c = vf.compress(dense, (16, 2, 8))
    assert vf.decompress(c).shape == shape
    assert vf.prune(dense, (16, 2, 8)).shape == shape
    vf.unpack_fragments(vf.pack_fragments(c))


def test_bfloat16_from_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(7)
    dense = rng.standard_normal((16, 16)).astype(ml_dtypes.bfloat16)
    c = vf.compress(dense, (16, 2, 8))
    assert c.dtype == "bf16" and c.values.dtype == dense.dtype
    expected = vf.prune(dense.view(np.uint16), (16, 2, 8), dtype="bf16")
    np.testing.assert_array_equal(vf.decompress(c).view(np.uint16), expected)


def test_encoding_spellings():
    assert vf.as_encoding("64:2:8") == vf.as_encoding((64, 2, 8)) == vf.Encoding(64, 2, 8)
    assert str(vf.Encoding(64, 2, 8)) == "64:2:8"


#
# Errors: the library's messages, raised as vnm.VNMError.
#


@pytest.mark.parametrize(
    "encoding, message",
    [
        ((3, 2, 8), "v must be one of 16, 32, 64, 128, 256"),
        ((16, 3, 8), "n must be 1 or 2"),
        ((16, 2, 33), "m"),
        ("16:2", "expected (v, n, m)"),
        ("a:b:c", "expected (v, n, m)"),
    ],
)
def test_invalid_encoding(encoding, message):
    with pytest.raises(vnm.VNMError, match=message.replace("(", r"\(").replace(")", r"\)")):
        vf.prune(np.zeros((16, 8), np.float16), encoding)


def test_invalid_dimensions():
    with pytest.raises(vnm.VNMError, match="row count"):
        vf.storage_shape((16, 2, 8), "f16", -1, 8)
    with pytest.raises(vnm.VNMError, match="unknown element type"):
        vf.storage_shape((16, 2, 8), "f64", 16, 8)
    with pytest.raises(vnm.VNMError, match="2-d"):
        vf.prune(np.zeros(8, np.float16), (16, 2, 4))


def test_i4_out_of_range():
    dense = np.zeros((16, 8), np.int8)
    dense[3, 5] = 8
    with pytest.raises(vnm.VNMError, match=r"dense\[3\]\[5\] = 8 is outside the I4 range"):
        vf.compress(dense, (16, 2, 8), dtype="i4")


@pytest.mark.parametrize(
    "array, dtype, message",
    [
        (np.zeros((16, 8), np.float64), None, "no vnm element type"),
        (np.zeros((16, 8), np.uint16), None, "dtype='bf16'"),
        (np.zeros((16, 8), np.float32), "f16", "must have numpy dtype float16"),
        (np.zeros((16, 8), np.float16), "i4", "must have numpy dtype int8"),
    ],
)
def test_wrong_numpy_dtype(array, dtype, message):
    with pytest.raises(TypeError, match=message):
        vf.prune(array, (16, 2, 8), dtype=dtype)


@pytest.fixture
def storage():
    rng = np.random.default_rng(3)
    # K = 13 with m = 8: the second group has 3 padding columns.
    return vf.compress(random_matrix(rng, "f32", 16, 13), (16, 2, 8))


def corrupt(c, **arrays):
    fields = dict(values=c.values.copy(), colidx=c.colidx.copy(), meta=c.meta.copy())
    for name, edit in arrays.items():
        edit(fields[name])
    return vf.Compressed(shape=c.shape, encoding=c.encoding, dtype=c.dtype, **fields)


def set_item(index, value):
    def edit(array):
        array[index] = value

    return edit


@pytest.mark.parametrize(
    "edits, message",
    [
        (dict(colidx=set_item((0, 0), [0, 3, 1, 4])), r"colidx\[0\]\[0\]\[2\] = 1 is not greater"),
        (dict(colidx=set_item((0, 1, 3), 8)), r"colidx\[0\]\[1\]\[3\] = 8"),
        (dict(meta=set_item((2, 1), 7)), r"meta\[2\]\[1\] = 7 is not a position"),
        (dict(meta=set_item((2, slice(0, 2)), [3, 1])), r"meta\[2\]"),
    ],
)
def test_inconsistent_storage(storage, edits, message):
    bad = corrupt(storage, **edits)
    with pytest.raises(vnm.VNMError, match=message):
        vf.verify_storage(bad)
    with pytest.raises(vnm.VNMError, match=message):
        vf.decompress(bad)


def test_value_in_padding_column(storage):
    # Group 1 covers columns 8..15 of a 13-column matrix: offsets 5, 6, 7
    # are padding. Select them and store a nonzero value there.
    def edit_colidx(colidx):
        colidx[0, 1] = [4, 5, 6, 7]

    def edit_meta(meta):
        meta[0, 2:4] = [1, 2]

    def edit_values(values):
        values[0, 2] = 1.5

    bad = corrupt(storage, colidx=edit_colidx, meta=edit_meta, values=edit_values)
    with pytest.raises(vnm.VNMError, match="padding"):
        vf.verify_storage(bad)


def test_n1_pair_with_two_values():
    c = vf.compress(np.ones((16, 8), np.float16), (16, 1, 8))
    values = c.values.copy()
    values[0, 0:2] = [1.0, 1.0]
    bad = vf.Compressed(values, c.colidx, c.meta, c.shape, c.encoding, c.dtype)
    with pytest.raises(vnm.VNMError, match="n = 1"):
        vf.verify_storage(bad)


def test_storage_arrays_of_the_wrong_shape(storage):
    with pytest.raises(vnm.VNMError, match=r"colidx has shape \(1, 1, 4\), expected \(1, 2, 4\)"):
        vf.Compressed(storage.values, storage.colidx[:, :1], storage.meta, (16, 13), (16, 2, 8), "f32")
    with pytest.raises(TypeError, match="uint8"):
        vf.Compressed(storage.values, storage.colidx.astype(np.int8), storage.meta, (16, 13), (16, 2, 8), "f32")
    with pytest.raises(TypeError, match="float32"):
        vf.Compressed(storage.values.astype(np.float16), storage.colidx, storage.meta, (16, 13), (16, 2, 8), "f32")


def test_corrupt_fragments(storage):
    f = vf.pack_fragments(storage)
    meta = f.meta.copy()
    meta[:] = 0xFFFFFFFF  # every nibble the pair (3, 3)
    with pytest.raises(vnm.VNMError, match="strictly ascending pair"):
        vf.unpack_fragments(vf.Fragments(f.values, meta, f.shape, f.encoding, f.dtype))
    values = f.values.copy()
    values[-1] = 1.0  # a padding row
    with pytest.raises(vnm.VNMError, match="padding"):
        vf.unpack_fragments(vf.Fragments(values, f.meta, f.shape, f.encoding, f.dtype))
    with pytest.raises(vnm.VNMError, match="fragment values have shape"):
        vf.Fragments(f.values[:-1], f.meta, f.shape, f.encoding, f.dtype)


def test_pack_checks_meta(storage):
    bad = corrupt(storage, meta=set_item((0, 0), 9))
    with pytest.raises(vnm.VNMError, match=r"meta\[0\]\[0\] = 9"):
        vf.pack_fragments(bad)


def test_dtypes_cover_every_element_type():
    assert set(NUMPY_DTYPES) == set(vf.ELEMENT_TYPES)


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_nonfinite_weights_are_refused_unless_allowed(special, dtype):
    rng = np.random.default_rng()
    w = rng.standard_normal((32, 24)).astype(dtype)
    r, c = int(rng.integers(32)), int(rng.integers(24))
    w[r, c] = special
    for call in (vf.prune, vf.compress):
        with pytest.raises(vnm.VNMError, match=rf"dense\[{r}\]\[{c}\] = .* is NaN or infinite"):
            call(w, (16, 2, 8))
    # Allowed: the special value outranks the numbers of its block and stays.
    pruned = vf.prune(w, (16, 2, 8), allow_nonfinite=True)
    assert np.array_equal(pruned[r, c], w[r, c], equal_nan=True)
    assert np.array_equal(vf.decompress(vf.compress(w, (16, 2, 8), allow_nonfinite=True)),
                          pruned, equal_nan=True)


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_repack_keeps_every_value_of_a_v_2_m_matrix_as_v_2_4(dtype):
    """A V:2:M matrix (M a multiple of 4) holds at most two nonzeros in every
    group of four columns: stored as V:2:4 it decompresses to the same
    matrix; a V:2:6 one generally does not fit and is refused."""
    rng = np.random.default_rng(int.from_bytes(__import__("os").urandom(4), "little"))
    dense = rng.standard_normal((192, 131)).astype(np.float32)
    if dtype == "f16":
        dense = dense.astype(np.float16)
    elif dtype == "bf16":
        dense = (dense.view(np.uint32) >> 16).astype(np.uint16)
    for m in (8, 16):
        compressed = vf.compress(dense, (64, 2, m), dtype=dtype)
        repacked = vf.repack(compressed, (64, 2, 4))
        assert repacked.encoding == vf.Encoding(64, 2, 4)
        assert np.array_equal(vf.decompress(repacked), vf.decompress(compressed))
    assert vf.repack(compressed, (64, 2, 16)) is compressed
    with pytest.raises(vnm.VNMError, match="does not fit 64:2:4 without dropping values"):
        vf.repack(vf.compress(dense, (64, 2, 6), dtype=dtype), (64, 2, 4))
