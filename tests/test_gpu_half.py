"""float16 and bfloat16 on the GPU (marked `gpu`): every half-capable strategy against a float64
reference and against cuBLAS in the same run.

Tolerances (tiled_matmul.numerics.half_bound): the reference is the exact float64 product of the
16-bit inputs; each product of 16-bit operands is exact in float32, the FP32 accumulator adds at
most (K - 1) float32 ulps of the running sum (<= K 2^-23 |A||B|), and the result is rounded once to
its dtype (u = 2^-11 float16, 2^-8 bfloat16, 2^-24 float32). So the componentwise error
max |C - AB| / (|A||B|) must stay below u + K 2^-23. cuBLAS's half GEMMs (FP32 compute) do the
same: both round an FP32 sum of the same exact products once, and differ only where the two
summation orders put the sum on either side of a rounding boundary, so ours must also stay within
2x cuBLAS's error (+2^-24 for a cuBLAS result that happens to be exact). A float32 result
(out_dtype=float32) is held to its bound only: the tensor cores' FP32 sums are not cuBLAS
SGEMM's FFMA sums (its ratio is printed).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import heuristic, numerics

pytestmark = pytest.mark.gpu

# the half rungs that take any operands with their default config (wgmma_tma writes a float32 C on
# its out_bits=32 configs only; it has its own tests: tests/test_gpu_wgmma_tma*.py)
HALF = [n for n, e in tm.STRATEGIES.items() if (e.supports("float16") or e.supports("bfloat16"))
        and "batch" in e.config_cls.EXTRAS and n != "wgmma_tma"]
DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
SIZES = [1, 2, 7, 33, 127, 129, 1000]
SHAPES = ([(s, s, s) for s in SIZES]
          + [(1000, 700, 1300), (129, 7, 1000), (3, 1000, 129), (257, 1, 1000), (33, 65, 1), (2, 4100, 64)]
          + [(0, 5, 7), (5, 0, 7), (5, 7, 0), (0, 0, 0)])
#: the shapes every search-space config runs (the default config runs all of SHAPES)
CONFIG_SHAPES = [(1, 1, 1), (127, 129, 33), (129, 127, 1000), (1000, 700, 1300), (7, 300, 5)]


def _host(M, N, K, dt, rng):
    """16-bit host operands uniform in [-1, 1), and (their exact float64 product, |A||B|)."""
    a = rng.uniform(-1, 1, (M, K)).astype(dt)
    b = rng.uniform(-1, 1, (K, N)).astype(dt)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return a, b, a64 @ b64, np.abs(a64) @ np.abs(b64)


def _comp(c, a, b, ref, den) -> float:
    import cupy as cp

    return numerics.componentwise_error(cp.asnumpy(c), a, b, ref, den, numerics.UNDERFLOW_FLOOR[str(c.dtype)])


def _poisoned(shape, dt):
    import cupy as cp

    return numerics.poison(cp.empty(shape, dt))


def _compare(name, params, dtype, shapes, rng, failures):
    import cupy as cp

    dt = DTYPES[dtype]
    k = tm.kernel(name, **params)
    for M, N, K in shapes:
        a, b, ref, den = _host(M, N, K, dt, rng)
        da, db = cp.asarray(a), cp.asarray(b)
        out = _poisoned((M, N), dt)
        assert k(da, db, out=out) is out
        if M * N == 0:
            continue
        got = cp.asnumpy(out).astype(np.float64)
        if not np.isfinite(got).all():
            failures.append(f"{name} {params} {dtype} {(M, N, K)}: {int((~np.isfinite(got)).sum())} non-finite "
                            "outputs (unwritten NaN poison?)")
            continue
        cub, which = numerics.cublas_matmul(da, db)
        e, e_cub = _comp(out, a, b, ref, den), _comp(cub, a, b, ref, den)
        bound = numerics.half_bound(dtype, K)
        print(f"{name} {dtype} {(M, N, K)}: comp err {e:.3g}, cuBLAS {e_cub:.3g} ({which}), bound {bound:.3g}")
        if e > bound:
            failures.append(f"{name} {params} {dtype} {(M, N, K)}: comp err {e:.3g} > bound {bound:.3g}")
        if e > 2 * e_cub + 2.0 ** -24:
            failures.append(f"{name} {params} {dtype} {(M, N, K)}: comp err {e:.3g} > 2 x cuBLAS {e_cub:.3g} ({which})")


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", HALF)
def test_ragged_shapes_default_config(name, dtype, rng):
    failures: list[str] = []
    _compare(name, {}, dtype, SHAPES, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", HALF)
def test_every_config(name, dtype, rng):
    failures: list[str] = []
    for cfg in tm.STRATEGIES[name].search_space:
        _compare(name, cfg.params(), dtype, CONFIG_SHAPES, rng, failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_runs_half_products(dtype, rng):
    import cupy as cp

    dt = DTYPES[dtype]
    # (the last five: wgmma_tma's 128 x 128 tile under half a wave, aligned or not, and mma_half
    # where C's rows need padding and K is short)
    for M, N, K in [(1, 4096, 512), (300, 200, 500), (2048, 2048, 256), (4097, 33, 100), (300, 300, 256),
                    (239, 82, 258), (512, 512, 384), (1265, 51, 137), (2110, 663, 1000)]:
        a, b, ref, den = _host(M, N, K, dt, rng)
        c = tm.matmul(cp.asarray(a), cp.asarray(b))  # the fast path: plain 2-D cupy arrays
        assert c.dtype == dt and c.shape == (M, N)
        assert _comp(c, a, b, ref, den) <= numerics.half_bound(dtype, K), (M, N, K)
        assert tm.kernel("auto").kernel_for(M, N, K, dtype).strategy.name in heuristic.HALF_PICKS
    report = tm.check(c, cp.asarray(a), cp.asarray(b))
    print(report)
    assert report.passed and report.comp_err <= report.comp_bound, report


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_takes_tma_for_a_large_unaligned_c_from_the_pad_limit(dtype, rng):
    """C's rows not 16-byte aligned, K short: wgmma_tma (A and B copied to padded rows, C through its
    shared-memory tile) from K = HALF_TMA_PAD_MIN_K on a C of HALF_TMA_PAD_FILL waves; mma_half below."""
    K = heuristic.HALF_TMA_PAD_MIN_K
    check_auto_picks(dtype, [(1300, 1700, K, "wgmma_tma"), (1301, 1699, K + 59, "wgmma_tma"),
                             (1300, 1700, K - 1, "mma_half")], rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", HALF)
def test_out_dtype_float32(name, dtype, rng):
    import cupy as cp

    from tiled_matmul.measure import cublas_compute_type

    dt = DTYPES[dtype]
    for M, N, K in [(1, 1, 1), (33, 127, 129), (1000, 700, 1300), (5, 7, 0)]:
        a, b, ref, den = _host(M, N, K, dt, rng)
        da, db = cp.asarray(a), cp.asarray(b)
        out = cp.full((M, N), cp.nan, cp.float32)
        assert tm.matmul(da, db, name, out=out, out_dtype=np.float32) is out
        fresh = tm.matmul(da, db, name, out_dtype=np.float32)
        assert fresh.dtype == np.float32 and bool(cp.array_equal(fresh, out))
        if K == 0:
            assert not bool(out.any())
            continue
        with cublas_compute_type("fp32"):
            sgemm, which = numerics.cublas_matmul(da, db, np.float32)
        e, e_cub = _comp(out, a, b, ref, den), _comp(sgemm, a, b, ref, den)
        bound = numerics.half_bound(dtype, K, np.float32)
        print(f"{name} {dtype}->float32 {(M, N, K)}: comp err {e:.3g}, {which} {e_cub:.3g} "
              f"({e / e_cub if e_cub else float('inf'):.2f}x), bound {bound:.3g}")
        assert e <= bound, (M, N, K, e, bound)
        # a 16-bit result is the float32 one rounded once (to nearest): ours agree exactly
        half = tm.matmul(da, db, name)
        f32 = cp.asnumpy(out).astype(dt)
        assert np.array_equal(cp.asnumpy(half).view(np.uint16), f32.view(np.uint16)), (M, N, K)


def _scatter(a, b, rng):
    """NaN, +Inf and -Inf in A and B (host arrays), each next to zeros (0 x Inf = NaN)."""
    for x in (a, b):
        flat = x.reshape(-1)
        idx = rng.choice(flat.size, size=min(flat.size, max(3, flat.size // 500)), replace=False)
        flat[idx[0::4]] = np.nan
        flat[idx[1::4]] = np.inf
        flat[idx[2::4]] = -np.inf
        flat[idx[3::4]] = 0


def check_auto_picks(dtype, cases, rng):
    """For each (M, N, K, name) of `cases`: `auto` picks rung `name`, and tm.matmul's result in the
    inputs' dtype is within numerics.half_bound of the exact product."""
    import cupy as cp

    dt = DTYPES[dtype]
    for M, N, K, name in cases:
        assert tm.kernel("auto").kernel_for(M, N, K, dtype).strategy.name == name, (M, N, K)
        a, b, ref, den = _host(M, N, K, dt, rng)
        c = tm.matmul(cp.asarray(a), cp.asarray(b))
        err = numerics.componentwise_error(cp.asnumpy(c), a, b, ref, den, numerics.UNDERFLOW_FLOOR[str(c.dtype)])
        assert c.dtype == dt and err <= numerics.half_bound(dtype, K), (M, N, K, err)


