"""A wide config grid of the memory-bound rungs on the float32 GEMV rows under 88% of a device
copy's bandwidth (fourteenth session): every valid config of a grid, timed against cupy.matmul and
a device copy of the same bytes (CUDA events, L2 flushed, medians), then the best few again in
alternating rounds beside the shipped pick, also with K split more than k_splits picks.

    PYTHONPATH=. python3 scripts/variants_s14/probe_gemv_grid.py [ax|xb8|xb1] ...
"""

from __future__ import annotations

import itertools
import sys
import time

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

GRIDS = {
    "ax": ("gemv_ax", 8192, 8, 8192, [dict(nt=8, rows=r, unroll=u, threads=t, min_blocks=mb)
                                      for r, u, t, mb in itertools.product((1, 2, 4, 8), (1, 2, 4, 8),
                                                                           (128, 256, 512), (1, 2, 3, 4))]),
    "xb8": ("gemv_xb", 8, 8192, 8192, [dict(mt=8, unroll=u, threads=t, min_blocks=mb, kg=kg)
                                       for u, t, mb, kg in itertools.product((2, 4, 8, 12, 16), (128, 256, 512),
                                                                             (1, 2, 4), (1, 8, 16, 32))]),
    "xb1": ("gemv_xb", 1, 4096, 16384, [dict(mt=1, unroll=u, threads=t, min_blocks=mb, kg=kg)
                                        for u, t, mb, kg in itertools.product((4, 8, 16), (128, 256, 512),
                                                                              (1, 2, 4), (1, 8, 16, 32))]),
}


def med_us(fn, flush, repeat=15) -> float:
    return time_fn(lambda i: fn(), repeat=repeat, warmup=3, flush=flush).median_ms * 1e3


def forced_splits(cls, s):
    """Context: cls.k_splits returns s (None: unchanged)."""
    orig = cls.k_splits

    class Ctx:
        def __enter__(self):
            if s is not None:
                cls.k_splits = lambda self, M, N, K, sms, dtype=None: s
        def __exit__(self, *a):
            cls.k_splits = orig
    return Ctx()


def run(case: str) -> None:
    name, M, N, K, cands = GRIDS[case]
    dt = "float32"
    flush = L2Flusher()
    a = cp.random.uniform(-1, 1, (M, K)).astype(dt)
    b = cp.random.uniform(-1, 1, (K, N)).astype(dt)
    c = cp.empty((M, N), dtype=dt)
    nbytes = a.nbytes + b.nbytes + c.nbytes
    src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
    copy_us = med_us(lambda: dst.data.copy_from_device_async(src.data, nbytes), flush)
    pct = lambda t: 100 * copy_us / (2 * t)
    cublas = med_us(lambda: cp.matmul(a, b, out=c), flush)
    pick = tm.kernel("auto").kernel_for(M, N, K, dt)
    auto = med_us(lambda: tm.matmul(a, b, out=c), flush)
    print(f"== {M}x{N}x{K} {dt}: copy {copy_us:.1f} us (x0.5 = {copy_us / 2:.1f}); cuBLAS {cublas:.1f}; "
          f"auto {auto:.1f} ({pct(auto):.1f}%) = {pick.strategy.name} {pick.config.params()}", flush=True)
    res = []
    t0 = time.time()
    for params in cands:
        try:
            k = tm.kernel(name, **params)
            k.config.validate(dtype=dt)
        except ValueError:
            continue
        c[...] = cp.nan
        k(a, b, out=c)
        ok = tm.check(c, a, b).passed
        t = med_us(lambda: k(a, b, out=c), flush, repeat=9)
        res.append((t, params, ok))
        print(f"    {str(params):<75} {t:7.1f} us {pct(t):5.1f}% {'ok' if ok else 'WRONG'}", flush=True)
        if time.time() - t0 > 170:
            print("    (grid cut at 170 s)")
            break
    res.sort(key=lambda r: r[0])
    top = [p for _, p, ok in res if ok][:5]
    shipped = pick.config.params() if pick.strategy.name == name else None
    entries = [(p, None) for p in top] + [(p, s) for p in top[:3] for s in (2, 4, 8)]
    if shipped is not None:
        entries.append((shipped, None))
    times = {i: [] for i in range(len(entries))}
    for rnd in range(3):
        for i, (p, s) in enumerate(entries):
            k = tm.kernel(name, **p)
            with forced_splits(type(k.config), s):
                times[i].append(med_us(lambda: k(a, b, out=c), flush))
    print(f"  rounds (3, alternating), cuBLAS {cublas:.1f} us:")
    for i, (p, s) in enumerate(entries):
        t = sorted(times[i])[1]
        tag = " (shipped)" if shipped is not None and p == shipped and s is None else ""
        print(f"    {str(p):<75} splits={s or 'auto':<4} {t:7.1f} us {pct(t):5.1f}% {cublas / t:.3f}x{tag}", flush=True)


if __name__ == "__main__":
    for case in sys.argv[1:] or ["ax", "xb8", "xb1"]:
        run(case)
