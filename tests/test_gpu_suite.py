"""`auto` on every shape of the public suite, float32 and float64: correct against a float64
reference, into NaN-poisoned output (marked `gpu`). Speed is measured by benchmarks/shape_suite.py."""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.suite import SUITE_DTYPES, suite_shapes

pytestmark = pytest.mark.gpu

CASES = [(cls, shape, dt) for cls, shape in suite_shapes() for dt in SUITE_DTYPES]


@pytest.mark.parametrize("cls,shape,dtype", CASES, ids=[f"{c}-{'x'.join(map(str, s))}-{d}" for c, s, d in CASES])
def test_auto_is_correct_on_the_suite(cls, shape, dtype):
    import cupy as cp

    M, N, K = shape
    gen = cp.random.default_rng()
    a = gen.uniform(-1, 1, (M, K)).astype(dtype)
    b = gen.uniform(-1, 1, (K, N)).astype(dtype)
    out = cp.full((M, N), np.nan, dtype=dtype)
    assert tm.matmul(a, b, out=out) is out
    report = tm.check(out, a, b)
    assert report.passed, (tm.kernel("auto").resolve(M, N, K, dtype), report)


#: shapes off the suite whose picks the seventeenth session's rules moved (scripts/variants_s17/,
#: benchmarks/RESULTS.md), with the rung `auto` must now run: float32 long-K small outputs on
#: wgmma_split_k's one-block-per-SM slices, float64 short-K picks of the cost model's rounds term,
#: 16-bit short-K small outputs on mma_half's 32 x 32 tile
MOVED = [("float32", (22, 185, 3899), "wgmma_split_k"), ("float32", (94, 50, 6180), "wgmma_split_k"),
         ("float32", (41, 59, 834), "wgmma_split_k"), ("float64", (4447, 127, 15), "dmma"),
         ("float64", (263, 867, 1212), "dmma_split_k"), ("float64", (10678, 2, 5), "dmma"),
         ("float16", (16, 664, 4), "mma_half"), ("bfloat16", (2, 2408, 6), "mma_half"),
         ("float16", (3609, 8, 43), "mma_half"), ("bfloat16", (48, 1056, 62), "mma_half")]


@pytest.mark.parametrize("dtype,shape,rung", MOVED, ids=[f"{d}-{'x'.join(map(str, s))}" for d, s, _ in MOVED])
def test_auto_is_correct_where_the_session17_rules_moved_it(dtype, shape, rung):
    import cupy as cp
    import ml_dtypes

    M, N, K = shape
    host = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng()
    a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(host))
    b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(host))
    out = cp.asarray(np.full((M, N), np.nan, dtype=host))
    assert tm.matmul(a, b, out=out) is out
    picked = tm.kernel("auto").kernel_for(M, N, K, dtype)
    assert picked.strategy.name == rung, picked
    report = tm.check(out, a, b)
    assert report.passed, (picked, report)


#: float32 shapes off the suite, under one wave of 128 x 128 tiles, where the heuristic gives
#: wgmma's 64-row or wgmma_split_k's tiles and dispatch.MODEL_TILES hands the pick to the cost
#: model (twenty-fourth session): plain, as a batch of two products (the batch hook: the cp.async
#: rungs, dispatch.plain_choice; 704 rows end in a partial tile, which execute re-picks a split-K
#: batch for) and with A read transposed in place
MODEL_TILES_SHAPES = [(1011, 1381, 2795), (727, 717, 7276), (3358, 291, 1498), (599, 361, 689), (704, 742, 4019)]


@pytest.mark.parametrize("form", ["plain", "batch", "a_transposed"])
@pytest.mark.parametrize("shape", MODEL_TILES_SHAPES, ids=["x".join(map(str, s)) for s in MODEL_TILES_SHAPES])
def test_auto_is_correct_where_model_tiles_moved_it(shape, form, fresh_tunedb):
    import cupy as cp

    from tiled_matmul import dispatch

    M, N, K = shape
    choice = dispatch.choose(M, N, K, "float32")
    assert choice.source in ("model", "shipped-db"), choice
    if choice.source == "model":
        assert choice.strategy in dispatch.MODEL_TILES["float32"][1]
    gen = cp.random.default_rng(M + N + K)
    count = 2 if form == "batch" else 1
    a = gen.uniform(-1, 1, (count, M, K), dtype=cp.float32)
    b = gen.uniform(-1, 1, (count, K, N), dtype=cp.float32)
    if form == "a_transposed":
        a = cp.ascontiguousarray(a.transpose(0, 2, 1)).transpose(0, 2, 1)  # column-major A, read in place
    out = cp.full((count, M, N), np.nan, dtype=cp.float32)
    assert tm.matmul(a, b, out=out) is out
    for i in range(count):
        report = tm.check(out[i], a[i], b[i])
        assert report.passed, (form, choice, report)
