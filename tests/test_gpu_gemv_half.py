"""gemv_xb_half and gemv_ax_half on the GPU (marked `gpu`): float16 and bfloat16 x·B and A·x against
the exact float64 product of the 16-bit inputs and against cuBLAS in the same run, the output
poisoned (NaN) first.

Tolerances: tests/test_gpu_half.py's (numerics.half_bound, u + K 2^-23, and at most 2x cuBLAS's
componentwise error): the kernels widen each 16-bit value exactly, sum exact float products in
float (per lane or K group, then across lanes or groups in a fixed order, or a split's slices in
the reduce), and round once.
"""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.device import device_limits

from .test_gpu_half import DTYPES, _compare, check_auto_picks, check_float32_out, check_nonfinite_like_cublas, \
    check_repeats_bit_identical

pytestmark = pytest.mark.gpu

NAMES = ("gemv_xb_half", "gemv_ax_half")


def _shapes(name, thin, wide, depth):
    """(M, N, K) with the rung's thin side (M for x·B, N for A·x) from `thin`."""
    if name == "gemv_xb_half":
        return [(t, w, k) for t in thin for w in wide for k in depth]
    return [(w, t, k) for t in thin for w in wide for k in depth]


#: thin sides, ragged and aligned wide sides, K from 1 to long (splits at launch), and zero sizes
SHAPES = {name: _shapes(name, (1, 2, 7, 8), (1, 3, 1000, 4096), (1, 7, 129, 1000))
          + _shapes(name, (1, 4), (8192,), (8192,)) + _shapes(name, (8,), (1024,), (65536,))
          + _shapes(name, (3,), (100,), (50000,)) + [(0, 5, 7), (5, 0, 7), (5, 7, 0)] for name in NAMES}
CONFIG_SHAPES = {name: _shapes(name, (1, 2, 8), (3, 1000), (129, 5000)) + _shapes(name, (1,), (8192,), (8192,))
                 for name in NAMES}


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", NAMES)
def test_ragged_shapes_default_config(name, dtype, rng):
    failures: list[str] = []
    _compare(name, {}, dtype, SHAPES[name], rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", NAMES)
def test_every_config(name, dtype, rng):
    failures: list[str] = []
    for cfg in tm.STRATEGIES[name].search_space:
        _compare(name, cfg.params(), dtype, CONFIG_SHAPES[name], rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", NAMES)
def test_splits_are_bit_identical_run_to_run(name, dtype, rng):
    sms = device_limits().sm_count
    k = tm.kernel(name)
    shapes = [(4, 1000, 65536), (1, 512, 100000)] if name == "gemv_xb_half" else [(1000, 4, 65536), (512, 1, 100000)]
    for M, N, K in shapes:
        assert k.config.k_splits(M, N, K, sms, dtype) > 1, "each case must exercise the split and the reduce"
        check_repeats_bit_identical(k, M, N, K, dtype, rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", NAMES)
def test_nan_inf_and_overflow_propagate_like_cublas(name, dtype, rng):
    shapes = [(1, 1000, 129), (7, 4096, 3000), (2, 3, 50000)]
    if name == "gemv_ax_half":
        shapes = [(n, m, k) for m, n, k in shapes]
    check_nonfinite_like_cublas(lambda a, b, out: tm.matmul(a, b, name, out=out), dtype, shapes,
                                (8, 64, 64) if name == "gemv_xb_half" else (64, 8, 64), rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_takes_them_for_plain_skinny_products(dtype, rng):
    check_auto_picks(dtype, [(1, 8192, 8192, "gemv_xb_half"), (2, 8192, 8192, "gemv_xb_half"),
                             (4, 8192, 8192, "gemv_xb_half"), (1, 96, 397, "gemv_xb_half"), (3, 1000, 200, "gemv_xb_half"),
                             (8192, 1, 8192, "gemv_ax_half"), (8192, 2, 8192, "gemv_ax_half"), (29, 1, 1810, "gemv_ax_half"),
                             (8, 2, 4096, "gemv_ax_half"),
                             # a small A from K = GEMV_SHORT_K (48), odd rows of A among them
                             (271, 1, 92, "gemv_ax_half"), (125, 7, 117, "gemv_ax_mma"), (8, 4, 48, "gemv_ax_mma"),
                             (1699, 6, 49, "gemv_ax_mma"),
                             # rows of B not 16-byte aligned (an LM head over 50257 columns): the element path
                             (1, 50257, 4096, "gemv_xb_half"), (2, 4097, 1000, "gemv_xb_half")], rng)
    # a float32 C is not for them: auto gives the call to a tensor-core rung
    check_float32_out(dtype, 2, 4096, 4096, rng)
