"""GPU tests of gemm epilogues, batches and numpy.matmul semantics (marked `gpu`).

References are float64 (numpy on the host), outputs are poisoned with NaN before each launch, and
errors are judged per element against |alpha|·(|A|·|B|) + |beta|·|C| + |bias| (what rounding can
touch), with the tolerance of tm.tolerance for the dtype and K.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute, heuristic

from .conftest import GENERAL, poisoned

pytestmark = pytest.mark.gpu

ACTS = {
    None: lambda x: x,
    "relu": lambda x: np.where(x < 0, 0.0, x),
    "gelu": lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
    "gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
}


def _rand(rng, shape, dtype):
    return rng.uniform(-1, 1, shape).astype(dtype)


def assert_close(c, ref, scale, dtype, K, what):
    """|c - ref| <= 2 tol(dtype, K) * scale + 16 eps |ref| elementwise, no NaN where ref has none."""
    import cupy as cp

    import ml_dtypes  # its finfo knows bfloat16, which numpy >= 2.5's finfo refuses

    c = cp.asnumpy(c).astype(np.float64)
    assert c.shape == ref.shape, (what, c.shape, ref.shape)
    eps = float(ml_dtypes.finfo(dtype).eps)
    bound = 2 * tm.tolerance(dtype, K) * scale + 16 * eps * np.abs(ref) + 1e-30
    err = np.abs(c - ref)
    bad = ~(err <= bound)
    assert not bad.any(), f"{what}: {int(bad.sum())} elements off, worst {float(np.nanmax(err / bound))}x the bound"
    norm = np.linalg.norm(c - ref) / max(np.linalg.norm(scale), 1e-30)
    assert norm <= tm.tolerance(dtype, K), (what, norm)


def unfused(a, b, alpha=1.0, beta=0.0, c=None, bias=None, bias_axis=1, activation=None):
    """(reference in float64, the error scale) of gemm's formula, by numpy."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = alpha * np.matmul(a64, b64)
    scale = abs(alpha) * np.matmul(np.abs(a64), np.abs(b64))
    if beta:
        ref = ref + beta * c.astype(np.float64)
        scale = scale + abs(beta) * np.abs(c.astype(np.float64))
    if bias is not None:
        bb = bias.astype(np.float64)
        ref = ref + (bb[:, None] if bias_axis == 0 else bb)
        scale = scale + np.abs(bb[:, None] if bias_axis == 0 else bb)
    return ACTS[activation](ref), scale


#: (strategy, dtype, (M, N, K)) cases: every strategy with epilogue hooks (GENERAL), its dtypes, shapes that are ragged and, for
#: the split rungs, long enough in K that they slice it (the epilogue then runs in the reduce)
SHAPES = [(1, 1, 1), (7, 33, 129), (129, 127, 31), (2, 4100, 8192), (33, 2, 4096), (64, 64, 4096)]
CASES = [(n, dt, s) for n in GENERAL for dt in ("float32", "float64") if tm.STRATEGIES[n].supports(dt)
         for s in SHAPES]


@pytest.mark.parametrize("name,dtype,shape", CASES, ids=[f"{n}-{d}-{'x'.join(map(str, s))}" for n, d, s in CASES])
def test_epilogue_every_strategy(name, dtype, shape, rng):
    import cupy as cp

    M, N, K = shape
    a, b = _rand(rng, (M, K), dtype), _rand(rng, (K, N), dtype)
    c, bias = _rand(rng, (M, N), dtype), _rand(rng, N, np.float32)  # bias of another dtype: converted
    for i, act in enumerate(ACTS):
        alpha, beta = (0.5, -1.5) if i % 2 else (1.0, 0.0)
        out = poisoned((M, N), dtype)
        r = tm.gemm(cp.asarray(a), cp.asarray(b), cp.asarray(c), alpha=alpha, beta=beta, bias=cp.asarray(bias),
                    activation=act, out=out, strategy=name)
        assert r is out
        ref, scale = unfused(a, b, alpha, beta, c, bias, 1, act)
        assert_close(out, ref, scale, dtype, K, f"{name} {shape} {act} alpha={alpha} beta={beta}")


