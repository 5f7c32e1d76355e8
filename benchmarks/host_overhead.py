"""Per-call host overhead of a cached kernel, and where it goes.

    PYTHONPATH=. python3 benchmarks/host_overhead.py [--calls 2000] [--profile]

Measures, at 64³ with a host clock over N calls (then one synchronize), the cost per call of:
cupy.matmul(out=), tm.matmul(out=) with a named strategy and with "auto", a MatmulKernel call,
and the bare CuPy launch of the compiled kernel, so the Python layers can be told apart.
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
from tiled_matmul.timing import host_us_per_call  # noqa: E402


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
    print(f"host overhead per call at {n}^3, {args.calls} calls, host clock ({tm.device_limits().name})")
    for label, fn in rows.items():
        print(f"  {host_us_per_call(fn, args.calls):7.1f} us  {label}")
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
