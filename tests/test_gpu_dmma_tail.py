"""dmma_tail on the GPU (marked `gpu`; every test takes the strategy as its `name` parameter, so that
conftest skips it, saying why, off Hopper). Its plan depends on the GPU's resident blocks, so the
checks run at the GPU's own slots and with the slots made small (3 and 7: small ragged shapes then
have whole waves and a tail): every config on ragged, zero-size and unaligned shapes against a
double-double reference with the output poisoned, its error per element beside cuBLAS DGEMM's; the
whole tiles equal to dmma's to the bit; exact on integer data (each k of each slice counted once);
bit-identical from run to run; NaN and Inf as in cupy.matmul across slices; calls with extras."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.strategies.dmma_tail import DmmaTailConfig

from .conftest import assert_same_nonfinite, poisoned, random_pair, scatter_nonfinite
from .test_gpu_dmma import _check_against_cublas, check_unaligned
from .test_gpu_dmma_split_k import check_integer_data

pytestmark = pytest.mark.gpu

NAME = ["dmma_tail"]
ENTRY = tm.STRATEGIES["dmma_tail"]
CONFIGS = ENTRY.configs
IDS = [c.tag() for c in CONFIGS]
#: resident blocks the plan is made for: the GPU's own (None), and few, so that small shapes have
#: a head of whole waves and a tail
SLOTS = [None, 3, 7]

SIZES = [1, 2, 7, 33, 127, 129, 1000]
SHAPES = (
    [(s, s, s) for s in SIZES]
    + [(1, 1000, 129), (1000, 1, 127), (33, 1000, 7), (127, 129, 1000), (129, 33, 1000), (1000, 127, 33),
       (1000, 2, 1000), (129, 1000, 2)]
    # K over many slices, ragged (odd K: the elem kernel; odd N: the reduce's element stores)
    + [(257, 513, 4099), (300, 200, 5000), (129, 2, 2001), (130, 66, 1000)]
    + [(0, 5, 7), (5, 0, 7), (5, 7, 0), (0, 0, 0)]
)
#: shapes with a tail at the H100's own 132 slots (128 x 128 tiles: 1.09, 4.36 and 3.03 waves)
REAL_TAILS = [(1500, 1500, 1500), (1500, 1499, 1501), (3001, 2999, 3007), (2500, 2500, 2500)]


@pytest.fixture
def slots(request, monkeypatch):
    """Make DmmaTailConfig.plan see `request.param` resident blocks (None: the GPU's own)."""
    if request.param is not None:
        monkeypatch.setattr(DmmaTailConfig, "slots", lambda self, limits, registers=None, dtype=None: request.param)
    return request.param


def _tiles(cfg, M, N, tiles):
    """The (rows, cols) slices of C of grouped tile ids `tiles` (the kernel's grouped order)."""
    bm, bn = cfg.tile_mn
    tiles_m, tiles_n = -(-M // bm), -(-N // bn)
    for t in tiles:
        group, in_group = divmod(t, cfg.group_m * tiles_n)
        rows = min(tiles_m - group * cfg.group_m, cfg.group_m)
        r, c = group * cfg.group_m + in_group % rows, in_group // rows
        yield slice(r * bm, (r + 1) * bm), slice(c * bn, (c + 1) * bn)


def _slots(cfg, slots):
    return slots if slots is not None else cfg.slots(tm.device_limits(), 255)


def _plan(cfg, M, N, K, slots):
    return cfg.plan(M, N, K, _slots(cfg, slots))


def _tail_shapes(cfg, slots):
    """Ragged shapes with whole waves and a tail at these slots: slots + 1 tiles (a tail of one, in
    as many slices as fit), 2 * slots + 1, and odd N and K; even ones for the 16-byte paths."""
    s, (bm, bn) = _slots(cfg, slots), cfg.tile_mn
    shapes = [(bm * s + 7, bn - 3, 1029), (bm * 2 * s + 1, 33, 3001), (bm * s + bm // 2 + 1, bn - 1, 1001),
              (bm * s + 6, bn - 2, 1030)]
    for M, N, K in shapes:
        assert cfg.plan(M, N, K, s)[1] > 0, (cfg.tag(), s, (M, N, K))
    return shapes


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("slots", SLOTS, indirect=True)
@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_every_config_within_4x_cublas_on_ragged_shapes(name, cfg, slots, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in SHAPES + REAL_TAILS + _tail_shapes(cfg, slots):
        a, b = random_pair(M, N, K, np.float64, rng)
        _check_against_cublas(k, a, b, poisoned((M, N), np.float64))


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("slots", SLOTS, indirect=True)
@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_whole_tiles_are_dmmas_to_the_bit(name, cfg, slots, rng):
    """The head's tiles run dmma's loop over all of K: the same sums in the same order."""
    import cupy as cp

    dmma = {k: v for k, v in cfg.params().items() if k != "split_k"}
    for M, N, K in [(1500, 1500, 1500), *_tail_shapes(cfg, slots)[:2]]:
        head, tail, _ = _plan(cfg, M, N, K, slots)
        a, b = random_pair(M, N, K, np.float64, rng)
        out, ref = tm.matmul(a, b, strategy=name, **cfg.params()), tm.matmul(a, b, strategy="dmma", **dmma)
        for blk in _tiles(cfg, M, N, range(head)):
            assert bool(cp.all(out[blk] == ref[blk])), (M, N, K, blk)
        assert tm.check(out, a, b).passed


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("slots", [3, 7], indirect=True)
@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_integer_data_is_exact(name, cfg, slots, rng):
    """Integers in [-8, 8]: every product and partial sum is exact, so a k counted twice or missed
    at a slice boundary, or a tile written twice or not at all, shows."""
    check_integer_data(tm.kernel(name, **cfg.params()), [(129, 127, 4099), (65, 3, 1290), *_tail_shapes(cfg, slots)], rng)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("slots", [None, 7], indirect=True)
def test_repeat_runs_are_bit_identical(name, slots, rng):
    k = tm.kernel(name)
    for M, N, K in [(333, 277, 4097), (1500, 1500, 1500), (3001, 2999, 3007), *_tail_shapes(ENTRY.default, slots)[:2]]:
        a, b = random_pair(M, N, K, np.float64, rng)
        c1 = k(a, b)
        out = poisoned((M, N), np.float64)
        k(a, b, out=out)
        assert bool((c1.view(np.int64) == out.view(np.int64)).all()) and bool((c1.view(np.int64) == k(a, b).view(np.int64)).all())


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("slots", [3], indirect=True)
@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_unaligned_rows_and_pointers(name, cfg, slots, rng):
    """Every combination of `flags` (bit 0: A's rows 16-byte aligned, bit 1: B's and C's, the
    reduce's vector stores too) with a tail: odd K or N, and arrays that start 8 bytes off."""
    check_unaligned(tm.kernel(name, **cfg.params()), _tail_shapes(cfg, slots), rng)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("slots", [3, None], indirect=True)
def test_nan_and_inf_propagate_like_cupy_matmul(name, slots, rng):
    """Non-finite values in different slices of a tail tile and in whole tiles: the slices' sum
    combines them as FP64 does (NaN + x = NaN, +Inf + -Inf = NaN)."""
    import cupy as cp

    k = tm.kernel(name)
    for M, N, K in [*_tail_shapes(ENTRY.default, slots), (1500, 1500, 1500)]:
        a, b = random_pair(M, N, K, np.float64, rng)
        b_pos = cp.abs(b) + 0.5
        scatter_nonfinite(a, b, rng)
        for r in (1, M - 3, M - 1):  # rows of whole and of tail tiles
            a[r, 3], a[r, K - 2] = np.inf, -np.inf  # first and last slices: +Inf + -Inf = NaN
        a[M - 2, K // 2] = np.inf
        for bb in (b, b_pos):
            out = poisoned((M, N), np.float64)
            k(a, bb, out=out)
            assert_same_nonfinite(out, cp.matmul(a, bb), tol=1e-12)


@pytest.mark.parametrize("name", NAME)
def test_calls_with_extras(name, rng):
    """No batch, epilogue or layout hooks: named, an epilogue is refused naming what is missing;
    a transposed operand is copied first and the product is still right."""
    import cupy as cp

    a, b = random_pair(500, 400, 3000, np.float64, rng)
    with pytest.raises(ValueError, match="epilogue"):
        tm.gemm(a, b, bias=cp.ones(400), strategy=name)
    at = cp.ascontiguousarray(a.T).T
    out = tm.matmul(at, b, strategy=name)
    assert tm.check(out, a, b).passed


@pytest.mark.parametrize("name", NAME)
def test_auto_runs_it_where_the_model_picks_it(name, fresh_tunedb, monkeypatch, rng):
    """Without the shipped database `auto` runs the cost model's pick: dmma_tail at 1500^3, 1536^3
    and 2500^3 on a 132-SM GPU (one to three waves of one-per-SM tiles and a few tiles more);
    correct, within 4x cuBLAS's error per element."""
    from tiled_matmul import dispatch
    from tiled_matmul import tunedb as tdb

    monkeypatch.setattr(tdb, "shipped_db_paths", lambda: [])
    dispatch.clear_cache()
    sms = tm.device_limits().sm_count
    for M, N, K in [(1500, 1500, 1500), (1536, 1536, 1536), (2500, 2500, 2500)]:
        choice = tm.kernel("auto").resolve(M, N, K, "float64")
        if sms == 132:
            assert choice.strategy == name, ((M, N, K), choice)
        a, b = random_pair(M, N, K, np.float64, rng)
        out = poisoned((M, N), np.float64)
        assert tm.matmul(a, b, out=out) is out
        rep = tm.check(out, a, b)
        assert rep.passed and rep.comp_err <= max(4 * rep.cublas_comp_err, 4 * np.finfo(np.float64).eps), ((M, N, K), rep)
    dispatch.clear_cache()
