"""Per-wave overhead of dmma's one-block-per-SM tile against cuBLAS DGEMM (fourteenth session).

For a fixed M x N (so a fixed tile count and waves), time K = 256 .. 4096 and fit t = a + b*K by
least squares: b is the rate per unit of K, a what a launch costs besides (prologue, epilogue,
launch and drain, per wave times waves). CUDA events, L2 flushed, medians of 3 alternating rounds.

    PYTHONPATH=. python3 scripts/variants_s14/probe_wave_overhead.py
"""

from __future__ import annotations

import numpy as np
import cupy as cp

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

KS = (256, 512, 1024, 2048, 4096)
MN = ((2048, 2048), (4096, 4096), (2048, 4096))
CFGS = {"dmma128x128": ("dmma", {}),
        "dmma128x64": ("dmma", dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2))}


def med_us(fn, flush) -> float:
    return time_fn(lambda i: fn(), repeat=9, warmup=2, flush=flush).median_ms * 1e3


def main() -> None:
    flush = L2Flusher()
    for M, N in MN:
        rows = {name: [] for name in ["cublas", *CFGS]}
        for K in KS:
            a = cp.random.uniform(-1, 1, (M, K))
            b = cp.random.uniform(-1, 1, (K, N))
            c = cp.empty((M, N))
            ks = {n: tm.kernel(s, **p) for n, (s, p) in CFGS.items()}
            fns = {"cublas": lambda: cp.matmul(a, b, out=c), **{n: (lambda k=k: k(a, b, out=c)) for n, k in ks.items()}}
            ts = {n: [] for n in fns}
            for _ in range(3):
                for n, f in fns.items():
                    ts[n].append(med_us(f, flush))
            for n in fns:
                rows[n].append(sorted(ts[n])[1])
        print(f"== {M}x{N}: K = {KS}")
        for n, t in rows.items():
            b_, a_ = np.polyfit(KS, t, 1)
            print(f"  {n:<12} " + " ".join(f"{x:8.1f}" for x in t) + f"   fit: {a_:7.1f} us + {b_ * 1000:7.2f} us per 1000 K", flush=True)


if __name__ == "__main__":
    main()
