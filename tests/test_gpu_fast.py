"""GPU checks specific to the fast rungs, warp_tiled and split_k (marked `gpu`)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.heuristic import recommend

from .conftest import poisoned, random_pair

pytestmark = pytest.mark.gpu

FAST = ("warp_tiled", "split_k")


CASES = [(n, c) for n in FAST for c in tm.STRATEGIES[n].configs]


@pytest.mark.parametrize("name,cfg", CASES, ids=[f"{n}-{c.tag()}" for n, c in CASES])
def test_ragged_unaligned_and_long_k(name, cfg, rng):
    """Ragged last tiles, K and N not multiples of 4 (the element-wise cp.async path), K not a
    multiple of bk, and a K long enough to cycle every pipeline stage many times."""
    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(3001, 2999, 3007), (130, 66, 4099), (65, 129, 17), (1, 257, 2), (200, 4, 1000)]:
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        k(a, b, out=out)
        report = tm.check(out, a, b)
        assert report.passed, (name, cfg, (M, N, K), report)


@pytest.mark.parametrize("name", FAST)
def test_misaligned_pointers(name, rng):
    base_a, base_b = random_pair(301, 203, 402, np.float32, rng)
    a, b = base_a[1:, 1:], base_b[1:, 1:]  # contiguous rows, start one element in: not 16-byte aligned
    out = poisoned((300, 202), np.float32)
    tm.matmul(a, b, strategy=name, out=out)
    assert tm.check(out, a, b).passed


@pytest.mark.parametrize("cfg", tm.STRATEGIES["split_k"].configs, ids=lambda c: c.tag())
def test_split_k_is_deterministic(cfg, rng):
    k = tm.kernel("split_k", **cfg.params())
    a, b = random_pair(333, 277, 4097, np.float32, rng)
    c1, c2 = k(a, b), k(a, b)
    assert bool((c1.view(np.int32) == c2.view(np.int32)).all())
    assert tm.check(c1, a, b).passed


def test_more_than_2_31_outputs():
    """Row offsets are size_t: a 40000 x 60000 output (2.4e9 elements) is written correctly."""
    import cupy as cp

    M, N, K = 40000, 60000, 1
    if cp.cuda.Device().mem_info[0] < M * N * 4 + (1 << 30):
        pytest.skip("not enough device memory for a 9.6 GB output")
    a = cp.arange(1, M + 1, dtype=cp.float32).reshape(M, 1) / M
    b = cp.arange(1, N + 1, dtype=cp.float32).reshape(1, N) / N
    c = tm.matmul(a, b, strategy="warp_tiled")
    for r in (0, 1, 35792, M - 1):  # row 35792 starts past element 2^31
        assert bool((c[r] == a[r, 0] * b[0]).all()), r
    del c


def test_recommendation_runs_and_is_correct(rng):
    for M, N, K in [(64, 64, 64), (256, 256, 8192), (1000, 700, 1300), (3001, 2999, 3007)]:
        name, params = recommend(M, N, K)
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy=name, out=out, **params)
        assert tm.check(out, a, b).passed, (M, N, K, name, params)
