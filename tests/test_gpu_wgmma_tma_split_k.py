"""wgmma_tma_split_k on the GPU (marked `gpu`): float16 and bfloat16 split over K on wgmma fed by
TMA, against the exact float64 product of the 16-bit inputs and against cuBLAS in the same run,
with the output poisoned (NaN) first.

Tolerances: tests/test_gpu_half.py's (numerics.half_bound, u + K 2^-23, and at most 2x cuBLAS's
componentwise error): each slice sums exact products in FP32 like wgmma_tma's one chain, the
slices' partials are added in FP32 (the same K - 1 additions in another order), and the sum is
rounded once.
"""

from __future__ import annotations

import pytest

import tiled_matmul as tm

from .test_gpu_half import (DTYPES, SHAPES, _compare, check_auto_picks, check_nonfinite_like_cublas,
                            check_repeats_bit_identical)

pytestmark = pytest.mark.gpu

NAME = "wgmma_tma_split_k"
ENTRY = tm.STRATEGIES[NAME]
#: long K on small outputs (the shapes the rung is for), ragged (rows padded by a copy first) and
#: aligned, decode-like, and slices left empty (K = 100 in 64 ways: two 64-deep steps, 62 slices
#: of zeros)
LONG_K = [(1, 4, 12791), (92, 281, 16065), (64, 64, 8192), (33, 65, 100), (8, 4096, 4096), (7, 129, 3000),
          (32, 4096, 4096), (256, 256, 8192), (300, 500, 64)]


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_ragged_shapes_default_config(dtype, rng):
    failures: list[str] = []
    _compare(NAME, {}, dtype, SHAPES + LONG_K, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_every_config(dtype, rng):
    failures: list[str] = []
    for cfg in ENTRY.search_space:
        _compare(NAME, cfg.params(), dtype, [(1, 1, 1), (127, 129, 33), (129, 127, 1000), (7, 300, 5)] + LONG_K[:5],
                 rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_repeat_runs_are_bit_identical(dtype, rng):
    for params in ({}, dict(split_k=64), dict(bn=64, stages=8, split_k=16)):
        k = tm.kernel(NAME, **params)
        for M, N, K in [(1, 4, 12791), (333, 277, 4097), (32, 4096, 4096)]:
            check_repeats_bit_identical(k, M, N, K, dtype, rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_nan_inf_and_overflow_propagate_like_cublas(dtype, rng):
    k = tm.kernel(NAME, split_k=8)  # the overflow case: each slice's partials finite, their sum not
    check_nonfinite_like_cublas(lambda a, b, out: k(a, b, out=out), dtype,
                                [(33, 65, 1700), (129, 1, 2570), (1, 1, 1000), (200, 300, 4000)], (64, 64, 512), rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_takes_it_for_small_outputs_with_long_k(dtype, rng):
    # decode-like, long K on one tile, rows padded by a copy (an odd K, N = 60 or 9), a small C
    check_auto_picks(dtype, [(M, N, K, NAME) for M, N, K in
                             [(16, 4096, 4096), (300, 300, 4096), (16, 60, 12791), (261, 473, 14735),
                              (2205, 9, 9937), (94, 500, 3000)]], rng)
