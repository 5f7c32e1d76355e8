"""GPU checks (marked `gpu`) of `auto`'s narrow wgmma tiles (dispatch.narrowed: the tile height bm
lowered to a skinny output's M, 24-56 rows from 64-row tiles, 72-120 from 128-row ones), of A·x
products computed as their transpose (dispatch.AX_TRANSPOSED: C^T = B^T A^T on a narrowed tile;
AX_TRANSPOSED_WIDE: on the split-K rung's 128-row tile,
both operands read in place column-major, C^T copied into C), and of x·B products with 17-64 rows
that `auto` hands from the GEMV chunks or wgmma_tma_tf32's 128-row tiles to the narrowed wgmma
rungs or 64 x 128 TMA tiles (dispatch.xb_choice).

Each call writes a NaN-poisoned output and is checked against a float64 reference: normwise
(tm.check), and per element against the tf32x3 bound and twice cuBLAS FP32's own error (auto's
claim from K = 128, README "Numerics"). Ragged M and K, K not a multiple of 4 (rows of A off 16
bytes: element copies), a fresh result and `out=`, NaN/Inf like cupy.matmul, bit-identical
reruns, and the general path (a batch, an epilogue), which runs the shape's own pick.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import dispatch, numerics
from tiled_matmul.api import TransposedKernel

from .conftest import assert_same_nonfinite, poisoned

pytestmark = pytest.mark.gpu

#: A·x shapes auto computes as their transpose: N from 17 to 64, M and K ragged, A >= 2^24 elements;
#: the last three 97, 125 and 80 columns (dispatch.AX_TRANSPOSED_WIDE, K % 4: the split-K rung's
#: 128-row tile, wgmma's 96-row one)
TRANSPOSED = [(16337, 20, 1807), (4099, 17, 4111), (4097, 33, 4099), (8191, 48, 2053), (2000, 24, 8389),
              (5003, 40, 3355), (9001, 57, 2053), (4103, 64, 4097), (4056, 50, 4468), (17003, 97, 1031),
              (20011, 125, 1001), (18149, 80, 1013)]
#: x·B shapes whose wgmma pick auto narrows (bm under 64)
NARROW = [(17, 4096, 2617), (40, 2048, 4099), (33, 1000, 5003), (24, 3000, 1031), (48, 1027, 4096)]
#: x·B shapes whose 128-row split-K pick auto cuts to 72-120 rows
WIDE = [(80, 3172, 3012), (113, 3660, 7909), (72, 8192, 1031), (65, 2048, 4097), (100, 6000, 6000)]
#: x·B shapes dispatch.xb_choice moves, and the rung each goes to: 17-32 rows over a large B (the
#: chunks' and wgmma_tma_tf32's picks before) to a narrowed wgmma rung; 33-64 rows on a wide B
#: to wgmma_tma_tf32 64 x 128 (ragged K included: A copied), or with B's rows ragged to a
#: narrowed wgmma rung
XB_MOVED = [((28, 19244, 1036), "narrow"), ((17, 20000, 1028), "narrow"), ((31, 12000, 2000), "narrow"),
            ((37, 17004, 1031), "tma64"), ((63, 16056, 2028), "tma64"), ((48, 18707, 2051), "narrow")]


def _operands(gen, M, N, K):
    a = gen.uniform(-1, 1, (M, K)).astype(np.float32)
    b = gen.uniform(-1, 1, (K, N)).astype(np.float32)
    return a, b


def _assert_accurate(out, a, b, what):
    rep = tm.check(out, a, b)
    K = a.shape[1]
    assert rep.passed, (what, rep)
    assert rep.comp_err <= numerics.bound("tf32x3", K), (what, rep)
    assert rep.comp_err <= 2 * rep.cublas_comp_err, (what, rep)


def _assert_accurate_twice(shape, what):
    """auto's product of fresh operands of `shape` into a NaN-poisoned C is accurate, and a second
    call gives the same bits (split-K picks included)."""
    import cupy as cp

    M, N, K = shape
    a, b = _operands(cp.random.default_rng(M + N + K), M, N, K)
    out = poisoned((M, N), np.float32)
    tm.matmul(a, b, out=out)
    _assert_accurate(out, a, b, (shape, what))
    again = poisoned((M, N), np.float32)
    tm.matmul(a, b, out=again)
    assert cp.array_equal(again, out), shape


@pytest.mark.parametrize("shape", TRANSPOSED, ids=["x".join(map(str, s)) for s in TRANSPOSED])
def test_a_x_runs_transposed_and_correct(shape):
    import cupy as cp

    M, N, K = shape
    kern = tm.kernel("auto").kernel_for(M, N, K, "float32")
    assert isinstance(kern, TransposedKernel), kern
    bm = kern.inner.config.bm
    assert bm == (-(-N // 8) * 8 if N <= dispatch.AX_NARROW_MAX else 64) if N <= 64 else bm >= N, kern
    gen = cp.random.default_rng(M + N + K)
    a, b = _operands(gen, M, N, K)
    out = poisoned((M, N), np.float32)
    assert tm.matmul(a, b, out=out) is out
    _assert_accurate(out, a, b, (shape, kern))
    fresh = tm.matmul(a, b)
    assert fresh.shape == (M, N) and fresh.flags.c_contiguous
    assert cp.array_equal(fresh, out), shape  # the same kernels: the same bits
    again = poisoned((M, N), np.float32)
    tm.matmul(a, b, out=again)
    assert cp.array_equal(again, out), shape  # deterministic (split-K picks included)


@pytest.mark.parametrize("shape", NARROW, ids=["x".join(map(str, s)) for s in NARROW])
def test_x_b_runs_a_narrow_tile_and_correct(shape):
    choice = dispatch.choose(*shape, "float32")
    assert choice.strategy in dispatch.NARROW_RUNGS and choice.params.get("bm", 128) < 64, choice
    _assert_accurate_twice(shape, choice)


@pytest.mark.parametrize("shape", WIDE, ids=["x".join(map(str, s)) for s in WIDE])
def test_x_b_runs_a_cut_128_row_tile_and_correct(shape):
    choice = dispatch.choose(*shape, "float32")
    assert choice.strategy in dispatch.NARROW_RUNGS and choice.params.get("bm") == -(-shape[0] // 8) * 8, choice
    _assert_accurate_twice(shape, choice)


@pytest.mark.parametrize("shape,where", XB_MOVED, ids=["x".join(map(str, s)) for s, _ in XB_MOVED])
def test_x_b_moved_off_chunks_and_tall_tma_tiles_correct(shape, where):
    choice = dispatch.choose(*shape, "float32")
    if where == "narrow":
        assert choice.strategy in dispatch.NARROW_RUNGS and choice.params.get("bm", 64) < 64, choice
    else:
        assert (choice.strategy, choice.params) == ("wgmma_tma_tf32", dispatch.XB_TMA64), choice
    _assert_accurate_twice(shape, choice)


def test_nan_and_inf_propagate_like_cupy_matmul(rng):
    import cupy as cp

    for M, N, K in [(4099, 17, 4111), (4097, 33, 4099), (4103, 64, 4097), (37, 17004, 1031), (17, 20000, 1028)]:
        if N < M:
            assert isinstance(tm.kernel("auto").kernel_for(M, N, K, "float32"), TransposedKernel)
        a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(np.float32))
        b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(np.float32))
        a[M - 1, K - 1] = np.inf      # the last row and column: the ragged edges of both tiles
        a[3, :] = 0.0
        b[5, N - 1] = np.inf          # 0 * Inf in row 3: NaN
        a[3, 5] = 0.0
        b[K // 2, 0] = np.nan
        a[M // 2, 7] = -np.inf
        ref = cp.matmul(a, b)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, out=out)
        assert_same_nonfinite(out, ref)
        assert int(cp.isnan(ref).sum()) > 0 and int(cp.isinf(ref).sum()) > 0


def test_transposed_shapes_on_the_general_path():
    """A batch, a gemm epilogue and host operands of a transposed shape run its own pick (the
    general path), each as accurate as the transposed call."""
    import cupy as cp

    M, N, K = 4099, 20, 4111
    gen = cp.random.default_rng(7)
    a, b = _operands(gen, M, N, K)
    bias = gen.uniform(-1, 1, (N,)).astype(np.float32)
    got = tm.gemm(a, b, bias=bias, alpha=2.0)
    _assert_accurate((got - bias) / 2.0, a, b, "gemm")  # exact steps back (a power of two), up to bias's rounding
    stack = tm.matmul(cp.stack([a, a]), b)
    for i in range(2):
        _assert_accurate(stack[i], a, b, ("batch", i))
    host = tm.matmul(cp.asnumpy(a), cp.asnumpy(b))
    assert isinstance(host, np.ndarray)
    _assert_accurate(host, a, b, "host")
