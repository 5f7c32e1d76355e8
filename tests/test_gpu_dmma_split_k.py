"""dmma_split_k on the GPU (marked `gpu`; every test takes the strategy as its `name` parameter, so
that conftest skips it, saying why, off Hopper): every config on ragged, zero-size and unaligned
shapes against a double-double reference with the output poisoned, its error per element beside
cuBLAS DGEMM's; exact on integer data (every k of every slice counted once); bit-identical from
run to run; NaN and Inf as in cupy.matmul across slices; the workspace cap; layouts, batches and
epilogues; and `auto` on the float64 small, long-K and decode shapes of the suite."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute
from tiled_matmul import tunedb as tdb
from tiled_matmul.heuristic import recommend

from .conftest import assert_same_nonfinite, poisoned, random_pair, scatter_nonfinite
from .test_gpu_dmma import _check_against_cublas, check_unaligned
from .test_gpu_gemm import assert_close, unfused
from .test_gpu_wgmma_split_k import check_workspace_cap

pytestmark = pytest.mark.gpu

NAME = ["dmma_split_k"]
ENTRY = tm.STRATEGIES["dmma_split_k"]
CONFIGS = ENTRY.configs
#: a few configs for the slower checks: the default, the 16-deep 64 x 64, the 32 x 64 and the 128 x 64 tiles
SOME = [ENTRY.default, *(c for c in ENTRY.search_space if c.bk == 16 or c.bm != 64)]

SIZES = [1, 2, 7, 33, 127, 129, 1000]
SHAPES = (
    [(s, s, s) for s in SIZES]
    + [(1, 1000, 129), (1000, 1, 127), (33, 1000, 7), (127, 129, 1000), (129, 33, 1000), (2, 7, 1000),
       (1000, 127, 33), (7, 129, 2), (1000, 2, 1000), (129, 1000, 2)]
    # K over many slices, ragged (odd K: element copies; N % 2: the scalar reduce); K shorter
    # than the slices (most of them empty)
    + [(33, 127, 4099), (129, 2, 2001), (127, 129, 4096), (130, 66, 100)]
    + [(0, 5, 7), (5, 0, 7), (5, 7, 0), (0, 0, 0)]
)
#: the float64 suite shapes (tiled_matmul.suite) `auto` lost on below one wave of dmma tiles
SUITE = [(256, 256, 256), (384, 384, 384), (512, 512, 512), (640, 640, 640), (768, 768, 768),
         (64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768), (32, 4096, 4096),
         (64, 8192, 8192)]


def _bits(c):
    return c.view(np.int64)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.tag())
def test_every_config_within_4x_cublas_on_ragged_shapes(name, cfg, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in SHAPES:
        a, b = random_pair(M, N, K, np.float64, rng)
        _check_against_cublas(k, a, b, poisoned((M, N), np.float64))


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.tag())
def test_integer_data_is_exact(name, cfg, rng):
    """Integers in [-8, 8]: every product and partial sum is exact, so a k counted twice or missed
    at a slice boundary shows: the result must equal the int64 product to the bit."""
    check_integer_data(tm.kernel(name, **cfg.params()),
                       [(129, 127, 4099), (1, 1, 1), (33, 65, 17), (128, 128, 65536), (300, 257, 1001), (65, 3, 129)], rng)


def check_integer_data(k, shapes, rng):
    """`k` on integers in [-8, 8] (exact products and sums in FP64) equals the int64 product to the
    bit on each of `shapes`, its output poisoned first."""
    import cupy as cp

    for M, N, K in shapes:
        a = cp.asarray(rng.integers(-8, 9, (M, K)).astype(np.float64))
        b = cp.asarray(rng.integers(-8, 9, (K, N)).astype(np.float64))
        out = poisoned((M, N), np.float64)
        k(a, b, out=out)
        exact = cp.matmul(a.astype(cp.int64), b.astype(cp.int64)).astype(cp.float64)
        assert cp.array_equal(out, exact), (k, (M, N, K))


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.tag())
def test_repeat_runs_are_bit_identical(name, cfg, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(333, 277, 4097), (64, 64, 65536), (1000, 1000, 1000)]:
        a, b = random_pair(M, N, K, np.float64, rng)
        c1 = k(a, b)
        out = poisoned((M, N), np.float64)
        k(a, b, out=out)
        assert bool((_bits(c1) == _bits(out)).all()) and bool((_bits(c1) == _bits(k(a, b))).all()), (M, N, K)
        assert tm.check(c1, a, b).passed


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", SOME, ids=lambda c: c.tag())
def test_unaligned_rows_and_pointers(name, cfg, rng):
    """Every combination of `flags` (bit 0: A's rows 16-byte aligned, bit 1: B's and C's, the
    reduce's vector path too) over several slices: odd K or N, and arrays that start 8 bytes off."""
    check_unaligned(tm.kernel(name, **cfg.params()), [(130, 66, 2068), (67, 131, 1029), (129, 65, 1067), (64, 64, 1024)],
                    rng)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", [c for c in CONFIGS if c.split_k >= 4], ids=lambda c: c.tag())
def test_nan_and_inf_propagate_like_cupy_matmul(name, cfg, rng):
    """Non-finite values in different slices of K: the fixed-order sum combines the partials as
    FP64 does (NaN + x = NaN, +Inf + -Inf = NaN), and the zero-filled k past a slice's end
    multiply 0 * 0 even next to an Inf of the next slice."""
    import cupy as cp

    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(37, 45, 2000), (130, 70, 4099), (129, 1, 1500), (33, 65, 17), (5, 130, 3)]:
        a, b = random_pair(M, N, K, np.float64, rng)
        b_pos = cp.abs(b) + 0.5  # finite, positive B: a row's Infs alone decide its outputs
        scatter_nonfinite(a, b, rng)
        a[1 % M, 3 % K], a[1 % M, K - 2] = np.inf, -np.inf  # first and last slices: +Inf + -Inf = NaN
        a[2 % M, K // 2] = np.inf  # one slice only: +Inf (where B is finite)
        a[-1, -1], b[-1, -1] = np.inf, -np.inf  # next to the zero-filled padding of ragged tiles
        for bb in (b, b_pos):
            out = poisoned((M, N), np.float64)
            k(a, bb, out=out)
            assert_same_nonfinite(out, cp.matmul(a, bb), tol=1e-12)
        assert int(cp.isnan(cp.matmul(a, b)).sum()) > 0


@pytest.mark.parametrize("name", NAME)
def test_workspace_cap_fewer_slices_then_none(name, rng, monkeypatch):
    """Fewer slices under a smaller cap, and one slice straight into C (dmma's result to the bit)."""
    check_workspace_cap(name, "dmma", ENTRY.config_cls(split_k=16), np.float64, rng, monkeypatch)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", SOME, ids=lambda c: c.tag())
def test_layouts_read_in_place(name, cfg, rng, monkeypatch):
    """a.T @ b, a @ b.T, a.T @ b.T and sliced operands (leading dimensions) through the split
    kernel: the callers' pointers, no copy, values against numpy's float64 product (a config in
    dmma's pairs layout reads row-major operands only, Config.layouts: it copies the others, one
    copy at most per transposed operand, and is still right)."""
    import cupy as cp

    def operand(rows, cols, col, pad):
        if col:
            return cp.asarray(rng.uniform(-1, 1, (cols, rows + pad)))[:, :rows].T
        return cp.asarray(rng.uniform(-1, 1, (rows, cols + pad)))[:, :cols]

    for M, N, K in [(127, 129, 1000), (33, 1000, 129), (1000, 7, 2049), (64, 64, 4096)]:
        for ta, tb in [(True, False), (False, True), (True, True), (False, False)]:
            for pad in (0, 3):
                a, b = operand(M, K, ta, pad), operand(K, N, tb, pad)
                seen = []
                monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
                monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
                out = poisoned((M, N), np.float64)
                tm.matmul(a, b, strategy=name, out=out, **cfg.params())
                ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b))
                assert_close(out, ref, scale, np.dtype(np.float64), K, f"{cfg.tag()} {(ta, tb, pad)} {(M, N, K)}")
                if (ta, tb) not in cfg.layouts():
                    assert execute.layout_copies_made["config"] <= ta + tb
                    continue
                assert sum(execute.layout_copies_made.values()) == 0
                if seen:
                    assert seen[0][0] == a.data.ptr and seen[0][1] == b.data.ptr


