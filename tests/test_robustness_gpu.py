"""Robustness on the GPU: 8 threads from a cold cache, NaN/Inf semantics, aliasing, and products
whose operands hold more than 2^31 elements (marked `gpu`)."""

from __future__ import annotations

import random
import threading
from collections import Counter

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import compile as tmc

from .conftest import ARCH_SPECIFIC, GENERAL, assert_same_nonfinite, poisoned, random_pair, scatter_nonfinite

pytestmark = pytest.mark.gpu

STRATEGIES = GENERAL


def _dtype(name):
    """The dtype a strategy-wide test runs `name` in: float32, or float64 for float64-only ones."""
    return tm.STRATEGIES[name].default_dtype.numpy


# -- concurrency ---------------------------------------------------------------------------------
THREADS, CALLS = 8, 200
SIZES = [1, 2, 7, 16, 17, 31, 33, 64, 65, 100, 127, 129, 200]


@pytest.mark.parametrize("name", [None, *(n for n in ARCH_SPECIFIC if n in GENERAL)],
                         ids=["portable", *(n for n in ARCH_SPECIFIC if n in GENERAL)])
def test_8_threads_x_200_calls_from_a_cold_cache(name):
    """`name`: one architecture-specific strategy (skipped, saying why, on GPUs that cannot run
    it), or None for every strategy that runs on any GPU."""
    import cupy as cp

    # every (strategy, config) pair in the strategy's default dtype (float32, or float64 for the
    # float64-only ones), and every strategy's default in float64
    entries = {n: e for n, e in tm.STRATEGIES.items()
               if n in GENERAL and (n == name if name else n not in ARCH_SPECIFIC)}
    cases = [(n, cfg, e.default_dtype) for n, e in entries.items() for cfg in e.configs
             if cfg.is_valid(dtype=e.default_dtype)]
    cases += [(n, e.default, "float64") for n, e in entries.items()
              if e.supports("float64") and e.default_dtype != "float64"]
    assert cases
    tmc.clear_cache()
    assert not tmc.compile_counts
    barrier = threading.Barrier(THREADS)
    failures, errors, used = [], [], Counter()
    lock = threading.Lock()

    def worker(seed):
        rnd = random.Random(seed)
        rng = np.random.default_rng(seed)
        try:
            barrier.wait()
            for i in range(CALLS):
                # first every case in the same order in all threads (8 threads race for each cold
                # key at once), then random ones
                strategy, cfg, dtype = cases[i] if i < len(cases) else rnd.choice(cases)
                M, N, K = (rnd.choice(SIZES) for _ in range(3))
                a, b = random_pair(M, N, K, dtype, rng)
                mode = i % 3
                if mode == 0:  # matmul(), new result
                    c = tm.matmul(a, b, strategy=strategy, **cfg.params())
                elif mode == 1:  # a MatmulKernel into a poisoned out
                    c = poisoned((M, N), dtype)
                    assert tm.kernel(strategy, **cfg.params())(a, b, out=c) is c
                else:  # numpy in, numpy out
                    c = tm.matmul(cp.asnumpy(a), cp.asnumpy(b), strategy=strategy, **cfg.params())
                report = tm.check(c, a, b)
                with lock:
                    used[tmc.cache_key(strategy, cfg, dtype, a.device.id)] += 1
                    if not report.passed:
                        failures.append((strategy, cfg.params(), dtype, (M, N, K), mode, report))
        except Exception as exc:  # pragma: no cover - surfaced below
            with lock:
                errors.append(repr(exc))

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:5]
    assert not failures, failures[:5]
    assert sum(used.values()) == THREADS * CALLS
    assert set(used) <= set(tmc.compile_counts), "a key ran without a recorded compile"
    compiled_more = {k: n for k, n in tmc.compile_counts.items() if n != 1}
    assert not compiled_more, f"keys compiled more than once: {compiled_more}"


# -- NaN / Inf -----------------------------------------------------------------------------------
NAME_DTYPE = [(n, dt) for n in STRATEGIES for dt in (np.float32, np.float64) if tm.STRATEGIES[n].supports(dt)]


@pytest.mark.parametrize("name,dtype", NAME_DTYPE, ids=[f"{n}-{np.dtype(dt).name}" for n, dt in NAME_DTYPE])
def test_nan_and_inf_propagate_like_cupy_matmul(name, dtype, rng):
    import cupy as cp

    for M, N, K in [(37, 45, 29), (130, 70, 67), (33, 65, 17), (129, 1, 257)]:
        a, b = random_pair(M, N, K, dtype, rng)
        scatter_nonfinite(a, b, rng)
        ref = cp.matmul(a, b)
        out = poisoned((M, N), dtype)
        tm.matmul(a, b, strategy=name, out=out)
        assert_same_nonfinite(out, ref)
        assert int(cp.isnan(ref).sum()) > 0  # the case really exercises NaN


@pytest.mark.parametrize("name", STRATEGIES)
def test_inf_times_padding_does_not_leak(name, rng):
    """Kernels zero-fill their ragged tiles: an Inf in the last row/column of A or B must not turn
    the (discarded) padding into NaN that leaks into real outputs."""
    import cupy as cp

    for M, N, K in [(33, 65, 17), (129, 1, 257), (1, 1, 1), (5, 130, 3)]:
        a, b = random_pair(M, N, K, _dtype(name), rng)
        a[-1, -1] = np.inf
        b[-1, -1] = -np.inf
        ref = cp.matmul(a, b)
        out = poisoned((M, N), _dtype(name))
        tm.matmul(a, b, strategy=name, out=out)
        assert_same_nonfinite(out, ref)


