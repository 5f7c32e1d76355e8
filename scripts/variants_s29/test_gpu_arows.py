"""(Not in the test suite: the variant it checks is scripts/variants_s29/arows_consumer_realign.patch,
not shipped; copy it to tests/test_gpu_wgmma_tma_tf32_arows.py with the patch applied. Its first
case's plan-key check misreads a single-row B's pitch: the only failure it showed.)

GPU checks of wgmma_tma_tf32's "_arows" companion (marked `gpu`; skipped off Hopper through the
`name` parameter): a row-major A that TMA cannot address (rows that are not 16-byte multiples,
K % 4 != 0, or a base off 16 bytes), read in place, its stages copied by cp.async (the template's
"A_ROWS") instead of the whole of A copied into padded rows first.

Data: uniform in [-1, 1) float32; C poisoned with NaN. Tolerance as in test_gpu_wgmma_tma_tf32:
the componentwise error max |C - ref| / (|A||B|) against the float64 product within tf32x3's
bound (numerics.bound). Each case also asserts that the companion ran (its launcher kept the
call's plan), so a silent fall back to the padded copy cannot pass for it.
"""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul import numerics

pytestmark = pytest.mark.gpu

NAME = ["wgmma_tma_tf32"]
ENTRY = tm.STRATEGIES["wgmma_tma_tf32"]
#: the tf32x3 configs (the companion is rendered for them alone)
CONFIGS = [c for c in ENTRY.configs if c.passes == 3]
#: K % 4 in 1, 2, 3, M under, at and past a tile's rows (and past the 3 copying warps' lines),
#: K under a stage and ragged past many, N ragged on B's padded pitch
SHAPES = [(4, 5, 1), (5, 64, 3), (7, 7, 7), (33, 33, 33), (127, 129, 130), (129, 127, 127), (130, 300, 65),
          (131, 129, 1001), (257, 64, 6), (64, 8, 999), (1000, 1000, 1001), (1001, 999, 1002), (1003, 130, 1003),
          (2050, 700, 2)]


def _operand(rows, cols, pitch, seed):
    import cupy as cp

    full = cp.random.default_rng(seed).uniform(-1.0, 1.0, (rows, pitch), dtype=cp.float32)
    return full[:, :cols]


