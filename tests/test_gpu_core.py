"""GPU correctness of every registered strategy (marked `gpu`; skipped without a device)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import compile as tmc

from .conftest import GENERAL, poisoned, random_pair

pytestmark = pytest.mark.gpu

RAGGED = [1, 2, 15, 16, 17, 31, 33, 127, 129]
# (M, N, K): every ragged size on each axis in turn, plus non-square, large and zero-size cases.
SHAPES = (
    [(s, s, s) for s in RAGGED]
    + [(s, 37, 53) for s in RAGGED[::2]]
    + [(45, s, 29) for s in RAGGED[1::2]]
    + [(1000, 1000, 1000), (1000, 700, 1300), (3, 1000, 129), (257, 1, 1000), (129, 65, 1)]
    + [(0, 5, 7), (5, 0, 7), (5, 7, 0), (0, 0, 0)]
)


CASES = [(name, cfg) for name, entry in tm.STRATEGIES.items() if name in GENERAL for cfg in entry.configs]


def test_float32_only_strategy_rejects_float64_untouched(rng):
    a, b = random_pair(20, 30, 40, np.float64, rng)
    out = poisoned((20, 30), np.float64)
    with pytest.raises(ValueError, match="tensor_core computes float32 only, got float64"):
        tm.matmul(a, b, strategy="tensor_core", out=out)
    assert bool(np.isnan(out.get()).all())  # nothing written


@pytest.mark.parametrize("name,cfg", CASES, ids=[f"{n}-{c.tag()}" for n, c in CASES])
def test_ragged_shapes(name, cfg, rng):
    """Every config on every shape, in float32 (float64 for the float64-only strategies)."""
    dtype = tm.STRATEGIES[name].default_dtype.numpy
    k = tm.kernel(name, **cfg.params())
    for M, N, K in SHAPES:
        a, b = random_pair(M, N, K, dtype, rng)
        out = poisoned((M, N), dtype)
        k(a, b, out=out)
        report = tm.check(out, a, b)
        assert report.passed, (name, cfg, (M, N, K), report)


def test_auto_small_tile_ragged_shapes(rng):
    """warp_tiled's 32 x 32 tile (heuristic._SMALL32: `auto`'s params for float32's small outputs
    with a short K, outside the search space that test_ragged_shapes walks) on every shape, with
    the extras `auto` may give it (a batch, an epilogue), and auto's own picks of it."""
    from tiled_matmul import heuristic

    k = tm.kernel("warp_tiled", **heuristic._SMALL32)
    for M, N, K in SHAPES + [(16049, 85, 7), (1265, 51, 137), (88, 45, 1), (27, 3988, 55), (500, 500, 255)]:
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        k(a, b, out=out)
        report = tm.check(out, a, b)
        assert report.passed, ((M, N, K), report)
    for M, N, K in [(1265, 51, 137), (12399, 18, 89), (16049, 85, 7)]:
        assert tm.kernel("auto").kernel_for(M, N, K, "float32").config.params() == \
            tm.STRATEGIES["warp_tiled"].make_config(**heuristic._SMALL32).params(), (M, N, K)
        a, b = random_pair(M, N, K, np.float32, rng)
        assert tm.check(tm.matmul(a, b), a, b).passed, (M, N, K)
    a, b = random_pair(3, 129, 33, np.float32, rng)  # a batch of 3 through the same tile
    batch_a, batch_b = a[None].repeat(3, 0), b[None].repeat(3, 0)
    out = k(batch_a, batch_b)
    for i in range(3):
        assert tm.check(out[i], batch_a[i], batch_b[i]).passed, i


@pytest.mark.parametrize("name", [n for n, e in tm.STRATEGIES.items() if e.supports("float64")])
def test_float64(name, rng):
    k = tm.kernel(name)
    for M, N, K in [(1, 1, 1), (17, 33, 129), (129, 127, 31), (300, 200, 500), (4, 5, 0)]:
        a, b = random_pair(M, N, K, np.float64, rng)
        out = poisoned((M, N), np.float64)
        k(a, b, out=out)
        report = tm.check(out, a, b)
        assert report.passed and report.dtype == "float64", (name, (M, N, K), report)


@pytest.mark.parametrize("name", GENERAL)
def test_numpy_round_trip(name, rng):
    dtype = tm.STRATEGIES[name].default_dtype.numpy  # float32, or float64 for float64-only ones
    a = rng.uniform(-1, 1, (70, 90)).astype(dtype)
    b = rng.uniform(-1, 1, (90, 50)).astype(dtype)
    c = tm.matmul(a, b, strategy=name)
    assert isinstance(c, np.ndarray) and c.shape == (70, 50) and c.dtype == dtype
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.linalg.norm(c - ref) / np.linalg.norm(ref) < tm.tolerance(dtype, 90)
    out = np.full((70, 50), np.nan, dtype)
    assert tm.matmul(a, b, strategy=name, out=out) is out
    assert np.isfinite(out).all()


