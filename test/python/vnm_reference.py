"""An independent numpy model of the V:N:M format (docs/format.md).

Written from the specification, by brute force, for small matrices: every
4-column subset of every block is scored; nothing is shared with the C++
library. The tests compare the library against it bit for bit.
"""

import itertools

import numpy as np

# Numpy arrays holding each element type, and the unsigned integer type of
# the same width used to compare bit patterns (-0.0 must stay -0.0).
NUMPY_DTYPES = {
    "f16": np.float16,
    "bf16": np.uint16,
    "f32": np.float32,
    "i8": np.int8,
    "i4": np.int8,
}
BITS_DTYPES = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32, "i8": np.uint8, "i4": np.uint8}


def bits(array, dtype):
    return np.ascontiguousarray(array).view(BITS_DTYPES[dtype])


def magnitudes(dense, dtype):
    """|w| as float64 (exact for every element type)."""
    if dtype == "bf16":
        as_f32 = (dense.astype(np.uint32) << 16).view(np.float32)
        return np.abs(as_f32.astype(np.float64))
    return np.abs(dense.astype(np.float64))


def random_matrix(rng, dtype, rows, cols):
    if dtype == "f16":
        return rng.standard_normal((rows, cols)).astype(np.float16)
    if dtype == "f32":
        return rng.standard_normal((rows, cols)).astype(np.float32)
    if dtype == "bf16":
        f32 = rng.standard_normal((rows, cols)).astype(np.float32)
        return (f32.view(np.uint32) >> 16).astype(np.uint16)
    if dtype == "i8":
        return rng.integers(-128, 128, (rows, cols)).astype(np.int8)
    if dtype == "i4":
        return rng.integers(-8, 8, (rows, cols)).astype(np.int8)
    raise ValueError(dtype)


