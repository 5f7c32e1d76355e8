"""GPU tests of wgmma_tma beyond the plain product (marked `gpu`): operand layouts, A and B each
row-major or column-major (``a.T``, ``w.T``), and row-major slices with their own leading
dimensions, read in place through the tensor maps, float16 and bfloat16, over ragged shapes and several configs
(clusters and the 128 x 64 tile among them): the componentwise error max |C - AB| / (|A||B|)
against the exact float64 product of the 16-bit inputs within numerics.half_bound (the products
are exact in float32, K float32 sums, one rounding into C), NaN-poisoned output, the kernel handed
the caller's pointers (execute.launch_hook) and no layout copy counted (execute.layout_copies_made)
where the leading dimension is a multiple of 16 bytes; a pitch that is not is copied into padded
rows by the launch, values still right; a float32 C (out_bits=32, out_dtype) and tm.gemm's
epilogues. And `auto`: a transposed operand, a float32 C or an epilogue stays on wgmma_tma where
the plain product is picked for it (these calls went to mma_half, at 0.2-0.8x cuBLAS)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute, heuristic, numerics
from tiled_matmul.semantics import operand_layout

pytestmark = pytest.mark.gpu

NAME = "wgmma_tma"
DTYPES = {"float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
#: (M, N, K): ragged edges of 64-row boxes, 64..256-column tiles and 64-deep K steps; single rows
SHAPES = [(1, 1, 1), (2, 2, 2), (7, 33, 5), (33, 7, 129), (127, 129, 33), (129, 127, 1000), (300, 260, 96),
          (1000, 33, 129), (1, 1000, 127), (1000, 1, 129), (513, 385, 257)]
PAIRS = [(False, True), (True, False), (True, True), (False, False)]
#: extra elements per leading-dimension stride: 0 (tight; the plain pair is then skipped), 8 (a
#: 16-byte-multiple slice), 3 (not a multiple of 16 bytes: copied into padded rows by the launch)
PADS = [0, 8, 3]
CONFIGS = [dict(), dict(bm=128, bn=64, stages=8), dict(bm=256, bn=128, stages=3),
           dict(bm=128, bn=256, stages=3, cluster_m=2)]


def _operand(rng, rows, cols, col_major, pad, dt):
    """A rows x cols device operand of `dt` values uniform in [-1, 1): row-major with `pad` more
    elements per row, or the transpose of such a cols x (rows + pad) array's first rows columns."""
    import cupy as cp

    if col_major:
        return cp.asarray(rng.uniform(-1, 1, (cols, rows + pad)).astype(dt))[:, :rows].T
    return cp.asarray(rng.uniform(-1, 1, (rows, cols + pad)).astype(dt))[:, :cols]


def _check(out, a, b, dtype, K, what):
    import cupy as cp

    ha, hb = cp.asnumpy(a), cp.asnumpy(b)
    a64, b64 = ha.astype(np.float64), hb.astype(np.float64)
    ref, den = a64 @ b64, np.abs(a64) @ np.abs(b64)
    got = cp.asnumpy(out)
    assert np.isfinite(got.astype(np.float64)).all(), f"{what}: non-finite outputs (unwritten NaN poison?)"
    err = numerics.componentwise_error(got, ha, hb, ref, den, numerics.UNDERFLOW_FLOOR[dtype])
    bound = numerics.half_bound(dtype, max(K, 1))
    assert err <= bound, f"{what}: componentwise error {err:.3g} > {bound:.3g}"


CASES = [(cfg, pair, shape, pad, dtype) for cfg in CONFIGS for pair in PAIRS for shape in SHAPES for pad in PADS
         for dtype in DTYPES if not (pair == (False, False) and pad == 0)
         and (cfg == {} or dtype == "bfloat16")]


@pytest.mark.parametrize("params,pair,shape,pad,dtype", CASES,
                         ids=[f"{'_'.join(f'{k}{v}' for k, v in c.items()) or 'default'}-"
                              f"{'aT' if p[0] else 'a'}@{'bT' if p[1] else 'b'}-{s}-ld+{d}-{t}"
                              for c, p, s, d, t in CASES])