@pytest.mark.parametrize("name", GENERAL)
def test_non_contiguous_inputs(name, rng):
    import cupy as cp

    dtype = tm.STRATEGIES[name].default_dtype.numpy
    base_a, base_b = random_pair(200, 300, 240, dtype, rng)
    views = {
        "transposed": (base_b.T[:150, :], base_a.T[:, :150]),  # (150 x 240) @ (240 x 150)
        "sliced": (base_a[::2, 1:121], base_b[1:121, ::3]),
        "fortran": (cp.asfortranarray(base_a), cp.asfortranarray(base_b)),
        "offset": (base_a[1:, 1:], base_b[1:, 1:]),  # contiguous rows, misaligned start
    }
    for label, (a, b) in views.items():
        if a.shape[1] != b.shape[0]:
            a = a[:, : b.shape[0]]
        out = poisoned((a.shape[0], b.shape[1]), dtype)
        tm.matmul(a, b, strategy=name, out=out)
        report = tm.check(out, a, b)
        assert report.passed, (name, label, report)


def test_out_is_returned_and_written(rng):
    a, b = random_pair(64, 48, 32, np.float32, rng)
    out = poisoned((64, 48), np.float32)
    assert tm.matmul(a, b, out=out) is out
    assert tm.check(out, a, b).passed


def test_non_default_stream(rng):
    import cupy as cp

    a, b = random_pair(512, 512, 512, np.float32, rng)
    cp.cuda.Device().synchronize()  # a non-blocking stream does not wait for the default one
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        c = tm.matmul(a, b, strategy="register_blocked")
        # The launch went on `stream`: an event recorded after it completes only once C is written.
        done = stream.record()
    done.synchronize()
    assert tm.check(c, a, b).passed


def test_check_rejects_wrong_result(rng):
    a, b = random_pair(64, 64, 64, np.float32, rng)
    c = tm.matmul(a, b)
    c[3, 5] += 1.0
    assert not tm.check(c, a, b).passed
    c[3, 5] = float("nan")
    report = tm.check(c, a, b)
    assert not report.passed and report.nonfinite == 1


def test_large_dynamic_smem_config(rng):
    """A config above 48 KB of shared memory must raise the kernel's dynamic limit to launch."""
    cfg = dict(bm=128, bn=128, bk=32, tm=8, tn=8)
    assert tm.STRATEGIES["register_blocked"].make_config(**cfg).smem_bytes("float32") > 48 * 1024
    a, b = random_pair(300, 260, 333, np.float32, rng)
    out = poisoned((300, 260), np.float32)
    tm.matmul(a, b, strategy="register_blocked", out=out, **cfg)
    assert tm.check(out, a, b).passed


def test_compile_error_names_config_and_numbers_source(monkeypatch):
    broken = tm.STRATEGIES["smem_tiled"].default.replace(tile=4)  # a key no other test compiles
    real_render = tmc.render
    monkeypatch.setattr(tmc, "render", lambda *a: real_render(*a).replace("acc +=", "acc += undefined_symbol +"))
    with pytest.raises(tm.KernelCompileError) as err:
        tmc.get_kernel("smem_tiled", broken, "float32")
    msg = str(err.value)
    assert "smem_tiled" in msg and "'tile': 4" in msg
    assert "undefined_symbol" in msg  # the compiler log
    assert "   1  // tiled-matmul strategy 3" in msg  # numbered source


@pytest.mark.parametrize("name", [n for n, e in tm.STRATEGIES.items() if e.supports("float32")])
def test_float32_subnormals_are_kept(name, rng):
    """Subnormal operands and results stay as IEEE float32 FMAs keep them (CuPy's RawKernel compile
    adds -ftz=true, which flushed them; every kernel now compiles without it). Operands are small
    integers times 2^-140, so every partial sum is a multiple of 2^-140 below 2^-126 and exact: the
    result must equal the float64 reference bit for bit, and be nonzero (flushing gives zeros)."""
    import cupy as cp

    for M, N, K in [(65, 33, 40), (129, 70, 200)]:
        ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
        bi = rng.integers(-3, 4, (K, N)).astype(np.float64)
        a = cp.asarray((ai * 2.0**-140).astype(np.float32))
        b = cp.asarray(bi.astype(np.float32))
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy=name, out=out)
        expect = ((ai @ bi) * 2.0**-140).astype(np.float32)
        got = out.get()
        assert np.count_nonzero(expect) > 0
        assert np.array_equal(got, expect), (name, (M, N, K), int(np.count_nonzero(got != expect)))
