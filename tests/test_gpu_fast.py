"""GPU checks specific to the fast rungs, warp_tiled, split_k, tensor_core and wgmma (marked `gpu`)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.heuristic import recommend

from .conftest import poisoned, random_pair

pytestmark = pytest.mark.gpu

FAST = ("warp_tiled", "split_k", "tensor_core", "wgmma")
TC = ("tensor_core", "wgmma")


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


@pytest.mark.parametrize("name", TC)
@pytest.mark.parametrize("shape", [(4096, 256, 4096), (256, 256, 32768), (3001, 299, 3007)])
def test_tensor_core_is_as_accurate_as_cublas_fp32(name, shape, rng):
    """3xTF32 with per-K-step FADD accumulation: the error must stay at the level of FP32 FMA
    kernels (cuBLAS, and register_blocked's plain K-order sums) even for long K. Chaining the MMAs
    over all of K gave 25x cuBLAS's error at K = 4096, past the tolerance by K = 16384."""
    M, N, K = shape
    for cfg in (tm.STRATEGIES[name].default, tm.STRATEGIES[name].search_space[-1]):
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy=name, out=out, **cfg.params())
        rep = tm.check(out, a, b)
        ffma = tm.check(tm.matmul(a, b, strategy="register_blocked"), a, b).rel_err
        assert rep.passed and rep.rel_err <= 2.0 * max(rep.cublas_rel_err, ffma), (cfg, rep, ffma)


@pytest.mark.parametrize("name", TC)
def test_tensor_core_inf_times_tf32_exact_values_stays_inf(name, rng):
    """An Inf in A against B values exact in TF32 (small part 0): inf * 0 inside the split would
    give NaN; the block's exact recompute must give +-Inf like FP32. Other blocks stay fast."""
    import cupy as cp

    M, N, K = 300, 260, 200
    a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(np.float32))
    b = cp.asarray(rng.integers(1, 5, (K, N)).astype(np.float32))  # positive small integers: exact in TF32
    a[7, 3] = cp.inf
    a[250, 11] = -cp.inf
    out = poisoned((M, N), np.float32)
    tm.matmul(a, b, strategy=name, out=out)
    ref = cp.matmul(a, b)
    assert bool(cp.isposinf(out[7]).all()) and bool(cp.isneginf(out[250]).all())
    assert int(cp.isnan(out).sum()) == 0
    fin = cp.isfinite(ref)
    assert bool(cp.allclose(out[fin], ref[fin], rtol=1e-5, atol=1e-4))


@pytest.mark.parametrize("name", TC)
def test_recommendation_runs_and_is_correct(name, rng):
    """The heuristic's picks where its tensor-core strategy is `name` (wgmma on Hopper GPUs,
    tensor_core elsewhere)."""
    for M, N, K in [(64, 64, 64), (256, 256, 8192), (1000, 700, 1300), (3001, 2999, 3007)]:
        strategy, params = recommend(M, N, K, wgmma=name == "wgmma")
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy=strategy, out=out, **params)
        assert tm.check(out, a, b).passed, (M, N, K, strategy, params)
