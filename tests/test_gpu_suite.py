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
