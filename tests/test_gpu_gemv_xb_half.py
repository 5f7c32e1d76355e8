"""gemv_xb_half on the GPU (marked `gpu`): float16 and bfloat16 x·B against the exact float64
product of the 16-bit inputs and against cuBLAS in the same run, the output poisoned (NaN) first.

Tolerances: tests/test_gpu_half.py's (numerics.half_bound, u + K 2^-23, and at most 2x cuBLAS's
componentwise error): the kernel widens each 16-bit value exactly, sums exact float products in
float (a K group's run, then the groups' sums in group order, or a split's slices in the reduce),
and rounds once.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import numerics
from tiled_matmul.device import device_limits

from .test_gpu_half import DTYPES, _compare, _host, _poisoned, check_nonfinite_like_cublas

pytestmark = pytest.mark.gpu

NAME = "gemv_xb_half"
ENTRY = tm.STRATEGIES[NAME]
#: thin M, ragged and aligned N (N % 8: the element path), K from 1 to long (splits at launch)
SHAPES = [(M, N, K) for M in (1, 2, 7, 8) for N in (1, 3, 1000, 4096) for K in (1, 7, 129, 1000)] + \
    [(1, 8192, 8192), (4, 4096, 16384), (8, 1024, 65536), (3, 100, 50000), (1, 8, 2**17), (0, 5, 7), (5, 0, 7), (5, 7, 0)]


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_ragged_shapes_default_config(dtype, rng):
    failures: list[str] = []
    _compare(NAME, {}, dtype, SHAPES, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_every_config(dtype, rng):
    failures: list[str] = []
    shapes = [(1, 1, 1), (2, 1000, 129), (7, 4096, 1000), (8, 3, 5000), (1, 8192, 8192), (5, 257, 40000)]
    for cfg in ENTRY.search_space:
        _compare(NAME, cfg.params(), dtype, shapes, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_splits_are_bit_identical_run_to_run(dtype, rng):
    import cupy as cp

    dt = DTYPES[dtype]
    sms = device_limits().sm_count
    for params, (M, N, K) in [({}, (4, 1000, 65536)), (dict(mt=1, unroll=8), (1, 512, 100000)),
                              (dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), (1, 4096, 16384))]:
        k = tm.kernel(NAME, **params)
        splits = k.config.k_splits(M, N, K, sms, dtype)
        a, b, _, _ = _host(M, N, K, dt, rng)
        da, db = cp.asarray(a), cp.asarray(b)
        c1 = k(da, db)
        out = _poisoned((M, N), dt)
        k(da, db, out=out)
        bits = lambda x: x.view(np.uint16)  # noqa: E731
        assert bool((bits(c1) == bits(out)).all()) and bool((bits(c1) == bits(k(da, db))).all()), (params, splits)
        if params == {}:
            assert splits > 1, "the first case must exercise the split and the reduce"


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_nan_inf_and_overflow_propagate_like_cublas(dtype, rng):
    check_nonfinite_like_cublas(lambda a, b, out: tm.matmul(a, b, NAME, out=out), dtype,
                                [(1, 1000, 129), (7, 4096, 3000), (2, 3, 50000)], (8, 64, 64), rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_takes_it_for_plain_x_times_b(dtype, rng):
    import cupy as cp

    dt = DTYPES[dtype]
    for M, N, K in [(1, 8192, 8192), (2, 8192, 8192), (4, 8192, 8192), (1, 96, 397), (3, 1000, 200)]:
        assert tm.kernel("auto").kernel_for(M, N, K, dtype).strategy.name == NAME, (M, N, K)
        a, b, ref, den = _host(M, N, K, dt, rng)
        c = tm.matmul(cp.asarray(a), cp.asarray(b))
        err = numerics.componentwise_error(cp.asnumpy(c), a, b, ref, den, numerics.UNDERFLOW_FLOOR[str(c.dtype)])
        assert c.dtype == dt and err <= numerics.half_bound(dtype, K), (M, N, K, err)
    # a float32 C or a transposed B is not for it: auto gives the call to a tensor-core rung
    a, b, ref, den = _host(2, 4096, 4096, dt, rng)
    c32 = tm.matmul(cp.asarray(a), cp.asarray(b), out_dtype=np.float32)
    err = numerics.componentwise_error(cp.asnumpy(c32), a, b, ref, den, numerics.UNDERFLOW_FLOOR["float32"])
    assert err <= numerics.half_bound(dtype, 4096, np.float32), err
