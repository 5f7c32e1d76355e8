"""Per-call host overhead of a cached kernel, and where it goes.

    PYTHONPATH=. python3 benchmarks/host_overhead.py [--calls 2000] [--profile]

Measures, at 64³ with a host clock over N calls (then one synchronize), the cost per call of:
cupy.matmul(out=), tm.matmul(out=) with a named strategy and with "auto", a MatmulKernel call,
and the bare CuPy launch of the compiled kernel, so the Python layers can be told apart.

Over 2,000 calls the clock also counts the GPU: once the launch queue is full, each call waits
for a kernel to finish, so a row cannot go below the kernel's own GPU time (printed too). The
"host only" column times 200 calls without waiting for the GPU (they fit in the queue): what
the Python side and the driver cost.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.timing import host_us_per_call, time_fn  # noqa: E402


def host_only_us(fn, calls: int) -> float:
    """Host microseconds per call of `calls` calls issued into an idle GPU's launch queue, timed
    without waiting for the kernels (fewer than the queue holds, so no call blocks)."""
    import time

    for _ in range(20):
        fn()
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    cp.cuda.Device().synchronize()
    return (t1 - t0) / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--strategy", default="register_blocked")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    n = 64
    a = cp.random.uniform(-1, 1, (n, n), dtype=cp.float32)
    b = cp.random.uniform(-1, 1, (n, n), dtype=cp.float32)
    out = cp.empty((n, n), cp.float32)
    k = tm.kernel(args.strategy)
    compiled = k.compiled("float32")
    grid = k.config.grid(n, n)
    launch_args = (a, b, out, np.int32(n), np.int32(n), np.int32(n), np.int32(3))
    rows = {
        "cupy.matmul(a, b, out=out)": lambda: cp.matmul(a, b, out=out),
        "bare RawKernel launch": lambda: compiled.raw(grid, k.config.block(), launch_args,
                                                       shared_mem=compiled.smem_bytes),
        f"tm.kernel({args.strategy!r})(a, b, out=out)": lambda: k(a, b, out=out),
        f"tm.matmul(a, b, {args.strategy!r}, out=out)": lambda: tm.matmul(a, b, args.strategy, out=out),
        "tm.matmul(a, b, 'auto', out=out)": lambda: tm.matmul(a, b, "auto", out=out),
        f"tm.matmul(a, b, {args.strategy!r})  (allocates C)": lambda: tm.matmul(a, b, args.strategy),
    }
    assert tm.check(tm.matmul(a, b, "auto", out=out), a, b).passed
    print(f"host overhead per call at {n}^3, host clock ({tm.device_limits().name})")
    print(f"  {args.calls} calls + sync | 200 calls, host only | GPU per call | call")
    for label, fn in rows.items():
        full = host_us_per_call(fn, args.calls)
        host = host_only_us(fn, 200)
        gpu = time_fn(lambda i: fn(), repeat=50).median_ms * 1e3
        print(f"  {full:7.1f} us | {host:7.1f} us | {gpu:7.1f} us | {label}")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.calls):
            tm.matmul(a, b, args.strategy, out=out)
        prof.disable()
        cp.cuda.Device().synchronize()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