def check_float32_out(dtype, M, N, K, rng):
    """tm.matmul with a float32 C (an extra the plain-only rungs lack: auto gives the call to a
    tensor-core tile rung) is within the float32-output bound; returns the device operands."""
    import cupy as cp

    a, b, ref, den = _host(M, N, K, DTYPES[dtype], rng)
    da, db = cp.asarray(a), cp.asarray(b)
    c32 = tm.matmul(da, db, out_dtype=np.float32)
    err = numerics.componentwise_error(cp.asnumpy(c32), a, b, ref, den, numerics.UNDERFLOW_FLOOR["float32"])
    assert c32.dtype == np.float32 and err <= numerics.half_bound(dtype, K, np.float32), err
    return da, db


def check_repeats_bit_identical(k, M, N, K, dtype, rng):
    """Three calls of kernel `k` on the same fresh 16-bit inputs (one into a poisoned output) give
    the same bits."""
    import cupy as cp

    a, b, _, _ = _host(M, N, K, DTYPES[dtype], rng)
    da, db = cp.asarray(a), cp.asarray(b)
    c1 = k(da, db)
    out = _poisoned((M, N), DTYPES[dtype])
    k(da, db, out=out)
    bits = lambda x: x.view(np.uint16)  # noqa: E731
    assert bool((bits(c1) == bits(out)).all()) and bool((bits(c1) == bits(k(da, db))).all()), (k, M, N, K)