@pytest.mark.parametrize("name", GENERAL)
def test_batched_every_strategy(name, rng):
    """A batch of independent matrices (and a broadcast one) in every template, with a row bias and a
    user expression (so nothing folds into one 2-D product)."""
    import cupy as cp

    dt = tm.STRATEGIES[name].default_dtype.numpy
    for (Ba, Bb), (M, N, K) in [((3, 3), (17, 33, 65)), ((4, 1), (2, 300, 1024)), ((1, 5), (40, 3, 700))]:
        a, b = _rand(rng, (Ba, M, K), dt), _rand(rng, (Bb, K, N), dt)
        bias, s = _rand(rng, M, dt), _rand(rng, N, dt if dt.itemsize >= 4 else np.float32)  # extra arrays: 32/64-bit
        out = poisoned((max(Ba, Bb), M, N), dt)
        tm.gemm(cp.asarray(a), cp.asarray(b), bias=cp.asarray(bias), bias_axis=0, epilogue="acc * s[j]",
                s=cp.asarray(s), out=out, strategy=name)
        ref, scale = unfused(a, b, bias=bias, bias_axis=0)
        assert_close(out, ref * s, scale * np.abs(s) + 1e-30, dt, K, f"{name} batched {a.shape} @ {b.shape}")
        plain = tm.matmul(cp.asarray(a), cp.asarray(b), strategy=name)
        ref, scale = unfused(a, b)
        assert_close(plain, ref, scale, dt, K, f"{name} batched matmul {a.shape} @ {b.shape}")


def test_user_expression_with_int_arrays(rng):
    import cupy as cp

    M, N, K = 37, 45, 70
    a, b = _rand(rng, (M, K), np.float32), _rand(rng, (K, N), np.float32)
    scale, shift = _rand(rng, N, np.float32), rng.integers(-3, 3, M).astype(np.int32)
    out = tm.gemm(cp.asarray(a), cp.asarray(b), epilogue="(i == j ? 2.0f : 1.0f) * acc * scale[j] + shift[i]",
                  scale=cp.asarray(scale), shift=cp.asarray(shift))
    ref, sc = unfused(a, b)
    diag = np.where(np.arange(M)[:, None] == np.arange(N)[None, :], 2.0, 1.0)
    assert_close(out, diag * ref * scale + shift[:, None], 2 * sc * np.abs(scale), np.float32, K, "expression")


def test_in_place_accumulate(rng):
    import cupy as cp

    M, N, K = 300, 200, 500
    a, b, c0 = _rand(rng, (M, K), np.float32), _rand(rng, (K, N), np.float32), _rand(rng, (M, N), np.float32)
    c = cp.asarray(c0)
    ptr = c.data.ptr
    r = tm.gemm(cp.asarray(a), cp.asarray(b), c, beta=1.0, out=c)
    assert r is c and c.data.ptr == ptr
    ref, scale = unfused(a, b, beta=1.0, c=c0)
    assert_close(c, ref, scale, np.float32, K, "c += a @ b")
    for name in ("split_k", "gemv_xb", "wgmma_split_k", "naive"):  # the reduce reads c and writes it
        if not tm.STRATEGIES[name].runs_on():
            continue
        c = cp.asarray(c0)
        tm.gemm(cp.asarray(a[:4]), cp.asarray(b), c[:4], beta=1.0, out=c[:4], strategy=name)
        ref, scale = unfused(a[:4], b, beta=1.0, c=c0[:4])
        assert_close(c[:4], ref, scale, np.float32, K, f"{name} in place")


def test_beta_zero_does_not_read_c(rng):
    import cupy as cp

    a, b = cp.asarray(_rand(rng, (20, 30), np.float32)), cp.asarray(_rand(rng, (30, 40), np.float32))
    c = cp.full((20, 40), cp.nan, np.float32)
    assert not cp.isnan(tm.gemm(a, b, c, beta=0.0, alpha=2.0)).any()


def test_bad_call_writes_nothing(rng):
    import cupy as cp

    a, b = cp.asarray(_rand(rng, (4, 5), np.float32)), cp.asarray(_rand(rng, (5, 6), np.float32))
    out = poisoned((4, 6), np.float32)
    with pytest.raises(ValueError):
        tm.gemm(a, b, bias=cp.ones(5, np.float32), out=out)
    with pytest.raises(ValueError):
        tm.gemm(a, b, epilogue="acc; 1", out=out)
    assert bool(cp.isnan(out).all())


