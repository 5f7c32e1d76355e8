"""GPU tests of the kept plans of the general path (marked `gpu`): a matmul call on cupy arrays of
a form already checked and planned (same shapes, strides, dtypes, device, precision default and
dispatch epoch) launches from the plan with its own pointers, and must give what the full path
gives: right results on new data, the same errors for an `out` that overlaps an input, and a new
plan when the precision default changes.
"""

from __future__ import annotations

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import execute

from .conftest import poisoned

pytestmark = pytest.mark.gpu

FORMS = {
    "batched": ((6, 33, 20), (6, 20, 17)),
    "broadcast weight": ((4, 3, 65, 40), (40, 33)),
    "broadcast batch": ((5, 1, 7, 9), (3, 9, 129)),
    "vector @ batch": ((20,), (3, 20, 7)),
    "batch @ vector": ((3, 31, 20), (20,)),
    "small batch": ((64, 64, 64), (64, 64, 64)),
}


def _operands(rng, sa, sb, dtype, transpose_a=False):
    import cupy as cp

    a = cp.asarray(rng.uniform(-1, 1, sa).astype(dtype))
    b = cp.asarray(rng.uniform(-1, 1, sb).astype(dtype))
    if transpose_a and a.ndim >= 2:  # the same values, read through a column-major view
        a = cp.ascontiguousarray(a.swapaxes(-1, -2)).swapaxes(-1, -2)
    return a, b


def _check(got, a, b, dtype):
    import cupy as cp

    a64, b64 = cp.asnumpy(a).astype(np.float64), cp.asnumpy(b).astype(np.float64)
    ref = np.matmul(a64, b64)
    scale = np.matmul(np.abs(a64), np.abs(b64))
    K = a.shape[-1]
    got = cp.asnumpy(got).astype(np.float64)
    assert got.shape == ref.shape
    err = np.abs(got - ref)
    assert (err <= 2 * tm.tolerance(dtype, K) * scale + 1e-30).all(), float(np.nanmax(err - 2 * tm.tolerance(dtype, K) * scale))


@pytest.fixture
def no_general_path(monkeypatch):
    """After calling this, any call that reaches the full path fails the test."""
    def arm():
        def refuse(*args, **kwargs):
            raise AssertionError("the call took the full path, not its kept plan")

        monkeypatch.setattr(execute, "run", refuse)
    return arm


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("with_out", [False, True], ids=["fresh", "out"])
@pytest.mark.parametrize("transpose_a", [False, True], ids=["rowmajor", "colmajor"])
@pytest.mark.parametrize("form", list(FORMS))
def test_repeated_call_launches_from_its_plan(form, transpose_a, with_out, dtype, rng, no_general_path):
    """The second call of a form runs from the plan, right on new data, and makes the same
    row-major copies of its operands as the first (a config that does not read a column-major A
    reads a copy of it: the plan keeps that step)."""
    sa, sb = FORMS[form]
    execute.clear_plans()
    shape = np.matmul(np.zeros(sa), np.zeros(sb)).shape  # (zeros: no overflow warnings)
    a, b = _operands(rng, sa, sb, dtype, transpose_a)
    out = poisoned(shape, dtype) if with_out else None
    before = sum(execute.layout_copies_made.values())
    got = tm.matmul(a, b, out=out)
    copies = sum(execute.layout_copies_made.values()) - before
    _check(got, a, b, dtype)
    if not execute._plans:
        pytest.skip(f"{form}: this form is staged (no plan is kept); nothing to replay")
    a2, b2 = _operands(rng, sa, sb, dtype, transpose_a)  # new data and new pointers, same form
    out2 = poisoned(shape, dtype) if with_out else None
    no_general_path()
    before = sum(execute.layout_copies_made.values())
    got2 = tm.matmul(a2, b2, out=out2)
    assert sum(execute.layout_copies_made.values()) - before == copies
    if with_out:
        assert got2 is out2
    _check(got2, a2, b2, dtype)
    a2[...] = 0  # the replayed result was read from the operands of this call, not a stale copy
    got3 = tm.matmul(a2, b2, out=out2)
    _check(got3, a2, b2, dtype)


def test_plan_is_not_used_for_an_out_that_overlaps_an_input(rng):
    import cupy as cp

    execute.clear_plans()
    a = cp.asarray(rng.uniform(-1, 1, (4, 16, 16)).astype(np.float32))
    b = cp.asarray(rng.uniform(-1, 1, (4, 16, 16)).astype(np.float32))
    out = poisoned((4, 16, 16), np.float32)
    tm.matmul(a, b, out=out)
    assert execute._plans, "a batched call on cupy arrays keeps its plan"
    before = a.copy()
    with pytest.raises(ValueError):
        tm.matmul(a, b, out=a)  # same form as `out` above, but it is `a` itself
    assert bool((a == before).all()), "nothing is written to the caller's arrays on an error"


def test_a_new_precision_default_plans_again(rng, monkeypatch):
    import cupy as cp

    execute.clear_plans()
    a = cp.asarray(rng.uniform(-1, 1, (3, 64, 200)).astype(np.float32))
    b = cp.asarray(rng.uniform(-1, 1, (3, 200, 64)).astype(np.float32))
    tm.matmul(a, b)
    assert len(execute._plans) == 1
    previous = tm.set_precision("ieee")
    try:
        calls = []
        real = execute.run
        monkeypatch.setattr(execute, "run", lambda *args, **kw: calls.append(1) or real(*args, **kw))
        _check(tm.matmul(a, b), a, b, np.float32)
        assert calls, "a changed precision default must not reuse the plan made under another"
        assert len(execute._plans) == 2
    finally:
        tm.set_precision(previous)
