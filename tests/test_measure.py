"""The measurement core on the CPU: a numpy stand-in for CuPy runs validate-then-time for real,
so its rules are checked without a GPU (the timings it reads are host-clock stand-ins)."""

from __future__ import annotations

import sys
import time
import types

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import measure


class _Event:
    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass


@pytest.fixture
def numpy_cupy(monkeypatch):
    """numpy under the name cupy, with host-clock events: enough for measure, accuracy and bench."""
    fake = types.ModuleType("cupy")
    for name in ("asarray", "empty", "float32", "float64", "matmul", "isnan", "isinf", "isfinite", "where", "abs",
                 "count_nonzero", "linalg", "nan"):
        setattr(fake, name, getattr(np, name))
    fake.random = types.SimpleNamespace(default_rng=np.random.default_rng)
    fake.cuda = types.SimpleNamespace(
        Event=_Event, get_current_stream=lambda: None,
        get_elapsed_time=lambda s, e: (e.t - s.t) * 1e3)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    return fake


def _matmul(a, b, c):
    np.matmul(a, b, out=c)


def test_a_result_that_fails_its_check_is_never_timed(numpy_cupy):
    calls = []

    def wrong(a, b, c):
        calls.append(1)
        c.fill(0)

    sets = measure.make_inputs((40, 30, 20), "float32")
    rec = measure.measure(measure.Row("t", "wrong", wrong), sets, None, repeat=5)
    assert rec.status == measure.FAILED and "validation failed" in rec.message
    assert rec.median_ms is None and rec.repeats == 0 and rec.rel_err > rec.tol
    assert len(calls) == 1  # the validating call only


def test_an_unwritten_output_fails_because_it_is_poisoned(numpy_cupy):
    sets = measure.make_inputs((16, 16, 16), "float32")
    _matmul(*sets[0])  # a correct C from an earlier call must not let a no-op pass
    rec = measure.measure(measure.Row("t", "noop", lambda a, b, c: None), sets, None)
    assert rec.status == measure.FAILED


def test_a_row_that_raises_is_an_error_record(numpy_cupy):
    def broken(a, b, c):
        raise ValueError("no such launch\nsecond line")

    rec = measure.measure(measure.Row("t", "broken", broken), measure.make_inputs((8, 8, 8), "float64"), None)
    assert (rec.status, rec.message) == (measure.ERROR, "ValueError: no such launch")


def test_a_correct_row_is_timed_with_the_planned_repeats(numpy_cupy):
    sets = measure.make_inputs((64, 48, 32), "float64", n_sets=2)
    rec = measure.measure(measure.Row("t", "numpy", _matmul), sets, None, repeat=4, budget_s=60)
    assert rec.status == measure.OK and rec.ok and rec.timed == "call"
    assert (rec.shape, rec.dtype, rec.repeats, rec.input_sets) == ((64, 48, 32), "float64", 4, 2)
    assert rec.min_ms <= rec.median_ms <= rec.max_ms
    assert rec.rel_err <= rec.tol == tm.tolerance("float64", 32)
    assert rec.tflops == pytest.approx(2 * 64 * 48 * 32 / (rec.median_ms * 1e-3) / 1e12)
    v = measure.validate(measure.Row("t", "numpy", _matmul), sets)
    p = measure.pruned(measure.Row("t", "numpy", _matmul), v, sets, "slow")
    assert (p.status, p.repeats, p.median_ms) == (measure.PRUNED, 1, v.probe_ms)


def test_fresh_inputs_differ_unless_seeded(numpy_cupy):
    (a1, b1, _), = measure.make_inputs((8, 8, 8), "float32")
    (a2, _, _), = measure.make_inputs((8, 8, 8), "float32")
    (a3, _, _), = measure.make_inputs((8, 8, 8), "float32", seed=1)
    (a4, _, _), = measure.make_inputs((8, 8, 8), "float32", seed=1)
    assert a1.dtype == np.float32 and b1.shape == (8, 8)
    assert -1 <= a1.min() and a1.max() < 1
    assert not np.array_equal(a1, a2) and np.array_equal(a3, a4)


def test_tuner_prunes_only_slow_first_calls_above_the_floor():
    """A first call over 3x the best median is pruned only when it is also over PRUNE_FLOOR_MS:
    a tens-of-microseconds call is mostly host work (a split-K product's two launches), not the
    kernel's speed."""
    from tiled_matmul.tuner import PRUNE_FLOOR_MS, should_prune

    best = types.SimpleNamespace(median_ms=0.013)
    assert not should_prune(0.07, best, 3.0)  # 5x best, but a 70 us call: timed in full
    assert not should_prune(5.0, None, 3.0)  # nothing to compare with yet
    big = types.SimpleNamespace(median_ms=2.0)
    assert should_prune(6.5, big, 3.0) and not should_prune(5.5, big, 3.0)
    assert should_prune(PRUNE_FLOOR_MS * 1.01, types.SimpleNamespace(median_ms=0.1), 3.0)
    assert not should_prune(PRUNE_FLOOR_MS * 0.99, types.SimpleNamespace(median_ms=0.1), 3.0)
