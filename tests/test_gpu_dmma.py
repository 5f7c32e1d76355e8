"""dmma on the GPU (marked `gpu`; off Hopper the conftest hook skips it, saying why): every config on
ragged, zero-size and unaligned shapes; bit-exact on integer data; error per element within 4x
cuBLAS's of the same run, against a compensated (double-double) reference; NaN and Inf as in
cupy.matmul."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.operands import launch_flags

from .conftest import assert_same_nonfinite, poisoned, random_pair, scatter_nonfinite

pytestmark = pytest.mark.gpu

ENTRY = tm.STRATEGIES["dmma"]
#: (name, config): the `name` parameter lets conftest skip these off Hopper, with the reason
CASES = [("dmma", cfg) for cfg in ENTRY.configs]
IDS = [cfg.tag() for _, cfg in CASES]
EPS = float(np.finfo(np.float64).eps)

RAGGED = [1, 2, 15, 16, 17, 31, 33, 127, 129]
SHAPES = (
    [(s, s, s) for s in RAGGED]
    + [(s, 37, 53) for s in RAGGED[::2]]
    + [(45, s, 29) for s in RAGGED[1::2]]
    + [(1000, 700, 1300), (3, 1000, 129), (257, 1, 1000), (129, 65, 1), (300, 257, 4099), (130, 258, 66)]
    + [(0, 5, 7), (5, 0, 7), (5, 7, 0), (0, 0, 0)]
)

# C = A @ B with every product and running sum carried exactly as a double-double (Ogita, Rump and
# Oishi's Dot2): as accurate as a float64 product computed in twice the working precision. The
# _rn intrinsics are never contracted into FMAs, which would break the error-free transformations.
DOT2 = r"""
extern "C" __global__ void tm_test_dot2(const double* A, const double* B, double* C, int M, int N, int K) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= M || j >= N) return;
    double s = 0.0, err = 0.0;
    for (int k = 0; k < K; ++k) {
        const double a = A[(size_t)i * K + k], b = B[(size_t)k * N + j];
        const double p = __dmul_rn(a, b), pe = fma(a, b, -p);          // p + pe = a * b exactly
        const double t = __dadd_rn(s, p), z = __dsub_rn(t, s);
        const double se = __dadd_rn(__dsub_rn(s, __dsub_rn(t, z)), __dsub_rn(p, z));  // t + se = s + p
        s = t;
        err = __dadd_rn(err, __dadd_rn(se, pe));
    }
    C[(size_t)i * N + j] = __dadd_rn(s, err);
}
"""


def _dot2(a, b):
    import cupy as cp

    M, K = a.shape
    N = b.shape[1]
    c = cp.zeros((M, N), cp.float64)
    if M and N:
        kern = cp.RawKernel(DOT2, "tm_test_dot2")
        kern(((N + 15) // 16, (M + 15) // 16), (16, 16), (a, b, c, np.int32(M), np.int32(N), np.int32(K)))
    return c


def _componentwise(c, ref, a, b) -> float:
    """max |C - ref| / (|A| |B|) over the elements: an FP64 dot product of length K is within
    about K * eps of this bound whatever its order."""
    import cupy as cp

    scale = cp.matmul(cp.abs(a), cp.abs(b))
    diff = cp.abs(c - ref)
    if diff.size == 0:
        return 0.0
    err = cp.where(scale > 0, diff / cp.where(scale > 0, scale, 1.0), cp.where(diff > 0, cp.inf, 0.0))
    return float(err.max())


def _offset(x):
    """A C-contiguous copy of `x` whose data starts 8 bytes past a 16-byte boundary."""
    import cupy as cp

    buf = cp.empty(x.size + 2, x.dtype)
    start = 1 if buf.data.ptr % 16 == 0 else 0
    view = buf[start:start + x.size].reshape(x.shape)
    view[...] = x
    assert view.data.ptr % 16 == 8
    return view


def _check_against_cublas(k, a, b, out):
    """Run `k` into `out` and compare it and cupy.matmul against the Dot2 reference."""
    import cupy as cp

    M, K = a.shape
    assert k(a, b, out=out) is out
    assert not bool(cp.isnan(out).any()), "an output element was not written (NaN poison left)"
    ref = _dot2(a, b)
    cublas = cp.matmul(a, b)
    ours, theirs = _componentwise(out, ref, a, b), _componentwise(cublas, ref, a, b)
    assert ours <= max(4 * theirs, 4 * EPS), (M, b.shape[1], K, ours, theirs)
    if M and b.shape[1] and K:
        norm = float(cp.linalg.norm(out - ref) / max(float(cp.linalg.norm(ref)), 1e-300))
        assert norm <= tm.tolerance("float64", K), (M, b.shape[1], K, norm)
    return ours, theirs


@pytest.mark.parametrize("name,cfg", CASES, ids=IDS)
def test_every_config_within_4x_cublas_on_ragged_shapes(name, cfg, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in SHAPES:
        a, b = random_pair(M, N, K, np.float64, rng)
        _check_against_cublas(k, a, b, poisoned((M, N), np.float64))


def check_unaligned(k, shapes, rng):
    """`k` on each shape with every combination of `flags` (bit 0: A's rows 16-byte aligned, bit 1:
    B's and C's): the shapes' odd K or N, and arrays that start 8 bytes off a 16-byte boundary."""
    import cupy as cp

    seen = set()
    for M, N, K in shapes:
        for off_a, off_b, off_c in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]:
            a, b = random_pair(M, N, K, np.float64, rng)
            out = poisoned((M, N), np.float64)
            a = _offset(a) if off_a else a
            b = _offset(b) if off_b else b
            out = _offset(out) if off_c else out
            seen.add(launch_flags(a.data.ptr, b.data.ptr, out.data.ptr, K, N, 8))
            _check_against_cublas(k, a, b, out)
            assert cp.isfinite(out).all()
    assert seen == {0, 1, 2, 3}


