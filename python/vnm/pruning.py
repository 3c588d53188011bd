"""Pruning weights to the V:N:M format so that the model stays accurate.

vnm.format.prune keeps the largest magnitudes of each block. That is cheap
but blind to what the layer computes; this module prunes with calibration
data (docs/pruning.md):

    magnitude  score |W_ij|, as vnm.format.prune (no data needed)
    wanda      score |W_ij| * ||x_j||_2 over the calibration inputs x
    sparsegpt  second-order (OBS) one-shot pruning: the Hessian
               H = X^T X of the layer's calibration inputs decides the mask
               (saliency w^2 / [H^-1]_jj) and the weights not yet
               processed are updated to compensate each pruned one

Every method chooses, in each V x M block, the four columns shared by the
block's rows and the N of those four that each row keeps, maximizing the
summed score of the kept entries; the result is always a valid V:N:M
matrix, so vnm.format.compress of it keeps exactly its nonzeros. Two
options of prune_model go beyond the methods: `refit` (least-squares
weights for the chosen mask) and `compensate` (fit the dense model's
outputs, correcting the error of the layers pruned before).

    import vnm.pruning as vp
    # numpy, any framework (JAX: see prune_weight)
    w_pruned = vp.prune_weight(w, "64:2:8", "sparsegpt", inputs=x_calib)
    # PyTorch: every selected nn.Linear, in place, layer by layer
    dense = copy.deepcopy(model)
    result = vp.prune_model(model, {"fc1.weight": "64:2:8"}, batches)
    vp.distill(model, dense, batches, result, steps=200)
    # or, instead of those two calls, through a sparse stage (gradual pruning)
    vp.prune_gradually(model, dense, [("2:4", 500), ("64:2:8", 1000)], batches, batches)

The numerics are numpy (float64); torch is imported only by prune_model,
distill and apply_masks, and nothing here calls the format library (the
vnm package itself loads it on import).
"""

import copy
import itertools
import math
import sys
from dataclasses import dataclass
from typing import (Any, Callable, Dict, List, Mapping, Optional,
                    Sequence, Tuple, Union)

import numpy as np

METHODS = ("magnitude", "wanda", "sparsegpt")

_VALID_V = (16, 32, 64, 128, 256)

# The plain N:4 format ("2:4") as a V:N:M encoding: with m = 4 all four
# columns of a group are selected, so every v gives the same mask.
_PLAIN_V = 16

EncodingLike = Union[str, Sequence[int]]


# ------------------------------------------------------------ encodings


def parse_encoding(encoding: EncodingLike) -> Tuple[int, int, int]:
    """(v, n, m) of an encoding: "v:n:m", (v, n, m) or a vnm.format.Encoding;
    the plain N:4 format "2:4" (or "1:4", (2, 4)) is (16, n, 4), which prunes
    exactly as any other v with m = 4.

    Raises ValueError for anything else or for values outside the format
    (v in 16, 32, 64, 128, 256; n in 1, 2; 4 <= m <= 32). Needs no library.
    """
    try:
        parts = encoding.split(":") if isinstance(encoding, str) else list(encoding)
        numbers = []
        for part in parts:
            if isinstance(part, (float, np.floating)) and not float(part).is_integer():
                raise ValueError(part)
            if isinstance(part, (bool, np.bool_)):
                raise ValueError(part)
            numbers.append(int(part))
    except (TypeError, ValueError) as error:
        raise ValueError(f"invalid encoding {encoding!r}: expected 'v:n:m', "
                         "(v, n, m) or '2:4'") from error
    if len(numbers) == 2:
        n, m = numbers
        if m != 4 or n not in (1, 2):
            raise ValueError(f"invalid encoding {encoding!r}: a two-part encoding "
                             "is the plain format '2:4' or '1:4'")
        return (_PLAIN_V, n, 4)
    if len(numbers) != 3:
        raise ValueError(f"invalid encoding {encoding!r}: expected 'v:n:m', "
                         "(v, n, m) or '2:4'")
    v, n, m = numbers
    if v not in _VALID_V:
        raise ValueError(f"invalid encoding {encoding!r}: v = {v}, expected one of {_VALID_V}")
    if n not in (1, 2):
        raise ValueError(f"invalid encoding {encoding!r}: n = {n}, expected 1 or 2")
    if not 4 <= m <= 32:
        raise ValueError(f"invalid encoding {encoding!r}: m = {m}, expected 4 <= m <= 32")
    return (v, n, m)


def _method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"unknown pruning method {method!r}: expected one of {METHODS}")
    return method


# ------------------------------------------------------- mask selection

_COMBOS: Dict[int, np.ndarray] = {}

# Elements of one gathered (rows x groups x subsets x 4) chunk of scores.
_CHUNK = 1 << 21


def _combos(m: int) -> np.ndarray:
    """All 4-column subsets of range(m), lexicographically ascending (C x 4)."""
    if m not in _COMBOS:
        _COMBOS[m] = np.array(list(itertools.combinations(range(m), 4)), dtype=np.intp)
    return _COMBOS[m]


