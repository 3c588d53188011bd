"""vnm.pruning: the V:N:M constraint, brute-force references for the mask
choices, SparseGPT's updates against closed forms, the format round trip,
the PyTorch entry points and the errors.

Every test draws fresh random data; the seed is printed (pytest shows it
for a failing test) and `VNM_PRUNING_SEED=<seed>` replays it.
"""

import copy
import itertools
import os
import secrets
import sys

import numpy as np
import pytest
import vnm.format as vf
import vnm.pruning as vp


@pytest.fixture
def rng():
    seed = int(os.environ.get("VNM_PRUNING_SEED", secrets.randbits(32)))
    print(f"VNM_PRUNING_SEED={seed}")
    return np.random.default_rng(seed)


def correlated_inputs(rng, tokens, cols):
    """Inputs with correlated features of unequal scales, as activations are."""
    mixing = rng.standard_normal((cols, cols)) * rng.uniform(0.2, 2.0, cols)
    return rng.standard_normal((tokens, cols)) @ mixing + rng.standard_normal(cols)


def check_vnm(matrix, v, n, m):
    """Every v x m block has at most 4 columns with a nonzero and every row
    at most n nonzeros in it."""
    rows, cols = matrix.shape
    nonzero = np.asarray(matrix) != 0
    for r0 in range(0, rows, v):
        for c0 in range(0, cols, m):
            block = nonzero[r0:r0 + v, c0:c0 + m]
            used = np.flatnonzero(block.any(axis=0))
            assert len(used) <= 4, f"block ({r0}, {c0}) uses columns {c0 + used}"
            assert (block.sum(axis=1) <= n).all(), f"block ({r0}, {c0}): a row keeps more than {n}"


def check_mask(mask, v, n, m):
    """A keep-mask selects at most 4 columns per block and exactly n per row
    and block where the group has at least 4 real columns."""
    check_vnm(mask, v, n, m)
    rows, cols = mask.shape
    for c0 in range(0, cols, m):
        if cols - c0 >= 4:
            assert (mask[:, c0:c0 + m].sum(axis=1) == n).all()


def brute_force_block(scores, n):
    """The best (value, mask) of one block by enumerating every 4-column
    subset and every row's choice of n of its 4 columns jointly."""
    rows, m = scores.shape
    best_value, best_mask = -np.inf, None
    for subset in itertools.combinations(range(m), 4):
        for choice in itertools.product(itertools.combinations(subset, n), repeat=rows):
            value = sum(scores[r, list(c)].sum() for r, c in enumerate(choice))
            if value > best_value:
                best_value, best_mask = value, np.zeros((rows, m), dtype=bool)
                for r, c in enumerate(choice):
                    best_mask[r, list(c)] = True
    return best_value, best_mask


def brute_force_mask(scores, v, n, m):
    """The mask maximizing the summed scores of a matrix block by block,
    each block by enumerating its subsets (rows choose independently)."""
    rows, cols = scores.shape
    mask = np.zeros((rows, cols), dtype=bool)
    for r0 in range(0, rows, v):
        for c0 in range(0, cols, m):
            block = np.zeros((min(v, rows - r0), m))
            width = min(m, cols - c0)
            block[:, :width] = scores[r0:r0 + v, c0:c0 + m]
            best, best_mask = -np.inf, None
            for subset in itertools.combinations(range(m), 4):
                picked = block[:, subset]
                top = np.sort(picked, axis=1)[:, -n:].sum()
                if top > best:
                    best = top
                    order = np.argsort(-picked, axis=1, kind="stable")[:, :n]
                    best_mask = np.zeros_like(block, dtype=bool)
                    np.put_along_axis(best_mask, np.array(subset)[order], True, axis=1)
            mask[r0:r0 + v, c0:c0 + width] = best_mask[:, :width]
    return mask


# ------------------------------------------------------------ encodings


def test_parse_encoding():
    assert vp.parse_encoding("64:2:8") == (64, 2, 8)
    assert vp.parse_encoding((16, 1, 32)) == (16, 1, 32)
    assert vp.parse_encoding(vf.Encoding(128, 2, 5)) == (128, 2, 5)
    assert vp.parse_encoding("2:4") == (16, 2, 4)
    assert vp.parse_encoding("1:4") == (16, 1, 4)
    for bad in ("64:3:8", "8:2:8", "64:2:3", "64:2:33", "64:2", "2:8", "a:b:c", "64:2:8:1",
                (64, 2), None, 64, (64.5, 2, 8), (True, 2, 8)):
        with pytest.raises(ValueError):
            vp.parse_encoding(bad)


# ----------------------------------------------------- the constraint