def check_nonfinite_like_cublas(call, dtype, shapes, overflow, rng):
    """`call(da, db, out)` puts NaN, Inf and -Inf (scattered next to zeros) where cuBLAS does, on each
    of `shapes`; on `overflow` (M, N, K), operands of +-250 (no NaN) whose sums overflow float16 and
    not bfloat16: Inf exactly where cuBLAS has it, and at every output in float16 only."""
    import cupy as cp

    dt = DTYPES[dtype]
    for M, N, K in [*shapes, overflow]:
        a, b, _, _ = _host(M, N, K, dt, rng)
        if (M, N, K) == overflow:
            a[:] = dt.type(250.0)
            b[:] = dt.type(250.0)
            b[:, ::2] = dt.type(-250.0)
        else:
            _scatter(a, b, rng)
        da, db = cp.asarray(a), cp.asarray(b)
        out = _poisoned((M, N), dt) if (M, N, K) != overflow else cp.zeros((M, N), dt)
        call(da, db, out)
        cub, which = numerics.cublas_matmul(da, db)
        ours, theirs = (numerics.nonfinite_mask(cp.asnumpy(x).astype(np.float64)) for x in (out, cub))
        assert np.array_equal(ours, theirs), (dtype, (M, N, K), which, int((ours != theirs).sum()))
        if (M, N, K) == overflow:
            assert bool((ours != 0).all()) == (dtype == "float16")


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", HALF)
def test_nan_inf_and_overflow_propagate_like_cublas(name, dtype, rng):
    check_nonfinite_like_cublas(lambda a, b, out: tm.matmul(a, b, name, out=out), dtype,
                                [(33, 65, 17), (129, 1, 257), (1, 1, 1), (200, 300, 400)], (64, 64, 8), rng)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("name", HALF)
