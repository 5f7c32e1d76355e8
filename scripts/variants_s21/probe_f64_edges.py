"""Where does float64 5000 x 3000 x 1000 (the suite's floor row, 0.88x cuBLAS) lose against the
interior-only 5120 x 3072 x 1024 (0.93)? auto, dmma's 128 x 64 tile and cuBLAS on the floor shape
and on neighbours that make one dimension at a time whole tiles (twenty-first session).

    PYTHONPATH=. python3 scripts/variants_s21/probe_f64_edges.py [ROUNDS] [wide]

Each candidate is checked once (tm.check against the float64 product, output NaN-poisoned first),
then timed in alternating rounds (CUDA events after warm-up, L2 flushed, median of 9 a round).
"""
from __future__ import annotations

import statistics
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(5000, 3000, 1000), (4992, 3008, 1008), (5000, 3008, 1008), (4992, 3000, 1008), (4992, 3008, 1000),
          (5120, 3072, 1024), (5000, 3000, 1024), (4992, 2944, 1008)]
# the suite's float64 compute-bound shapes (auto's picks: whole tiles, dmma 128 x 128, split, tail)
WIDE = [(2048, 2048, 2048), (4096, 4096, 4096), (1024, 1024, 1024), (3001, 2999, 3007), (8192, 8192, 128),
        (128, 8192, 8192), (16384, 64, 4096), (2000, 3000, 1000), (1000, 1000, 1000)]
CANDS = {"dmma 128x64": dict(strategy="dmma", bm=128, bn=64, wm=64, wn=32, min_blocks=2),
         "dmma 128x64 s4 bk8": dict(strategy="dmma", bm=128, bn=64, bk=8, wm=64, wn=32, stages=4, min_blocks=2)}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    flush = L2Flusher()
    rng = cupy.random.default_rng(7)
    rows = []
    shapes = SHAPES + (WIDE if "wide" in sys.argv[2:] else [])
    for M, N, K in shapes:
        a = rng.standard_normal((M, K))
        b = rng.standard_normal((K, N))
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b)}
        for name, kw in CANDS.items() if (M, N, K) in SHAPES else ():
            c = cupy.full((M, N), cupy.nan)
            tm.matmul(a, b, out=c, **kw)
            rep = tm.check(c, a, b)
            if not rep.passed:
                print(f"{M}x{N}x{K} {name} FAILED {rep}")
                continue
            fns[name] = (lambda kw=kw, c=c: tm.matmul(a, b, out=c, **kw))
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=9, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        rows.append(((M, N, K), med))
        print(f"{M}x{N}x{K}: " + "  ".join(f"{k} {v * 1e3:.1f} us ({med['cublas'] / v:.3f})" for k, v in med.items()),
              flush=True)
    print("\nshape            cuBLAS us  cuBLAS TF/s  " + "  ".join(f"{k:>18}" for k in ["auto", *CANDS]))
    for (M, N, K), med in rows:
        print(f"{M}x{N}x{K:<6} {med['cublas'] * 1e3:10.1f} {2 * M * N * K / med['cublas'] / 1e9:11.1f}  "
              + "  ".join(f"{med['cublas'] / med[k]:18.3f}" if k in med else f"{'-':>18}" for k in ["auto", *CANDS]))


if __name__ == "__main__":
    main()