SHAPES = [(37, 29, "16:2:8"), (70, 25, "64:2:10"), (17, 11, "16:1:5"), (5, 3, "2:4"),
          (33, 40, "32:2:16"), (16, 64, "16:1:32"), (130, 9, "128:2:7")]


@pytest.mark.parametrize("rows,cols,encoding", SHAPES)
@pytest.mark.parametrize("method", vp.METHODS)
def test_constraint_on_ragged_shapes(rng, rows, cols, encoding, method):
    v, n, m = vp.parse_encoding(encoding)
    w = rng.standard_normal((rows, cols)).astype(np.float32)
    x = correlated_inputs(rng, 3 * cols + 8, cols)
    pruned = vp.prune_weight(w, encoding, method, inputs=None if method == "magnitude" else x)
    assert pruned.dtype == w.dtype and pruned.shape == w.shape
    check_vnm(pruned, v, n, m)
    if method != "sparsegpt":  # kept values are the weight's own
        kept = pruned != 0
        assert (pruned[kept] == w[kept]).all()


def test_select_mask_is_a_full_mask(rng):
    for rows, cols, encoding in SHAPES:
        v, n, m = vp.parse_encoding(encoding)
        mask = vp.select_mask(rng.random((rows, cols)), encoding)
        check_mask(mask, v, n, m)


def test_select_mask_on_torch_tensors_equals_numpy(rng):
    # distill's learned masks are chosen again where the weights lie; the
    # choice is select_mask's, on fresh random scores of every shape (and
    # a shape large enough to be chosen in several chunks of groups).
    torch = pytest.importorskip("torch")
    for rows, cols, encoding in SHAPES + [(256, 4096, "64:2:8")]:
        v, n, m = vp.parse_encoding(encoding)
        scores = rng.random((rows, cols)).astype(np.float32)
        expected = vp.select_mask(scores, encoding)
        got = vp._select_mask_torch(torch.from_numpy(scores), v, n, m)
        assert got.dtype == torch.bool and tuple(got.shape) == (rows, cols)
        assert (got.numpy() == expected).all(), encoding
    # Ties: whole blocks of equal scores keep the first subset and, in each
    # row, the smaller columns, as select_mask does.
    scores = np.ones((32, 24), dtype=np.float32)
    expected = vp.select_mask(scores, "16:2:8")
    got = vp._select_mask_torch(torch.from_numpy(scores), 16, 2, 8)
    assert (got.numpy() == expected).all()


# ------------------------------------------------- brute-force references


def test_block_choice_against_joint_enumeration(rng):
    # Small v (below the format's 16) so that every joint row choice of a
    # block can be enumerated; the objective is the summed score.
    for _ in range(12):
        v, n, m = int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(4, 8))
        scores = rng.random((v, m))
        value, expected = brute_force_block(scores, n)
        mask = vp._select_mask(scores, v, n, m)
        assert (mask == expected).all(), (scores, mask, expected)
        assert np.isclose(scores[mask].sum(), value)


@pytest.mark.parametrize("encoding", ["16:2:8", "16:1:6", "32:2:5", "16:2:4"])
def test_wanda_against_brute_force(rng, encoding):
    v, n, m = vp.parse_encoding(encoding)
    rows, cols = v + 3, 2 * m + 3  # ragged in both
    w = rng.standard_normal((rows, cols))
    x = correlated_inputs(rng, 64, cols)
    scores = np.abs(w) * np.linalg.norm(x, axis=0)
    expected = brute_force_mask(scores, v, n, m)
    pruned = vp.prune_weight(w, encoding, "wanda", inputs=x)
    assert ((pruned != 0) == expected).all()
    assert (vp.select_mask(scores, encoding) == expected).all()


def test_magnitude_is_the_format_librarys_rule(rng):
    for rows, cols, encoding in SHAPES:
        w = rng.standard_normal((rows, cols)).astype(np.float16)
        pruned = vp.prune_weight(w, encoding, "magnitude")
        enc = vp.parse_encoding(encoding)
        expected = vf.prune(w, enc)
        assert pruned.tobytes() == expected.tobytes(), encoding


def conditional_diagonal(h, damp):
    """[H_F^-1]_jj for F = columns j..K-1 of the damped H, by inversion."""
    hd = vp._damped(h, damp)
    return np.array([np.linalg.inv(hd[j:, j:])[0, 0] for j in range(len(h))])


@pytest.mark.parametrize("encoding,rows,cols", [("16:2:8", 16, 21), ("16:1:5", 19, 12),
                                                ("16:2:4", 16, 10)])