@pytest.mark.parametrize("name,cfg", CASES, ids=IDS)
def test_unaligned_rows_and_pointers(name, cfg, rng):
    """Each combination of `flags`: odd K or N, and even ones whose arrays start 8 bytes off a
    16-byte boundary."""
    check_unaligned(tm.kernel(name, **cfg.params()), [(130, 66, 68), (67, 131, 129), (129, 65, 67), (64, 64, 64)], rng)


@pytest.mark.parametrize("name,cfg", CASES, ids=IDS)
def test_integer_data_is_exact(name, cfg, rng):
    """Integers in [-8, 8]: every product and partial sum is exact in FP64 (|sum| < 2^53), so any
    summation order gives the same bits as cupy.matmul and the int64 product."""
    import cupy as cp

    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(129, 127, 4099), (1, 1, 1), (33, 65, 17), (128, 128, 65536), (300, 257, 1001)]:
        a = cp.asarray(rng.integers(-8, 9, (M, K)).astype(np.float64))
        b = cp.asarray(rng.integers(-8, 9, (K, N)).astype(np.float64))
        out = poisoned((M, N), np.float64)
        k(a, b, out=out)
        assert cp.array_equal(out, cp.matmul(a, b)), (M, N, K)
        exact = cp.matmul(a.astype(cp.int64), b.astype(cp.int64)).astype(cp.float64)
        assert cp.array_equal(out, exact), (M, N, K)


@pytest.mark.parametrize("name,cfg", [CASES[0], *(c for c in CASES if c[1].mma_k == 4)],
                         ids=[IDS[0], *(i for i, c in zip(IDS, CASES) if c[1].mma_k == 4)])
def test_long_k_within_4x_cublas(name, cfg, rng):
    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(256, 256, 32768), (2048, 2048, 2048)]:
        a, b = random_pair(M, N, K, np.float64, rng)
        _check_against_cublas(k, a, b, poisoned((M, N), np.float64))


@pytest.mark.parametrize("name,cfg", CASES, ids=IDS)
def test_nan_and_inf_propagate_like_cupy_matmul(name, cfg, rng):
    import cupy as cp

    k = tm.kernel(name, **cfg.params())
    for M, N, K in [(37, 45, 29), (130, 70, 67), (33, 65, 17), (129, 1, 257), (1, 1, 1), (5, 130, 3)]:
        a, b = random_pair(M, N, K, np.float64, rng)
        scatter_nonfinite(a, b, rng)
        a[-1, -1], b[-1, -1] = np.inf, -np.inf  # next to the zero-filled padding of ragged tiles
        out = poisoned((M, N), np.float64)
        k(a, b, out=out)
        assert_same_nonfinite(out, cp.matmul(a, b), tol=1e-12)


