"""auto against cuBLAS on random float64 shapes with a partial tile and aligned rows (even N and K:
the shapes dmma's partial-tile kernel takes), for an A/B of two trees in separate processes
(twenty-first session's script; twenty-second: ODD keeps N and K as drawn, so about three in four
shapes have an odd N or K and run the misaligned-operand kernel).

    PYTHONPATH=TREE python3 scripts/variants_s21/probe_f64_random.py SEED COUNT [ROUNDS] [odd]

Every product is checked first (tm.check against the float64 product, output NaN-poisoned), then
auto and cuBLAS alternate in rounds (CUDA events after warm-up, L2 flushed, median of 7 a round).
"""
from __future__ import annotations

import math
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn


def shapes(seed: int, count: int, odd: bool = False):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N, K = (int(x) for x in np.exp(rng.uniform(np.log([300, 300, 200]), np.log([8000, 8000, 4000]))))
        if not odd:
            N, K = N + N % 2, K + K % 2
        if M % 64 or N % 64:  # a partial tile for every tile the candidates use
            out.append((M, N, K))
    return out


def main() -> None:
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    flush = L2Flusher()
    rng = cupy.random.default_rng(seed)
    ratios = []
    for M, N, K in shapes(seed, count, "odd" in sys.argv[4:]):
        a = rng.standard_normal((M, K))
        b = rng.standard_normal((K, N))
        c = cupy.full((M, N), cupy.nan)
        tm.matmul(a, b, out=c)
        rep = tm.check(c, a, b)
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        r = med["cublas"] / med["auto"]
        ratios.append(r)
        print(f"{M}x{N}x{K:<6} {'ok' if rep.passed else 'FAILED'} cuBLAS {med['cublas'] * 1e3:8.1f} us  auto "
              f"{med['auto'] * 1e3:8.1f} us  {r:.3f}", flush=True)
    print(f"geometric mean x cuBLAS {math.exp(statistics.fmean(map(math.log, ratios))):.3f} over {len(ratios)} "
          f"shapes; lowest {min(ratios):.3f}")


if __name__ == "__main__":
    main()