def test_sparsegpt_is_the_sequential_least_squares_sweep(rng, encoding, rows, cols):
    # Column j of the result is column j of the least-squares continuation
    # given the finished columns before it, masked; the mask of each group,
    # chosen when the sweep reaches its first column, is the brute-force
    # best of the saliency w^2 / [H_F^-1]_jj of that continuation.
    v, n, m = vp.parse_encoding(encoding)
    w = rng.standard_normal((rows, cols))
    h = (lambda x: x.T @ x)(correlated_inputs(rng, 4 * cols, cols))
    damp = 0.01
    pruned = vp.prune_weight(w, encoding, "sparsegpt", hessian=h, damp=damp, block_size=1)
    hd = vp._damped(h, damp)
    diag = conditional_diagonal(h, damp)
    mask = np.zeros_like(pruned, dtype=bool)
    for j in range(cols):
        done, rest = np.arange(j), np.arange(j, cols)
        d = w[:, done] - pruned[:, done]
        inverse = np.linalg.inv(hd[np.ix_(rest, rest)])
        continuation = w[:, rest] + d @ hd[np.ix_(done, rest)] @ inverse
        if j % m == 0:
            width = min(m, cols - j)
            saliency = continuation[:, :width] ** 2 / diag[j:j + width]
            mask[:, j:j + width] = brute_force_mask(saliency, v, n, m)
        expected = np.where(mask[:, j], continuation[:, 0], 0.0)
        np.testing.assert_allclose(pruned[:, j], expected, rtol=1e-7, atol=1e-9)
    assert ((pruned != 0) == mask).all()


def test_obs_update_of_one_pruned_weight_is_the_closed_form(rng):
    rows, cols = 3, 9
    w = rng.standard_normal((rows, cols))
    h = (lambda x: x.T @ x)(correlated_inputs(rng, 50, cols))
    damp = 0.0
    hinv = np.linalg.inv(h)
    for q in (0, 4, cols - 1):
        keep = np.ones((rows, cols), dtype=bool)
        keep[1, q] = False
        pruned, _ = vp._sparsegpt(w, h, 16, 2, 4, damp, 128, fixed_mask=keep)
        # OBS: delta = -w_q / [H^-1]_qq * H^-1[q, :], over the columns not
        # yet processed (F = q..K-1: the columns before q are final).
        expected = w.copy()
        hf = np.linalg.inv(h[q:, q:])
        expected[1, q:] -= w[1, q] / hf[0, 0] * hf[0]
        np.testing.assert_allclose(pruned, expected, rtol=1e-9, atol=1e-12)
        if q == 0:  # the classic closed form on the whole row
            np.testing.assert_allclose(pruned[1], w[1] - w[1, 0] / hinv[0, 0] * hinv[0],
                                       rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("solver", ["numpy", "torch"])
def test_refit_is_the_least_squares_solution(rng, monkeypatch, solver):
    if solver == "torch":
        pytest.importorskip("torch")
    else:  # the solve uses torch only where the program imported it
        monkeypatch.setitem(sys.modules, "torch", None)
    rows, cols = 5, 16
    w = rng.standard_normal((rows, cols))
    x = correlated_inputs(rng, 80, cols)
    mask = vp.select_mask(rng.random((rows, cols)), "16:2:8")
    refit = vp._refit(w, x.T @ x, mask, 0.0)
    for r in range(rows):
        support = np.flatnonzero(mask[r])
        solution = np.linalg.lstsq(x[:, support], x @ w[r], rcond=None)[0]
        np.testing.assert_allclose(refit[r, support], solution, rtol=1e-7, atol=1e-9)
    assert (refit[~mask] == 0).all()


def test_refit_reaches_the_exhaustive_optimum_for_its_mask_and_bounds_it(rng):
    # One row block of one group, tiny: every mask of the format with its
    # least-squares weights; the best of them bounds every method.
    v, n, m = 1, 2, 6
    w = rng.standard_normal((v, m))
    x = correlated_inputs(rng, 40, m)
    h = x.T @ x
    best = np.inf
    for subset in itertools.combinations(range(m), 4):
        for pair in itertools.combinations(subset, n):
            mask = np.zeros((v, m), dtype=bool)
            mask[0, list(pair)] = True
            best = min(best, vp.reconstruction_error(w, vp._refit(w, h, mask, 0.0), h))
    errors = {}
    for method in ("magnitude", "wanda", "sparsegpt"):
        pruned, mask = vp._prune_float64(w, (v, n, m), method, h, None, 0.0, 128)
        errors[method] = vp.reconstruction_error(w, pruned, h)
        refit = vp._refit(w, h, mask, 0.0)
        assert vp.reconstruction_error(w, refit, h) >= best - 1e-12
        assert vp.reconstruction_error(w, refit, h) <= errors[method] + 1e-12
    assert min(errors.values()) >= best - 1e-12


@pytest.mark.parametrize("encoding", ["2:4", "16:2:8", "32:1:8"])
def test_sparsegpt_is_never_worse_than_magnitude_and_wanda(rng, encoding):
    rows, cols = 48, 64
    w = rng.standard_normal((rows, cols))
    x = correlated_inputs(rng, 512, cols)
    h = x.T @ x
    pruned = {method: vp.prune_weight(w, encoding, method, inputs=x) for method in vp.METHODS}
    error = {method: vp.reconstruction_error(w, p, h) for method, p in pruned.items()}
    assert error["sparsegpt"] <= error["wanda"]
    assert error["sparsegpt"] <= error["magnitude"]
    # The least-squares refit of SparseGPT's own mask can only lower its error.
    refit = vp._refit(w, h, pruned["sparsegpt"] != 0, 0.0)
    assert vp.reconstruction_error(w, refit, h) <= error["sparsegpt"] * (1 + 1e-9)
    for method in ("magnitude", "wanda"):
        refit = vp.prune_weight(w, encoding, method, inputs=x, refit=True, damp=0.0)
        assert ((refit != 0) == (pruned[method] != 0)).all()
        assert vp.reconstruction_error(w, refit, h) <= error[method] * (1 + 1e-9)


def test_block_size_changes_only_rounding(rng):
    w = rng.standard_normal((20, 50))
    x = correlated_inputs(rng, 200, 50)
    a = vp.prune_weight(w, "16:2:8", "sparsegpt", inputs=x, block_size=1)
    b = vp.prune_weight(w, "16:2:8", "sparsegpt", inputs=x, block_size=128)
    assert ((a != 0) == (b != 0)).all()
    np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)


