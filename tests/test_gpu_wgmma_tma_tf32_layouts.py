"""GPU tests of wgmma_tma_tf32's operand layouts (marked `gpu`): B column-major (``a @ w.T``,
Fortran-order B) and leading dimensions (row-major slices) read in place by TMA, in both modes,
and A column-major (``a.T @ b``) in tf32x3, over ragged shapes: values against a float64
reference with NaN-poisoned output, the kernel handed the caller's pointers
(execute.launch_hook) and no layout copy counted (execute.layout_copies_made). A column-major
with tf32, and both operands column-major, are copied (the rung does not declare them)."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute, heuristic, numerics
from tiled_matmul.semantics import operand_layout

from .conftest import poisoned
from .test_gpu_gemm import unfused

pytestmark = pytest.mark.gpu

NAME = "wgmma_tma_tf32"
#: (M, N, K): ragged edges of 64 / 128 / 256 tiles and 32-deep K steps, tiny and single-row
SHAPES = [(1, 1, 1), (7, 33, 5), (127, 129, 33), (129, 127, 1000), (300, 260, 96), (1000, 33, 129), (1, 1000, 127),
          (1000, 1, 129), (513, 385, 257)]
#: (A column-major, B column-major) pairs the rung reads in place (each config: those of its layouts())
PAIRS = [(False, False), (False, True), (True, False)]
#: extra elements per leading-dimension stride: 0 (tight), 4 (a 16-byte-multiple slice), 3 (not
#: a multiple of 16 bytes: copied into padded rows by the launch, values still right)
PADS = [0, 4, 3]
#: (tf32x3 at stages=4 reads A column-major through separate buffers of the transposed big parts,
#: stages=5 writes them back into the stage after a consumer barrier: WgmmaTmaTf32Config.xpose_bufs)
CONFIGS = [dict(), dict(stages=5), dict(bm=64, bn=128, stages=8), dict(bm=256, bn=128, stages=4, passes=1),
           dict(bm=128, bn=256, stages=4, passes=1)]


def _operand(rng, rows, cols, col_major, pad):
    import cupy as cp

    if col_major:
        return cp.asarray(rng.uniform(-1, 1, (cols, rows + pad)).astype(np.float32))[:, :rows].T
    return cp.asarray(rng.uniform(-1, 1, (rows, cols + pad)).astype(np.float32))[:, :cols]


def _check(c, a, b, mode, K, what):
    import cupy as cp

    ref, scale = unfused(cp.asnumpy(a), cp.asnumpy(b))
    got = cp.asnumpy(c).astype(np.float64)
    bound = 2 * numerics.bound(mode, max(K, 1), truncated=mode == "tf32") * scale + 1e-30
    bad = ~(np.abs(got - ref) <= bound)
    assert not bad.any(), f"{what}: {int(bad.sum())} elements off (NaN: {int(np.isnan(got).sum())})"


CASES = [(cfg, pair, shape, pad) for cfg in CONFIGS for pair in PAIRS for shape in SHAPES for pad in PADS
         if not (pair == (False, False) and pad == 0) and pair in tm.STRATEGIES[NAME].make_config(**cfg).layouts()]


@pytest.mark.parametrize("params,pair,shape,pad", CASES,
                         ids=[f"{'_'.join(f'{k}{v}' for k, v in c.items()) or 'default'}-"
                              f"{'aT' if p[0] else 'a'}@{'bT' if p[1] else 'b'}-{s}-ld+{d}" for c, p, s, d in CASES])
def test_layout_read_in_place(params, pair, shape, pad, rng, monkeypatch):
    M, N, K = shape
    a = _operand(rng, M, K, pair[0], pad)
    b = _operand(rng, K, N, pair[1], pad)
    seen, layouts = [], []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    monkeypatch.setattr(execute, "layout_hook", lambda la, lb, spec: layouts.append((la, lb, spec)))
    monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
    out = poisoned((M, N), np.float32)
    kern = tm.kernel(NAME, **params)
    got = kern(a, b, out)
    assert got is out
    _check(out, a, b, kern.config.precision, K, f"{params} {pair} {shape} ld+{pad}")
    if not seen:
        # C-contiguous views (one row, one column) take the plain 2-D launch, which has no hook
        assert a.flags.c_contiguous and b.flags.c_contiguous, "the general path did not launch"
        return
    assert seen[0][0] == a.data.ptr and seen[0][1] == b.data.ptr, "an operand was copied before the launch"
    assert execute.layout_copies_made["strides"] == 0 and execute.layout_copies_made["config"] == 0
    la, lb, spec = layouts[0]
    assert spec is not None and spec.b_col == operand_layout(b.shape, b.strides, 4).col
    assert spec.a_col == operand_layout(a.shape, a.strides, 4).col


@pytest.mark.parametrize("mode", ["tf32x3", "tf32"])
@pytest.mark.parametrize("shape", [(4096, 4096, 4096), (3001, 2999, 3007)])
def test_auto_runs_it_on_x_at_w_transposed(mode, shape, rng, monkeypatch):
    """auto keeps wgmma_tma_tf32 for a @ w.T and for row-major slices where it picks it for a @ b
    (no fallback, no copy)."""
    import cupy as cp

    M, N, K = shape
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    if heuristic.recommend(M, N, K, precision=mode, sms=sms)[0] != NAME:
        pytest.skip(f"auto does not pick {NAME} for {shape} {mode} on this GPU")
    real = execute.ExLaunch.__init__  # the one real constructor each iteration's spy calls
    pairs = [((False, True), 0), ((False, False), 4), ((False, True), 4)]
    if mode == "tf32x3":  # a.T @ b: tf32x3 transposes A's stage in its split
        pairs += [((True, False), 0), ((True, False), 4)]
    for pair, pad in pairs:
        a = _operand(rng, M, K, pair[0], pad)
        b = _operand(rng, K, N, pair[1], pad)
        seen = []
        monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
        monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
        names = []

        def spy(self, compiled, *args, **kw):
            names.append(compiled.name)
            real(self, compiled, *args, **kw)

        monkeypatch.setattr(execute.ExLaunch, "__init__", spy)
        out = poisoned((M, N), np.float32)
        tm.matmul(a, b, out=out, precision=mode)
        assert any(NAME in n for n in names), (shape, pair, pad, names)
        assert seen[0][0] == a.data.ptr and seen[0][1] == b.data.ptr
        assert sum(execute.layout_copies_made.values()) == 0
        ref = cp.asnumpy(a).astype(np.float64)[:256] @ cp.asnumpy(b).astype(np.float64)
        scale = np.abs(cp.asnumpy(a).astype(np.float64)[:256]) @ np.abs(cp.asnumpy(b).astype(np.float64))
        err = np.abs(cp.asnumpy(out[:256]).astype(np.float64) - ref)
        assert (err <= 2 * numerics.bound(mode, K, truncated=mode == "tf32") * scale).all(), (shape, pair, pad)


@pytest.mark.parametrize("params,b_col,copied", [(dict(bm=256, stages=4, passes=1), False, "a"), (dict(), True, "b")],
                         ids=["tf32-aT@b", "tf32x3-aT@bT"])
def test_one_operand_is_copied_where_the_pair_is_not_read(params, b_col, copied, rng, monkeypatch):
    """A column-major with tf32 (a.T @ b: A is copied) or with B column-major too in tf32x3
    (a.T @ b.T: B is copied, semantics.layout_copies copies B first) is not read in place by
    this rung: exactly one operand is copied."""
    M, N, K = 300, 260, 96
    a = _operand(rng, M, K, True, 0)
    b = _operand(rng, K, N, b_col, 0)
    seen = []
    monkeypatch.setattr(execute, "launch_hook", lambda *args: seen.append(args))
    monkeypatch.setattr(execute, "layout_copies_made", execute.Counter())
    out = poisoned((M, N), np.float32)
    kern = tm.kernel(NAME, **params)
    kern(a, b, out)
    _check(out, a, b, kern.config.precision, K, "a.T @ b")
    assert (seen[0][0] == a.data.ptr) == (copied == "b") and (seen[0][1] == b.data.ptr) == (copied == "a")
    assert execute.layout_copies_made["config"] == 1


def test_direct_entry_takes_w_transposed(rng):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma_tf32 import tma_tf32_matmul

    x = _operand(rng, 257, 96, False, 0)
    w = cp.asarray(rng.uniform(-1, 1, (130, 96)).astype(np.float32))
    c = tma_tf32_matmul(x, w.T)
    _check(c, x, w.T, "tf32x3", 96, "tma_tf32_matmul(x, w.T)")


def test_direct_entry_takes_x_transposed(rng):
    import cupy as cp

    from tiled_matmul.strategies.wgmma_tma_tf32 import WgmmaTmaTf32Config, tma_tf32_matmul

    x = cp.asarray(rng.uniform(-1, 1, (96, 260)).astype(np.float32))[:, :257]  # Aᵀ rows padded to 16 bytes
    y = _operand(rng, 96, 132, False, 0)
    c = tma_tf32_matmul(x.T, y)
    _check(c, x.T, y, "tf32x3", 96, "tma_tf32_matmul(x.T, y)")
    with pytest.raises(ValueError, match="only with passes=3"):
        tma_tf32_matmul(x.T, y, config=WgmmaTmaTf32Config(bm=256, passes=1))


@pytest.mark.parametrize("pair", [(False, True), (True, False)], ids=["a@bT", "aT@b"])
def test_nonfinite_fallback_reads_column_major_operands(pair, rng):
    """The exact FMA fallback (a tile with an Inf) reads a column-major B or A too."""
    import cupy as cp

    M, N, K = 200, 160, 64
    a = _operand(rng, M, K, pair[0], 0)
    b = _operand(rng, K, N, pair[1], 0)
    a[3, 5] = cp.inf
    out = poisoned((M, N), np.float32)
    tm.kernel(NAME)(a, b, out)
    ref = cp.asnumpy(a).astype(np.float64) @ cp.asnumpy(b).astype(np.float64)
    got = cp.asnumpy(out).astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(ref)) and np.array_equal(np.isinf(got), np.isinf(ref))
    fin = np.isfinite(ref)
    scale = np.abs(cp.asnumpy(a).astype(np.float64)) @ np.abs(cp.asnumpy(b).astype(np.float64))
    assert (np.abs(got - ref)[fin] <= 2 * numerics.bound("tf32x3", K) * scale[fin] + 1e-6).all()
