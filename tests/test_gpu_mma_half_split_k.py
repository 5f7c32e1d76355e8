"""mma_half_split_k on the GPU (marked `gpu`): float16 and bfloat16 split over K against the exact
float64 product of the 16-bit inputs and against cuBLAS in the same run, with the output poisoned
(NaN) first.

Tolerances: tests/test_gpu_half.py's (numerics.half_bound, u + K 2^-23, and at most 2x cuBLAS's
componentwise error): each slice sums exact products in FP32 like mma_half's one chain, the slices'
partials are added in FP32 (the same K - 1 additions in another order), and the sum is rounded once.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import numerics

from .test_gpu_half import (DTYPES, SHAPES, _compare, _host, check_auto_picks, check_nonfinite_like_cublas,
                            check_repeats_bit_identical)

pytestmark = pytest.mark.gpu

NAME = "mma_half_split_k"
ENTRY = tm.STRATEGIES[NAME]
#: long K on small outputs (the shapes the rung is for), ragged and aligned, and slices left empty
#: (K = 100 cut 64 ways: 32-deep slices, the last 60 empty)
LONG_K = [(1, 4, 12791), (92, 281, 16065), (2205, 8, 9937), (46, 1100, 2429), (64, 64, 8192), (33, 65, 100),
          (8, 4096, 4096), (7, 129, 3000)]


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_ragged_shapes_default_config(dtype, rng):
    failures: list[str] = []
    _compare(NAME, {}, dtype, SHAPES + LONG_K, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_every_config(dtype, rng):
    failures: list[str] = []
    for cfg in ENTRY.search_space:
        _compare(NAME, cfg.params(), dtype, [(1, 1, 1), (127, 129, 33), (129, 127, 1000), (7, 300, 5)] + LONG_K[:4],
                 rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_repeat_runs_are_bit_identical(dtype, rng):
    for params in ({}, dict(split_k=64), dict(bm=128, bn=128, wm=64, wn=32, min_blocks=2, split_k=4)):
        k = tm.kernel(NAME, **params)
        for M, N, K in [(1, 4, 12791), (333, 277, 4097), (8, 4096, 4096)]:
            check_repeats_bit_identical(k, M, N, K, dtype, rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_nan_inf_and_overflow_propagate_like_cublas(dtype, rng):
    k = tm.kernel(NAME, split_k=8)  # the overflow case: each slice's partials finite, their sum not
    check_nonfinite_like_cublas(lambda a, b, out: k(a, b, out=out), dtype,
                                [(33, 65, 1700), (129, 1, 2570), (1, 1, 1000), (200, 300, 4000)], (64, 64, 512), rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_takes_it_for_small_outputs_with_long_k(dtype, rng):
    # (the long-K shapes TMA reads are wgmma_tma_split_k's since the eighteenth session: here one
    # 128 x 128 tile with a short K, slices too shallow for it, and skinny products whose streamed
    # operand TMA would have to pad by a copy)
    check_auto_picks(dtype, [(M, N, K, NAME) for M, N, K in
                             [(41, 59, 834), (300, 300, 256), (4, 50257, 4096), (4, 9298, 5590)]], rng)


def test_calls_it_cannot_take_go_to_mma_half(rng):
    """A batch, a float32 C or a transposed operand needs extras the rung does not declare:
    `auto` runs mma_half for them, correctly; naming the rung raises."""
    import cupy as cp

    dt = DTYPES["float16"]
    a, b, ref, den = _host(92, 281, 4000, dt, rng)
    da, db = cp.asarray(a), cp.asarray(b)
    c32 = tm.matmul(da, db, out_dtype=np.float32)
    assert c32.dtype == np.float32
    err = numerics.componentwise_error(cp.asnumpy(c32), a, b, ref, den, numerics.UNDERFLOW_FLOOR["float32"])
    assert err <= numerics.half_bound("float16", 4000, np.float32), err
    ct = tm.matmul(cp.asfortranarray(da), db)
    assert numerics.componentwise_error(cp.asnumpy(ct), a, b, ref, den, numerics.UNDERFLOW_FLOOR["float16"]) \
        <= numerics.half_bound("float16", 4000)
    with pytest.raises(ValueError, match="mma_half_split_k"):
        tm.matmul(da, db, NAME, out_dtype=np.float32)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_unaligned_long_k_runs_on_padded_copies(dtype, rng):
    """Where A's or B's rows are not 16-byte aligned and K is long (MmaHalfSplitKConfig.pads), the
    launch copies both into zero-padded rows: right against float64 on an odd K, an odd N and both,
    bit-identical run to run, NaN and Inf where cuBLAS has them."""
    cfg = ENTRY.make_config()
    shapes = [(261, 473, 14735), (300, 257, 2049), (1000, 1000, 1031), (64, 129, 16385)]
    assert all(cfg.pads(M, N, K, 0) for M, N, K in shapes)
    failures: list[str] = []
    _compare(NAME, {}, dtype, shapes, rng, failures)
    assert not failures, "\n".join(failures)
    k = tm.kernel(NAME)
    check_repeats_bit_identical(k, 300, 257, 2049, dtype, rng)
    check_nonfinite_like_cublas(lambda a, b, out: k(a, b, out=out), dtype, [(300, 257, 2049)], (64, 129, 16385), rng)