# -------------------------------------------------------- round trip


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("method", vp.METHODS)
def test_pruned_weights_round_trip_through_the_format(rng, dtype, method):
    for rows, cols, encoding in SHAPES:
        w = rng.standard_normal((rows, cols)).astype(dtype)
        w[rng.random(w.shape) < 0.05] = -0.0
        x = correlated_inputs(rng, 2 * cols + 8, cols)
        pruned = vp.prune_weight(w, encoding, method, inputs=None if method == "magnitude" else x)
        assert not np.signbit(pruned[pruned == 0]).any()  # +0 only
        enc = vp.parse_encoding(encoding)
        back = vf.decompress(vf.compress(pruned, enc))
        assert back.tobytes() == pruned.tobytes(), (encoding, method)
        assert vf.prune(pruned, enc).tobytes() == pruned.tobytes()


# ------------------------------------------------------------ errors


def test_prune_weight_errors(rng):
    w = rng.standard_normal((16, 8)).astype(np.float32)
    x = rng.standard_normal((10, 8))
    with pytest.raises(ValueError, match="encoding"):
        vp.prune_weight(w, "64:3:8", "wanda", inputs=x)
    with pytest.raises(ValueError, match="method"):
        vp.prune_weight(w, "2:4", "random", inputs=x)
    with pytest.raises(ValueError, match="features"):
        vp.prune_weight(w, "2:4", "sparsegpt", inputs=x[:, :7])
    with pytest.raises(ValueError, match="empty"):
        vp.prune_weight(w, "2:4", "sparsegpt", inputs=x[:0])
    with pytest.raises(ValueError, match="needs calibration"):
        vp.prune_weight(w, "2:4", "wanda")
    with pytest.raises(ValueError, match="2-d"):
        vp.prune_weight(w[0], "2:4", "magnitude")
    with pytest.raises(ValueError, match="floating-point"):
        vp.prune_weight(w.astype(np.int8), "2:4", "magnitude")
    with pytest.raises(ValueError, match="hessian"):
        vp.prune_weight(w, "2:4", "sparsegpt", hessian=np.eye(7))
    with pytest.raises(ValueError, match="not both"):
        vp.prune_weight(w, "2:4", "sparsegpt", inputs=x, hessian=np.eye(8))
    with pytest.raises(ValueError, match="damp"):
        vp.prune_weight(w, "2:4", "sparsegpt", inputs=x, damp=-1)
    bad = w.copy()
    bad[3, 5] = np.nan
    with pytest.raises(ValueError, match="row 3, column 5"):
        vp.prune_weight(bad, "2:4", "magnitude")
    bad_x = x.copy()
    bad_x[2, 1] = np.inf
    with pytest.raises(ValueError, match="non-finite"):
        vp.prune_weight(w, "2:4", "wanda", inputs=bad_x)
    with pytest.raises(ValueError, match=">= 0"):
        vp.select_mask(-np.ones((4, 4)), "2:4")


# ------------------------------------------------------------ PyTorch


