"""gemv_ax_mma on the GPU (marked `gpu`): float16 and bfloat16 A·x with a few columns on the tensor
cores, against the exact float64 product of the 16-bit inputs and against cuBLAS in the same run, the
output poisoned (NaN) first.

Tolerances: tests/test_gpu_half.py's (numerics.half_bound, u + K 2^-23, and at most 2x cuBLAS's
componentwise error): each product of two 16-bit values is exact in the MMA's FP32 sums, the warps'
sums (and a split's slices, in the reduce) are added in a fixed order in float, and each output is
rounded once.

The shapes cover its three load paths for A (rows 16-byte aligned: K a multiple of 8; 4-byte: K
even; else 2-byte, K odd), B's two (16-byte rows where N is a multiple of 8, else a load per
column), column chunks (N over 8, ragged), ragged rows, splits of K and zero sizes.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import heuristic, numerics
from tiled_matmul.device import device_limits

from .test_gpu_half import DTYPES, _comp, _compare, _host, _poisoned, check_auto_picks, check_float32_out, \
    check_nonfinite_like_cublas, check_repeats_bit_identical

pytestmark = pytest.mark.gpu

NAME = "gemv_ax_mma"

#: (M, N, K): rows 1 .. 4096 (ragged), N 1 .. 17 (one to three chunks of 8, ragged), K over the three
#: load paths (1, 7, 33, 129 odd; 2, 130 even; 8, 1000, 5000 multiples of 8), long K (splits), zeros
SHAPES = ([(m, n, k) for m in (1, 7, 33, 1000) for n in (1, 3, 8, 9) for k in (1, 2, 7, 8, 33, 130, 1000)]
          + [(127, 5, 5000), (129, 8, 129), (4096, 8, 4096), (4096, 6, 4098), (4096, 7, 4099), (1000, 16, 1000),
             (1000, 17, 1001), (64, 8, 65536), (33, 3, 50001), (8192, 8, 8192)]
          + [(0, 5, 7), (5, 0, 7), (5, 7, 0)])
CONFIG_SHAPES = [(33, 8, 1000), (1000, 5, 129), (129, 8, 130), (4096, 8, 4096), (7, 3, 20000)]


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_ragged_shapes_default_config(dtype, rng):
    failures: list[str] = []
    _compare(NAME, {}, dtype, SHAPES, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_every_config(dtype, rng):
    failures: list[str] = []
    for cfg in tm.STRATEGIES[NAME].search_space:
        _compare(NAME, cfg.params(), dtype, CONFIG_SHAPES, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_misaligned_rows_take_the_narrower_loads(dtype, rng):
    """A that starts 2 bytes past an aligned address: K a multiple of 8 no longer gives 16-byte rows
    (bit 0 of flags clear), and its rows are not even 4-byte aligned, so the kernel must find the
    2-byte path itself; likewise B 2 bytes off with N = 8 (no 16-byte rows of B)."""
    import cupy as cp

    dt = DTYPES[dtype]
    k = tm.kernel(NAME)
    for M, N, K in [(100, 8, 1000), (33, 5, 64), (1000, 8, 4096)]:
        a, b, ref, den = _host(M, N, K, dt, rng)
        for shift_a, shift_b in [(1, 0), (0, 1), (1, 1)]:
            fa = cp.zeros(M * K + 1, dt)
            fb = cp.zeros(K * N + 1, dt)
            da = fa[shift_a:shift_a + M * K].reshape(M, K)
            db = fb[shift_b:shift_b + K * N].reshape(K, N)
            da[...] = cp.asarray(a)
            db[...] = cp.asarray(b)
            out = _poisoned((M, N), dt)
            k(da, db, out=out)
            e = _comp(out, a, b, ref, den)
            assert e <= numerics.half_bound(dtype, K), (M, N, K, shift_a, shift_b, e)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_splits_are_bit_identical_run_to_run(dtype, rng):
    sms = device_limits().sm_count
    k = tm.kernel(NAME)
    for M, N, K in [(64, 8, 65536), (100, 3, 100001)]:
        assert k.config.k_splits(M, N, K, sms, dtype) > 1, "each case must exercise the split and the reduce"
        check_repeats_bit_identical(k, M, N, K, dtype, rng)
    check_repeats_bit_identical(k, 4096, 8, 4096, dtype, rng)  # one slice: the warps' sums alone


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_nan_inf_and_overflow_propagate_like_cublas(dtype, rng):
    check_nonfinite_like_cublas(lambda a, b, out: tm.matmul(a, b, NAME, out=out), dtype,
                                [(1000, 8, 129), (33, 5, 3000), (4096, 7, 4099), (2, 3, 50000)], (64, 8, 64), rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_takes_it_for_plain_a_x_with_a_few_columns(dtype, rng):
    check_auto_picks(dtype, [(8192, 8, 8192, NAME), (8192, 5, 8192, NAME), (9298, 6, 5590, NAME),
                             (4096, heuristic.HALF_AX_MMA_MIN, 4096, NAME), (12399, 6, 890, NAME), (1000, 7, 1000, NAME),
                             # small A·x of 9..64 columns (heuristic.AX_MMA_WIDE_MAX), ragged rows of A and B
                             (94, 50, 6180, NAME), (30, 11, 242, NAME), (1000, 12, 1000, NAME), (3519, 29, 204, NAME),
                             (150, 56, 3000, NAME)],
                     rng)
    da, db = check_float32_out(dtype, 4096, 8, 4096, rng)
    with pytest.raises(ValueError, match=NAME):
        tm.matmul(da, db, NAME, out_dtype=np.float32)