# -- numpy.matmul semantics against cupy.matmul ---------------------------------------------------
SEMANTIC_SHAPES = [
    ((3,), (3,)), ((3,), (3, 4)), ((2, 3), (3,)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
    ((2, 1, 3, 4), (5, 4, 6)), ((0, 2, 3), (3, 4)), ((2, 0, 3), (3, 4)), ((2, 3, 0), (2, 0, 4)),
    ((1, 1, 2, 3), (3,)), ((3,), (4, 3, 2)), ((7, 1, 33, 129), (1, 3, 129, 2)), ((64, 8, 64), (64, 64)),
]


@pytest.mark.parametrize("sa,sb", SEMANTIC_SHAPES)
@pytest.mark.parametrize("da,db", [("float32", "float32"), ("float64", "float32"), ("float16", "float32"),
                                   ("float64", "float64")])
def test_semantics_vs_cupy(sa, sb, da, db, rng):
    import cupy as cp

    a, b = _rand(rng, sa, da), _rand(rng, sb, db)
    got = tm.matmul(cp.asarray(a), cp.asarray(b))
    want = cp.matmul(cp.asarray(a), cp.asarray(b))
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    scale = np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)))
    assert_close(got, np.asarray(ref), np.asarray(scale), got.dtype, sa[-1], f"{sa} @ {sb}")
    host = tm.matmul(a, b)  # numpy in, numpy out
    assert isinstance(host, np.ndarray) and host.shape == want.shape


def test_strided_and_host_out(rng):
    import cupy as cp

    a, b = _rand(rng, (3, 5, 7), np.float32), _rand(rng, (7, 4), np.float32)
    big = cp.full((3, 5, 8), cp.nan, np.float32)
    out = big[:, :, ::2]
    assert tm.matmul(cp.asarray(a), cp.asarray(b), out=out) is out
    ref, scale = unfused(a, b)
    assert_close(out, ref, scale, np.float32, 7, "strided out")
    assert bool(cp.isnan(big[:, :, 1::2]).all())
    host_out = np.full((3, 5, 4), np.nan, np.float32)
    assert tm.matmul(a, b, out=host_out) is host_out
    assert_close(host_out, ref, scale, np.float32, 7, "host out")


def test_broadcast_weight_is_read_in_place_and_folded(rng, monkeypatch):
    """(B, M, K) @ (K, N): the shared weight is never copied, and the batch runs as one 2-D
    product of the stacked rows (the kernel receives the caller's pointers)."""
    import cupy as cp

    x, w = cp.asarray(_rand(rng, (8, 64, 128), np.float32)), cp.asarray(_rand(rng, (128, 96), np.float32))
    seen = []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    y = tm.matmul(x, w)
    assert seen == [(x.data.ptr, w.data.ptr, y.data.ptr, 8 * 64, 96, 128, 1)]
    seen.clear()
    xs = cp.asarray(_rand(rng, (8, 64, 128), np.float32))
    ws = cp.asarray(_rand(rng, (8, 128, 96), np.float32))
    y = tm.matmul(xs, ws)
    assert seen == [(xs.data.ptr, ws.data.ptr, y.data.ptr, 64, 96, 128, 8)]  # one launch, batch 8
    seen.clear()
    pool = cp.get_default_memory_pool()
    wb = cp.broadcast_to(w, (8, 128, 96))  # a stride-0 view: read in place, never materialised
    before = pool.used_bytes()
    y = tm.matmul(xs, wb)
    # the result is all the call allocates (the pool may reuse a block it just freed, hence <=);
    # a materialised weight would add 8 x its 48 KiB
    assert pool.used_bytes() - before <= y.nbytes
    # a stride-0 B against stacked A is folded into one 2-D product of the stacked rows
    assert seen == [(xs.data.ptr, w.data.ptr, y.data.ptr, 8 * 64, 96, 128, 1)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_both_column_major_read_in_place(dtype, rng, monkeypatch):
    """a.T @ b.T of row-major arrays (and Fortran-order operands): C = (B^T A^T)^T, no copy."""
    import cupy as cp

    a0, b0 = cp.asarray(_rand(rng, (70, 33), dtype)), cp.asarray(_rand(rng, (45, 70), dtype))
    seen = []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    got = tm.matmul(a0.T, b0.T)  # (33 x 70) @ (70 x 45)
    assert seen and seen[0][0] == b0.data.ptr and seen[0][1] == a0.data.ptr  # the callers' memory
    ref, scale = unfused(cp.asnumpy(a0).T, cp.asnumpy(b0).T)
    assert_close(got, ref, scale, dtype, 70, "a.T @ b.T")
    seen.clear()
    bias = cp.asarray(_rand(rng, 45, dtype))
    got = tm.gemm(a0, b0, trans_a=True, trans_b=True, bias=bias, activation="relu", alpha=2.0)
    assert seen[0][0] == b0.data.ptr and seen[0][1] == a0.data.ptr
    ref, scale = unfused(cp.asnumpy(a0).T, cp.asnumpy(b0).T, alpha=2.0, bias=cp.asnumpy(bias), activation="relu")
    assert_close(got, ref, scale, dtype, 70, "gemm trans_a trans_b bias relu")
    af, bf = cp.asfortranarray(a0.T), cp.asfortranarray(b0.T)
    seen.clear()
    got = tm.matmul(af, bf)
    assert seen[0][0] == bf.data.ptr and seen[0][1] == af.data.ptr
    assert_close(got, unfused(cp.asnumpy(af), cp.asnumpy(bf))[0], unfused(cp.asnumpy(af), cp.asnumpy(bf))[1], dtype,
                 70, "fortran")


#: the tiles whose C goes through shared memory where its rows are not 16-byte aligned (those whose
#: tile, or for register_blocked a slab of it, fits the pipeline's buffers): warp_tiled's 64 x 64 and
#: 32 x 32 tiles that `auto` gives it, split_k's 64 x 64 partial tiles, register_blocked's default
#: and 64 x 64 tiles, dmma's (misaligned-operand kernel) 32 x 32 and 128 x 64 tiles, mma_half's 32 x 32
#: and 64 x 64 tiles (16-bit and float32 C); against N that is not a multiple of 4 (float32), 2
#: (float64) or 8 (float16)
STAGED = {
    "warp_tiled-small-float32": ("warp_tiled", heuristic._SMALL, "float32"),
    "warp_tiled-small32-float32": ("warp_tiled", heuristic._SMALL32, "float32"),
    "warp_tiled-small-float64": ("warp_tiled", heuristic._SMALL, "float64"),
    "split_k-small-float32": ("split_k", dict(heuristic._SPLIT_SMALL, split_k=4), "float32"),
    "register_blocked-default-float32": ("register_blocked", {}, "float32"),
    "register_blocked-64x64-float64": ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4), "float64"),
    "dmma-32x32-float64": ("dmma", dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2), "float64"),
    "dmma-128x64-float64": ("dmma", dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2), "float64"),
    "mma_half-tiny-float16": ("mma_half", heuristic._HALF_TINY, "float16"),
    "mma_half-small-float16": ("mma_half", heuristic._HALF_SMALL, "float16"),
}