def test_gemm_bias_relu_and_accumulate(name, dtype, rng):
    import cupy as cp

    dt = DTYPES[dtype]
    for M, N, K in [(1, 1, 1), (129, 33, 700), (300, 257, 64)]:
        a, b, ref, den = _host(M, N, K, dt, rng)
        bias = rng.uniform(-1, 1, N).astype(np.float32)
        out = _poisoned((M, N), dt)
        tm.gemm(cp.asarray(a), cp.asarray(b), bias=cp.asarray(bias), activation="relu", out=out, strategy=name)
        want = np.maximum(ref + bias.astype(np.float64), 0.0)
        scale = den + np.abs(bias.astype(np.float64))
        err = np.abs(cp.asnumpy(out).astype(np.float64) - want)
        bound = numerics.half_bound(dtype, K) * scale + numerics.UNDERFLOW_FLOOR[dtype]
        assert (err <= bound).all(), (name, dtype, (M, N, K), float((err / bound).max()))
        # in-place float32 accumulate from 16-bit inputs: c = 0.5 a @ b + c
        c0 = rng.uniform(-1, 1, (M, N)).astype(np.float32)
        c = cp.asarray(c0)
        ptr = c.data.ptr
        r = tm.gemm(cp.asarray(a), cp.asarray(b), c, alpha=0.5, beta=1.0, out=c, out_dtype=np.float32, strategy=name)
        assert r is c and c.data.ptr == ptr
        want = 0.5 * ref + c0.astype(np.float64)
        err = np.abs(cp.asnumpy(c).astype(np.float64) - want)
        bound = numerics.half_bound(dtype, K, np.float32) * (0.5 * den + np.abs(c0))
        assert (err <= bound).all(), (name, dtype, (M, N, K), float((err / bound).max()))


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_batched_and_mixed_dtypes(dtype, rng):
    import cupy as cp

    dt = DTYPES[dtype]
    a = rng.uniform(-1, 1, (3, 40, 70)).astype(dt)
    b = rng.uniform(-1, 1, (70, 50)).astype(dt)
    out = _poisoned((3, 40, 50), dt)
    tm.matmul(cp.asarray(a), cp.asarray(b), out=out)  # a broadcast B against stacked A
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    err = np.abs(cp.asnumpy(out).astype(np.float64) - a64 @ b64)
    assert (err <= numerics.half_bound(dtype, 70) * (np.abs(a64) @ np.abs(b64))).all()
    # 16-bit with float32: numpy's promotion, float32 kernels
    b32 = rng.uniform(-1, 1, (70, 50)).astype(np.float32)
    c = tm.matmul(cp.asarray(a[0]), cp.asarray(b32))
    assert c.dtype == np.float32
    assert tm.check(c, cp.asarray(a[0].astype(np.float32)), cp.asarray(b32)).passed
    if dtype == "bfloat16":  # bfloat16 with float16: float32 (no common 16-bit type)
        c = tm.matmul(cp.asarray(a[0]), cp.asarray(b.astype(np.float32).astype(np.float16)))
        assert c.dtype == np.float32


def test_torch_half_tensors_in_and_out(rng):
    torch = pytest.importorskip("torch", reason="torch is not installed: torch bfloat16/float16 tensors untested")
    if not torch.cuda.is_available():
        pytest.skip("torch cannot see a CUDA device")
    import cupy as cp

    for tdt, dtype in ((torch.bfloat16, "bfloat16"), (torch.float16, "float16")):
        ta = torch.rand(67, 45, device="cuda", dtype=tdt) * 2 - 1
        tb = torch.rand(45, 93, device="cuda", dtype=tdt) * 2 - 1
        c = tm.matmul(ta, tb)
        assert isinstance(c, cp.ndarray) and c.dtype == DTYPES[dtype] and c.shape == (67, 93)
        a, b = (cp.asnumpy(cp.from_dlpack(t)) for t in (ta, tb))
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        assert _comp(c, a, b, a64 @ b64, np.abs(a64) @ np.abs(b64)) <= numerics.half_bound(dtype, 45)
        out = torch.full((67, 93), float("nan"), device="cuda", dtype=tdt)
        assert tm.matmul(ta, tb, out=out) is out  # the caller's tensor, written in place
        assert torch.equal(out, torch.from_dlpack(c))
        out32 = torch.full((67, 93), float("nan"), device="cuda", dtype=torch.float32)
        assert tm.matmul(ta, tb, out=out32, out_dtype=np.float32) is out32
        assert torch.equal(out32.to(tdt), out)  # rounding the float32 result gives the 16-bit one


def test_cublas_reference_for_bfloat16_is_named(rng):
    """Which library serves as cuBLAS for bfloat16 here (cupy.matmul, or torch.matmul where CuPy
    has none): printed for the record."""
    import cupy as cp

    from tiled_matmul.measure import bf16_cublas

    a = cp.asarray(rng.uniform(-1, 1, (16, 16)).astype(DTYPES["bfloat16"]))
    _, which = numerics.cublas_matmul(a, a)
    print(f"bfloat16 cuBLAS reference: {which}; bench uses {bf16_cublas()}")
    assert "cuBLAS" in which
