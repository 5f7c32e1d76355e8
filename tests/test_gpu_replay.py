"""GPU tests of the kept plans of the general path (marked `gpu`): a matmul call on cupy arrays of
a form already checked and planned (same shapes, strides, dtypes, device, precision default and
dispatch epoch) launches from the plan with its own pointers, and must give what the full path
gives: right results on new data, the same errors for an `out` that overlaps an input, and a new
plan when the precision default changes. gemm calls too, with their c, bias and arrays.
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


#: gemm forms: (a's shape, b's shape, keywords with arrays named by shape: ("c", shape),
#: ("bias", length), ("array", length)); dtype last
GEMMS = {
    "2-D bias gelu": ((64, 64), (64, 64), dict(bias=("bias", 64), activation="gelu"), np.float32),
    "2-D alpha beta c": ((33, 129), (129, 70), dict(alpha=2.0, beta=0.5, c=("c", (33, 70))), np.float32),
    "broadcast c row": ((5, 33, 40), (40, 70), dict(beta=-1.0, c=("c", (70,))), np.float64),
    "batched bias by rows": ((3, 31, 20), (3, 20, 17), dict(bias=("bias", 31), bias_axis=0), np.float32),
    "expression arrays": ((40, 48), (48, 96), dict(epilogue="acc * scale[j]", scale=("array", 96)), np.float32),
    "16-bit bias c": ((7, 64, 96), (96, 128), dict(beta=1.0, c=("c", (7, 64, 128)), bias=("bias", 128),
                                                   activation="relu"), np.float16),
    "trans_a": ((96, 50), (96, 40), dict(trans_a=True, alpha=-0.5, bias=("bias", 40)), np.float32),
}


def _gemm_args(rng, sa, sb, kw, dtype):
    import cupy as cp

    a, b = _operands(rng, sa, sb, dtype)
    args = {}
    for k, v in kw.items():
        if isinstance(v, tuple) and v[0] in ("c", "bias", "array"):
            edt = np.float32 if v[0] != "c" else dtype
            args[k] = cp.asarray(rng.uniform(-1, 1, v[1]).astype(edt))
        else:
            args[k] = v
    return a, b, args


def _gemm_check(got, a, b, args, dtype):
    """Per element against float64 (tests/test_gpu_gemm.py's bound and formula)."""
    import cupy as cp

    from .test_gpu_gemm import assert_close, unfused

    a64, b64 = cp.asnumpy(a).astype(np.float64), cp.asnumpy(b).astype(np.float64)
    if args.get("trans_a"):
        a64 = a64.swapaxes(-1, -2)
    host = {k: cp.asnumpy(v) for k, v in args.items() if isinstance(v, cp.ndarray)}
    ref, scale = unfused(a64, b64, args.get("alpha", 1.0), args.get("beta", 0.0), host.get("c"), host.get("bias"),
                         args.get("bias_axis", 1), args.get("activation"))
    if "scale" in host:  # the expression's array, by column
        ref, scale = ref * host["scale"], scale * np.abs(host["scale"])
    assert_close(got, ref, scale, dtype, a64.shape[-1], "gemm")


@pytest.mark.parametrize("with_out", [False, True], ids=["fresh", "out"])
@pytest.mark.parametrize("form", list(GEMMS))
def test_repeated_gemm_launches_from_its_plan(form, with_out, rng, no_general_path):
    """A gemm call's second call of a form runs from the plan with its own c, bias and arrays
    (staged again as the first call staged them), right on new data."""
    sa, sb, kw, dtype = GEMMS[form]
    execute.clear_plans()
    a, b, args = _gemm_args(rng, sa, sb, kw, dtype)
    za = np.zeros(sa)
    shape = np.matmul(za.swapaxes(-1, -2) if kw.get("trans_a") else za, np.zeros(sb)).shape
    out = poisoned(shape, dtype) if with_out else None
    got = tm.gemm(a, b, out=out, **args)
    _gemm_check(got, a, b, args, dtype)
    assert execute._plans, f"{form}: a gemm call on cupy arrays keeps its plan"
    a2, b2, args2 = _gemm_args(rng, sa, sb, kw, dtype)
    out2 = poisoned(shape, dtype) if with_out else None
    no_general_path()
    got2 = tm.gemm(a2, b2, out=out2, **args2)
    if with_out:
        assert got2 is out2
    _gemm_check(got2, a2, b2, args2, dtype)
    for x in args2.values():  # the replay read this call's epilogue inputs, not the first call's
        if hasattr(x, "fill"):
            x.fill(0.25)
    _gemm_check(tm.gemm(a2, b2, out=out2, **args2), a2, b2, args2, dtype)


def test_replayed_in_place_accumulate(rng, no_general_path):
    """gemm(a, b, c, beta=1, out=c) repeated: c read where it lies, as out, on every call."""
    import cupy as cp

    execute.clear_plans()
    a, b = _operands(rng, (2, 48, 80), (80, 56), np.float32)
    c = cp.asarray(rng.uniform(-1, 1, (2, 48, 56)).astype(np.float32))
    total = cp.asnumpy(c).astype(np.float64)
    tm.gemm(a, b, c, beta=1.0, out=c)
    total += np.matmul(cp.asnumpy(a).astype(np.float64), cp.asnumpy(b).astype(np.float64))
    no_general_path()
    for _ in range(3):
        assert tm.gemm(a, b, c, beta=1.0, out=c) is c
        total += np.matmul(cp.asnumpy(a).astype(np.float64), cp.asnumpy(b).astype(np.float64))
    scale = 4 * np.matmul(np.abs(cp.asnumpy(a)), np.abs(cp.asnumpy(b))).astype(np.float64) + np.abs(total)
    err = np.abs(cp.asnumpy(c) - total)
    assert (err <= 4 * tm.tolerance(np.float32, 80) * scale).all()


def test_gemm_plan_is_not_used_for_overlaps_or_new_scalars(rng, monkeypatch):
    """An out that overlaps bias (same form as a planned out) raises as the full path does, with
    nothing written; another alpha value is another form (planned again, right)."""
    import cupy as cp

    execute.clear_plans()
    a, b = _operands(rng, (64, 64), (64, 64), np.float32)
    bias = cp.asarray(rng.uniform(-1, 1, 64).astype(np.float32))
    out = poisoned((64, 64), np.float32)
    tm.gemm(a, b, bias=bias, out=out)
    assert len(execute._plans) == 1
    big = cp.zeros((64, 64), np.float32)
    with pytest.raises(ValueError, match="overlaps input bias"):
        tm.gemm(a, b, bias=big[3], out=big)
    assert not bool(big.any()), "nothing is written to the caller's arrays on an error"
    calls = []
    real = execute.run
    monkeypatch.setattr(execute, "run", lambda *args, **kw: calls.append(1) or real(*args, **kw))
    got = tm.gemm(a, b, bias=bias, alpha=3.0, out=out)
    assert calls and len(execute._plans) == 2
    _gemm_check(got, a, b, dict(bias=bias, alpha=3.0), np.float32)