@pytest.mark.parametrize("name", ["dmma", "dmma_split_k"])
def test_float32_is_rejected_untouched(name, rng):
    a, b = random_pair(20, 30, 40, np.float32, rng)
    out = poisoned((20, 30), np.float32)
    with pytest.raises(ValueError, match=f"{name} computes float64 only, got float32"):
        tm.matmul(a, b, strategy=name, out=out)
    assert bool(np.isnan(out.get()).all())


@pytest.mark.parametrize("name", ["dmma"])
def test_auto_runs_dmma_for_big_float64(name, fresh_tunedb, rng):
    M = N = K = 2048
    assert tm.kernel("auto").resolve(M, N, K, "float64").strategy == name
    a, b = random_pair(M, N, K, np.float64, rng)
    out = poisoned((M, N), np.float64)
    assert tm.matmul(a, b, out=out) is out
    assert tm.check(out, a, b).passed


# -- the misaligned-operand kernel (DmmaConfig.ELEM_KERNEL) -------------------------------------------
@pytest.mark.parametrize("params", [dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2),
                                    dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
                                    dict(wm=32, wn=64, pairs=1)],
                         ids=["128x64x16", "32x64x16", "pairs"])
@pytest.mark.parametrize("M,N,K", [(300, 200, 1001), (300, 201, 1000), (257, 129, 77), (129, 65, 17)])
def test_misaligned_operands_match_the_aligned_kernel_bit_for_bit(params, M, N, K):
    """An odd K (A's rows) or N (B's and C's) runs the second kernel, whose interior blocks copy
    8-byte pairs; the same product on zero-padded, 16-byte aligned copies (K and N rounded up to
    even) runs the main kernel. Same tiles, same DMMA order, and the padding adds exact zeros: the
    two must agree bit for bit (and both write every element: NaN-poisoned outputs)."""
    import cupy as cp

    rng = np.random.default_rng(M * N + K)
    a = cp.asarray(rng.uniform(-1, 1, (M, K)))
    b = cp.asarray(rng.uniform(-1, 1, (K, N)))
    Kp, Np = K + K % 2, N + N % 2
    ap = cp.zeros((M, Kp)); ap[:, :K] = a
    bp = cp.zeros((Kp, Np)); bp[:K, :N] = b
    c = poisoned((M, N), cp.float64)
    cpad = poisoned((M, Np), cp.float64)
    assert launch_flags(a.data.ptr, b.data.ptr, c.data.ptr, K, N, 8) != 3  # the second kernel runs
    assert launch_flags(ap.data.ptr, bp.data.ptr, cpad.data.ptr, Kp, Np, 8) == 3  # the main one
    tm.matmul(a, b, strategy="dmma", out=c, **params)
    tm.matmul(ap, bp, strategy="dmma", out=cpad, **params)
    assert not bool(cp.isnan(c).any())
    # +0 and -0 compare equal as floats; elsewhere the bits must match
    same = (c.view(cp.uint64) == cpad[:, :N].view(cp.uint64)) | ((c == 0) & (cpad[:, :N] == 0))
    assert bool(same.all())


# -- the partial-tile kernel (DmmaConfig.EDGE_KERNEL) ---------------------------------------------------
@pytest.mark.parametrize("params", [dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2), {},
                                    dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
                                    dict(wm=32, wn=64, pairs=1), dict(bm=128, bn=64, bk=32, wm=32, wn=32, pairs=1)],
                         ids=["128x64x16", "default", "32x64x16", "pairs", "pairs128x64x32"])
@pytest.mark.parametrize("M,N,K", [(300, 200, 1000), (257, 128, 64), (128, 130, 96), (100, 200, 64), (1000, 70, 32),
                                   (129, 66, 2)])
