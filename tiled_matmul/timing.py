"""The low-level clocks under :mod:`tiled_matmul.measure`: CUDA events, the L2 flush, the host clock.

Nothing here decides what to time or how often; measure.py does, and is the only importer.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

from .device import device_limits


@dataclass(frozen=True)
class Timing:
    median_ms: float
    min_ms: float
    max_ms: float
    iqr_ms: float  # spread: 75th - 25th percentile
    repeats: int

    def tflops(self, M: int, N: int, K: int) -> float:
        return 2.0 * M * N * K / (self.median_ms * 1e-3) / 1e12 if self.median_ms > 0 else 0.0


#: a one-thread kernel that holds the GPU for `cycles` SM clocks (L2Flusher's host lead)
_SPIN_SOURCE = r"""
extern "C" __global__ void tm_spin(long long cycles) {
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}"""


class L2Flusher:
    """Writes a buffer of twice the L2 size so each timed repeat starts with a cold cache, then
    (`ahead_us` > 0) queues a one-thread spin kernel that holds the GPU that long.

    Why the spin: a timed call is queued right after the flush; when the host takes longer to
    queue the call's launches than the GPU takes to write the buffer (~33 us on an H100, while a
    split-K product's host work is 25-60 us depending on the host), the start event fires before
    the call's kernels are queued and the events time the host, not the GPU. With the spin the
    host is ahead by `ahead_us`, so the events bracket the call's GPU work on any host (its host
    cost is measured on its own: benchmarks/host_overhead.py). cuBLAS rows get the same lead.
    """

    def __init__(self, l2_bytes: "int | None" = None, ahead_us: float = 200.0):
        import cupy

        if l2_bytes is None:
            l2_bytes = device_limits().l2_bytes
        self.buf = cupy.empty(2 * l2_bytes // 4 + 1024, dtype=cupy.float32)
        self.spin = None
        if ahead_us > 0:
            # the SM clock's top rate (kHz); 2 GHz where the runtime no longer reports it
            khz = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id).get("clockRate") or 2_000_000
            self.cycles = cupy.int64(int(ahead_us * khz / 1000))
            self.spin = cupy.RawKernel(_SPIN_SOURCE, "tm_spin")

    def __call__(self) -> None:
        self.buf.fill(0)
        if self.spin is not None:
            self.spin((1,), (1,), (self.cycles,))


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


def host_us_per_call(fn: Callable[[], object], calls: int = 2000, warmup: int = 50, wait: bool = True) -> float:
    """Host microseconds per call of `fn` over `calls` back-to-back calls (host clock, the device
    synchronised before the first): the per-call launch overhead when `fn` is a tiny launch.

    With `wait` the clock stops after a final synchronize, so it also counts the GPU once the
    launch queue is full; without it, it stops as the last call returns (keep `calls` below what
    the queue holds so that no call blocks): what the Python side and the driver cost.
    """
    import cupy

    for _ in range(warmup):
        fn()
    cupy.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    cupy.cuda.Device().synchronize()
    if wait:
        t1 = time.perf_counter()
    return (t1 - t0) / calls * 1e6
