"""Precision modes on the GPU: the numerics suite of :mod:`tiled_matmul.numerics` per mode,
componentwise error against cuBLAS FP32 (TF32 off) in the same run (accuracy is a test; speed is
benchmarks/numerics_suite.py)."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul import numerics

pytestmark = pytest.mark.gpu

#: data sets in float32's normal range, where tf32x3 promises 2x cuBLAS from K = 64
NORMAL = ("uniform[-1,1]", "uniform[0,1]", "exponents 2^+-40", "cancellation", "small integers")
#: data sets whose errors come from underflow or Inf/NaN: no componentwise bound is stated (a ~ 1e-36
#: draws some subnormal float32 values too, whose products cuBLAS and the tensor cores flush)
NO_BOUND = ("subnormal a~1e-40", "a~1e-36, b~1e30", "NaN and Inf")


@pytest.fixture(scope="module")
def suite():
    import cupy

    from tiled_matmul.measure import cublas_compute_type

    cases = {}
    for name in numerics.DATASETS:
        for K in numerics.KS:
            a, b, ref, den = numerics.device_case(name, K, seed=K)
            with cublas_compute_type("fp32"):
                cub = cupy.matmul(a, b)
            cases[name, K] = (a, b, ref, den, cub, numerics.componentwise_error(cub, a, b, ref, den))
    return cases


def _run(case, mode):
    import cupy

    a, b, ref, den, cub, e_cub = case
    out = cupy.full((a.shape[0], b.shape[1]), cupy.nan, dtype=cupy.float32)  # poisoned
    tm.matmul(a, b, precision=mode, out=out)
    kern = tm.kernel("auto", precision=mode).kernel_for(a.shape[0], b.shape[1], a.shape[1])
    return out, numerics.componentwise_error(out, a, b, ref, den), e_cub, kern


@pytest.mark.parametrize("mode", ["auto", "ieee", "tf32x3", "tf32"])
@pytest.mark.parametrize("name", list(numerics.DATASETS))
def test_numerics_suite(suite, mode, name):
    failures = []
    for K in numerics.KS:
        out, e, e_cub, kern = _run(suite[name, K], mode)
        cub = suite[name, K][4]
        if not bool((numerics.nonfinite_mask(out) == numerics.nonfinite_mask(cub)).all()):
            failures.append(f"K={K}: NaN/Inf mask differs from cuBLAS ({kern.strategy.name})")
        # "auto" promises 2x cuBLAS everywhere, tf32x3 from K = 64 on normal-range data; "ieee"
        # promises its bound (it is the fastest FFMA kernel, summing in its own order)
        promised = mode == "auto" or (mode == "tf32x3" and K >= 64 and name in NORMAL)
        if promised and e > 2 * e_cub and e > 0:
            failures.append(f"K={K}: {e:.3g} > 2 x cuBLAS {e_cub:.3g} ({kern.strategy.name} {kern.config.precision})")
        limit = numerics.bound(kern.config.precision, K, getattr(type(kern.config), "TF32_TRUNCATES", False))
        if name not in NO_BOUND and e > limit:
            failures.append(f"K={K}: {e:.3g} over the {kern.config.precision} bound "
                            f"{limit:.3g} ({kern.strategy.name})")
        if name == "small integers" and K <= 1024 and mode in ("auto", "ieee", "tf32x3"):
            # every product and partial sum is an integer below 2^24: exact in any order
            if not bool((out == cub).all()):
                failures.append(f"K={K}: small integers not bit-equal to cuBLAS ({kern.strategy.name})")
    print(f"{mode} / {name}: {len(failures)} failures")
    assert not failures, "\n".join(failures)


def test_auto_is_ieee_below_tf32x3_min_k_and_tf32x3_above():
    from tiled_matmul.precision import TF32X3_MIN_K

    low = tm.kernel("auto").kernel_for(512, 512, TF32X3_MIN_K - 1)
    high = tm.kernel("auto").kernel_for(4096, 4096, 4096)
    assert low.config.precision == "ieee"
    assert high.config.precision == "tf32x3"


def test_exact64_widens_every_float32_bit_pattern_on_the_device():
    """numerics.exact64 widens float32 device arrays with its own bit-level kernel (CuPy's
    astype flushes subnormals): every pattern, subnormals, zeros of both signs, Inf and NaN
    included, must come out as the host's float64 conversion does (NaN as NaN), and float64
    arrays must come out as copies of themselves."""
    import cupy
    import numpy as np

    rng = np.random.default_rng(3)
    special = [0, 0x80000000, 1, 0x80000001, 0x7FFFFF, 0x807FFFFF, 0x800000, 0x7F7FFFFF, 0x7F800000,
               0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00123]
    bits = np.concatenate([rng.integers(0, 2**32, 1 << 20, dtype=np.uint64).astype(np.uint32),
                           np.array(special, dtype=np.uint32)])
    got = numerics.exact64(cupy.asarray(bits).view(cupy.float32)).get()
    ref = bits.view(np.float32).astype(np.float64)
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint64), ref[~nan].view(np.uint64))
    assert (got[np.isin(bits, [1, 0x7FFFFF])] > 0).all()  # subnormals kept, not flushed
    # a strided view (every other element of a transposed matrix) widens element by element
    grid = cupy.asarray(bits[: 1 << 16]).view(cupy.float32).reshape(256, 256).T[:, ::2]
    wide = numerics.exact64(grid).get()
    host = bits[: 1 << 16].view(np.float32).reshape(256, 256).T[:, ::2].astype(np.float64)
    assert wide.shape == host.shape and np.array_equal(np.isnan(wide), np.isnan(host))
    assert np.array_equal(wide[~np.isnan(host)], host[~np.isnan(host)])
    x64 = cupy.asarray(rng.standard_normal(1000))
    y = numerics.exact64(x64)
    assert y is not x64 and bool((y == x64).all())
