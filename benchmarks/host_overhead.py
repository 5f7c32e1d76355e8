"""Per-call host overhead of a cached kernel, and where it goes.

    PYTHONPATH=. python3 benchmarks/host_overhead.py [--calls 2000] [--profile]

Measures, at 64³ with a host clock over N calls (then one synchronize), the cost per call of:
cupy.matmul(out=), tm.matmul(out=) with a named strategy and with "auto", a MatmulKernel call,
the bare CuPy launch of the compiled kernel, so the Python layers can be told apart, and two calls
of the general path (tm.gemm, and tm.matmul on a column-major view of A). Every
call is first validated (NaN-poisoned output, float64 reference) by tiled_matmul.measure; one
that fails is reported and not timed.

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
import sys

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.measure import Row, host_us_per_call, make_inputs, time_validated, validate  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--strategy", default="register_blocked")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    n = 64
    sets = make_inputs((n, n, n), "float32")
    a, b, out = sets[0]
    k = tm.kernel(args.strategy)
    compiled = k.compiled("float32")
    grid = k.config.grid(n, n)
    launch_args = (a, b, out, np.int32(n), np.int32(n), np.int32(n), np.int32(3))
    a_col = cp.ascontiguousarray(a.T).T  # a's values through a column-major view
    # Each call works on (a, b, out) itself, with nothing between the clock and the call.
    calls = {
        "cupy.matmul(a, b, out=out)": lambda: cp.matmul(a, b, out=out),
        "bare RawKernel launch": lambda: compiled.raw(grid, k.config.block(), launch_args,
                                                       shared_mem=compiled.smem_bytes),
        f"tm.kernel({args.strategy!r})(a, b, out=out)": lambda: k(a, b, out=out),
        f"tm.matmul(a, b, {args.strategy!r}, out=out)": lambda: tm.matmul(a, b, args.strategy, out=out),
        "tm.matmul(a, b, 'auto', out=out)": lambda: tm.matmul(a, b, "auto", out=out),
        f"tm.matmul(a, b, {args.strategy!r})  (allocates C)": lambda: tm.matmul(a, b, args.strategy),
        # the general path (execute.run): a gemm call always takes it; a column-major A replays
        # a kept plan where the picked config reads it in place, else it is copied every call
        "tm.gemm(a, b, out=out)  (general path)": lambda: tm.gemm(a, b, out=out),
        "tm.matmul(a_col, b, out=out)  (A column-major, same values)": lambda: tm.matmul(a_col, b, out=out),
    }
    print(f"host overhead per call at {n}^3, host clock ({tm.device_limits().name})")
    print(f"  {args.calls} calls + sync | 200 calls, host only | GPU per call | call")
    failed = 0
    for label, fn in calls.items():
        row = Row("host_overhead", label, lambda _a, _b, _c, fn=fn: fn())
        v = validate(row, sets)
        if v.rejected is not None:
            failed += 1
            print(f"  {v.rejected.status.upper()}: {v.rejected.message} | {label}")
            continue
        full = host_us_per_call(fn, args.calls)
        host = host_us_per_call(fn, 200, warmup=20, wait=False)
        gpu = time_validated(row, v, sets, None, repeat=50, budget_s=float("inf")).median_ms * 1e3
        print(f"  {full:7.1f} us | {host:7.1f} us | {gpu:7.1f} us | {label}")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.calls):
            tm.matmul(a, b, args.strategy, out=out)
        prof.disable()
        cp.cuda.Device().synchronize()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
