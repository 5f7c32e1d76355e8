"""GPU checks of wgmma_split_k (marked `gpu`). Every test takes the strategy as its `name`
parameter, so that conftest skips it, saying why, on GPUs that cannot run sm_90a code."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.heuristic import recommend

from .conftest import poisoned, random_pair, assert_same_nonfinite

pytestmark = pytest.mark.gpu

NAME = ["wgmma_split_k"]
ENTRY = tm.STRATEGIES["wgmma_split_k"]
CONFIGS = ENTRY.configs

# long K on one tile; ragged M, N and K (K odd and N not a multiple of 4: the element-wise
# copies and the scalar reduce); a single element; K shorter than one slice, so most slices are
# empty; a small cube; K = 0; a slice count that leaves the last slices empty (K = 100)
SHAPES = [(64, 64, 65536), (33, 127, 4099), (1, 1, 1), (7, 9, 33), (512, 512, 512), (5, 7, 0),
          (130, 66, 100), (200, 260, 1000)]


def _bits(c):
    return c.view(np.int32)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.tag())
def test_every_config_against_float64(name, cfg, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in SHAPES:
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        k(a, b, out=out)
        report = tm.check(out, a, b)
        assert report.passed, (cfg.tag(), (M, N, K), report)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.tag())
def test_repeat_runs_are_bit_identical(name, cfg, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(333, 277, 4097), (64, 64, 65536)]:
        a, b = random_pair(M, N, K, np.float32, rng)
        c1 = k(a, b)
        out = poisoned((M, N), np.float32)
        k(a, b, out=out)
        assert bool((_bits(c1) == _bits(out)).all()) and bool((_bits(c1) == _bits(k(a, b))).all())
        assert tm.check(c1, a, b).passed


@pytest.mark.parametrize("name", NAME)
def test_unaligned_pointers(name, rng):
    """Operands and C that start one element into their allocation: 16-byte copies and the
    vector reduce are off (flags 0)."""
    import cupy as cp

    base_a, base_b = random_pair(301, 203, 4002, np.float32, rng)
    a, b = base_a[1:, 1:], base_b[1:, 1:]
    buf = cp.full(300 * 202 + 1, cp.nan, cp.float32)
    out = buf[1:].reshape(300, 202)
    tm.matmul(a, b, strategy=name, out=out, split_k=8)
    assert tm.check(out, a, b).passed


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", [c for c in CONFIGS if c.split_k >= 4], ids=lambda c: c.tag())
def test_nan_and_inf_propagate_like_cupy_matmul(name, cfg, rng):
    """Non-finite values in different slices of K: each slice with one recomputes only itself
    with FMAs, and the fixed-order sum combines the partials as FP32 does (Inf + -Inf = NaN)."""
    import cupy as cp

    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(37, 45, 2000), (130, 70, 4099), (129, 1, 1500)]:
        a, b = random_pair(M, N, K, np.float32, rng)
        b_pos = cp.abs(b) + 0.5  # finite, positive B: a row's Infs alone decide its outputs
        for arr in (a, b):
            flat = arr.ravel()
            idx = rng.choice(flat.size, size=6, replace=False)
            for j, v in zip(idx, [np.nan, np.inf, -np.inf, np.inf, 0.0, -np.inf]):
                flat[int(j)] = v
        a[1, 3], a[1, K - 2] = np.inf, -np.inf  # first and last slices: +Inf + -Inf = NaN
        a[2, K // 2] = np.inf  # one slice only: +Inf (where B is finite)
        a[M // 2, :] = 0.0
        a[M // 2, K // 3] = np.inf  # 0 * Inf in the same row where B holds an Inf: NaN
        for bb in (b, b_pos):
            ref = cp.matmul(a, bb)
            out = poisoned((M, N), np.float32)
            k(a, bb, out=out)
            assert_same_nonfinite(out, ref)
        assert int(cp.isnan(cp.matmul(a, b)).sum()) > 0


def check_workspace_cap(name, unsplit, cfg, dtype, rng, monkeypatch):
    """Under a smaller cap a launch of `cfg` uses fewer slices (3: not a power of two), and with
    room for fewer than 2 it runs one slice straight into C, which is the result of the unsplit
    rung `unsplit` with the same tile to the bit; an Inf goes through that path too."""
    import cupy as cp

    cls = type(cfg)
    M, N, K = 200, 260, 5000
    isz = np.dtype(dtype).itemsize
    bits = (lambda c: c.view(np.int32 if isz == 4 else np.int64))
    a, b = random_pair(M, N, K, dtype, rng)
    k = tm.kernel(name, **cfg.params())
    monkeypatch.setattr(cls, "WORKSPACE_CAP", 3 * M * N * isz + 100)
    assert cfg.slices(M, N) == 3
    c3 = k(a, b)
    assert tm.check(c3, a, b).passed and bool((bits(c3) == bits(k(a, b))).all())
    monkeypatch.setattr(cls, "WORKSPACE_CAP", 2 * M * N * isz - 1)
    assert cfg.slices(M, N) == 1
    out = poisoned((M, N), dtype)
    k(a, b, out=out)
    assert tm.check(out, a, b).passed
    same = tm.matmul(a, b, strategy=unsplit, **{p: v for p, v in cfg.params().items() if p != "split_k"})
    assert bool((bits(out) == bits(same)).all())
    a[5, 7] = cp.inf
    out = poisoned((M, N), dtype)
    k(a, cp.abs(b) + 0.5, out=out)
    assert bool(cp.isposinf(out[5]).all()) and int(cp.isnan(out).sum()) == 0


@pytest.mark.parametrize("name", NAME)
def test_workspace_cap_fewer_slices_then_none(name, rng, monkeypatch):
    cfg = ENTRY.config_cls(bm=64, bn=64, stages=4, min_blocks=2, split_k=16)
    check_workspace_cap(name, "wgmma", cfg, np.float32, rng, monkeypatch)


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("shape", [(64, 64, 65536), (256, 256, 32768), (32, 1024, 32768)])
def test_as_accurate_as_cublas_fp32_for_long_k(name, shape, rng):
    """3xTF32 per slice plus the float32 sum of the slices: the error must stay at the level of
    FP32 FMA kernels (cuBLAS, register_blocked's plain K-order sums)."""
    M, N, K = shape
    for cfg in (ENTRY.default, ENTRY.search_space[2], ENTRY.search_space[-1]):
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy=name, out=out, **cfg.params())
        rep = tm.check(out, a, b)
        ffma = tm.check(tm.matmul(a, b, strategy="register_blocked"), a, b).rel_err
        assert rep.passed and rep.rel_err <= 2.0 * max(rep.cublas_rel_err, ffma), (cfg.tag(), rep, ffma)


@pytest.mark.parametrize("name", NAME)
def test_heuristic_picks_run_and_are_correct(name, rng):
    """The heuristic's picks where it names wgmma_split_k on an H100 SXM, at this GPU's own SM
    count (a Hopper GPU with fewer SMs may pick wgmma for the larger ones)."""
    sms = tm.device_limits().sm_count
    picked = set()
    for M, N, K in [(64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768),
                    (512, 512, 512), (640, 640, 640), (300, 300, 2000)]:
        strategy, params = recommend(M, N, K, sms=sms)
        picked.add(strategy)
        a, b = random_pair(M, N, K, np.float32, rng)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, strategy=strategy, out=out, **params)
        assert tm.check(out, a, b).passed, ((M, N, K), strategy, params)
    assert name in picked