def test_layout_read_in_place(params, pair, shape, pad, dtype, rng, monkeypatch):
    M, N, K = shape
    dt = DTYPES[dtype]
    a = _operand(rng, M, K, pair[0], pad, dt)
    b = _operand(rng, K, N, pair[1], pad, dt)
    seen, layouts = [], []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    monkeypatch.setattr(execute, "layout_hook", lambda la, lb, spec: layouts.append((la, lb, spec)))
    monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
    out = numerics.poison(__import__("cupy").empty((M, N), dt))
    got = tm.kernel(NAME, **params)(a, b, out)
    assert got is out
    _check(out, a, b, dtype, K, f"{params} {pair} {shape} ld+{pad}")
    if not seen:
        # C-contiguous views (one row, one column) take the plain 2-D launch, which has no hook
        assert a.flags.c_contiguous and b.flags.c_contiguous, "the general path did not launch"
        return
    assert seen[0][0] == a.data.ptr and seen[0][1] == b.data.ptr, "an operand was copied before the launch"
    assert sum(execute.layout_copies_made.values()) == 0
    la, lb, spec = layouts[0]
    if spec is not None:
        assert spec.a_col == operand_layout(a.shape, a.strides, 2).col
        assert spec.b_col == operand_layout(b.shape, b.strides, 2).col


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape", [(4096, 4096, 4096), (3001, 2999, 3007), (1000, 1000, 1000)])
def test_auto_keeps_it_for_transposed_operands(dtype, shape, rng, monkeypatch):
    """auto keeps wgmma_tma (the config it picks for a @ b) for a @ w.T, a.T @ b and a.T @ b.T:
    no fallback to the cp.async rung, no operand copied where the pitches allow."""
    import cupy as cp

    M, N, K = shape
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    if heuristic.half_pick(M, N, K, dtype, sms)[0] != NAME:
        pytest.skip(f"auto does not pick {NAME} for {shape} {dtype} on this GPU")
    real = execute.ExLaunch.__init__
    dt = DTYPES[dtype]
    for pair in [(False, True), (True, False), (True, True)]:
        a = _operand(rng, M, K, pair[0], 0, dt)
        b = _operand(rng, K, N, pair[1], 0, dt)
        names, seen = [], []
        monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
        monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())

        def spy(self, compiled, *args, **kw):
            names.append(compiled.name)
            real(self, compiled, *args, **kw)

        monkeypatch.setattr(execute.ExLaunch, "__init__", spy)
        out = numerics.poison(cp.empty((M, N), dt))
        tm.matmul(a, b, out=out)
        assert names and all(NAME in n for n in names), (shape, pair, names)
        # (with out= given, a.T @ b.T runs on both column-major operands too); nothing is copied
        # where the leading dimensions are 16-byte multiples
        if (M if pair[0] else K) % 8 == 0 and (K if pair[1] else N) % 8 == 0:
            assert sum(execute.layout_copies_made.values()) == 0, (shape, pair)
        rows = slice(0, 192)
        _check(out[rows], a[rows], b, dtype, K, f"auto {shape} {pair}")


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,pair", [((4096, 4096, 4096), (False, False)), ((3001, 2999, 3007), (False, False)),
                                        ((1000, 1000, 1000), (False, True)), ((513, 385, 257), (True, False))])
def test_auto_keeps_it_for_a_float32_c(dtype, shape, pair, rng, monkeypatch):
    """out_dtype=float32 where auto picks wgmma_tma: the same config with out_bits=32 (its float32
    C stored from the accumulators), not the cp.async rung; error within the float32 result's
    bound (no 16-bit rounding)."""
    import cupy as cp

    M, N, K = shape
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    if heuristic.half_pick(M, N, K, dtype, sms)[0] != NAME:
        pytest.skip(f"auto does not pick {NAME} for {shape} {dtype} on this GPU")
    dt = DTYPES[dtype]
    a = _operand(rng, M, K, pair[0], 0, dt)
    b = _operand(rng, K, N, pair[1], 0, dt)
    real, names = execute.ExLaunch.__init__, []

    def spy(self, compiled, *args, **kw):
        names.append(compiled.name)
        real(self, compiled, *args, **kw)

    monkeypatch.setattr(execute.ExLaunch, "__init__", spy)
    out = numerics.poison(cp.empty((M, N), np.float32))
    assert tm.matmul(a, b, out=out, out_dtype=np.float32) is out
    assert names and all(NAME in n and "out_bits32" in n for n in names), names
    ha, hb = cp.asnumpy(a[:192]), cp.asnumpy(b)
    a64, b64 = ha.astype(np.float64), hb.astype(np.float64)
    err = numerics.componentwise_error(cp.asnumpy(out[:192]), ha, hb, a64 @ b64, np.abs(a64) @ np.abs(b64),
                                       numerics.UNDERFLOW_FLOOR["float32"])
    bound = numerics.half_bound(dtype, K, out_dtype="float32")
    assert err <= bound, f"{shape} {pair}: componentwise error {err:.3g} > {bound:.3g}"


