"""The tuner and `strategy="auto"` on a GPU (marked `gpu`; skipped without a device)."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import accuracy as check_mod
from tiled_matmul import api
from tiled_matmul import tunedb as tdb

from .conftest import poisoned

pytestmark = pytest.mark.gpu

from tiled_matmul import dispatch, precision
SUITE = [
    (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
    (3001, 2999, 3007), (8192, 8192, 128), (128, 8192, 8192), (16384, 64, 4096),
    (256, 256, 256), (4096, 4096, 16384),
]


@pytest.fixture(autouse=True)
def _user_db(fresh_tunedb):
    """Every test here starts from an empty user tuning DB and cold dispatch caches."""


def _inputs(M, N, K, dtype=np.float32, seed=None):
    import cupy as cp

    gen = cp.random.default_rng(seed)
    a = gen.random((M, K), dtype=dtype) * 2 - 1
    b = gen.random((K, N), dtype=dtype) * 2 - 1
    return a.astype(dtype, copy=False), b.astype(dtype, copy=False)


def test_tune_small_shape_returns_validated_best(tmp_path):
    M, N, K = 200, 264, 136
    r = tm.tune(M, N, K, repeat=3, progress=False)
    assert r.best is not None and r.best.status == "ok"
    ok = [c for c in r.candidates if c.status == "ok"]
    assert r.best.median_ms == min(c.median_ms for c in ok)
    tol = tm.tolerance("float32", K)
    assert all(c.rel_err is not None and c.rel_err <= tol for c in r.candidates if c.status in ("ok", "pruned"))
    # every tunable float32 strategy this GPU runs (the tuner leaves out wgmma off Hopper) that
    # computes a mode precision "auto" allows at this K (ieee only below TF32X3_MIN_K)
    modes = precision.modes_for("auto", "float32", K)
    assert {c.strategy for c in r.candidates} == {n for n, s in tm.STRATEGIES.items()
                                                  if s.tunable and s.runs_on() and s.supports("float32")
                                                  and set(s.config_cls.PRECISIONS) & set(modes)}
    assert {c.precision for c in r.candidates} <= set(modes) and r.precision == "auto"
    assert r.cublas_ms and r.cublas_ms > 0
    # persisted under the bucket for this device, and `auto` now picks it
    assert r.db_path == str(tmp_path / "user.json")
    entries = tdb.entries_for(tdb.read_db(r.db_path), tdb.device_id())
    assert entries[r.bucket]["strategy"] == r.strategy and entries[r.bucket]["params"] == r.params
    choice = dispatch.choose(M, N, K)
    assert (choice.source, choice.strategy, choice.params) == ("user-db", r.strategy, r.params)
    a, b = _inputs(M, N, K)
    out = poisoned((M, N), np.float32)
    tm.matmul(a, b, strategy="auto", out=out)
    assert tm.check(out, a, b).passed


def test_tune_rejects_wrong_candidates(monkeypatch):
    """A candidate whose result fails the check is never chosen."""
    real = check_mod.check
    bad = tm.STRATEGIES["register_blocked"].default.params()

    def fake(c, a, b, tol=None):
        rep = real(c, a, b, tol)
        return dataclasses.replace(rep, passed=False) if state["current"] == bad else rep

    state = {"current": None}
    real_kernel = tm.kernel

    def spy_kernel(strategy="register_blocked", **params):
        state["current"] = tm.STRATEGIES[strategy].make_config(**params).params() if strategy != "auto" else None
        return real_kernel(strategy, **params)

    monkeypatch.setattr(check_mod, "check", fake)
    monkeypatch.setattr(api, "kernel", spy_kernel)
    r = tm.tune(96, 96, 96, strategies=["register_blocked"], repeat=3, progress=False, save=False, cublas=False)
    statuses = {tuple(c.params.items()): c.status for c in r.candidates}
    assert statuses[tuple(bad.items())] == "failed"
    assert r.best is not None and r.best.params != bad and r.db_path is None


@pytest.mark.parametrize("M,N,K", SUITE, ids=["x".join(map(str, s)) for s in SUITE])
def test_auto_correct_on_suite(M, N, K):
    a, b = _inputs(M, N, K, seed=M + N + K)
    out = poisoned((M, N), np.float32)
    res = tm.matmul(a, b, strategy="auto", out=out)
    assert res is out
    report = tm.check(out, a, b)
    assert report.passed, (dispatch.choose(M, N, K), report)
    ident = tdb.device_id()
    shipped = any(p.name == "tuned_h100.json" for p in tdb.shipped_db_paths())
    if shipped and ident.name == tdb.H100_NAME and ident.cc == "90":
        # the shipped entry answers wherever it exists and computes a mode "auto" allows for this
        # K (below TF32X3_MIN_K a tensor-core entry is passed over for the FFMA rules)
        found = dispatch.lookup_entry(M, N, K)
        # (otherwise the fallback: the heuristic, or the model for float32's mid-size tiles)
        assert dispatch.choose(M, N, K).source in (("shipped-db",) if found else ("heuristic", "model"))


def test_kernel_auto_dispatches_per_shape():
    k = tm.kernel("auto")
    for M, N, K in [(33, 65, 17), (512, 384, 1000), (3001, 2999, 3007)]:
        a, b = _inputs(M, N, K)
        out = poisoned((M, N), np.float32)
        k(a, b, out=out)
        assert tm.check(out, a, b).passed
        assert k.kernel_for(M, N, K).config == tm.kernel(dispatch.choose(M, N, K).strategy,
                                                         **dispatch.choose(M, N, K).params).config
    a, b = _inputs(100, 70, 130, dtype=np.float64)
    c = k(a, b)
    assert c.dtype == np.float64 and tm.check(c, a, b).passed
    # numpy in, numpy out
    an, bn = (x.get() for x in _inputs(64, 48, 80))
    cn = tm.matmul(an, bn, strategy="auto")
    assert isinstance(cn, np.ndarray) and tm.check(cn, an, bn).passed


def test_auto_dispatch_overhead():
    """A cached auto call costs about what an explicit-strategy call costs on the host."""
    import cupy as cp

    a, b = _inputs(64, 64, 64)
    c = cp.empty((64, 64), np.float32)
    choice = dispatch.choose(64, 64, 64)
    for _ in range(50):
        tm.matmul(a, b, strategy="auto", out=c)
        tm.matmul(a, b, choice.strategy, out=c, **choice.params)
    cp.cuda.Device().synchronize()

    def per_call(fn, n=2000):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            best = min(best, (time.perf_counter() - t0) / n)
            cp.cuda.Device().synchronize()
        return best * 1e6

    t_auto = per_call(lambda: tm.matmul(a, b, strategy="auto", out=c))
    t_named = per_call(lambda: tm.matmul(a, b, choice.strategy, out=c, **choice.params))
    # the auto lookup itself, cached: a dict hit
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        tm.kernel("auto").kernel_for(64, 64, 64, "float32", 0)
    t_lookup = (time.perf_counter() - t0) / n * 1e6
    print(f"host us/call: auto {t_auto:.2f}, named {t_named:.2f}, auto lookup {t_lookup:.2f}")
    assert t_lookup < 3.0, t_lookup
    assert t_auto <= 1.25 * t_named + 3.0, (t_auto, t_named)  # timing noise on a shared host


def test_tune_tf32_tries_one_pass_configs_and_auto_finds_them(fresh_tunedb):
    M = N = K = 1024
    r = tm.tune(M, N, K, strategies=["tensor_core"], repeat=3, progress=False, precision="tf32")
    assert r.best is not None and r.precision == "tf32" and r.bucket == tdb.bucket(M, N, K, "float32", "tf32")
    assert {c.precision for c in r.candidates} == {"tf32"} and r.best.params["passes"] == 1
    choice = dispatch.choose(M, N, K, precision="tf32")
    assert (choice.source, choice.strategy, choice.params) == ("user-db", r.strategy, r.params)
    assert dispatch.choose(M, N, K, precision="auto").source != "user-db"


@pytest.mark.parametrize("strategies", [["wgmma", "wgmma_split_k", "split_k"], ["register_blocked"]],
                         ids=["wgmma_rungs", "one_slow_rung"])
def test_tune_times_autos_transposed_run_and_keeps_it_where_it_wins(strategies, fresh_tunedb):
    """An A·x product auto computes as its transpose (dispatch.transposed_choice): tune times that
    run too (validated like a candidate), and saves an entry, which would replace it, only where
    a candidate beat it. Limited to register_blocked, the transposed tensor-core run wins."""
    import warnings

    M, N, K = 8192, 32, 4096
    t = dispatch.transposed_choice(M, N, K, "float32")
    assert t is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = tm.tune(M, N, K, strategies=strategies, repeat=3, progress=False)
    tr = r.transposed
    assert tr is not None and tr.status == "ok" and tr.strategy == t.strategy, tr
    assert tr.rel_err is not None and tr.rel_err <= tr.tol
    assert tm.STRATEGIES[t.strategy].make_config(**tr.params) == tm.STRATEGIES[t.strategy].make_config(**t.params)
    assert r.best is not None
    assert r.transposed_wins == (tr.median_ms < r.best.median_ms)
    if strategies == ["register_blocked"]:
        assert r.transposed_wins, (tr.median_ms, r.best.median_ms)  # FFMA against tf32x3 tensor cores
    saved = dispatch.choose(M, N, K).source == "user-db"
    assert saved == (not r.transposed_wins) == (r.db_path is not None)
    assert any("beat every candidate" in str(w.message) for w in caught) == r.transposed_wins
    if r.transposed_wins:  # nothing saved: auto still runs the transposed computation
        assert dispatch.choose(M, N, K).transposed is not None
