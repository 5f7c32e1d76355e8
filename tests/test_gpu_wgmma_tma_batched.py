"""GPU tests of wgmma_tma's batches (marked `gpu`): ``a @ b`` on 3-D float16/bfloat16 operands in
one launch, the persistent CTAs walking every matrix's tiles through 3-D tensor maps. Ragged
shapes x operand layouts (each matrix row-major or column-major) x configs (a cluster and the
128 x 64 tile among them) x batch forms (both operands batched; A or B shared by the batch, batch
stride 0; batch strides that TMA cannot step, copied into padded rows by the launch), each matrix
of a NaN-poisoned C against the exact float64 product within numerics.half_bound; tm.gemm's
epilogues over a batch (beta reading each matrix's C, a bias, alpha, an activation; a float32 C;
K = 0); and `auto` keeping its wgmma_tma pick for a batch (these calls ran on mma_half)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute, heuristic, numerics

from .test_gpu_wgmma_tma_general import DTYPES, _check

pytestmark = pytest.mark.gpu

NAME = "wgmma_tma"
SHAPES = [(1, 1, 1), (7, 33, 5), (33, 7, 129), (127, 129, 33), (129, 127, 300), (300, 260, 96), (1, 1000, 127)]
PAIRS = [(False, False), (False, True), (True, False), (True, True)]
#: both: every operand batched; shared_a / shared_b: that operand one matrix broadcast over the
#: batch (stride 0); odd: A's matrices 4 elements further apart than its rows (a batch stride TMA
#: cannot step unless it is a multiple of 16 bytes: then copied)
FORMS = ["both", "shared_a", "shared_b", "odd"]
CONFIGS = [dict(), dict(bm=128, bn=64, stages=8), dict(bm=128, bn=256, stages=3, cluster_m=2)]
COUNT = 3


def _batch(rng, count, rows, cols, col_major, dt, gap=0):
    """`count` rows x cols device matrices of `dt` values uniform in [-1, 1), as a (count, rows,
    cols) array: row-major, or each the transpose of a cols x rows one; `gap` more elements
    between consecutive matrices (a strided view of a flat buffer)."""
    import cupy as cp

    r, c = (cols, rows) if col_major else (rows, cols)
    step = r * c + gap
    flat = cp.asarray(rng.uniform(-1, 1, count * step).astype(dt))
    isz = flat.itemsize
    x = cp.lib.stride_tricks.as_strided(flat, (count, r, c), (step * isz, c * isz, isz))
    return x.transpose(0, 2, 1) if col_major else x


def _operands(rng, form, shape, pair, dt):
    M, N, K = shape
    a = _batch(rng, COUNT, M, K, pair[0], dt, gap=4 if form == "odd" else 0)
    b = _batch(rng, COUNT, K, N, pair[1], dt)
    if form == "shared_a":
        a = a[0]
    if form == "shared_b":
        b = b[0]
    return a, b


def _check_batch(out, a, b, dtype, K, what):
    import cupy as cp

    a3 = cp.broadcast_to(a, (COUNT,) + a.shape[-2:])
    b3 = cp.broadcast_to(b, (COUNT,) + b.shape[-2:])
    for i in range(COUNT):
        _check(out[i], a3[i], b3[i], dtype, K, f"{what} matrix {i}")


@pytest.fixture
def launches(monkeypatch):
    """(kernel name, batch count, batched spec) of every ExLaunch the test makes, in order."""
    made = []
    real = execute.ExLaunch.__init__

    def spy(self, compiled, spec, values, out_ptr, batch, *args, **kw):
        made.append((compiled.name, batch, spec.batched))
        real(self, compiled, spec, values, out_ptr, batch, *args, **kw)

    monkeypatch.setattr(execute.ExLaunch, "__init__", spy)
    return made


CASES = [(cfg, pair, shape, form, dtype) for cfg in CONFIGS for pair in PAIRS for shape in SHAPES for form in FORMS
         for dtype in DTYPES if cfg == {} or dtype == "bfloat16"]


@pytest.mark.parametrize("params,pair,shape,form,dtype", CASES,
                         ids=[f"{'_'.join(f'{k}{v}' for k, v in c.items()) or 'default'}-"
                              f"{'aT' if p[0] else 'a'}@{'bT' if p[1] else 'b'}-{s}-{f}-{t}"
                              for c, p, s, f, t in CASES])
def test_batch_in_one_launch(params, pair, shape, form, dtype, rng, launches):
    """Every matrix of the batch right; one batched launch of wgmma_tma (a 2-D one where the
    matrices of A stack against a shared B)."""
    import cupy as cp

    M, N, K = shape
    a, b = _operands(rng, form, shape, pair, DTYPES[dtype])
    out = numerics.poison(cp.empty((COUNT, M, N), DTYPES[dtype]))
    got = tm.kernel(NAME, **params)(a, b, out)
    assert got is out
    _check_batch(out, a, b, dtype, K, f"{params} {pair} {shape} {form}")
    if form == "shared_b" and (not pair[0] or M == 1):
        # A's matrices stack into one matrix against the shared B (row-major, or single rows): one
        # 2-D product, which test_gpu_wgmma_tma covers (an ExLaunch of one where B is read in place
        # column-major)
        assert [x[1:] for x in launches] in ([], [(1, False)]) and all(NAME in n for n, _, _ in launches), launches
    else:
        assert [x[1:] for x in launches] == [(COUNT, True)] and all(NAME in n for n, _, _ in launches), launches


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,pair,out,k0", [((129, 127, 300), (False, False), None, False),
                                               ((300, 260, 96), (True, True), None, False),
                                               ((513, 385, 257), (False, True), "float32", False),
                                               ((33, 70, 0), (False, False), None, True)])
def test_batched_epilogue(dtype, shape, pair, out, k0, rng):
    """tm.gemm over a batch on wgmma_tma: alpha, beta reading each matrix's own C, a bias and an
    activation, against the float64 formula per matrix (the bound of test_gpu_wgmma_tma_general's
    epilogue test); a float32 C (out_bits=32); K = 0 (the epilogue of an empty sum)."""
    import cupy as cp

    from .test_gpu_gemm import unfused

    M, N, K = shape
    dt = DTYPES[dtype]
    a, b = _operands(rng, "both", shape, pair, dt)
    c = cp.asarray(rng.uniform(-1, 1, (COUNT, M, N)).astype(dt))
    bias = cp.asarray(rng.uniform(-1, 1, N).astype(np.float32))
    kern = tm.kernel(NAME, **({"out_bits": 32} if out else {}))
    odt = np.dtype(np.float32) if out else dt
    u_out = 2.0 ** -24 if out else {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}[dtype]
    res = numerics.poison(cp.empty((COUNT, M, N), odt))
    got = kern.gemm(a, b, c, alpha=0.5, beta=-1.5, bias=bias, activation="gelu", out=res,
                    **({"out_dtype": np.float32} if out else {}))
    assert got is res
    for i in range(COUNT):
        ref, scale = unfused(cp.asnumpy(a[i]), cp.asnumpy(b[i]), 0.5, -1.5, cp.asnumpy(c[i]), cp.asnumpy(bias), 1,
                             "gelu")
        g64 = cp.asnumpy(res[i]).astype(np.float64)
        bound = 2 * numerics.half_bound(dtype, max(K, 1), out_dtype=odt) * scale + 2 * u_out * np.abs(ref) + 1e-30
        bad = ~(np.abs(g64 - ref) <= bound)
        assert not bad.any(), f"{shape} {pair} matrix {i}: {int(bad.sum())} elements off"


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("count,shape", [(8, (1024, 1024, 1024)), (4, (1000, 1000, 999)), (64, (256, 256, 128))])
def test_auto_runs_batches_on_it(dtype, count, shape, rng, launches):
    """auto keeps wgmma_tma, where it picks it for the stacked matrices, for a batch (every
    operand batched): one batched launch, every matrix checked on its first 64 rows."""
    import cupy as cp

    M, N, K = shape
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    if heuristic.half_pick(M * count, N, K, dtype, sms)[0] != NAME:
        pytest.skip(f"auto does not pick {NAME} for {count} x {shape} {dtype} on this GPU")
    dt = DTYPES[dtype]
    a = _batch(rng, count, M, K, False, dt)
    b = _batch(rng, count, K, N, False, dt)
    out = numerics.poison(cp.empty((count, M, N), dt))
    assert tm.matmul(a, b, out=out) is out
    assert len(launches) == 1 and NAME in launches[0][0], launches
    for i in range(count):
        _check(out[i, :64], a[i, :64], b[i], dtype, K, f"auto {count} x {shape} matrix {i}")


#: (count, M, N, K, A column-major, B column-major, shared): batches of small matrices, the shapes
#: of the thirty-sixth session's draw that ran on mma_half (the stacked pick was not wgmma_tma, or
#: its 128-row tiles padded each matrix by more than a quarter), and one that stays there (C's rows
#: not 16-byte aligned with K under HALF_TMA_MIN_K: heuristic.half_batch_pick)
SMALL_BATCHES = [(7, 103, 229, 658, False, True, ""), (2, 53, 1319, 1215, True, False, "b"),
                 (12, 273, 909, 3821, False, False, ""), (3, 1461, 168, 155, True, False, ""),
                 (11, 78, 808, 929, True, False, "b"), (5, 60, 72, 64, False, False, "a"),
                 (12, 116, 1661, 66, False, False, "")]


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("count,M,N,K,a_col,b_col,shared", SMALL_BATCHES)
def test_auto_small_matrix_batches(dtype, count, M, N, K, a_col, b_col, shared, rng, launches):
    """auto runs a 16-bit batch that does not fold on wgmma_tma's batched launch with the config
    heuristic.half_batch_pick names, every matrix right; where that pick is None, not on wgmma_tma."""
    import cupy as cp

    dt = DTYPES[dtype]
    a = _batch(rng, count, M, K, a_col, dt)
    b = _batch(rng, count, K, N, b_col, dt)
    a, b = (a[0] if shared == "a" else a), (b[0] if shared == "b" else b)
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    pick = heuristic.half_batch_pick(M, N, K, count, dtype, sms)
    copies = sum(execute.layout_copies_made.values())
    out = numerics.poison(cp.empty((count, M, N), dt))
    assert tm.matmul(a, b, out=out) is out
    a3 = cp.broadcast_to(a, (count, M, K))
    b3 = cp.broadcast_to(b, (count, K, N))
    for i in range(count):
        _check(out[i], a3[i], b3[i], dtype, K, f"auto {count} x {M}x{N}x{K} matrix {i}")
    if pick is None:
        assert not any(NAME in n for n, _, _ in launches), launches
        return
    tag = tm.kernel(*pick[:1], **pick[1]).config.tag()
    assert [(n_, s) for _, n_, s in launches] == [(count, True)], launches
    assert NAME in launches[0][0] and tag in launches[0][0], (launches, pick)
    # read in place: no operand copied to row-major first (wgmma_tma reads every layout)
    assert sum(execute.layout_copies_made.values()) == copies