@pytest.mark.parametrize("name", NAME)
def test_batches_and_epilogues(name, rng):
    """A batch of transposed A against a shared B, with alpha, beta, a bias and an activation applied
    in the reduce; and C += A @ B in place (the reduce reads C and writes it)."""
    import cupy as cp

    bsz, M, N, K = 3, 70, 66, 3000
    a = cp.asarray(rng.uniform(-1, 1, (bsz, K, M))).swapaxes(-1, -2)
    b = cp.asarray(rng.uniform(-1, 1, (K, N)))
    c = cp.asarray(rng.uniform(-1, 1, (bsz, M, N)))
    bias = cp.asarray(rng.uniform(-1, 1, N))
    out = poisoned((bsz, M, N), np.float64)
    tm.gemm(a, b, c, alpha=0.5, beta=-1.5, bias=bias, activation="relu", out=out, strategy=name, split_k=8)
    ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b), 0.5, -1.5, cp.asnumpy(c), cp.asnumpy(bias), 1, "relu")
    assert_close(out, ref, scale, np.dtype(np.float64), K, "batched gemm")
    c2 = cp.asarray(rng.uniform(-1, 1, (M, N)))
    c0 = c2.copy()
    a2 = cp.ascontiguousarray(a[0])
    r = tm.gemm(a2, b, c2, beta=1.0, out=c2, strategy=name, split_k=16)
    assert r is c2
    ref, scale = unfused(cp.asnumpy(a2), cp.asnumpy(b), beta=1.0, c=cp.asnumpy(c0))
    assert_close(c2, ref, scale, np.dtype(np.float64), K, "c += a @ b in place")


