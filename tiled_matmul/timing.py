"""Timing with CUDA events: warm-up, L2 flush between repeats, median and spread.

Used by the benchmarks, the bench command and the tuner, so every number in the project is
measured the same way.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Timing:
    median_ms: float
    min_ms: float
    max_ms: float
    iqr_ms: float  # spread: 75th - 25th percentile
    repeats: int

    def tflops(self, M: int, N: int, K: int) -> float:
        return 2.0 * M * N * K / (self.median_ms * 1e-3) / 1e12 if self.median_ms > 0 else 0.0


class L2Flusher:
    """Writes a buffer larger than L2 so each timed repeat starts with a cold cache."""

    def __init__(self, l2_bytes: "int | None" = None):
        import cupy

        if l2_bytes is None:
            l2_bytes = cupy.cuda.Device().attributes["L2CacheSize"]
        self.buf = cupy.empty(2 * l2_bytes // 4 + 1024, dtype=cupy.float32)

    def __call__(self) -> None:
        self.buf.fill(0)


def time_fn(fn: Callable[[int], object], repeat: int = 20, warmup: int = 3, flush: "L2Flusher | None" = None) -> Timing:
    """Median time of `fn(i)` over `repeat` calls, each bracketed by CUDA events.

    `fn` gets the repeat index so the caller can rotate input sets. The L2 flush (if any) runs
    before the start event, so it is not timed.
    """
    import cupy

    for i in range(warmup):
        fn(i)
    stream = cupy.cuda.get_current_stream()
    starts = [cupy.cuda.Event() for _ in range(repeat)]
    ends = [cupy.cuda.Event() for _ in range(repeat)]
    for i in range(repeat):
        if flush is not None:
            flush()
        starts[i].record(stream)
        fn(i)
        ends[i].record(stream)
    ends[-1].synchronize()
    times = sorted(cupy.cuda.get_elapsed_time(s, e) for s, e in zip(starts, ends))
    q = statistics.quantiles(times, n=4) if len(times) >= 2 else [times[0]] * 3
    return Timing(statistics.median(times), times[0], times[-1], q[2] - q[0], repeat)


def host_us_per_call(fn: Callable[[], object], calls: int = 2000, warmup: int = 50) -> float:
    """Host microseconds per call of `fn` over `calls` back-to-back calls (host clock, one
    synchronize at each end): the per-call launch overhead when `fn` is a tiny launch."""
    import time

    import cupy

    for _ in range(warmup):
        fn()
    cupy.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    cupy.cuda.Device().synchronize()
    return (time.perf_counter() - t0) / calls * 1e6