def torch_model(torch, blocks=3, width=24):
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(width, 2 * width)
            self.down = torch.nn.Linear(2 * width, width)

        def forward(self, x, scale):
            return x + self.down(torch.relu(self.up(x))) * scale

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Linear(12, width)
            self.layers = torch.nn.ModuleList(Block() for _ in range(blocks))
            self.head = torch.nn.Linear(width, 5)

        def forward(self, x):
            h = self.embed(x)
            for layer in self.layers:
                h = layer(h, 0.5)
            return self.head(h)

    return Net()


def test_prune_model_is_sequential_prune_weight(rng):
    torch = pytest.importorskip("torch")
    torch.manual_seed(int(rng.integers(2**31)))
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                                torch.nn.Linear(32, 12)).double()
    data = [torch.from_numpy(correlated_inputs(rng, 20, 16)) for _ in range(4)]
    dense = [p.detach().numpy().copy() for p in model.parameters()]  # w1, b1, w2, b2
    for sequential in (True, False):
        pruned = copy.deepcopy(model)
        result = vp.prune_model(pruned, {"0.weight": "16:2:8", "2": "2:4"}, data,
                                sequential=sequential)
        assert list(result) == ["0.weight", "2.weight"]
        x = np.concatenate([d.numpy() for d in data])
        w1 = vp.prune_weight(dense[0], "16:2:8", "sparsegpt", inputs=x)
        w1_used = w1 if sequential else dense[0]
        h = np.maximum(x @ w1_used.T + dense[1], 0)
        w2 = vp.prune_weight(dense[2], "2:4", "sparsegpt", inputs=h)
        np.testing.assert_allclose(pruned[0].weight.detach().numpy(), w1, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(pruned[2].weight.detach().numpy(), w2, rtol=1e-9, atol=1e-12)
        assert torch.equal(result["2.weight"].mask, torch.from_numpy(w2 != 0))


@pytest.mark.parametrize("method", vp.METHODS)
def test_prune_model_blocks_and_round_trip(rng, method):
    torch = pytest.importorskip("torch")
    torch.manual_seed(int(rng.integers(2**31)))
    model = torch_model(torch)
    data = [torch.from_numpy(correlated_inputs(rng, 30, 12).astype(np.float32)).reshape(3, 10, 12)
            for _ in range(4)]
    results = {}
    for blocks in (True, False):
        pruned = copy.deepcopy(model)
        results[blocks] = (pruned, vp.prune_model(pruned, "16:2:8", data, method, blocks=blocks))
    (a, ra), (b, rb) = results[True], results[False]
    assert len(ra) == 8 and list(ra) == list(rb)
    for name, info in ra.items():
        wa, wb = a.get_parameter(name).detach(), b.get_parameter(name).detach()
        assert torch.equal(info.mask, rb[name].mask)
        torch.testing.assert_close(wa, wb, rtol=1e-6, atol=1e-7)
        assert info.encoding == (16, 2, 8)
        assert torch.equal(wa != 0, info.mask & (wa != 0))
        check_mask(info.mask.numpy(), 16, 2, 8)
        w = wa.numpy()
        assert vf.decompress(vf.compress(w, info.encoding)).tobytes() == w.tobytes()


def test_refit_and_compensate_lower_the_output_error(rng):
    # Summed over several fresh models: on one small random model either
    # step can come out slightly worse (compensation fits each layer to the
    # dense model's outputs, which a later nonlinearity need not reward),
    # e.g. VNM_PRUNING_SEED=4261194841 for a single model.
    torch = pytest.importorskip("torch")
    torch.manual_seed(int(rng.integers(2**31)))
    totals = {"plain": 0.0, "refit": 0.0, "both": 0.0}
    for _ in range(4):
        model = torch_model(torch, blocks=2, width=32).double()
        data = [torch.from_numpy(correlated_inputs(rng, 64, 12)) for _ in range(6)]
        x = torch.cat(data)
        with torch.no_grad():
            reference = model(x)

        def output_error(**options):
            pruned = copy.deepcopy(model)
            result = vp.prune_model(pruned, "16:2:8", data, "sparsegpt", damp=0.001,
                                    **options)
            with torch.no_grad():
                return float((pruned(x) - reference).pow(2).mean()), result

        for name, options in (("plain", {}), ("refit", {"refit": True}),
                              ("both", {"refit": True, "compensate": True})):
            error, result = output_error(**options)
            totals[name] += error
            for info in result.values():
                check_mask(info.mask.numpy(), 16, 2, 8)
    assert totals["refit"] < totals["plain"] and totals["both"] < totals["plain"]


def test_prune_model_errors(rng):
    torch = pytest.importorskip("torch")
    model = torch_model(torch)
    state = {k: v.clone() for k, v in model.state_dict().items()}
    data = [torch.randn(2, 5, 12)]
    with pytest.raises(ValueError, match="not a parameter or module"):
        vp.prune_model(model, {"nope.weight": "2:4"}, data)
    with pytest.raises(ValueError, match="not the weight of an nn.Linear"):
        vp.prune_model(model, {"embed.bias": "2:4"}, data)
    with pytest.raises(ValueError, match="encoding"):
        vp.prune_model(model, {"embed.weight": "64:2:3"}, data)
    with pytest.raises(ValueError, match="method"):
        vp.prune_model(model, "2:4", data, "obs")
    with pytest.raises(ValueError, match="empty"):
        vp.prune_model(model, "2:4", [])
    with pytest.raises(ValueError, match="calibration data"):
        vp.prune_model(model, "2:4", None, "wanda")
    with pytest.raises(ValueError, match="non-finite"):
        vp.prune_model(model, "2:4", [torch.full((2, 5, 12), float("nan"))])
    with pytest.raises(ValueError, match="never runs"):
        vp.prune_model(model, {"head": "2:4", "layers.0.up": "2:4"}, data,
                       forward=lambda m, x: m.layers[0](m.embed(x), 1.0))
    with pytest.raises(ValueError, match="compensate"):
        vp.prune_model(torch.nn.Sequential(torch.nn.Linear(12, 8)), "2:4", data,
                       compensate=True)
    for name, value in model.state_dict().items():  # nothing was pruned
        assert torch.equal(value, state[name]), name
    with torch.no_grad():
        model.embed.weight[0, 0] = float("inf")
    with pytest.raises(ValueError, match="non-finite"):
        vp.prune_model(model, {"embed": "2:4"}, data)


def pruned_pair(torch, rng, method, items=4):
    """A two-block model (the teacher), its copy pruned to 16:2:8 by
    `method` on `items` random inputs, the inputs and prune_model's result."""
    torch.manual_seed(int(rng.integers(2**31)))
    dense = torch_model(torch, blocks=2)
    model = copy.deepcopy(dense)
    data = [torch.from_numpy(correlated_inputs(rng, 16, 12).astype(np.float32))
            for _ in range(items)]
    result = vp.prune_model(model, "16:2:8", data, method)
    return dense, model, data, result


def test_distill_keeps_the_masks(rng):
    torch = pytest.importorskip("torch")
    dense, model, data, result = pruned_pair(torch, rng, "wanda")
    before = {k: v.clone() for k, v in model.state_dict().items()}

    def gap():
        with torch.no_grad():
            return sum(float((model(x) - dense(x)).pow(2).mean()) for x in data)

    start = gap()
    losses = vp.distill(model, dense, data, result, steps=16, lr=2e-3, loss="mse",
                        match=["layers.0", "layers.1"], warmup=2)
    assert len(losses) == 16 and all(np.isfinite(losses))
    assert gap() < start
    changed = False
    for name, info in result.items():
        w = model.get_parameter(name).detach()
        assert not w[~info.mask].any()
        assert not torch.signbit(w[w == 0]).any()
        changed |= not torch.equal(w, before[name])
        check_vnm(w.numpy(), 16, 2, 8)
        assert vf.decompress(vf.compress(w.numpy(), info.encoding)).tobytes() == \
            w.numpy().tobytes()
    assert changed
    with pytest.raises(ValueError, match="steps"):
        vp.distill(model, dense, data, result, steps=0)
    with pytest.raises(ValueError, match="data"):
        vp.distill(model, dense, [], result)
    with pytest.raises(ValueError, match="not a parameter"):
        vp.distill(model, dense, data, {"nope": torch.ones(1, dtype=torch.bool)})
    with pytest.raises(ValueError, match="not a module"):
        vp.distill(model, dense, data, result, match=["nope"])


def test_distill_remask_decay(rng):
    """remask_decay shrinks the shadow outside the masks after each step by
    1 - lr_t * remask_decay: at lr_t * remask_decay = 1 (the first step, no
    warm-up) it is zero there, while without decay the straight-through
    gradient has moved it; the kept weights are not decayed."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(int(rng.integers(2**31)))
    dense = torch_model(torch, blocks=2)
    data = [torch.from_numpy(correlated_inputs(rng, 16, 12).astype(np.float32)) for _ in range(4)]
    pruned = copy.deepcopy(dense)
    masks = vp.prune_model(pruned, "16:2:8", data, "magnitude")

    def first_step(decay):
        model = copy.deepcopy(pruned)
        result = copy.deepcopy(masks)
        seen = {}

        def log(step, loss):
            if step == 0:  # between steps the parameters hold the shadow
                seen.update({name: model.get_parameter(name).detach().clone()
                             for name in result})

        vp.distill(model, dense, data, result, steps=2, lr=1e-2, loss="mse", warmup=0,
                   remask_every=100, remask_decay=decay, log=log)
        return seen

    plain, decayed = first_step(0.0), first_step(100.0)
    moved = False
    for name, info in masks.items():
        outside = ~info.mask
        assert not decayed[name][outside].any()
        moved |= bool(plain[name][outside].any())
        assert torch.equal(decayed[name][info.mask], plain[name][info.mask])
    assert moved


def test_distill_learns_masks(rng):
    """remask_every: the masks follow the weights' dense shadow (straight
    through), every weight ends V:N:M under the returned masks, and the
    model gets closer to the teacher."""
    torch = pytest.importorskip("torch")
    dense, model, data, result = pruned_pair(torch, rng, "magnitude")
    first = {name: info.mask.clone() for name, info in result.items()}

    def gap():
        with torch.no_grad():
            return sum(float((model(x) - dense(x)).pow(2).mean()) for x in data)

    start = gap()
    losses = vp.distill(model, dense, data, result, steps=24, lr=2e-2, loss="mse",
                        warmup=2, remask_every=4)
    assert len(losses) == 24 and all(np.isfinite(losses))
    assert gap() < start
    moved = False
    for name, info in result.items():
        w = model.get_parameter(name).detach()
        assert not w[~info.mask].any()
        assert not torch.signbit(w[w == 0]).any()
        check_vnm(w.numpy(), 16, 2, 8)
        check_mask(info.mask.numpy(), 16, 2, 8)
        moved |= not torch.equal(info.mask, first[name])
    assert moved
    with pytest.raises(ValueError, match="remask_every"):
        vp.distill(model, dense, data, result, remask_every=-1)
    with pytest.raises(ValueError, match="remask_decay"):
        vp.distill(model, dense, data, result, remask_every=2, remask_decay=-1.0)
    with pytest.raises(ValueError, match="needs remask_every"):
        vp.distill(model, dense, data, result, remask_decay=1.0)
    with pytest.raises(ValueError, match="needs prune_model's result"):
        vp.distill(model, dense, data, {name: info.mask for name, info in result.items()},
                   remask_every=2)


def test_distill_augment_feeds_both_models_the_augmented_item(rng):
    """With augment, each step's item is augment(item, step) for the student
    and the teacher alike; the teacher runs at every step (nothing cached)
    and the data is left unchanged."""
    torch = pytest.importorskip("torch")
    dense, model, data, result = pruned_pair(torch, rng, "wanda", items=3)
    originals = [x.clone() for x in data]
    noise = [torch.randn(16, 12) for _ in range(7)]
    expected = [data[step % 3] + noise[step] for step in range(7)]
    seen = {"student": [], "teacher": []}
    for label, net in (("student", model), ("teacher", dense)):
        net.register_forward_pre_hook(
            lambda module, args, label=label: seen[label].append(args[0].clone()))
    losses = vp.distill(model, dense, data, result, steps=7, lr=1e-3, loss="mse",
                        augment=lambda x, step: x + noise[step])
    assert len(losses) == 7 and all(np.isfinite(losses))
    for label in seen:
        assert len(seen[label]) == 7, label
        for got, want in zip(seen[label], expected):
            assert torch.equal(got, want), label
    for x, original in zip(data, originals):
        assert torch.equal(x, original)
    with pytest.raises(ValueError, match="augment"):
        vp.distill(model, dense, data, result, augment=3)


def test_replace_tokens(rng):
    """replace_tokens replaces each replaceable token (not padding, not
    protected) with probability rate by a candidate, draws by (seed, step)
    alone, and leaves the given item unchanged."""
    torch = pytest.importorskip("torch")
    ids = torch.from_numpy(rng.integers(0, 1000, (64, 200)))
    ids[:, 0] = 101
    attention = torch.ones_like(ids)
    lengths = rng.integers(1, 201, 64)
    for row, length in enumerate(lengths):
        attention[row, length:] = 0
        ids[row, length:] = 0
    item = {"input_ids": ids, "attention_mask": attention, "token_type_ids": torch.zeros_like(ids)}
    before = {k: v.clone() for k, v in item.items()}
    candidates = np.arange(5000, 5100)
    replaceable = attention.bool() & (ids != 101)

    none = vp.replace_tokens(0.0, candidates, protect=[101])(item, 0)
    assert torch.equal(none["input_ids"], ids)
    every = vp.replace_tokens(1.0, candidates, protect=[101])(item, 0)["input_ids"]
    assert bool(((every >= 5000) & (every < 5100))[replaceable].all())
    assert torch.equal(every[~replaceable], ids[~replaceable])

    augment = vp.replace_tokens(0.3, candidates, protect=[101], seed=4)
    first = augment(item, 3)
    assert torch.equal(first["input_ids"], augment(item, 3)["input_ids"])
    assert not torch.equal(first["input_ids"], augment(item, 4)["input_ids"])
    changed = first["input_ids"] != ids
    assert not changed[~replaceable].any()
    fraction = float(changed.sum()) / float(replaceable.sum())
    assert abs(fraction - 0.3) < 0.025  # about 4.4 standard deviations
    assert first["attention_mask"] is attention and first["token_type_ids"] is item["token_type_ids"]
    for key, value in item.items():
        assert torch.equal(value, before[key]), key

    with pytest.raises(ValueError, match="rate"):
        vp.replace_tokens(1.5, candidates)
    with pytest.raises(ValueError, match="candidates"):
        vp.replace_tokens(0.1, [])
    with pytest.raises(ValueError, match="candidates"):
        vp.replace_tokens(0.1, [1.5, 2.0])  # not silently truncated to ids
    with pytest.raises(ValueError, match="protect"):
        vp.replace_tokens(0.1, candidates, protect=[-1])
    with pytest.raises(ValueError, match="input_ids"):
        vp.replace_tokens(0.1, candidates)(ids, 0)
    with pytest.raises(ValueError, match="tensor of token ids"):
        vp.replace_tokens(0.1, candidates)({"input_ids": ids.float()}, 0)


def test_prune_gradually_is_prune_and_distill_per_stage(rng):
    """prune_gradually is, stage by stage, prune_model from the weights the
    stage before left, then distill with that stage's masks: the same
    weights and masks as those calls made by hand, ending V:N:M."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(int(rng.integers(2**31)))
    dense = torch_model(torch, blocks=2)
    data = [torch.from_numpy(correlated_inputs(rng, 16, 12).astype(np.float32)) for _ in range(4)]
    options = dict(lr=1e-2, loss="mse", warmup=1)

    by_hand = copy.deepcopy(dense)
    first = vp.prune_model(by_hand, "2:4", data, "sparsegpt", refit=True)
    vp.distill(by_hand, dense, data, first, steps=5, **options)
    last = vp.prune_model(by_hand, "16:2:8", data, "sparsegpt", refit=True)
    vp.distill(by_hand, dense, data, last, steps=3, **options)

    model = copy.deepcopy(dense)
    result = vp.prune_gradually(model, dense, [("2:4", 5), ("16:2:8", 3)], data, data,
                                refit=True, **options)
    assert list(result) == list(last)
    for name, info in result.items():
        w = model.get_parameter(name).detach()
        assert torch.equal(w, by_hand.get_parameter(name).detach())
        assert torch.equal(info.mask, last[name].mask)
        check_vnm(w.numpy(), 16, 2, 8)
    # Without the sparse stage the result differs: the stage is not skipped.
    direct = copy.deepcopy(dense)
    vp.prune_gradually(direct, dense, [("16:2:8", 3)], data, data, refit=True, **options)
    assert any(not torch.equal(direct.get_parameter(n), model.get_parameter(n))
               for n in result)


