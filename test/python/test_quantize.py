"""vnm.format.quantize, dequantize and quantize_weights against an
independent numpy model of the rule in docs/format.md ("Quantization").

Every test draws fresh random data; the seed is printed (pytest shows it
for a failing test) and `VNM_QUANTIZE_SEED=<seed>` replays it.
"""

import os
import secrets

import numpy as np
import pytest
import vnm
from vnm import format as vf

QMAX = {"i8": 127, "i4": 7}
HALF_STEP = np.float32(0.5 + 2 * 127 * 2.0**-24)


@pytest.fixture
def rng():
    seed = int(os.environ.get("VNM_QUANTIZE_SEED", secrets.randbits(32)))
    print(f"VNM_QUANTIZE_SEED={seed}")
    return np.random.default_rng(seed)


def widen(dense, dtype):
    """The f32 values of a f16, bf16 (uint16 bits) or f32 matrix."""
    if dtype == "bf16":
        return (dense.astype(np.uint32) << 16).view(np.float32)
    return dense.astype(np.float32)


def narrow(values, dtype):
    """f32 values (exactly representable) as the array of `dtype`."""
    values = np.asarray(values, dtype=np.float32)
    if dtype == "bf16":
        return (values.view(np.uint32) >> 16).astype(np.uint16)
    return values.astype({"f16": np.float16, "f32": np.float32}[dtype])