def _select_mask(scores: np.ndarray, v: int, n: int, m: int) -> np.ndarray:
    """The V:N:M mask (R x K, bool) that maximizes the sum of the kept scores.

    `scores` are >= 0 (R x K). In every v x m block (columns padded with
    score 0, the last row block shorter) the 4-column subset with the
    highest sum over the block's rows of each row's n largest scores in it
    wins (ties: the lexicographically smallest subset); each row keeps its n
    largest scores there (ties: the smaller column). Any v >= 1 is accepted
    here; the public functions check the format's values.
    """
    rows, cols = scores.shape
    groups, blocks = -(-cols // m), -(-rows // v)
    padded = np.zeros((blocks * v, groups * m))
    padded[:rows, :cols] = scores
    s = padded.reshape(blocks, v, groups, m)
    combos = _combos(m)
    best_value = np.full((blocks, groups), -np.inf)
    best_index = np.zeros((blocks, groups), dtype=np.intp)
    if rows and cols:
        per_group = blocks * v * 4 * len(combos)  # elements of one group
        if per_group <= _CHUNK:
            group_step, step = max(1, _CHUNK // per_group), len(combos)
        else:
            group_step, step = 1, max(1, _CHUNK // (blocks * v * 4))
        for g0 in range(0, groups, group_step):
            g1 = min(groups, g0 + group_step)
            part = s[:, :, g0:g1, :]
            for c0 in range(0, len(combos), step):
                chosen = part[..., combos[c0:c0 + step]]  # B x v x g x c x 4
                if n == 1:
                    kept = chosen.max(axis=-1)
                else:
                    kept = np.partition(chosen, 2, axis=-1)[..., 2:].sum(axis=-1)
                total = kept.sum(axis=1)  # B x g x c
                index = total.argmax(axis=-1)
                value = np.take_along_axis(total, index[..., None], axis=-1)[..., 0]
                better = value > best_value[:, g0:g1]
                best_value[:, g0:g1] = np.where(better, value, best_value[:, g0:g1])
                best_index[:, g0:g1] = np.where(better, index + c0, best_index[:, g0:g1])
    columns = combos[best_index]  # B x G x 4
    picked = np.take_along_axis(s, columns[:, None, :, :], axis=3)  # B x v x G x 4
    order = np.argsort(-picked, axis=-1, kind="stable")[..., :n]
    keep_columns = np.take_along_axis(
        np.broadcast_to(columns[:, None, :, :], picked.shape), order, axis=-1)
    mask = np.zeros(s.shape, dtype=bool)
    np.put_along_axis(mask, keep_columns, True, axis=3)
    return mask.reshape(blocks * v, groups * m)[:rows, :cols]


def _select_mask_torch(scores, v: int, n: int, m: int):
    """_select_mask on a torch tensor, where it lies (bool R x K): the same
    choice, in float64, with the same tie rules (the first best subset, the
    smaller column), so that learned masks are chosen again on the GPU
    instead of through numpy on the CPU. The sums may round differently
    from numpy's, which can matter only between subsets whose sums tie to
    the last bits."""
    torch = _torch()
    rows, cols = scores.shape
    groups, blocks = -(-cols // m), -(-rows // v)
    padded = scores.new_zeros((blocks * v, groups * m), dtype=torch.float64)
    padded[:rows, :cols] = scores
    s = padded.reshape(blocks, v, groups, m)
    combos = torch.as_tensor(_combos(m), device=scores.device)
    best_index = torch.zeros((blocks, groups), dtype=torch.long, device=scores.device)
    if rows and cols:
        group_step = max(1, _CHUNK // (blocks * v * 4 * len(combos)))
        for g0 in range(0, groups, group_step):
            chosen = s[:, :, g0:g0 + group_step][..., combos]  # B x v x g x C x 4
            total = chosen.topk(n, dim=-1).values.sum(dim=-1).sum(dim=1)
            # argmax's ties: the first best, as numpy's.
            best_index[:, g0:g0 + group_step] = torch.argmax(total, dim=-1)
    columns = combos[best_index]  # B x G x 4
    picked = torch.gather(s, 3, columns[:, None].expand(blocks, v, groups, 4))
    order = torch.sort(picked, dim=-1, descending=True, stable=True).indices[..., :n]
    keep = torch.gather(columns[:, None].expand(blocks, v, groups, 4), 3, order)
    mask = torch.zeros(s.shape, dtype=torch.bool, device=scores.device)
    mask.scatter_(3, keep, True)
    return mask.reshape(blocks * v, groups * m)[:rows, :cols]


def select_mask(scores, encoding: EncodingLike) -> np.ndarray:
    """The V:N:M keep-mask (bool, R x K) maximizing the summed `scores` of
    the kept entries (scores R x K, finite and >= 0): per V x M block the
    four columns with the highest sum over the block's rows of each row's
    N largest scores among them, and in each row those N.

    select_mask(abs(w), enc) is the mask of vnm.format.prune(w, enc)."""
    v, n, m = parse_encoding(encoding)
    scores = _float_matrix(scores, "scores")
    if (scores < 0).any():
        raise ValueError("scores must be >= 0")
    return _select_mask(scores, v, n, m)


# ------------------------------------------------------------ the methods


def _float_matrix(array, name: str) -> np.ndarray:
    """`array` as a finite 2-d float64 array, or ValueError."""
    array = np.asarray(array)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array (R x K), got shape {array.shape}")
    if array.dtype.kind not in "fiu" and array.dtype.name != "bfloat16":
        raise ValueError(f"{name} must hold real numbers, not {array.dtype}")
    result = array.astype(np.float64)
    if not np.isfinite(result).all():
        row, col = np.argwhere(~np.isfinite(result))[0]
        raise ValueError(f"{name} has a non-finite value at row {row}, column {col}")
    return result


def _inputs(inputs, cols: int) -> np.ndarray:
    """Calibration inputs (..., K) as a finite T x K float64 array."""
    x = np.asarray(inputs)
    if x.ndim < 2:
        raise ValueError(f"inputs must have shape (..., {cols}) (T x K), got {x.shape}")
    if x.shape[-1] != cols:
        raise ValueError(f"inputs have {x.shape[-1]} features (last axis), "
                         f"but the weight has {cols} columns (R x K)")
    if x.dtype.kind not in "fiu" and x.dtype.name != "bfloat16":
        raise ValueError(f"inputs must hold real numbers, not {x.dtype}")
    x = x.reshape(-1, cols).astype(np.float64)
    if x.shape[0] == 0:
        raise ValueError("inputs are empty: calibration needs at least one input row")
    if not np.isfinite(x).all():
        raise ValueError(f"inputs have a non-finite value at row "
                         f"{np.argwhere(~np.isfinite(x))[0][0]}")
    return x


def _check_hessian(hessian, cols: int) -> np.ndarray:
    h = np.asarray(hessian, dtype=np.float64)
    if h.shape != (cols, cols):
        raise ValueError(f"hessian has shape {h.shape}, expected ({cols}, {cols}) for "
                         f"a weight of {cols} columns")
    if not np.isfinite(h).all():
        raise ValueError("hessian has non-finite values")
    if (np.diag(h) < 0).any():
        raise ValueError("hessian has a negative diagonal entry: it must be X^T X")
    return h


def _check_damp(damp) -> float:
    try:
        damp = float(damp)
    except (TypeError, ValueError) as error:
        raise ValueError(f"damp must be a number, got {damp!r}") from error
    if not (math.isfinite(damp) and damp >= 0):
        raise ValueError(f"damp must be finite and >= 0, got {damp}")
    return damp


def _check_block_size(block_size) -> int:
    if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)) \
            or block_size < 1:
        raise ValueError(f"block_size must be a positive integer, got {block_size!r}")
    return int(block_size)


def _magnitude(w: np.ndarray, v: int, n: int, m: int) -> np.ndarray:
    return _select_mask(np.abs(w), v, n, m)


def _wanda(w: np.ndarray, sq_norms: np.ndarray, v: int, n: int, m: int) -> np.ndarray:
    """Mask of the Wanda score |W_ij| * ||x_j|| (sq_norms: sum_t x_tj^2)."""
    return _select_mask(np.abs(w) * np.sqrt(np.maximum(sq_norms, 0.0))[None, :], v, n, m)


def _inverse_hessian_factor(h: np.ndarray, damp: float) -> np.ndarray:
    """The upper Cholesky factor U of (H + lambda I)^-1 (H^-1 = U^T U),
    lambda = damp * mean(diag H). Columns that no input reaches (H_jj = 0)
    get H_jj = the mean diagonal (1 if every column is dead). The damping
    grows tenfold (up to four times) if the factorization still fails."""
    reverse = np.arange(len(h))[::-1]
    mean = float(np.diag(_damped(h, 0.0)).mean()) if len(h) else 1.0
    extra = 0.0
    for _ in range(5):
        try:
            # With J the reversal, J H J = L L^T gives H = (J L J)(J L J)^T,
            # J L J upper triangular, so H^-1 = U^T U with U = J L^-1 J.
            damped = _damped(h, damp)[np.ix_(reverse, reverse)] + extra * np.eye(len(h))
            lower = np.linalg.cholesky(damped)
            u = np.linalg.inv(lower)[np.ix_(reverse, reverse)]
            return np.triu(u)
        except np.linalg.LinAlgError:
            extra = max(extra * 10, damp * mean * 9, 1e-8 * mean)
    raise ValueError("the calibration Hessian is not positive definite even with "
                     f"extra damping {extra:g}; use a larger damp or more calibration data")


def _group_mask(w: np.ndarray, d: np.ndarray, v: int, n: int, m: int) -> np.ndarray:
    """SparseGPT's choice for one group of columns (R x g, g <= m): the
    saliency w^2 / d^2, with d^2 = [H_F^-1]_jj of the columns F not yet
    processed."""
    return _select_mask(w * w / (d * d)[None, :], v, n, m)


def _sparsegpt(w: np.ndarray, h: np.ndarray, v: int, n: int, m: int,
               damp: float = 0.01, block_size: int = 128,
               fixed_mask: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """(pruned weight, keep-mask) of SparseGPT under the V:N:M constraint.

    H is damped (H + lambda I, lambda = damp * mean(diag H)) and U is the
    upper Cholesky factor of its inverse (H^-1 = U^T U); U_jj^2 =
    [H_F^-1]_jj with F = columns j..K-1, the columns not yet processed when
    the sweep reaches column j. Columns are processed left to right, in the
    format's groups of m columns (a lazy-update block holds whole groups):

    1. At the first column of a group, the mask of the whole group is
       decided at once from the current weights (already updated by every
       earlier column): saliency s_ij = w_ij^2 / U_jj^2 = w_ij^2 /
       [H_F^-1]_jj; in each v x m block the 4 columns with the highest sum
       over the block's rows of each row's n largest saliencies among them
       (padding columns of a ragged last group count 0), and in each row
       those n (_select_mask).
    2. Then the group's columns are pruned one at a time with the mask
       fixed: column j becomes q_j (its current value where kept, 0 where
       not) and the error e = (w_j - q_j) / U_jj is pushed onto every later
       column, W[:, j+1:] -= e U[j, j+1:]: the optimal least-squares update
       of the not yet processed weights given the finished columns. Kept
       weights of a group thus also absorb the updates of the group's
       earlier pruned columns.

    Updates beyond the current block of columns are applied lazily once
    per block (one matrix product). `fixed_mask` replaces step 1.
    """
    w = np.array(w, dtype=np.float64, copy=True)
    rows, cols = w.shape
    u = _inverse_hessian_factor(h, damp)
    mask = np.zeros((rows, cols), dtype=bool)
    step = m * max(1, -(-block_size // m))
    for i1 in range(0, cols, step):
        i2 = min(cols, i1 + step)
        w1 = w[:, i1:i2].copy()
        u1 = u[i1:i2, i1:i2]
        d1 = np.diag(u1)
        err = np.zeros_like(w1)
        keep1 = np.zeros(w1.shape, dtype=bool)
        for i in range(i2 - i1):
            if i % m == 0:
                g = min(m, i2 - i1 - i)
                if fixed_mask is None:
                    keep1[:, i:i + g] = _group_mask(w1[:, i:i + g], d1[i:i + g], v, n, m)
                else:  # a given mask (the tests' closed forms)
                    keep1[:, i:i + g] = fixed_mask[:, i1 + i:i1 + i + g]
            col = w1[:, i]
            q = np.where(keep1[:, i], col, 0.0)
            e = (col - q) / d1[i]
            w1[:, i + 1:] -= np.outer(e, u1[i, i + 1:])
            w1[:, i] = q
            err[:, i] = e
        w[:, i1:i2] = w1
        mask[:, i1:i2] = keep1
        if i2 < cols:
            w[:, i2:] -= err @ u[i1:i2, i2:]
    return np.where(mask, w, 0.0), mask


def reconstruction_error(weight, pruned, hessian) -> float:
    """tr((W - W') H (W - W')^T) / tr(W H W^T): the relative squared error
    ||W X^T - W' X^T||^2 / ||W X^T||^2 of a layer on the inputs X of H = X^T X."""
    w = np.asarray(weight, dtype=np.float64)
    d = w - np.asarray(pruned, dtype=np.float64)
    h = np.asarray(hessian, dtype=np.float64)
    base = float(((w @ h) * w).sum())
    diff = float(((d @ h) * d).sum())
    return diff / base if base > 0 else (0.0 if diff == 0 else math.inf)


def _damped(h: np.ndarray, damp: float) -> np.ndarray:
    """H + lambda I with SparseGPT's lambda = damp * mean(diag H), dead
    columns (H_jj = 0) given the mean diagonal, as _inverse_hessian_factor."""
    h = np.array(h, dtype=np.float64, copy=True)
    h = (h + h.T) / 2
    diag = np.diag(h).copy()
    dead = diag <= 0
    mean = float(diag[~dead].mean()) if (~dead).any() else 1.0
    index = np.flatnonzero(dead)
    h[index, index] = mean
    h[np.diag_indices_from(h)] += damp * mean
    return h


def _refit(target: np.ndarray, h: np.ndarray, mask: np.ndarray, damp: float) -> np.ndarray:
    """The least-squares weights on a fixed mask: each row r minimizes
    (t_r - w_r) (H + lambda I) (t_r - w_r)^T over w_r supported on its
    kept columns S, so w_r,S = (H + lambda I)_SS^-1 ((H + lambda I) t_r)_S."""
    hd = _damped(h, damp)
    b = target @ hd  # row r: ((H + lambda I) t_r)^T, H symmetric
    out = np.zeros_like(target)
    sizes = mask.sum(axis=1)
    for size in np.unique(sizes):
        if size == 0:
            continue
        rows = np.flatnonzero(sizes == size)
        chunk = max(1, (1 << 24) // int(size * size))
        for r0 in range(0, len(rows), chunk):
            r = rows[r0:r0 + chunk]
            support = np.nonzero(mask[r])[1].reshape(len(r), size)
            rhs = np.take_along_axis(b[r], support, axis=1)[..., None]
            out[r[:, None], support] = _solve_principal(hd, support, rhs)[..., 0]
    return out


def _solve_principal(hd: np.ndarray, support: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Solves hd[S_i, S_i] x_i = rhs_i for each row i of `support` (hd
    symmetric positive definite): in torch by Cholesky when the program has
    already imported torch (its gather and factorization are several times
    faster), else numpy."""
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "cholesky_solve"):
        index = torch.from_numpy(support)
        system = torch.from_numpy(hd)[index[:, :, None], index[:, None, :]]
        factor, info = torch.linalg.cholesky_ex(system)
        if not bool(info.any()):
            return torch.cholesky_solve(torch.from_numpy(rhs), factor).numpy()
        return torch.linalg.solve(system, torch.from_numpy(rhs)).numpy()
    return np.linalg.solve(hd[support[:, :, None], support[:, None, :]], rhs)


def _compensated(w: np.ndarray, h: np.ndarray, cross: np.ndarray, damp: float) -> np.ndarray:
    """The dense weights that best map the pruned model's inputs X_p to the
    dense layer's outputs on the dense model's inputs X_d: minimizing
    ||X_d W^T - X_p W'^T||^2 (damped) gives W' = W + W (C - H)(H + lambda I)^-1
    with H = X_p^T X_p and C = X_d^T X_p (W' = W when X_d = X_p)."""
    hd = _damped(h, damp)
    return w + np.linalg.solve(hd, (cross - h).T @ w.T).T


def _prune_float64(w: np.ndarray, encoding: Tuple[int, int, int], method: str,
                   hessian: Optional[np.ndarray], sq_norms: Optional[np.ndarray],
                   damp: float, block_size: int, refit: bool = False,
                   cross: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """(pruned weight, mask); with `cross` (C) the target is first the
    compensated weight, with `refit` the kept weights are then the
    least-squares ones for the mask (both need the Hessian)."""
    v, n, m = encoding
    if cross is not None:
        w = _compensated(w, hessian, cross, damp)
    if method == "magnitude":
        mask = _magnitude(w, v, n, m)
        pruned = np.where(mask, w, 0.0)
    elif method == "wanda":
        if sq_norms is None:
            sq_norms = np.diag(hessian)
        mask = _wanda(w, sq_norms, v, n, m)
        pruned = np.where(mask, w, 0.0)
    else:
        pruned, mask = _sparsegpt(w, hessian, v, n, m, damp, block_size)
    if refit:
        pruned = _refit(w, hessian, mask, damp)
    return pruned, mask


def _to_dtype(pruned: np.ndarray, mask: np.ndarray, dtype: np.dtype,
              what: str) -> np.ndarray:
    """The float64 result in the weight's dtype, zeros +0 (never -0, which
    the format would not restore bit for bit), or ValueError on overflow."""
    with np.errstate(over="ignore"):
        out = pruned.astype(dtype)
    if not np.isfinite(out.astype(np.float64)).all():
        raise ValueError(f"{what}: an updated weight overflows {dtype}; prune a "
                         "float32 copy, or use a larger damp")
    out[~mask] = 0
    out[out == 0] = 0
    return out


def prune_weight(weight, encoding: EncodingLike, method: str = "sparsegpt",
                 inputs=None, *, hessian=None, refit: bool = False, damp: float = 0.01,
                 block_size: int = 128) -> np.ndarray:
    """`weight` (numpy, R x K: y = x @ weight.T) pruned to `encoding`.

    method     "magnitude" (no data), "wanda" or "sparsegpt"
    inputs     calibration inputs of the layer, (..., K): T rows of x that
               reach this weight (all leading axes are flattened)
    hessian    instead of inputs: H = X^T X (K x K), e.g. accumulated over
               batches; "wanda" uses its diagonal
    refit      then replace the kept weights of each row by the
               least-squares optimum for the chosen mask on the inputs
    damp       dampening, lambda = damp * mean(diag H)
    block_size columns per lazy-update block of SparseGPT (rounded up to
               a multiple of m; it changes only rounding)

    Returns a new array of weight's dtype (float16, float32, float64 or
    ml_dtypes.bfloat16) that is exactly a V:N:M matrix: kept entries are
    the weight's values (magnitude, wanda) or its updated values
    (sparsegpt), the others +0, so vnm.format.decompress(
    vnm.format.compress(result, encoding)) == result bit for bit.
    Raises ValueError for a bad encoding or method, a weight that is not a
    finite real matrix, inputs or a hessian of the wrong shape, non-finite
    or empty calibration data, or a method that needs data without any.

    JAX: prune the weights as numpy arrays before lowering; the inputs of
    a later layer come from the already-pruned earlier ones:

        import numpy as np, jax, jax.numpy as jnp, vnm.jax, vnm.pruning as vp
        # mlp(x, w1, w2) = relu(x @ w1.T) @ w2.T; x_cal: T x K calibration
        w1p = vp.prune_weight(np.asarray(w1), "64:2:8", "sparsegpt",
                              inputs=np.asarray(x_cal))
        h = jax.nn.relu(x_cal @ jnp.asarray(w1p).T)   # what w2 sees
        w2p = vp.prune_weight(np.asarray(w2), "64:2:8", "sparsegpt",
                              inputs=np.asarray(h))
        w1, w2 = jnp.asarray(w1p), jnp.asarray(w2p)
        result = vnm.jax.lower(mlp, x, w1, w2,
                               sparsity={1: "64:2:8", 2: "64:2:8"},
                               target="sm_90")
        # the weight arguments are then vnm.format.compress(w1p, "64:2:8")...

    A weight read as x @ W (K x R) is pruned as prune_weight(W.T, ...).T.
    """
    encoding = parse_encoding(encoding)
    method = _method(method)
    damp = _check_damp(damp)
    block_size = _check_block_size(block_size)
    array = np.asarray(weight)
    if array.dtype.kind != "f" and array.dtype.name != "bfloat16":
        raise ValueError(f"weight must be a floating-point array (float16, float32, "
                         f"float64, bfloat16), not {array.dtype}; integer weights are "
                         "pruned by magnitude with vnm.format.prune")
    w = _float_matrix(array, "weight")
    cols = w.shape[1]
    h = sq = None
    if inputs is not None and hessian is not None:
        raise ValueError("give inputs or hessian, not both")
    if method != "magnitude" or refit:
        if inputs is not None:
            x = _inputs(inputs, cols)
            if method == "sparsegpt" or refit:
                h = x.T @ x
            else:
                sq = np.einsum("tk,tk->k", x, x)
        elif hessian is not None:
            h = _check_hessian(hessian, cols)
        else:
            what = "refit" if method == "magnitude" else f"method {method!r}"
            raise ValueError(f"{what} needs calibration data: inputs= "
                             "(T x K) or hessian= (K x K)")
    pruned, mask = _prune_float64(w, encoding, method, h, sq, damp, block_size, refit)
    return _to_dtype(pruned, mask, array.dtype, "prune_weight")


# ------------------------------------------------------------- PyTorch


@dataclass
class PrunedWeight:
    """One weight that prune_model pruned.

    parameter  its name in model.named_parameters() ("0.weight")
    module     the nn.Linear's name ("0")
    encoding   (v, n, m)
    mask       keep-mask, a torch.bool tensor of the weight's shape (CPU)
    rows       calibration rows (tokens) that reached the layer
    error      relative reconstruction error on those rows,
               ||(W - W') X^T||^2 / ||W X^T||^2 (None for magnitude)
    """

    parameter: str
    module: str
    encoding: Tuple[int, int, int]
    mask: Any
    rows: int = 0
    error: Optional[float] = None


class _Stop(Exception):
    """Raised by a hook to end a calibration forward early."""


def _torch():
    try:
        import torch
    except ImportError as error:
        raise ImportError("vnm.pruning.prune_model and distill need PyTorch") from error
    return torch


def _resolve_sparsity(model, sparsity) -> Dict[str, Tuple[str, Tuple[int, int, int]]]:
    """{module name: (parameter name, encoding)} of the nn.Linear layers
    named in `sparsity` (parameter or module names), in the model's order."""
    torch = _torch()
    modules = dict(model.named_modules())
    linear = {name: mod for name, mod in modules.items()
              if isinstance(mod, torch.nn.Linear)}
    if isinstance(sparsity, (str, tuple, list)) or (
            not isinstance(sparsity, Mapping) and hasattr(sparsity, "v")):
        encoding = parse_encoding(sparsity)
        if not linear:
            raise ValueError(f"{type(model).__name__} has no nn.Linear layer to prune")
        chosen = {name: encoding for name in linear}
    elif isinstance(sparsity, Mapping):
        if not sparsity:
            raise ValueError("sparsity names no layer")
        chosen = {}
        for key, value in sparsity.items():
            if not isinstance(key, str):
                raise ValueError(f"sparsity key {key!r} is not a parameter or module name")
            encoding = parse_encoding(value)
            if key in linear:
                name = key
            elif key == "weight" and "" in linear:
                name = ""
            elif key.endswith(".weight") and key[:-len(".weight")] in linear:
                name = key[:-len(".weight")]
            else:
                what = ("not the weight of an nn.Linear" if key in modules or
                        key in dict(model.named_parameters()) else
                        f"not a parameter or module of {type(model).__name__}")
                raise ValueError(
                    f"sparsity names {key!r}, {what} (nn.Linear layers: "
                    f"{', '.join(repr(n) for n in linear) or 'none'})")
            if name in chosen and chosen[name] != encoding:
                raise ValueError(f"sparsity gives layer {name!r} two encodings")
            chosen[name] = encoding
    else:
        raise ValueError("sparsity must map parameter or module names to encodings, "
                         f"or be one encoding for every nn.Linear, not {sparsity!r}")
    result = {}
    for name in linear:  # the model's order
        if name in chosen:
            parameter = f"{name}.weight" if name else "weight"
            weight = linear[name].weight
            if not torch.is_floating_point(weight):
                raise ValueError(f"{parameter} is not floating point ({weight.dtype})")
            if not torch.isfinite(weight).all():
                raise ValueError(f"{parameter} has non-finite values")
            result[name] = (parameter, chosen[name])
    return result


def _default_forward(model, item):
    if isinstance(item, (tuple, list)):
        return model(*item)
    return model(item)


def _token_mask(item):
    """The attention mask of a calibration item (a mapping holding
    "attention_mask"), to leave padding tokens out of the statistics."""
    if isinstance(item, Mapping) and "attention_mask" in item:
        mask = item["attention_mask"]
        if hasattr(mask, "dim"):
            return mask
    return None


class _Calibration:
    """Runs the calibration data through the model (no_grad, eval mode)."""

    def __init__(self, calibration, forward):
        self.callable = callable(calibration) and not hasattr(calibration, "__iter__")
        self.forward = forward or _default_forward
        if self.callable:
            self.items = None
            self.function = calibration
        else:
            if calibration is None:
                raise ValueError("this method needs calibration data: an iterable of "
                                 "model inputs, or a callable that runs the model")
            try:
                self.items = list(calibration)
            except TypeError as error:
                raise ValueError("calibration must be an iterable of model inputs or a "
                                 "callable(model) that runs the model on them") from error
            if not self.items:
                raise ValueError("calibration is empty")
        self.mask = None
        self.item = 0  # counts the items run, for the hooks' early stop

    def run(self, model, stop_after: Optional[Callable[[], bool]] = None,
            first_only: bool = False):
        torch = _torch()
        with torch.no_grad():
            if self.callable:
                self.function(model)
                return
            for item in self.items[:1] if first_only else self.items:
                self.item += 1
                self.mask = _token_mask(item)
                try:
                    self.forward(model, item)
                except _Stop:
                    pass
                finally:
                    self.mask = None


class _Statistics:
    """Of one layer's calibration inputs X (T x K): X^T X ("hessian") or
    the column sums of squares ("sq"), and with paired dense-model inputs
    X_d the cross term X_d^T X."""

    def __init__(self, kind: str):
        self.kind = kind
        self.rows = 0
        self.value = None
        self.cross = None

    def add(self, contribution, rows: int, cross=None):
        self.value = contribution if self.value is None else self.value + contribution
        if cross is not None:
            self.cross = cross if self.cross is None else self.cross + cross
        self.rows += rows


def _rows_of(x, cols: int, mask, name: str):
    torch = _torch()
    if x.shape[-1] != cols:
        raise ValueError(f"layer {name!r} got an input with {x.shape[-1]} features, "
                         f"expected {cols}")
    if mask is not None and tuple(mask.shape) == tuple(x.shape[:-1]):
        x = x[mask.to(x.device).bool()]
    x = x.reshape(-1, cols).to(torch.float64)
    if not torch.isfinite(x).all():
        raise ValueError(f"layer {name!r}: its calibration inputs have non-finite values")
    return x


def _install_hooks(modules: Mapping[str, Any], names: Sequence[str],
                   stats: Optional[Dict[str, _Statistics]], calibration: _Calibration,
                   calls: Optional[Dict[str, int]] = None,
                   pairs: Optional[Dict[str, List[Any]]] = None,
                   record: Optional[Dict[str, List[Any]]] = None):
    """Pre-forward hooks on modules[name] for each name: adding the layer's
    inputs to stats[name] (a contribution is computed once per input tensor
    that layers share), with `pairs` also the cross term with the queued
    dense-model inputs pairs[name]; or, with `record`, queuing the input
    rows in record[name]. With `calls`, the forward stops once every named
    layer has been called that many times in the current item."""
    seen: Dict[str, int] = {}
    cache: List[Any] = [None, None, None]  # item, input, (contribution, rows, cross)

    def hook_for(name):
        cols = modules[name].in_features

        def hook(module, args):
            x = args[0]
            if cache[0] != calibration.item:  # a new item
                seen.clear()
                cache[:] = [calibration.item, None, None]
            if record is not None:
                record[name].append(_rows_of(x.detach(), cols, calibration.mask, name))
            else:
                dense = pairs[name].pop(0) if pairs is not None else None
                if cache[1] is not None and cache[1] is x:
                    contribution, rows, cross = cache[2]
                else:
                    rows_x = _rows_of(x.detach(), cols, calibration.mask, name)
                    if stats[name].kind == "hessian":
                        contribution = rows_x.T @ rows_x
                    else:
                        contribution = (rows_x * rows_x).sum(dim=0)
                    cross = None
                    if dense is not None:
                        if dense.shape != rows_x.shape:
                            raise ValueError(f"layer {name!r}: the dense and the pruned "
                                             "model's inputs differ in shape")
                        cross = dense.T @ rows_x
                    rows = rows_x.shape[0]
                    cache[1:] = [x, (contribution, rows, cross)]
                stats[name].add(contribution, rows, cross)
            seen[name] = seen.get(name, 0) + 1
            if calls is not None and all(seen.get(k, 0) >= calls[k] for k in names):
                raise _Stop()
        return hook

    handles = [modules[name].register_forward_pre_hook(hook_for(name)) for name in names]

    def remove():
        for handle in handles:
            handle.remove()
        cache[:] = [None, None, None]
    return remove


def _find_blocks(model, names: Sequence[str]) -> Optional[Tuple[str, List[str]]]:
    """The nn.ModuleList (name, member names) holding the most selected
    layers, the outermost on a tie; None if no list holds any."""
    torch = _torch()
    best = None
    for list_name, module in model.named_modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) >= 2:
            prefix = f"{list_name}." if list_name else ""
            members = [f"{prefix}{i}" for i in range(len(module))]
            count = sum(any(n == b or n.startswith(b + ".") for b in members) for n in names)
            if count and (best is None or count > best[0]):
                best = (count, list_name, members)
    return None if best is None else (best[1], best[2])


def _same(a, b) -> bool:
    """Whether two block arguments are the same object or equal values."""
    if a is b:
        return True
    if hasattr(a, "data_ptr") or hasattr(b, "data_ptr"):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


def _block_output(out):
    torch = _torch()
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor):
        return out[0]
    return None


@dataclass
class _Plan:
    """How prune_model runs the calibration: `groups` of layers sharing an
    input, in forward order; `calls` per item of each layer (None: no early
    stop); `blocks`, when the model is a chain of blocks (an nn.ModuleList
    whose block i + 1 takes block i's output as its first argument and the
    same other arguments), the member names, and `in_block` of each layer."""

    groups: List[List[str]]
    calls: Optional[Dict[str, int]]
    blocks: Optional[List[str]] = None
    in_block: Optional[Dict[str, int]] = None


def _forward_order(model, names: Sequence[str], calibration: _Calibration,
                   use_blocks: bool) -> _Plan:
    """Runs the first calibration item with hooks recording the order of
    the selected layers, their inputs and the blocks' calls."""
    modules = dict(model.named_modules())
    first: Dict[str, Any] = {}
    counts: Dict[str, int] = {}
    order: List[str] = []
    found = _find_blocks(model, names) if use_blocks else None
    block_names = found[1] if found else []
    block_calls: Dict[str, List[Any]] = {b: [] for b in block_names}
    handles = []

    def layer_hook(name):
        def hook(module, args):
            counts[name] = counts.get(name, 0) + 1
            if name not in first:
                first[name] = args[0]  # held, so its storage is not reused
                order.append(name)
        return hook

    def block_hook(name):
        def hook(module, args, kwargs, output):
            block_calls[name].append((args, kwargs, output))
        return hook

    try:
        for name in names:
            handles.append(modules[name].register_forward_pre_hook(layer_hook(name)))
        for name in block_names:
            handles.append(modules[name].register_forward_hook(block_hook(name),
                                                               with_kwargs=True))
        calibration.run(model, first_only=True)
    finally:
        for handle in handles:
            handle.remove()
    missing = [name for name in names if name not in first]
    if missing:
        raise ValueError("the calibration forward never runs layer(s) "
                         f"{', '.join(map(repr, missing))}")

    def key(x):
        return (x.data_ptr(), tuple(x.shape), tuple(x.stride()), x.dtype)

    groups: List[List[str]] = []
    for name in order:
        if groups and key(first[groups[-1][-1]]) == key(first[name]):
            groups[-1].append(name)
        else:
            groups.append([name])
    once = not calibration.callable and all(counts[name] == 1 for name in names)
    plan = _Plan(groups, dict(counts) if once else None)
    if block_names and _chained(block_calls, block_names):
        in_block = {}
        for name in names:
            for i, b in enumerate(block_names):
                if name.startswith(b + "."):
                    in_block[name] = i
        # The layers outside the blocks must run before the first block or
        # after the last one, and each group must lie in one block.
        position = {name: i for i, name in enumerate(order)}
        inside = [position[n] for n in in_block]
        outside_ok = all(position[n] < min(inside) or position[n] > max(inside)
                         for n in names if n not in in_block)
        groups_ok = all(len({in_block.get(n, -1) for n in g}) == 1 for g in groups)
        if outside_ok and groups_ok:
            plan.blocks, plan.in_block = block_names, in_block
    return plan


def _chained(block_calls, block_names) -> bool:
    """Whether each block ran once, with positional first argument the
    previous block's output and the same other arguments as block 0."""
    torch = _torch()
    calls = [block_calls[b] for b in block_names]
    if any(len(c) != 1 for c in calls):
        return False
    args0, kwargs0, _ = calls[0][0]
    if not args0 or not isinstance(args0[0], torch.Tensor):
        return False
    for i in range(1, len(calls)):
        args, kwargs, _ = calls[i][0]
        previous = _block_output(calls[i - 1][0][2])
        if previous is None or not args or args[0] is not previous:
            return False
        if len(args) != len(args0) or set(kwargs) != set(kwargs0):
            return False
        if not all(_same(a, b) for a, b in zip(args[1:], args0[1:])):
            return False
        if not all(_same(kwargs[k], kwargs0[k]) for k in kwargs):
            return False
    return _block_output(calls[-1][0][2]) is not None


def prune_model(model, sparsity, calibration=None, method: str = "sparsegpt", *,
                forward: Optional[Callable] = None, sequential: bool = True,
                blocks: bool = True, refit: bool = False, compensate: bool = False,
                damp: float = 0.01, block_size: int = 128) -> Dict[str, PrunedWeight]:
    """Prunes the nn.Linear weights named in `sparsity` in place and returns
    {parameter name: PrunedWeight} (the masks that distill keeps fixed).

    sparsity     {"0.weight": "64:2:8", "fc2": "2:4", ...}: parameter names
                 as vnm.torch.lower takes them, or nn.Linear module names;
                 or one encoding for every nn.Linear of the model
    calibration  an iterable of model inputs (each run as forward(model,
                 item); default: model(*item) for a tuple or list, else
                 model(item)), or a callable(model) that runs the model on
                 the calibration data. A mapping item holding
                 "attention_mask" (as a tokenizer returns it) leaves padding
                 tokens out of the statistics where a layer's input has the
                 mask's leading shape. Not needed for "magnitude" alone.
    method       "sparsegpt", "wanda" or "magnitude" (which chooses the mask)
    sequential   (default) layer by layer in forward order, each layer's
                 inputs collected with the earlier layers already pruned, as
                 SparseGPT does; layers reading the same input tensor (q, k,
                 v) share one pass. With an iterable calibration every pass
                 stops at the last layer it needs. False: one pass of the
                 dense model for every layer.
    blocks       (default) when the selected layers sit in a chain of
                 blocks (an nn.ModuleList whose block i + 1 takes block i's
                 output as first argument and otherwise the same arguments,
                 as transformer layers do; checked on the first item), the
                 first block's inputs are recorded once and every later
                 pass runs one block on its cached inputs instead of the
                 whole model: the same statistics, far less compute. False:
                 every pass runs the whole model.
    refit        after the mask is chosen, replace the kept weights of each
                 row by the least-squares optimum for that mask on the
                 calibration inputs (one linear solve a row)
    compensate   fit the dense model's outputs instead of the layer's own:
                 each layer's target becomes the dense weight that best maps
                 its inputs in the partly pruned model X_p to the dense
                 layer's outputs on the dense model's inputs X_d
                 (W + W (X_d^T X_p - X_p^T X_p)(X_p^T X_p + lambda I)^-1),
                 so that it also corrects the error of the layers before.
                 Needs the chain of blocks (sequential, blocks); layers
                 outside the blocks are fitted without it.
    damp         dampening, lambda = damp * mean(diag X^T X)

    The calibration runs without gradients and in eval mode (the model's
    mode is restored). Raises ValueError for a bad encoding, method or
    name, a layer the calibration never reaches, empty calibration and
    non-finite weights or calibration inputs; the model is left unchanged
    when the error is found before any layer is pruned (names, encodings,
    weights, the first calibration pass).
    """
    torch = _torch()
    method = _method(method)
    damp = _check_damp(damp)
    block_size = _check_block_size(block_size)
    layers = _resolve_sparsity(model, sparsity)
    modules = dict(model.named_modules())
    results: Dict[str, PrunedWeight] = {}
    kind = "hessian" if (method == "sparsegpt" or refit or compensate) else "sq"

    def prune_layer(name, stat: Optional[_Statistics]):
        parameter, encoding = layers[name]
        weight = modules[name].weight
        w = weight.detach().to("cpu", torch.float64).numpy()
        h = sq = cross = None
        if stat is not None:
            if stat.rows == 0 or stat.value is None:
                raise ValueError(f"layer {name!r} saw no calibration rows (every "
                                 "token masked out?)")
            value = stat.value.cpu().numpy()
            if kind == "hessian":
                h = value
                cross = None if stat.cross is None else stat.cross.cpu().numpy()
            else:
                sq = value
        pruned, mask = _prune_float64(w, encoding, method, h, sq, damp, block_size,
                                      refit, cross)
        error = None
        if h is not None:
            target = w if cross is None else _compensated(w, h, cross, damp)
            error = reconstruction_error(target, pruned, h)
        elif sq is not None:
            d = w - pruned
            base = float((w * w * sq[None, :]).sum())
            error = float((d * d * sq[None, :]).sum()) / base if base > 0 else 0.0
        tensor = torch.from_numpy(pruned).to(weight.dtype)
        keep = torch.from_numpy(mask)
        tensor[~keep] = 0
        tensor[tensor == 0] = 0  # +0, never -0
        if not torch.isfinite(tensor).all():
            raise ValueError(f"{parameter}: an updated weight overflows {weight.dtype}")
        with torch.no_grad():
            weight.copy_(tensor.to(weight.device))
        results[parameter] = PrunedWeight(parameter, name, encoding, keep,
                                          stat.rows if stat else 0, error)

    def collect(group, calls, run, pairs=None):
        stats = {name: _Statistics(kind) for name in group}
        group_calls = None if calls is None else {k: calls[k] for k in group}
        remove = _install_hooks(modules, group, stats, cal, group_calls, pairs)
        try:
            run()
        finally:
            remove()
        for name in group:
            prune_layer(name, stats[name])

    if method == "magnitude" and not (refit or compensate):
        for name in layers:
            prune_layer(name, None)
        return results

    cal = _Calibration(calibration, forward)
    names = list(layers)
    was_training = model.training
    model.eval()
    try:
        if not sequential:
            if compensate:
                raise ValueError("compensate needs sequential pruning")
            collect(names, None, lambda: cal.run(model))
        else:
            plan = _forward_order(model, names, cal, blocks)
            if plan.blocks is None:
                if compensate:
                    raise ValueError(
                        "compensate needs the selected layers in a chain of blocks "
                        "(an nn.ModuleList of blocks, each taking the previous "
                        "one's output) and blocks=True")
                for group in plan.groups:
                    collect(group, plan.calls, lambda: cal.run(model))
            else:
                _run_blocks(model, plan, cal, collect, compensate)
    finally:
        model.train(was_training)
    return dict(sorted(results.items(), key=lambda kv: names.index(kv[1].module)))


def _run_blocks(model, plan: _Plan, cal: _Calibration, collect, compensate: bool) -> None:
    """prune_model's sequential passes over a chain of blocks: the layers
    before the blocks on whole-model passes, then block by block on the
    cached block inputs (with `compensate`, a dense copy of each block runs
    beside it on the dense model's block inputs), then the layers after
    the blocks."""
    torch = _torch()
    modules = dict(model.named_modules())
    blocks = [modules[b] for b in plan.blocks]
    outside = [g for g in plan.groups if g[0] not in plan.in_block]
    before = [g for g in outside if not _after_blocks(g, plan)]
    after = [g for g in outside if _after_blocks(g, plan)]
    for group in before:
        collect(group, plan.calls, lambda: cal.run(model))

    cached = []  # per call of block 0: [hidden, other args, kwargs, token mask, dense hidden]

    def capture(module, args, kwargs):
        cached.append([args[0], args[1:], kwargs, cal.mask, args[0]])
        if not cal.callable:
            raise _Stop()

    handle = blocks[0].register_forward_pre_hook(capture, with_kwargs=True)
    try:
        cal.run(model)
    finally:
        handle.remove()
    if not cached:
        raise ValueError(f"the calibration forward never runs {plan.blocks[0]!r}")

    def run_entries(block, dense_block=None, record=None):
        def run():
            with torch.no_grad():
                for entry in cached:
                    cal.item += 1
                    cal.mask = entry[3]
                    try:
                        if dense_block is not None:
                            try:
                                dense_block(entry[4], *entry[1], **entry[2])
                            except _Stop:
                                pass
                        block(entry[0], *entry[1], **entry[2])
                    except _Stop:
                        pass
                    finally:
                        cal.mask = None
        return run

    for index, (block_name, block) in enumerate(zip(plan.blocks, blocks)):
        dense_block = copy.deepcopy(block) if compensate else None
        for group in plan.groups:
            if plan.in_block.get(group[0]) != index:
                continue
            if dense_block is None:
                collect(group, plan.calls, run_entries(block))
                continue
            # The dense copy's hooks queue its inputs, the pruned block's
            # hooks pair them with its own.
            dense_modules = {name: dense_block.get_submodule(name[len(block_name) + 1:])
                             for name in group}
            queue = {name: [] for name in group}
            group_calls = None if plan.calls is None else {k: plan.calls[k] for k in group}
            remove = _install_hooks(dense_modules, group, None, cal, group_calls,
                                    record=queue)
            try:
                collect(group, plan.calls, run_entries(block, dense_block), pairs=queue)
            finally:
                remove()
        if index + 1 < len(blocks):
            with torch.no_grad():
                for entry in cached:
                    entry[0] = _block_output(block(entry[0], *entry[1], **entry[2]))
                    if dense_block is not None:
                        entry[4] = _block_output(dense_block(entry[4], *entry[1], **entry[2]))
    for group in after:
        collect(group, plan.calls, lambda: cal.run(model))


def _after_blocks(group, plan: _Plan) -> bool:
    """Whether a group outside the blocks comes after them in forward order."""
    order = [n for g in plan.groups for n in g]
    inside = [order.index(n) for n in plan.in_block]
    return bool(inside) and order.index(group[0]) > max(inside)


def _mask_tensors(model, masks) -> Dict[str, Any]:
    """{parameter name: bool mask} from prune_model's result or a mapping
    of names to masks, checked against the model."""
    torch = _torch()
    parameters = dict(model.named_parameters())
    result = {}
    for name, mask in dict(masks).items():
        if isinstance(mask, PrunedWeight):
            mask = mask.mask
        if name not in parameters:
            raise ValueError(f"masks name {name!r}, not a parameter of {type(model).__name__}")
        mask = torch.as_tensor(mask, dtype=torch.bool)
        if tuple(mask.shape) != tuple(parameters[name].shape):
            raise ValueError(f"mask of {name!r} has shape {tuple(mask.shape)}, the "
                             f"parameter {tuple(parameters[name].shape)}")
        result[name] = mask.to(parameters[name].device)
    return result


def apply_masks(model, masks) -> None:
    """Sets the entries outside each mask to +0 (masks as prune_model returns)."""
    torch = _torch()
    parameters = dict(model.named_parameters())
    with torch.no_grad():
        for name, mask in _mask_tensors(model, masks).items():
            p = parameters[name]
            p.masked_fill_(~mask, 0)
            p.masked_fill_(p == 0, 0)  # -0 -> +0


def _outputs(out, output):
    torch = _torch()
    if output is not None:
        out = output(out)
    if isinstance(out, torch.Tensor):
        return (out,)
    if isinstance(out, (tuple, list)) and out and all(isinstance(t, torch.Tensor) for t in out):
        return tuple(out)
    raise ValueError("the model's output is not a tensor or a tuple of tensors: pass "
                     "output=, e.g. output=lambda out: out['sentence_embedding']")


def _loss_function(loss):
    torch = _torch()
    functional = torch.nn.functional
    if callable(loss):
        return loss
    if loss == "cosine":
        return lambda s, t: (1 - functional.cosine_similarity(
            s.flatten(0, -2) if s.dim() > 1 else s[None],
            t.flatten(0, -2) if t.dim() > 1 else t[None], dim=-1)).mean()
    if loss == "mse":
        return lambda s, t: functional.mse_loss(s, t) / t.pow(2).mean().clamp_min(1e-12)
    raise ValueError(f"unknown loss {loss!r}: expected 'cosine', 'mse' or a callable")


def _capture_outputs(model, names: Sequence[str]):
    """Forward hooks keeping the latest output tensor of each named module."""
    modules = dict(model.named_modules())
    missing = [n for n in names if n not in modules]
    if missing:
        raise ValueError(f"match names {', '.join(map(repr, missing))}, not a module of "
                         f"{type(model).__name__}")
    store: Dict[str, Any] = {}
    handles = []
    for name in names:
        def hook(module, args, out, name=name):
            tensor = _block_output(out)
            if tensor is None:
                raise ValueError(f"module {name!r} does not return a tensor to match")
            store[name] = tensor
        handles.append(modules[name].register_forward_hook(hook))
    return store, handles


def _masked_rows(tensor, mask):
    """The rows of `tensor` (..., D) whose token is not padding."""
    if mask is not None and tuple(mask.shape) == tuple(tensor.shape[:-1]):
        return tensor[mask.to(tensor.device).bool()]
    return tensor


def replace_tokens(rate: float, candidates, *, protect=(), key: str = "input_ids",
                   seed: int = 0) -> Callable[[Any, int], Any]:
    """An `augment` for distill: each token of item[key] that is neither
    padding (attention_mask 0) nor in `protect` (e.g. the tokenizer's
    all_special_ids) is replaced, with probability `rate`, by a token drawn
    uniformly from `candidates` (token ids, e.g. the vocabulary's whole
    words). Items are mappings of tensors (what a tokenizer returns); the
    returned item is a new mapping, the given one is left unchanged. The
    draws of step s depend only on (seed, s), so a run repeats exactly.

    Distilling on perturbed copies of the text is data augmentation: the
    teacher labels any token sequence, so every step brings sequences the
    student has not seen, near the real text (as TinyBERT does with word
    replacements)."""
    torch = _torch()
    if not (isinstance(rate, (int, float)) and not isinstance(rate, bool)
            and 0 <= rate <= 1):
        raise ValueError(f"rate must be a number in [0, 1], got {rate!r}")

    def token_ids(values, name, empty_ok):
        array = np.asarray(list(values))
        if (array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer))
                or (array.size == 0 and not empty_ok) or bool((array < 0).any())):
            raise ValueError(f"{name} must be a {'' if empty_ok else 'non-empty '}"
                             "sequence of integer token ids >= 0")
        return torch.as_tensor(array.astype(np.int64))

    pool = token_ids(candidates, "candidates", empty_ok=False)
    kept = token_ids(protect, "protect", empty_ok=True)

    def augment(item, step):
        if not isinstance(item, Mapping) or key not in item:
            raise ValueError(f"replace_tokens needs items that map {key!r} to token ids")
        ids = item[key]
        if not isinstance(ids, torch.Tensor) or ids.is_floating_point() or ids.is_complex():
            raise ValueError(f"replace_tokens needs item[{key!r}] to be a tensor of token ids")
        generator = torch.Generator().manual_seed(int(seed) * 1_000_003 + int(step))
        draw = torch.rand(ids.shape, generator=generator) < rate
        choice = pool[torch.randint(len(pool), ids.shape, generator=generator)]
        mask = item.get("attention_mask")
        if mask is not None:
            draw &= mask.cpu().bool()
        if kept.numel():
            draw &= ~torch.isin(ids.cpu(), kept)
        result = dict(item)
        result[key] = torch.where(draw.to(ids.device), choice.to(ids.device, ids.dtype), ids)
        return result

    return augment


def distill(model, teacher, data, masks, *, steps: int = 200, lr: float = 1e-4,
            loss: Union[str, Callable] = "cosine", forward: Optional[Callable] = None,
            output: Optional[Callable] = None, match: Sequence[str] = (),
            match_weight: float = 1.0, parameters=None, warmup: int = 10,
            cache_teacher: bool = True, remask_every: int = 0, remask_decay: float = 0.0,
            augment: Optional[Callable[[Any, int], Any]] = None,
            log: Optional[Callable[[int, float], None]] = None) -> List[float]:
    """A short distillation of the pruned `model` towards `teacher` (the
    dense model) on unlabeled `data`, with the V:N:M masks kept fixed (or
    learned, with `remask_every`).

    data        a list of model inputs (as prune_model's calibration),
                cycled for `steps` optimizer steps, one item a step
    masks       prune_model's result, or {parameter name: bool mask}: the
                gradients outside the masks are zeroed and every step ends
                by re-applying the masks, so the weights stay V:N:M
    loss        on the outputs: "cosine", mean 1 - cos(student, teacher)
                over the last axis; "mse", mean squared error relative to
                the teacher's mean square; or callable(student, teacher)
                -> scalar; summed over the output tensors
    output      callable(model output) -> tensor or tuple of tensors to
                match (default: the output itself, a tensor or tuple)
    match       names of modules (e.g. the transformer layers) whose
                outputs are matched too, each by mean squared error
                relative to the teacher's mean square, times
                `match_weight`; padding tokens are left out when the item
                is a mapping holding "attention_mask"
    parameters  what to train (default: every parameter requiring grad)
    remask_every  0: the masks stay as given. K > 0: they are learned too
                (needs prune_model's result, which holds each encoding):
                the masked weights keep a dense shadow, which the forward
                pass sees through the mask and the gradient updates whole
                (straight through); every K steps each mask is chosen again
                as the V:N:M mask of the shadow's largest magnitudes
                (select_mask's choice, made in torch on the weights'
                device), and the weights end masked by the last one.
                The result's masks are replaced by the learned ones.
    remask_decay  with remask_every: after every step the shadow's entries
                outside the current mask shrink by the factor
                max(0, 1 - lr_t * remask_decay) (lr_t: the step's rate), as
                in SR-STE (Zhou et al. 2021), so that a pruned weight enters
                the mask only where the gradient keeps pushing it; under
                Adam a weight that the gradient pushes one way every step
                settles near 1 / remask_decay (0: no decay)

    cache_teacher  keep the teacher's outputs (and matched module outputs)
                of each item for the next visit (memory: those outputs for
                all of `data`); False: run the teacher at every step
    augment     callable(item, step) -> the item that step trains on (for
                example replace_tokens(...)): both models see the returned
                item, so the teacher runs at every step and nothing is
                cached; the item in `data` must stay unchanged. Meant for
                runs that cycle a small set for many steps: every step
                then brings sequences the student has not seen.

    Adam at `lr`, linear warm-up over `warmup` steps then cosine decay to
    0; both models run in eval mode (no dropout) and are left in the mode
    they had. Returns the loss of each step.
    """
    torch = _torch()
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    if not (isinstance(lr, (int, float)) and math.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a positive number, got {lr!r}")
    if not (isinstance(match_weight, (int, float)) and math.isfinite(match_weight)
            and match_weight >= 0):
        raise ValueError(f"match_weight must be a number >= 0, got {match_weight!r}")
    items = list(data) if data is not None else []
    if not items:
        raise ValueError("distill needs data: a non-empty list of model inputs")
    loss_fn = _loss_function(loss)
    forward = forward or _default_forward
    match = list(match)
    mask_tensors = _mask_tensors(model, masks)
    if isinstance(remask_every, bool) or not isinstance(remask_every, (int, np.integer)) \
            or remask_every < 0:
        raise ValueError(f"remask_every must be an integer >= 0, got {remask_every!r}")
    if not (isinstance(remask_decay, (int, float)) and not isinstance(remask_decay, bool)
            and math.isfinite(remask_decay) and remask_decay >= 0):
        raise ValueError(f"remask_decay must be a number >= 0, got {remask_decay!r}")
    if remask_decay and not remask_every:
        raise ValueError("remask_decay needs remask_every > 0 (fixed masks have no "
                         "pruned weights to decay)")
    if augment is not None and not callable(augment):
        raise ValueError(f"augment must be callable(item, step), got {augment!r}")
    encodings = {}
    if remask_every:
        for name in mask_tensors:
            pruned = dict(masks)[name]
            if not isinstance(pruned, PrunedWeight):
                raise ValueError("remask_every needs prune_model's result as masks (the "
                                 f"encoding of {name!r} is unknown)")
            encodings[name] = pruned.encoding
    named = dict(model.named_parameters())
    trainable = [p for p in (parameters if parameters is not None else model.parameters())
                 if p.requires_grad]
    if not trainable:
        raise ValueError("distill has no parameter to train")

    teacher_was, student_was = teacher.training, model.training
    teacher.eval()
    model.eval()
    targets: List[Optional[Tuple[Any, Any]]] = [None] * len(items)
    # Fixed masks: the gradient outside a mask is zeroed. Learned ones: it
    # reaches the whole shadow.
    handles = [] if remask_every else [
        named[name].register_hook(lambda g, m=mask: g * m)
        for name, mask in mask_tensors.items()]
    student_store, student_handles = _capture_outputs(model, match)
    teacher_store, teacher_handles = _capture_outputs(teacher, match)
    handles += student_handles + teacher_handles
    optimizer = torch.optim.Adam(trainable, lr=lr)
    warmup = max(0, int(warmup))

    def schedule(step):
        if step < warmup:
            return (step + 1) / (warmup + 1)
        return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, steps - warmup)))

    def relative_mse(s, t):
        return (s - t).pow(2).mean() / t.pow(2).mean().clamp_min(1e-12)

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    losses: List[float] = []
    try:
        apply_masks(model, mask_tensors)
        for step in range(steps):
            index = step % len(items)
            item = items[index] if augment is None else augment(items[index], step)
            token_mask = _token_mask(item)
            if targets[index] is None:
                with torch.no_grad():
                    target = tuple(t.detach() for t in
                                   _outputs(forward(teacher, item), output))
                    inner = {k: _masked_rows(v.detach(), token_mask)
                             for k, v in teacher_store.items()}
                if cache_teacher and augment is None:  # an augmented item is new
                    targets[index] = (target, inner)
            else:
                target, inner = targets[index]
            if remask_every:
                # The shadow is what the parameters hold between steps; the
                # forward pass sees it masked.
                shadows = {name: named[name].detach().clone() for name in mask_tensors}
                apply_masks(model, mask_tensors)
            student = _outputs(forward(model, item), output)
            if len(student) != len(target):
                raise ValueError("student and teacher outputs differ in number")
            value = sum(loss_fn(s, t) for s, t in zip(student, target))
            for name in match:
                value = value + match_weight * relative_mse(
                    _masked_rows(student_store[name], token_mask), inner[name])
            if not torch.isfinite(value):
                raise ValueError(f"distillation loss is not finite at step {step}; "
                                 "lower lr")
            optimizer.zero_grad(set_to_none=True)
            value.backward()
            if remask_every:
                with torch.no_grad():
                    for name, shadow in shadows.items():
                        named[name].copy_(shadow)
            rate = optimizer.param_groups[0]["lr"]
            optimizer.step()
            scheduler.step()
            if remask_every:
                if remask_decay:
                    with torch.no_grad():
                        for name, mask in mask_tensors.items():
                            # Only the shadow outside the mask; Adam's steps
                            # are of size lr, so is the decay.
                            named[name].mul_(torch.where(
                                mask, 1.0, max(0.0, 1.0 - rate * remask_decay)))
                if (step + 1) % remask_every == 0 or step + 1 == steps:
                    for name in mask_tensors:
                        mask_tensors[name] = _select_mask_torch(
                            named[name].detach().abs(), *encodings[name])
            else:
                apply_masks(model, mask_tensors)
            losses.append(float(value.detach()))
            if log is not None:
                log(step, losses[-1])
    finally:
        if remask_every:
            # The weights never stay dense shadows, and the result's masks
            # are the ones they end under.
            apply_masks(model, mask_tensors)
            for name, mask in mask_tensors.items():
                dict(masks)[name].mask = mask.cpu()
        for handle in handles:
            handle.remove()
        student_store.clear()
        teacher_store.clear()
        teacher.train(teacher_was)
        model.train(student_was)
    return losses


def prune_gradually(model, teacher, stages, calibration, data, *,
                    method: str = "sparsegpt", refit: bool = False,
                    compensate: bool = False, damp: float = 0.01,
                    forward: Optional[Callable] = None,
                    **distill_options) -> Dict[str, PrunedWeight]:
    """Gradual pruning: for each (sparsity, steps) of `stages` in turn, the
    model is pruned to that sparsity (prune_model, from the weights the
    previous stage left) and then distilled towards `teacher` for `steps`
    steps with that stage's masks fixed (distill; 0 steps: none).

        vp.prune_gradually(model, dense, [("2:4", 2000), ("64:2:8", 6000)],
                           calibration, data, refit=True, compensate=True,
                           output=lambda out: out["sentence_embedding"])

    The last stage then prunes from weights that were already trained to
    work sparse (on MiniLM at 64:2:8 that did not beat direct pruning at
    the same total steps: docs/pruning.md). Each stage's `compensate` fits
    the model as that stage found it (the previous stage's distilled
    model), not `teacher`. Every stage's sparsity is checked before the
    first one prunes. Returns the last stage's prune_model result, whose
    masks the model's weights end under.

    stages          a non-empty sequence of (sparsity, steps): sparsity as
                    prune_model takes it, steps an integer >= 0
    calibration     prune_model's calibration for every stage
    data            distill's data for every stage with steps > 0
    distill_options the rest of distill's options (lr, loss, output, match,
                    log, ...); log's step counts from 0 in each stage
    """
    stages = list(stages) if stages is not None else []
    if not stages:
        raise ValueError("prune_gradually needs stages: a non-empty sequence of "
                         "(sparsity, steps)")
    for index, stage in enumerate(stages):
        if not (isinstance(stage, (tuple, list)) and len(stage) == 2):
            raise ValueError(f"stage {index} is {stage!r}, expected (sparsity, steps)")
        steps = stage[1]
        if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
            raise ValueError(f"stage {index}: steps must be an integer >= 0, got {steps!r}")
    if "steps" in distill_options:
        raise ValueError("prune_gradually takes each stage's steps from `stages`")
    for sparsity, _ in stages:
        _resolve_sparsity(model, sparsity)
    # Every stage distills on the same items (an iterator is read once).
    data = list(data) if data is not None else []
    if any(steps for _, steps in stages) and not data:
        raise ValueError("prune_gradually needs data for the stages that distill")
    result: Dict[str, PrunedWeight] = {}
    for sparsity, steps in stages:
        result = prune_model(model, sparsity, calibration, method, forward=forward,
                             refit=refit, compensate=compensate, damp=damp)
        if steps:
            distill(model, teacher, data, result, steps=int(steps), forward=forward,
                    **distill_options)
    return result