def _arows_ran(cfg, a, b) -> bool:
    """Whether the last product of a and b with `cfg` ran the "_arows" companion (its plan is
    kept by the companion's launcher of the compiled kernel)."""
    import cupy as cp

    from tiled_matmul.compile import get_kernel
    from tiled_matmul.strategies.wgmma_tma_tf32 import _plan_key

    kern = get_kernel(ENTRY, cfg, "float32", cp.cuda.Device().id)
    launcher = kern._companions.get("__tma_tf32_arows__")
    (M, K), N = a.shape, b.shape[1]
    key = _plan_key(a.data.ptr, a.strides[0] // 4, b.data.ptr, b.strides[0] // 4, M, N, K)
    return launcher is not None and key in launcher.plans


def _check(c, a, b, K, what):
    import cupy as cp

    a64, b64 = numerics.exact64(a), numerics.exact64(b)
    assert not bool(cp.isnan(c).any()), f"{what}: {int(cp.isnan(c).sum())} outputs never written"
    err = numerics.componentwise_error(c, a, b, a64 @ b64, cp.abs(a64) @ cp.abs(b64))
    assert err <= numerics.bound("tf32x3", K), (what, err, numerics.bound("tf32x3", K))
    return err


@pytest.mark.parametrize("name", NAME)
@pytest.mark.parametrize("cfg", CONFIGS, ids=[c.tag() for c in CONFIGS])
def test_a_rows_every_config_and_ragged_shape(name, cfg):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma_tf32 import tma_tf32_matmul

    for M, N, K in SHAPES:
        a = _operand(M, K, K, 1)  # contiguous: pitch K
        b = _operand(K, N, -(-N // 4) * 4, 2)  # B addressable: only A is read by cp.async
        c = cp.full((M, N), cp.nan, dtype=cp.float32)
        tma_tf32_matmul(a, b, c, config=cfg)
        assert _arows_ran(cfg, a, b) == cfg.a_rows(M, K, a.data.ptr, K), (cfg.tag(), (M, N, K))
        _check(c, a, b, K, f"{cfg.tag()} {(M, N, K)}")
    # the last rows end the allocation: the copies past A's last element are zero-filled (the
    # source size), and rows read from a pitch that leaves no gap
    for M, N, K in [(300, 128, 127), (129, 64, 1001)]:
        a = cp.random.default_rng(9).uniform(-1.0, 1.0, (M, K), dtype=cp.float32)
        b = _operand(K, N, N, 10)
        c = cp.full((M, N), cp.nan, dtype=cp.float32)
        tma_tf32_matmul(a, b, c, config=cfg)
        assert _arows_ran(cfg, a, b) == cfg.a_rows(M, K, a.data.ptr, K), (cfg.tag(), (M, N, K))
        _check(c, a, b, K, f"{cfg.tag()} {(M, N, K)} own allocation")


@pytest.mark.parametrize("name", NAME)
def test_a_rows_with_a_ragged_b_and_the_hot_path(name):
    """B's rows ragged too (copied into padded rows; A still read in place), and the same product twice
    through tm.matmul: the second call launches from the kept plan, bit-identical."""
    import cupy as cp

    k = tm.kernel("wgmma_tma_tf32")
    for M, N, K in [(1001, 999, 1001), (517, 130, 2003), (4096, 257, 130), (1001, 1000, 1001)]:
        a = _operand(M, K, K, 3)
        b = _operand(K, N, N, 4)
        c1 = cp.full((M, N), cp.nan, dtype=cp.float32)
        k(a, b, out=c1)
        c2 = cp.full((M, N), cp.nan, dtype=cp.float32)
        k(a, b, out=c2)
        assert bool((c1 == c2).all()), (M, N, K)
        _check(c1, a, b, K, f"{(M, N, K)}")
        if N % 4 == 0:  # B read in place: the plan is the call's own (the hot path's second call)
            assert _arows_ran(k.config, a, b), (M, N, K)


@pytest.mark.parametrize("name", NAME)
def test_a_rows_never_read_the_pitch_gap_past_k(name):
    """A view whose pitch leaves a gap past K (pitch K + 1 or + 2: still not 16-byte rows) with NaN
    in the gap: the copies zero-fill the columns past K instead of reading them."""
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma_tf32 import tma_tf32_matmul

    cfg = ENTRY.default
    for M, N, K, pitch in [(1001, 260, 1001, 1002), (300, 128, 101, 103), (131, 64, 30, 31)]:
        full = cp.random.default_rng(5).uniform(-1.0, 1.0, (M, pitch), dtype=cp.float32)
        full[:, K:] = cp.nan
        a = full[:, :K]
        b = _operand(K, N, N, 6)
        c = cp.full((M, N), cp.nan, dtype=cp.float32)
        tma_tf32_matmul(a, b, c, config=cfg)
        assert _arows_ran(cfg, a, b), (M, N, K, pitch)
        _check(c, a, b, K, f"{(M, N, K)} pitch {pitch}")


@pytest.mark.parametrize("name", NAME)
def test_a_rows_nan_and_inf_like_cublas(name):
    """Inf and NaN in A (the last rows, the first columns of a row, the last column): the masks
    equal cuBLAS FP32's, and every finite output keeps the bound."""
    import cupy as cp

    from tiled_matmul.measure import cublas_compute_type
    from tiled_matmul.strategies.wgmma_tma_tf32 import tma_tf32_matmul

    cfg = ENTRY.default
    M, N, K = 1003, 300, 301
    a = _operand(M, K, K, 7).copy()
    b = _operand(K, N, -(-N // 4) * 4, 8)
    a[1001, 17] = cp.inf
    a[1002, 300] = cp.nan
    a[501, 2] = -cp.inf
    a[502, 0] = cp.nan
    a[7, 5] = cp.inf
    c = cp.full((M, N), cp.nan, dtype=cp.float32)
    tma_tf32_matmul(a, b, c, config=cfg)
    assert _arows_ran(cfg, a, b)
    with cublas_compute_type("fp32"):
        cub = cp.matmul(a, b)
    assert bool((numerics.nonfinite_mask(c) == numerics.nonfinite_mask(cub)).all())
    finite = cp.isfinite(cub)
    a64 = numerics.exact64(a)
    a64 = cp.where(cp.isfinite(a64), a64, 0.0)
    b64 = numerics.exact64(b)
    ref, den = a64 @ b64, cp.abs(a64) @ cp.abs(b64)
    err = cp.where(finite & (den > 0), cp.abs(c.astype(cp.float64) - ref) / cp.where(den > 0, den, 1.0), 0.0)
    assert float(err.max()) <= numerics.bound("tf32x3", K)