def test_prune_gradually_rejects_bad_stages(rng):
    torch = pytest.importorskip("torch")
    dense = torch_model(torch, blocks=1)
    data = [torch.from_numpy(correlated_inputs(rng, 8, 12).astype(np.float32))]
    for stages, message in [([], "non-empty"), ([("2:4",)], "expected \\(sparsity, steps\\)"),
                            ([("2:4", -1)], "steps must be"), ([("2:4", 1.5)], "steps must be"),
                            ([("2:4", True)], "steps must be")]:
        with pytest.raises(ValueError, match=message):
            vp.prune_gradually(copy.deepcopy(dense), dense, stages, data, data)
    with pytest.raises(ValueError, match="from `stages`"):
        vp.prune_gradually(copy.deepcopy(dense), dense, [("2:4", 1)], data, data, steps=3)
    with pytest.raises(ValueError, match="needs data"):
        vp.prune_gradually(copy.deepcopy(dense), dense, [("2:4", 1)], data, [])
    # A bad later stage is found before the first one prunes.
    untouched = copy.deepcopy(dense)
    with pytest.raises(ValueError, match="invalid encoding"):
        vp.prune_gradually(untouched, dense, [("2:4", 0), ("64:2:3", 1)], data, data)
    for name, parameter in dense.named_parameters():
        assert torch.equal(parameter, untouched.get_parameter(name))
    # Every stage's steps 0: pruning alone, as prune_model.
    alone, staged = copy.deepcopy(dense), copy.deepcopy(dense)
    vp.prune_model(alone, "2:4", data, "wanda")
    vp.prune_gradually(staged, dense, [("2:4", 0)], data, None, method="wanda")
    for name, parameter in alone.named_parameters():
        assert torch.equal(parameter, staged.get_parameter(name))