@pytest.mark.parametrize("name", NAME)
def test_heuristic_picks_run_and_are_correct(name, rng):
    """The heuristic's float64 picks on the suite shapes, at this GPU's own SM count."""
    sms = tm.device_limits().sm_count
    picked = set()
    for M, N, K in SUITE:
        strategy, params = recommend(M, N, K, "float64", sms=sms)
        picked.add(strategy)
        a, b = random_pair(M, N, K, np.float64, rng)
        out = poisoned((M, N), np.float64)
        tm.matmul(a, b, strategy=strategy, out=out, **params)
        rep = tm.check(out, a, b)
        assert rep.passed and rep.comp_err <= max(4 * rep.cublas_comp_err, 4 * np.finfo(np.float64).eps), \
            ((M, N, K), strategy, params, rep)
    assert name in picked


@pytest.mark.parametrize("name", NAME)
def test_auto_on_the_float64_suite_shapes(name, fresh_tunedb, monkeypatch, rng):
    """`auto` on the small, long-K and decode float64 shapes: without the shipped database (the
    cost model's fallback) it runs dmma_split_k on a 132-SM GPU (256^3: dmma's 32 x 32 tiles
    unsplit; 768^3: dmma's 128 x 64 x 32 tile, twelfth session), and with it (as shipped) whatever
    the database names; both correct, within 4x cuBLAS's error per element."""
    from tiled_matmul import dispatch

    sms = tm.device_limits().sm_count
    as_shipped = tdb.shipped_db_paths
    for shipped in (False, True):
        monkeypatch.setattr(tdb, "shipped_db_paths", as_shipped if shipped else (lambda: []))
        dispatch.clear_cache()
        for M, N, K in SUITE:
            choice = tm.kernel("auto").resolve(M, N, K, "float64")
            if not shipped and sms == 132:
                want = "dmma" if (M, N, K) in ((256, 256, 256), (768, 768, 768)) else name
                assert choice.strategy == want, ((M, N, K), choice)
            a, b = random_pair(M, N, K, np.float64, rng)
            out = poisoned((M, N), np.float64)
            assert tm.matmul(a, b, out=out) is out
            rep = tm.check(out, a, b)
            assert rep.passed and rep.comp_err <= max(4 * rep.cublas_comp_err, 4 * np.finfo(np.float64).eps), \
                (shipped, (M, N, K), choice, rep)
    dispatch.clear_cache()
