"""What the twenty-fifth session's probes share: auto's pick with heuristic constants patched, and
two checked calls timed beside cuBLAS and a device copy."""
from __future__ import annotations

import math
import os
import statistics
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul import dispatch, heuristic
from tiled_matmul.timing import time_fn

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
from _rounds import pct_of_copy, timed_with_copy  # noqa: E402


def choose_patched(M: int, N: int, K: int, precision: str = "auto", **attrs) -> dispatch.Choice:
    """auto's float32 pick with the heuristic's module attributes `attrs` replaced (the dispatch
    cache cleared before and after)."""
    saved = {k: getattr(heuristic, k) for k in attrs}
    for k, v in attrs.items():
        setattr(heuristic, k, v)
    try:
        dispatch.clear_cache()
        return dispatch.choose(M, N, K, "float32", precision=precision)
    finally:
        for k, v in saved.items():
            setattr(heuristic, k, v)
        dispatch.clear_cache()


def time_pair(a, b, c, calls: dict, flush) -> dict:
    """Two named calls writing c = a @ b, each checked first (NaN-poisoned c, tm.check), timed with
    cupy.matmul and a device copy of the product's bytes in 3 alternating rounds. Returns {"ok",
    "cublas_us", "x": {name: median over rounds of cuBLAS's time / its}, "first_over_second":
    median over rounds of the second's time / the first's (above 1: the first is faster), "pct":
    {name: % of the copy's rate}}."""
    (M, K), N = a.shape, b.shape[1]
    ok = True
    for f in calls.values():
        c.fill(cupy.nan)
        f()
        ok &= tm.check(c, a, b).passed
    nbytes = (M * K + K * N + M * N) * 4
    res, med = timed_with_copy({"cublas": lambda: cupy.matmul(a, b), **calls}, nbytes, 3, flush)
    first, second = calls
    return {"ok": ok, "cublas_us": med["cublas"] * 1e3,
            "x": {k: statistics.median(x / t for x, t in zip(res["cublas"], res[k])) for k in calls},
            "first_over_second": statistics.median(s / f for f, s in zip(res[first], res[second])),
            "pct": {k: pct_of_copy(nbytes, med[k], med["copy"]) for k in calls}}


def print_means(logs: dict) -> None:
    """One line per key of `logs` ({label: [log ratios]}): geometric mean, count, lowest, highest."""
    for k, v in logs.items():
        label = " ".join(k) if isinstance(k, tuple) else k
        print(f"{label}: geometric mean x cuBLAS {math.exp(statistics.fmean(v)):.3f} over {len(v)} "
              f"(lowest {math.exp(min(v)):.2f}, highest {math.exp(max(v)):.2f})")


def rounds(fns: dict, count: int, flush) -> dict:
    """{name: median ms over `count` alternating rounds} and the rounds themselves, as
    ({name: median}, {name: [ms per round]}) (CUDA events, L2 flushed, 15 repeats a round)."""
    res = {n: [] for n in fns}
    for _ in range(count):
        for n, f in fns.items():
            res[n].append(time_fn(lambda i, f=f: f(), repeat=15, warmup=3, flush=flush).median_ms)
    return {n: statistics.median(v) for n, v in res.items()}, res