#: the epilogue cases: ragged shapes, a K of 0 (C = the epilogue of an empty sum), column-major
#: operands, a float32 C
EPI_CASES = [((7, 33, 129), (False, False), None), ((129, 127, 31), (False, True), None),
             ((300, 260, 96), (True, True), None), ((513, 385, 257), (True, False), "float32"),
             ((33, 70, 0), (False, False), None), ((1000, 1000, 1000), (False, False), "float32")]


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("case", range(len(EPI_CASES)), ids=[f"{s}-{p}-{o}" for s, p, o in EPI_CASES])
def test_epilogue(dtype, case, rng):
    """tm.gemm's epilogue on wgmma_tma (named; its out_bits=32 config for a float32 C): two
    activations per case (every one over the cases), alpha/beta with a C to read on the second, a
    bias on both, against the float64 formula; per element
    within twice half_bound times |alpha|·|A||B| + |beta|·|C| + |bias|, plus the output's rounding
    of the result (an activation such as sigmoid may exceed that scale)."""
    import cupy as cp

    from .test_gpu_gemm import ACTS, unfused

    shape, pair, out = EPI_CASES[case]
    M, N, K = shape
    dt = DTYPES[dtype]
    a = _operand(rng, M, K, pair[0], 0, dt)
    b = _operand(rng, K, N, pair[1], 0, dt)
    c = cp.asarray(rng.uniform(-1, 1, (M, N)).astype(dt))
    bias = cp.asarray(rng.uniform(-1, 1, N).astype(np.float32))
    kern = tm.kernel(NAME, **({"out_bits": 32} if out else {}))
    odt = np.dtype(np.float32) if out else dt
    u_out = 2.0 ** -24 if out else {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}[dtype]
    acts = list(ACTS)
    for i in (2 * case, 2 * case + 1):
        act = acts[i % len(acts)]
        alpha, beta = (0.5, -1.5) if i % 2 else (1.0, 0.0)
        res = numerics.poison(cp.empty((M, N), odt))
        got = kern.gemm(a, b, c, alpha=alpha, beta=beta, bias=bias, activation=act, out=res,
                        **({"out_dtype": np.float32} if out else {}))
        assert got is res
        ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b), alpha, beta, cp.asnumpy(c), cp.asnumpy(bias), 1, act)
        g64 = cp.asnumpy(res).astype(np.float64)
        bound = 2 * numerics.half_bound(dtype, max(K, 1), out_dtype=odt) * scale + 2 * u_out * np.abs(ref) + 1e-30
        bad = ~(np.abs(g64 - ref) <= bound)
        assert not bad.any(), f"{shape} {pair} {act}: {int(bad.sum())} elements off (NaN: {int(np.isnan(g64).sum())})"


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_auto_keeps_it_for_a_fused_epilogue(dtype, rng, monkeypatch):
    """tm.gemm(x, w.T, bias=, activation=) at 4096 x 4096 x 1024: auto's wgmma_tma pick runs it
    (it went to mma_half: 0.56x cuBLAS plus an elementwise kernel at 4096^3)."""
    import cupy as cp

    from .test_gpu_gemm import unfused

    M, N, K = 4096, 4096, 1024
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    if heuristic.half_pick(M, N, K, dtype, sms)[0] != NAME:
        pytest.skip(f"auto does not pick {NAME} for {(M, N, K)} {dtype} on this GPU")
    dt = DTYPES[dtype]
    x = _operand(rng, M, K, False, 0, dt)
    w = _operand(rng, K, N, True, 0, dt)
    bias = cp.asarray(rng.uniform(-1, 1, N).astype(dt))
    real, names = execute.ExLaunch.__init__, []

    def spy(self, compiled, *args, **kw):
        names.append(compiled.name)
        real(self, compiled, *args, **kw)

    monkeypatch.setattr(execute.ExLaunch, "__init__", spy)
    y = tm.gemm(x, w, bias=bias, activation="gelu")
    assert names and all(NAME in n for n in names), names
    ref, scale = unfused(cp.asnumpy(x[:128]), cp.asnumpy(w), bias=cp.asnumpy(bias), activation="gelu")
    u_out = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}[dtype]
    bound = 2 * numerics.half_bound(dtype, K) * scale + 2 * u_out * np.abs(ref)
    assert (np.abs(cp.asnumpy(y[:128]).astype(np.float64) - ref) <= bound).all()