def ceil_div(a, b):
    return -(-a // b)


def reference_compress(dense, dtype, v, n, m):
    """(pruned, values, colidx, meta) by the pruning rule of docs/format.md."""
    rows, cols = dense.shape
    groups = ceil_div(cols, m)
    blocks = ceil_div(rows, v)
    mag = np.zeros((rows, groups * m))
    mag[:, :cols] = magnitudes(dense, dtype)
    padded = np.zeros((rows, groups * m), dtype=dense.dtype)
    padded[:, :cols] = dense

    subsets = np.array(list(itertools.combinations(range(m), 4)))  # lexicographic
    pruned = np.zeros_like(padded)
    values = np.zeros((rows, 2 * groups), dtype=dense.dtype)
    colidx = np.zeros((blocks, groups, 4), dtype=np.uint8)
    meta = np.zeros((rows, 2 * groups), dtype=np.uint8)

    for b in range(blocks):
        block_rows = slice(b * v, min(rows, (b + 1) * v))
        for g in range(groups):
            group_mag = mag[block_rows, g * m : (g + 1) * m]
            # Step 1: each subset's score is the sum over rows of the row's n
            # largest magnitudes among the subset's 4 columns.
            candidates = np.sort(group_mag[:, subsets], axis=2)  # rows x subsets x 4
            scores = candidates[:, :, 4 - n :].sum(axis=2).sum(axis=0)
            best = subsets[int(np.argmax(scores))]  # first maximum: smallest subset
            colidx[b, g] = best

            for r in range(block_rows.start, block_rows.stop):
                row_mag = mag[r, g * m + best]
                # Step 2: the n largest, ties to the smaller position.
                order = np.argsort(-row_mag, kind="stable")
                kept = sorted(order[:n].tolist())
                if n == 1:
                    partner = 0 if kept[0] != 0 else 1
                    pair = sorted([kept[0], partner])
                else:
                    pair = kept
                for p, position in enumerate(pair):
                    meta[r, 2 * g + p] = position
                    if position in kept:
                        column = g * m + best[position]
                        values[r, 2 * g + p] = padded[r, column]
                        pruned[r, column] = padded[r, column]
    return pruned[:, :cols], values, colidx, meta


def reference_decompress(values, colidx, meta, shape, v, m):
    rows, cols = shape
    dense = np.zeros((rows, cols), dtype=values.dtype)
    for r in range(rows):
        for slot in range(values.shape[1]):
            g = slot // 2
            column = g * m + int(colidx[r // v, g, meta[r, slot]])
            if column < cols:
                dense[r, column] = values[r, slot]
    return dense


#
# Fragment (mma.sp) storage.
#


def _padded_storage(values, meta, v):
    """Ac (values padded to B*V rows and 2*Gp columns) and the nibble of every
    (row, group), padding included (pair (0, 1): 0x4)."""
    rows, compressed = values.shape
    groups = compressed // 2
    padded_rows = ceil_div(rows, v) * v
    padded_groups = ceil_div(groups, 16) * 16
    ac = np.zeros((padded_rows, 2 * padded_groups), dtype=values.dtype)
    ac[:rows, :compressed] = values
    nibbles = np.full((padded_rows, padded_groups), 0x4, dtype=np.uint32)
    nibbles[:rows, :groups] = meta[:, 0::2].astype(np.uint32) | (meta[:, 1::2].astype(np.uint32) << 2)
    return ac, nibbles


def _chunk(nibbles, row, first_group, count):
    """`count` nibbles of a row packed LSB first."""
    word = 0
    for q in range(count):
        word |= int(nibbles[row, first_group + q]) << (4 * q)
    return word


def _pack_nibbles(elements):
    """i4 fragment bytes: element e in byte e / 2, even e in the low nibble."""
    low = elements[0::2].view(np.uint8) & 0xF
    high = elements[1::2].view(np.uint8) & 0xF
    return (low | (high << 4)).astype(np.uint8)


def reference_pack_16bit(values, meta, v, dtype=None):
    """f16, bf16, f32 (and i8, i4 weights of dequantizing kernels): m16n8k32
    tiles of 16 rows x 16 compressed columns."""
    ac, nibbles = _padded_storage(values, meta, v)
    padded_rows, kcp = ac.shape
    row_tiles, k_tiles = padded_rows // 16, kcp // 16
    frag_values = np.zeros(padded_rows * kcp, dtype=values.dtype)
    for rt in range(row_tiles):
        for kt in range(k_tiles):
            for lane in range(32):
                g, t = lane >> 2, lane & 3
                for j in range(8):
                    r, h = j >> 1, j & 1
                    row = 16 * rt + g + 8 * (r & 1)
                    col = 16 * kt + 8 * (r >> 1) + 2 * t + h
                    frag_values[((rt * k_tiles + kt) * 32 + lane) * 8 + j] = ac[row, col]

    def meta16(kt, x, h, rt):
        return _chunk(nibbles, 16 * rt + x, 8 * kt + 4 * h, 4)

    frag_meta = np.zeros(row_tiles * (k_tiles // 2) * 32, dtype=np.uint32)
    for rt in range(row_tiles):
        for p in range(k_tiles // 2):
            base = (rt * (k_tiles // 2) + p) * 32
            for g in range(8):
                for s in range(2):
                    for h in range(2):
                        kt = 2 * p + s
                        frag_meta[base + 4 * g + 2 * s + h] = meta16(kt, g, h, rt) | (
                            meta16(kt, g + 8, h, rt) << 16
                        )
    if dtype == "i4":
        frag_values = _pack_nibbles(frag_values)
    return frag_values, frag_meta


def reference_pack_8bit(values, meta, v, dtype):
    """i8, i4: m16n8k64 tiles of 16 rows x 32 compressed columns."""
    ac, nibbles = _padded_storage(values, meta, v)
    padded_rows, kcp = ac.shape
    row_tiles, k_tiles = padded_rows // 16, kcp // 32
    elements = np.zeros(padded_rows * kcp, dtype=np.int8)
    for rt in range(row_tiles):
        for kt in range(k_tiles):
            for lane in range(32):
                g, t = lane >> 2, lane & 3
                for j in range(16):
                    r, b = j >> 2, j & 3
                    row = 16 * rt + g + 8 * (r & 1)
                    col = 32 * kt + 16 * (r >> 1) + 4 * t + b
                    elements[((rt * k_tiles + kt) * 32 + lane) * 16 + j] = ac[row, col]
    if dtype == "i4":
        frag_values = _pack_nibbles(elements)
    else:
        frag_values = elements

    frag_meta = np.zeros(row_tiles * k_tiles * 32, dtype=np.uint32)
    for rt in range(row_tiles):
        for kt in range(k_tiles):
            base = (rt * k_tiles + kt) * 32
            for g in range(8):
                for t in range(4):
                    row = 16 * rt + g + 8 * (t & 1)
                    frag_meta[base + 4 * g + t] = _chunk(nibbles, row, 16 * kt + 8 * (t >> 1), 8)
    return frag_values, frag_meta