def group_indices(rows, cols, axis, group_size):
    """For every entry, the (row, column) of its scale, and the scale shape."""
    r, c = np.arange(rows), np.arange(cols)
    g = group_size or 0
    if axis is None:
        r, c, shape = 0 * r, 0 * c, (1, 1)
    elif axis == 0:
        c = c // g if g else 0 * c
        shape = (rows, -(-cols // g) if g else 1)
    else:
        r = r // g if g else 0 * r
        shape = (-(-rows // g) if g else 1, cols)
    full = (rows, cols)
    return np.broadcast_to(r[:, None], full), np.broadcast_to(c[None, :], full), shape


def reference_quantize(x, target, axis, group_size):
    """The rule in float32 numpy arithmetic: (q, scales)."""
    assert x.dtype == np.float32
    qmax = np.float32(QMAX[target])
    gr, gc, shape = group_indices(*x.shape, axis, group_size)
    amax = np.zeros(shape, np.float32)
    np.maximum.at(amax, (gr, gc), np.abs(x))
    with np.errstate(divide="ignore", invalid="ignore"):
        scales = np.where(amax > 0, amax / qmax, np.float32(1)).astype(np.float32)
        quotient = x / scales[gr, gc]
    assert quotient.dtype == np.float32
    # 0 / 0 (a zero where the scale underflowed to 0) gives 0.
    q = np.where(np.isnan(quotient), 0, np.clip(np.rint(quotient), -qmax, qmax))
    return q.astype(np.int8), scales


def random_weights(rng, dtype, rows, cols):
    """Normal values at a random scale, with some zeros, a zero row and a
    zero column."""
    exponent = int(rng.integers(-8, 8)) if dtype == "f16" else int(rng.integers(-30, 30))
    x = (rng.standard_normal((rows, cols)) * 2.0**exponent).astype(np.float32)
    x[rng.random((rows, cols)) < 0.1] = 0
    if rows > 2 and cols > 2:
        x[int(rng.integers(rows))] = 0
        x[:, int(rng.integers(cols))] = -0.0
    return narrow(x, dtype)


def explicit(dtype):
    return "bf16" if dtype == "bf16" else None


def assert_same_bits(actual, expected):
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual.view(np.uint32), expected.view(np.uint32))


GROUPINGS = [(None, None)] + [(axis, g) for axis in (0, 1) for g in (None, 1, 3, 8, 100)]


@pytest.mark.parametrize("axis, group_size", GROUPINGS, ids=lambda x: repr(x))
@pytest.mark.parametrize("target", ["i8", "i4"])
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_quantize_matches_reference(rng, dtype, target, axis, group_size):
    for _ in range(3):
        # Ragged last groups: the sizes are rarely multiples of the group.
        rows, cols = (int(x) for x in rng.integers(1, 40, 2))
        dense = random_weights(rng, dtype, rows, cols)
        q, scales = vf.quantize(dense, dtype=explicit(dtype), target=target, axis=axis,
                                group_size=group_size)
        expected_q, expected_scales = reference_quantize(widen(dense, dtype), target, axis,
                                                         group_size)
        assert q.dtype == np.int8 and q.shape == (rows, cols)
        np.testing.assert_array_equal(q, expected_q)
        assert_same_bits(scales, expected_scales)
        assert scales.shape == vf.quantize_scale_shape(rows, cols, axis=axis,
                                                       group_size=group_size)
        assert np.abs(q).max(initial=0) <= QMAX[target]


@pytest.mark.parametrize("rows, cols, axis, group_size, shape", [
    (5, 7, None, None, (1, 1)),
    (5, 7, 0, None, (5, 1)),
    (5, 7, 0, 3, (5, 3)),
    (5, 7, 0, 7, (5, 1)),
    (5, 7, 1, None, (1, 7)),
    (5, 7, 1, 2, (3, 7)),
    (0, 7, 1, None, (1, 7)),
    (0, 7, 1, 2, (0, 7)),
    (4, 0, 0, None, (4, 1)),
    (4, 0, 0, 2, (4, 0)),
    (0, 0, None, None, (1, 1)),
])
def test_scale_shapes_and_empty_groups(rows, cols, axis, group_size, shape):
    assert vf.quantize_scale_shape(rows, cols, axis=axis, group_size=group_size) == shape
    q, scales = vf.quantize(np.zeros((rows, cols), np.float32), axis=axis, group_size=group_size)
    assert q.shape == (rows, cols) and scales.shape == shape
    # A group with no entries, like one of zeros, has scale 1.
    np.testing.assert_array_equal(scales, np.ones(shape, np.float32))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_zero_groups_have_scale_one(rng, axis):
    x = rng.standard_normal((6, 9)).astype(np.float32)
    x[2] = 0
    x[:, 4] = -0.0
    q, scales = vf.quantize(x, axis=axis)
    if axis == 0:
        assert scales[2, 0] == 1 and (scales[np.arange(6) != 2] != 1).all()
    if axis == 1:
        assert scales[0, 4] == 1 and (scales[0, np.arange(9) != 4] != 1).all()
    assert (q[2] == 0).all() and (q[:, 4] == 0).all()
    x[:] = 0
    q, scales = vf.quantize(x, axis=axis)
    assert (q == 0).all() and (scales == 1).all()


@pytest.mark.parametrize("target", ["i8", "i4"])
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_exact_halves_round_to_even(rng, dtype, target):
    # Each row r has amax = qmax * 2^e_r, so its scale is exactly 2^e_r, and
    # entries (k + 1/2) * 2^e_r, whose quotients are exactly k + 1/2.
    qmax = QMAX[target]
    halves = np.arange(-qmax, qmax, dtype=np.float32) + np.float32(0.5)  # -qmax + .5 ... qmax - .5
    rows = 6
    exponents = rng.integers(-6, 6, rows).astype(np.float32)
    x = np.empty((rows, len(halves) + 1), np.float32)
    for r in range(rows):
        x[r] = np.concatenate([rng.permutation(halves), [qmax * (-1) ** r]]) * 2 ** exponents[r]
    dense = narrow(x, dtype)
    np.testing.assert_array_equal(widen(dense, dtype), x)  # exact in every type
    q, scales = vf.quantize(dense, dtype=explicit(dtype), target=target)
    np.testing.assert_array_equal(scales[:, 0], (2 ** exponents).astype(np.float32))
    quotients = x / scales
    expected = np.rint(quotients)  # half to even
    np.testing.assert_array_equal(q, expected.astype(np.int8))
    # Spot values: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> 0, -1.5 -> -2.
    for value, rounded in [(0.5, 0), (1.5, 2), (2.5, 2), (-0.5, 0), (-1.5, -2), (-2.5, -2)]:
        assert (q[quotients == value] == rounded).all()
        assert (quotients == value).sum() == rows
    # Half away from zero would differ on every other half.
    assert (q != np.trunc(quotients + np.copysign(0.5, quotients))).sum() > 0


@pytest.mark.parametrize("target", ["i8", "i4"])
def test_clamp(target):
    # Only a subnormal scale makes |x| / scale exceed qmax + 1/2: with
    # amax = (1.5 qmax) * 2^-149 the scale rounds to 2^-149 and the largest
    # quotients are +-1.5 qmax, clamped to +-qmax.
    qmax = QMAX[target]
    tiny = np.float32(2.0**-149)
    big = 3 * qmax // 2
    x = np.array([[big, -big, qmax - 1, 1, 0]], np.float32) * tiny
    q, scales = vf.quantize(x, target=target, axis=None)
    assert scales[0, 0] == tiny
    np.testing.assert_array_equal(q, [[qmax, -qmax, qmax - 1, 1, 0]])
    expected_q, expected_scales = reference_quantize(x, target, None, None)
    np.testing.assert_array_equal(q, expected_q)
    assert_same_bits(scales, expected_scales)


@pytest.mark.parametrize("target", ["i8", "i4"])
def test_scale_that_rounds_to_zero(target):
    # amax / qmax below 2^-150 rounds to a scale of 0: x / 0 is +-inf,
    # clamped to +-qmax, and 0 / 0 is NaN, which gives 0.
    qmax = QMAX[target]
    tiny = np.float32(2.0**-149)
    small = qmax // 2  # small / qmax < 1/2
    x = np.array([[1, 2, 0, 0], [small, -1, 0, -0.0]], np.float32)
    x[1] *= tiny
    q, scales = vf.quantize(x, target=target)
    assert scales[1, 0] == 0 and not np.signbit(scales[1, 0])
    np.testing.assert_array_equal(q[1], [qmax, -qmax, 0, 0])
    expected_q, expected_scales = reference_quantize(x, target, 0, None)
    np.testing.assert_array_equal(q, expected_q)
    assert_same_bits(scales, expected_scales)
    # One more ulp of amax and the scale is 2^-149.
    x[1, 0] = (small + 1) * tiny
    q, scales = vf.quantize(x, target=target)
    assert scales[1, 0] == tiny and q[1, 0] == small + 1


@pytest.mark.parametrize("axis, group_size", GROUPINGS, ids=lambda x: repr(x))
@pytest.mark.parametrize("target", ["i8", "i4"])
def test_dequantize(rng, target, axis, group_size):
    rows, cols = (int(x) for x in rng.integers(1, 30, 2))
    x = random_weights(rng, "f32", rows, cols)
    q, scales = vf.quantize(x, target=target, axis=axis, group_size=group_size)
    back = vf.dequantize(q, scales, target=target, axis=axis, group_size=group_size)
    gr, gc, _ = group_indices(rows, cols, axis, group_size)
    scale = scales[gr, gc]
    assert back.dtype == np.float32
    assert_same_bits(back, q.astype(np.float32) * scale)
    # Within half a step of the input, up to the rounding of x / scale and
    # of q * scale (each at most 127 * 2^-24 of a step).
    assert (np.abs(back - x) <= scale * HALF_STEP).all()


def test_dequantize_takes_what_the_storage_holds():
    scale = np.array([[0.5]], np.float32)
    q8 = np.array([[-128, 127]], np.int8)
    np.testing.assert_array_equal(vf.dequantize(q8, scale, axis=None), [[-64, 63.5]])
    q4 = np.array([[-8, 7]], np.int8)
    np.testing.assert_array_equal(vf.dequantize(q4, scale, target="i4", axis=None), [[-4, 3.5]])
    with pytest.raises(vnm.VNMError, match=r"quantized\[0\]\[1\] = 8 is outside the I4 range"):
        vf.dequantize(np.array([[0, 8]], np.int8), scale, target="i4", axis=None)


def test_dequantize_argument_errors():
    q = np.zeros((4, 6), np.int8)
    scales = np.ones((4, 1), np.float32)
    with pytest.raises(TypeError, match="q must have numpy dtype int8"):
        vf.dequantize(q.astype(np.int16), scales)
    with pytest.raises(TypeError, match="scales must have numpy dtype float32"):
        vf.dequantize(q, scales.astype(np.float64))
    with pytest.raises(vnm.VNMError, match=r"scales has shape \(4, 1\), expected \(1, 6\)"):
        vf.dequantize(q, scales, axis=1)
    with pytest.raises(vnm.VNMError, match="invalid quantization target"):
        vf.dequantize(q, scales, target="f32")


#
# Errors
#


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_nonfinite_weights_are_refused(rng, dtype, special):
    x = rng.standard_normal((9, 13)).astype(np.float32)
    r, c = int(rng.integers(9)), int(rng.integers(13))
    x[r, c] = special
    dense = narrow(x, dtype)
    for axis in (None, 0, 1):
        with pytest.raises(vnm.VNMError, match=rf"dense\[{r}\]\[{c}\] = .* is NaN or infinite"):
            vf.quantize(dense, dtype=explicit(dtype), axis=axis)
    with pytest.raises(vnm.VNMError, match=rf"dense\[{r}\]\[{c}\] = .* is NaN or infinite"):
        vf.quantize_weights(dense, (16, 2, 8), dtype=explicit(dtype))


@pytest.mark.parametrize("axis", [2, -1, -2, 0.5, "0", True])
def test_bad_axis(axis):
    with pytest.raises(vnm.VNMError, match="invalid quantization axis"):
        vf.quantize(np.ones((4, 4), np.float32), axis=axis)


@pytest.mark.parametrize("group_size", [0, -1, -8, 2.5, True])
def test_bad_group_size(group_size):
    with pytest.raises(vnm.VNMError, match="invalid quantization group size"):
        vf.quantize(np.ones((4, 4), np.float32), group_size=group_size)


def test_group_size_needs_an_axis():
    with pytest.raises(vnm.VNMError, match="group size 4 with axis -1"):
        vf.quantize(np.ones((4, 4), np.float32), axis=None, group_size=4)


@pytest.mark.parametrize("target", ["f16", "f32", "i16", None, np.int8])
def test_bad_target(target):
    with pytest.raises(vnm.VNMError, match="invalid quantization target"):
        vf.quantize(np.ones((4, 4), np.float32), target=target)


def test_integer_source_is_refused():
    with pytest.raises(vnm.VNMError, match="source must be f16, bf16 or f32, not i8"):
        vf.quantize(np.ones((4, 4), np.int8))
    with pytest.raises(vnm.VNMError, match="not i8"):
        vf.quantize_weights(np.ones((16, 8), np.int8), (16, 2, 8))
    with pytest.raises(TypeError, match="no vnm element type"):
        vf.quantize(np.ones((4, 4), np.float64))
    with pytest.raises(vnm.VNMError, match="2-d"):
        vf.quantize(np.ones(4, np.float32))


#
# quantize_weights
#


@pytest.mark.parametrize("encoding", [(16, 2, 8), (16, 1, 5), (32, 2, 4), (16, 2, 32)])
@pytest.mark.parametrize("target", ["i8", "i4"])
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_quantize_weights(rng, dtype, target, encoding):
    enc = vf.Encoding(*encoding)
    # Ragged rows (not a multiple of v) and columns (not a multiple of m).
    rows = int(rng.integers(1, 2 * enc.v + 5))
    cols = int(rng.integers(1, 4 * enc.m + 3))
    dense = random_weights(rng, dtype, rows, cols)
    for group_size in (None, enc.m, 3 * enc.m):
        c, scales = vf.quantize_weights(dense, enc, dtype=explicit(dtype), target=target,
                                        group_size=group_size)
        assert (c.dtype, c.shape, c.encoding) == (target, (rows, cols), enc)
        assert c.values.dtype == np.int8
        vf.verify_storage(c)

        pruned = vf.prune(dense, enc, dtype=explicit(dtype))
        expected_q, expected_scales = reference_quantize(widen(pruned, dtype), target, 0,
                                                         group_size)
        np.testing.assert_array_equal(vf.decompress(c), expected_q)
        assert_same_bits(scales, expected_scales)
        q, library_scales = vf.quantize(pruned, dtype=explicit(dtype), target=target,
                                        group_size=group_size)
        np.testing.assert_array_equal(vf.decompress(c), q)
        assert_same_bits(scales, library_scales)

        # The kept positions are those that pruning the weights chose.
        float_storage = vf.compress(dense, enc, dtype=explicit(dtype))
        np.testing.assert_array_equal(c.colidx, float_storage.colidx)
        np.testing.assert_array_equal(c.meta, float_storage.meta)

        restored = vf.dequantize(vf.decompress(c), scales, target=target, group_size=group_size)
        gr, gc, _ = group_indices(rows, cols, 0, group_size)
        assert (np.abs(restored - widen(pruned, dtype))
                <= scales[gr, gc] * HALF_STEP).all()
        vf.unpack_fragments(vf.pack_fragments(c))


def test_quantize_weights_bfloat16_from_ml_dtypes(rng):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    w = rng.standard_normal((16, 24)).astype(ml_dtypes.bfloat16)
    c, scales = vf.quantize_weights(w, (16, 2, 8))
    expected, expected_scales = vf.quantize_weights(w.view(np.uint16), (16, 2, 8), dtype="bf16")
    np.testing.assert_array_equal(c.values, expected.values)
    assert_same_bits(scales, expected_scales)


@pytest.mark.parametrize("group_size", [0, -8, 4, 12, 2.5, 8.0, True])
def test_quantize_weights_group_size_must_be_a_multiple_of_m(group_size):
    with pytest.raises(ValueError, match="positive multiple of the encoding's m = 8"):
        vf.quantize_weights(np.ones((16, 16), np.float32), (16, 2, 8), group_size=group_size)


def test_quantize_weights_empty():
    c, scales = vf.quantize_weights(np.zeros((0, 8), np.float16), (16, 2, 8))
    assert c.values.shape == (0, 2) and scales.shape == (0, 1)
    c, scales = vf.quantize_weights(np.zeros((3, 0), np.float16), (16, 2, 8), target="i4")
    assert c.values.shape == (3, 0) and (scales == 1).all()


def test_quantize_per_token_matches_the_format_library():
    # vnm.torch's activation quantization (run on the GPU by
    # QuantizedSparseLinear) is vnm.format.quantize per row, bit for bit:
    # random rows, a row of zeros, ties at .5.
    torch = pytest.importorskip("torch")
    from vnm.torch import quantize_per_token

    rng = np.random.default_rng()
    x = rng.standard_normal((33, 70)).astype(np.float32) * rng.uniform(0.01, 10)
    x[3] = 0
    x[5, :3] = [127.0, 0.5, 1.5]  # scale 1: q = 127, 0, 2
    q, scales = quantize_per_token(torch.from_numpy(x))
    expected_q, expected_scales = vf.quantize(x, axis=0)
    np.testing.assert_array_equal(q.numpy(), expected_q)
    np.testing.assert_array_equal(scales.numpy().view(np.uint32),
                                  expected_scales.reshape(-1).view(np.uint32))