# -- aliasing --------------------------------------------------------------------------------------
def test_cupy_out_aliasing_an_input_is_rejected_untouched(rng):
    import cupy as cp

    a, b = random_pair(32, 32, 32, np.float32, rng)
    before_a, before_b = a.copy(), b.copy()
    for out, which in ((a, "a"), (b, "b"), (a[:, :], "a"), (b.T.T, "b")):
        with pytest.raises(ValueError, match=f"out overlaps input {which}"):
            tm.matmul(a, b, out=out)
    buf = cp.zeros(64 * 32, cp.float32)
    a2 = buf[: 32 * 32].reshape(32, 32)
    a2[...] = a
    with pytest.raises(ValueError, match="out overlaps input a"):
        tm.matmul(a2, b, out=buf[16 * 32: 48 * 32].reshape(32, 32))  # partial overlap
    out = buf[32 * 32:].reshape(32, 32)  # adjacent but disjoint: fine
    tm.matmul(a2, b, out=out)
    assert tm.check(out, a2, b).passed
    assert cp.array_equal(a, before_a) and cp.array_equal(b, before_b)


# -- more than 2^31 elements -------------------------------------------------------------------------
BIG_M = 46341  # 46341 * 46344 = 2_147_627_304 > 2^31
BIG_N = 46344  # a multiple of 4: the 16-byte vector paths run too
_FILL = r"""
// Pseudo-random small integers in [-2, 2] from the flat index: sums stay exact in float32
// (|sum| <= 4 * 46344 < 2^24) and float64, so any summation order gives bit-identical results.
unsigned long long h = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed;
h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
out = (T)((long long)(h % 5ull) - 2);  // explicit: CuPy's float16 converts from integers explicitly
"""


def _big_skip(name, M, N, K):
    """Skip (with the numbers) where the operands, a reference block and any split-K workspace
    do not fit in free GPU memory."""
    import cupy as cp

    cfg = tm.STRATEGIES[name].default
    dt = tm.STRATEGIES[name].default_dtype
    work = cfg.workspace_bytes(M, N, dt) if hasattr(cfg, "workspace_bytes") else 0
    need = dt.itemsize * (M * K + K * N + M * N + 4096 * N) + work + 2**30
    free, _ = cp.cuda.runtime.memGetInfo()
    if free < need:
        pytest.skip(f"{name} needs {need / 2**30:.1f} GiB of GPU memory for {M}x{N}x{K} "
                    f"(workspace {work / 2**30:.1f} GiB); {free / 2**30:.1f} GiB free")


def _filled(shape, seed, dtype=np.float32):
    import cupy as cp

    kern = cp.ElementwiseKernel("uint64 seed", "T out", _FILL, "tm_test_fill")
    out = cp.empty(shape, dtype)
    kern(np.uint64(seed), out)
    return out


def _free():
    import cupy as cp

    cp.cuda.Device().synchronize()
    cp.get_default_memory_pool().free_all_blocks()


@pytest.mark.parametrize("name", STRATEGIES)
def test_output_over_2_31_elements(name):
    """C has 46341 x 46344 > 2^31 elements, K = 3: every row must land at its 64-bit offset."""
    import cupy as cp

    M, N, K = BIG_M, BIG_N, 3
    _free()
    _big_skip(name, M, N, K)
    assert M * N > 2**31
    dt = _dtype(name)
    a, b = _filled((M, K), 1, dt), _filled((K, N), 2, dt)
    try:
        c = cp.full((M, N), cp.nan, dt)
        assert tm.matmul(a, b, strategy=name, out=c) is c
        bad_rows = []
        for r0 in range(0, M, 4096):
            ref = cp.matmul(a[r0:r0 + 4096], b)
            if not cp.array_equal(c[r0:r0 + 4096], ref):
                bad_rows.append(r0)
        assert not bad_rows, f"{name}: row blocks starting at {bad_rows[:5]} differ (of {M})"
        # the very last element sits past 2^31
        assert float(c[M - 1, N - 1]) == float(a[M - 1] @ b[:, N - 1])
    finally:
        del a, b
        c = None
        _free()


@pytest.mark.parametrize("name", STRATEGIES)
@pytest.mark.parametrize("which", ["a", "b"])
def test_input_over_2_31_elements(name, which):
    """A (46341 x 46344) or B (46341 x 46344) has more than 2^31 elements; the other side is thin."""
    import cupy as cp

    _free()
    _big_skip(name, *((BIG_M, 3, BIG_N) if which == "a" else (3, BIG_N, BIG_M)))
    dt = _dtype(name)
    if which == "a":
        a, b = _filled((BIG_M, BIG_N), 3, dt), _filled((BIG_N, 3), 4, dt)
    else:
        a, b = _filled((3, BIG_M), 5, dt), _filled((BIG_M, BIG_N), 6, dt)
    try:
        M, N = a.shape[0], b.shape[1]
        out = cp.full((M, N), cp.nan, dt)
        tm.matmul(a, b, strategy=name, out=out)
        ref = cp.matmul(a, b)
        diff = cp.argwhere(out != ref)
        assert diff.shape[0] == 0, f"{name}: {diff.shape[0]} of {M * N} outputs differ, first at {diff[:3].tolist()}"
    finally:
        del a, b
        _free()
