"""How far the cost model's pick is from the best of its own top candidates on float64 shapes with
an odd N or K (twenty-third session): for each shape, the model's first TOP distinct candidates
(costmodel.rank with the shipped efficiencies) are checked (tm.check, NaN-poisoned) and timed beside
auto and cuBLAS (alternating rounds, CUDA events after warm-up, L2 flushed, median of 7 a round).

    PYTHONPATH=. python3 scripts/variants_s23/probe_odd_picks.py SEED COUNT [TOP] [ROUNDS]

Shapes: variants_s21/probe_f64_random.py's "odd" draw for SEED. Printed per shape: auto and the
best candidate x cuBLAS, the best candidate's rank in the model's order and its config.
"""
from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path(__file__).parents[1] / "variants_s21"))
from probe_f64_random import shapes  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import costmodel, dispatch  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402

KEYS = ("bm", "bn", "bk", "wm", "wn", "stages", "min_blocks", "pairs", "split_k")


def main() -> None:
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    flush = L2Flusher()
    rng = cupy.random.default_rng(seed)
    eff = dispatch.measured_efficiencies()
    la, lb = [], []
    for M, N, K in shapes(seed, count, True):
        a, b = rng.standard_normal((M, K)), rng.standard_normal((K, N))
        c = cupy.full((M, N), cupy.nan)
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        desc = {}
        for i, p in enumerate(costmodel.rank(M, N, K, "float64", efficiencies=eff)[:top]):
            c.fill(cupy.nan)
            tm.matmul(a, b, out=c, strategy=p.strategy, **p.params)
            if not tm.check(c, a, b).passed:
                print(f"{M}x{N}x{K} rank {i} FAILED")
                continue
            fns[i] = (lambda p=p: tm.matmul(a, b, out=c, strategy=p.strategy, **p.params))
            desc[i] = f"{p.strategy} " + " ".join(f"{k}={v}" for k, v in p.params.items() if k in KEYS)
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        best = min((k for k in med if isinstance(k, int)), key=med.get)
        cub = med["cublas"]
        la.append(math.log(cub / med["auto"]))
        lb.append(math.log(cub / med[best]))
        print(f"{f'{M}x{N}x{K}':18s} cuBLAS {cub * 1e3:8.1f} us  auto {cub / med['auto']:.3f}  rank0 "
              f"{cub / med.get(0, float('inf')):.3f}  best {cub / med[best]:.3f} (rank {best}: {desc[best]})", flush=True)
    print(f"geometric means: auto {math.exp(statistics.fmean(la)):.3f}, best of top {top} {math.exp(statistics.fmean(lb)):.3f}")


if __name__ == "__main__":
    main()