def test_partial_tiles_match_the_whole_tile_kernel_bit_for_bit(params, M, N, K):
    """Aligned operands whose M or N leaves a partial tile run the third kernel, whose edge blocks
    shift their tile back inside M and N and store only their own outputs (an output under one
    tile, 100 x 200 on 128-row tiles, runs the second kernel instead); the same product
    zero-padded to whole tiles runs the main kernel. Each output is the
    same sequence of DMMAs over K in both, so they must agree bit for bit, and every element must
    be written (NaN-poisoned outputs)."""
    import cupy as cp

    cfg = tm.kernel("dmma", **params).config
    bm, bn = cfg.tile_mn
    rng = np.random.default_rng(M * N + K)
    a = cp.asarray(rng.uniform(-1, 1, (M, K)))
    b = cp.asarray(rng.uniform(-1, 1, (K, N)))
    # an Inf in the last row (which a shifted tile recomputes) and a NaN in the first column: a NaN
    # poisons its whole column of C, so in the last one it would hide an unwritten element
    a[-1, -1], b[0, 0] = np.inf, np.nan
    Mp, Np = -(-M // bm) * bm, -(-N // bn) * bn
    ap = cp.zeros((Mp, K)); ap[:M] = a
    bp = cp.zeros((K, Np)); bp[:, :N] = b
    c = poisoned((M, N), cp.float64)
    cpad = poisoned((Mp, Np), cp.float64)
    assert launch_flags(a.data.ptr, b.data.ptr, c.data.ptr, K, N, 8) == 3 and (M % bm or N % bn)
    tm.matmul(a, b, strategy="dmma", out=c, **params)
    tm.matmul(ap, bp, strategy="dmma", out=cpad, **params)
    assert int(cp.isnan(c).sum()) == int(cp.isnan(cp.matmul(a, b)).sum())  # NaN where cuBLAS has it, nowhere else
    ref = cpad[:M, :N]
    same = (c.view(cp.uint64) == ref.view(cp.uint64)) | ((c == 0) & (ref == 0)) | (cp.isnan(c) & cp.isnan(ref))
    assert bool(same.all())


# -- the pairs layout (DmmaConfig.pairs: no epilogue, row-major operands only) ----------------------------
def test_auto_gives_an_epilogue_on_a_pairs_bucket_to_a_config_that_takes_it():
    """float64 1024^3's shipped pick is in the pairs layout, which has no epilogue hooks
    (DmmaConfig.extras): auto runs a plain product there on it, and a GEMM with alpha, beta, a bias
    and an activation on a config that takes them (execute's fallback), both right against a float64
    reference on NaN-poisoned outputs."""
    import cupy as cp

    from tiled_matmul import dispatch

    assert dispatch.choose(1024, 1024, 1024, "float64").params.get("pairs") == 1
    rng = np.random.default_rng(22)
    a = cp.asarray(rng.uniform(-1, 1, (1024, 1024)))
    b = cp.asarray(rng.uniform(-1, 1, (1024, 1024)))
    c0 = cp.asarray(rng.uniform(-1, 1, (1024, 1024)))
    bias = cp.asarray(rng.uniform(-1, 1, 1024))
    plain = poisoned((1024, 1024), cp.float64)
    tm.matmul(a, b, out=plain)
    assert tm.check(plain, a, b).passed
    out = poisoned((1024, 1024), cp.float64)
    tm.gemm(a, b, c0, alpha=0.5, beta=2.0, bias=bias, activation="relu", out=out)
    ref = cp.maximum(0.5 * (a @ b) + 2.0 * c0 + bias[None, :], 0.0)
    scale = 0.5 * (cp.abs(a) @ cp.abs(b)) + 2.0 * cp.abs(c0) + cp.abs(bias)[None, :]
    err = float(cp.max(cp.abs(out - ref) / scale))
    # per element against |alpha| |A||B| + |beta| |C| + |bias|: a K-long FP64 dot product and three
    # more roundings are within (K + 3) u (u = 2^-53) of it, for either side, so twice that
    assert not bool(cp.isnan(out).any()) and err <= 2 * (1024 + 3) * 2.0 ** -53, err
    # a config in the pairs layout named with an epilogue is refused, naming what it lacks
    with pytest.raises(ValueError, match="no hooks for an epilogue"):
        tm.gemm(a, b, bias=bias, strategy="dmma", **dispatch.choose(1024, 1024, 1024, "float64").params)