@pytest.mark.parametrize("name,params,dtype", STAGED.values(), ids=STAGED.keys())
def test_staged_store_of_unaligned_rows(name, params, dtype, rng):
    """Plain products, a fused epilogue (alpha, beta, column bias, activation), a batch and NaN/Inf
    from A, on shapes whose C rows are not 16-byte aligned, ragged tiles included."""
    import cupy as cp

    k = tm.kernel(name, **params)
    for M, N, K in [(1, 1, 1), (7, 33, 5), (129, 127, 31), (1000, 250, 8), (16068, 50, 8), (65, 129, 1),
                    (33, 3, 300), (200, 1001, 64)]:
        a, b = _rand(rng, (M, K), dtype), _rand(rng, (K, N), dtype)
        out = poisoned((M, N), dtype)
        k(cp.asarray(a), cp.asarray(b), out=out)
        ref, scale = unfused(a, b)
        assert_close(out, ref, scale, dtype, K, f"{name} {params} {(M, N, K)}")
        c, bias = _rand(rng, (M, N), dtype), _rand(rng, N, dtype)
        out = poisoned((M, N), dtype)
        k.gemm(cp.asarray(a), cp.asarray(b), cp.asarray(c), alpha=0.5, beta=-1.5, bias=cp.asarray(bias),
               activation="gelu", out=out)
        ref, scale = unfused(a, b, 0.5, -1.5, c, bias, 1, "gelu")
        assert_close(out, ref, scale, dtype, K, f"{name} {params} {(M, N, K)} epilogue")
    a, b = _rand(rng, (3, 45, 70), dtype), _rand(rng, (3, 70, 37), dtype)
    out = k(cp.asarray(a), cp.asarray(b))
    ref, scale = unfused(a, b)
    assert_close(out, ref, scale, dtype, 70, f"{name} {params} batch")
    if dtype == "float16":  # float32 C from 16-bit inputs: the staged store without the rounding
        a, b = _rand(rng, (1000, 8), dtype), _rand(rng, (8, 250), dtype)
        out = k(cp.asarray(a), cp.asarray(b), out_dtype=np.float32)
        assert out.dtype == np.float32
        ref, scale = unfused(a, b)
        assert_close(out, ref, scale, np.float32, 8, f"{name} {params} float32 C")
    a, b = _rand(rng, (70, 20), dtype), _rand(rng, (20, 45), dtype)
    a[3, 7], a[10, 0] = np.nan, np.inf
    got, want = cp.asnumpy(k(cp.asarray(a), cp.asarray(b))), cp.asnumpy(cp.matmul(cp.asarray(a), cp.asarray(b)))
    assert np.array_equal(np.isnan(got), np.isnan(want)) and np.array_equal(np.isinf(got), np.isinf(want))
