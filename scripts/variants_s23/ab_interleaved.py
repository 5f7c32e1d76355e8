"""Large float64 products, candidates interleaved call by call (twenty-third session): is dmma_tail's
split of the last partial wave (8192^3 on 128 x 128 tiles: 4096 tiles = 31 waves of 132 and 4 left)
worth anything, measured so that the GPU's power and clock state reach every candidate alike?

    PYTHONPATH=. python3 scripts/variants_s23/ab_interleaved.py [ROUNDS] [SHAPE...]

Each round times one call of every candidate, in an order rotated by one each round (so no
candidate always follows the same one), each call after an L2 flush, bracketed by CUDA events.
Printed: per candidate the median over rounds and that x cuBLAS, and the median over rounds of the
per-round ratio to cuBLAS (paired: calls a few tens of ms apart). Outputs are checked first
(tm.check, NaN-poisoned). SHAPE: MxNxK (default 8192x8192x8192 8192x8192x4096).
"""
from __future__ import annotations

import statistics
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

P128 = dict(bm=128, bn=128, wm=32, wn=64, pairs=1)
CANDS = {"dmma P": ("dmma", P128), "tail P": ("dmma_tail", P128), "dmma": ("dmma", dict(bm=128, bn=128, wm=32, wn=64))}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    shapes = [tuple(map(int, s.split("x"))) for s in sys.argv[2:]] or [(8192, 8192, 8192), (8192, 8192, 4096)]
    flush = L2Flusher()
    rng = cupy.random.default_rng(23)
    for M, N, K in shapes:
        a, b = rng.standard_normal((M, K)), rng.standard_normal((K, N))
        outs = {k: cupy.full((M, N), cupy.nan) for k in CANDS}
        fns = {"cublas": lambda: cupy.matmul(a, b)}
        for name, (strat, kw) in CANDS.items():
            tm.matmul(a, b, out=outs[name], strategy=strat, **kw)
            assert tm.check(outs[name], a, b).passed, name
            fns[name] = (lambda s=strat, kw=kw, c=outs[name]: tm.matmul(a, b, out=c, strategy=s, **kw))
        names = list(fns)
        for f in fns.values():  # warm-up
            f()
        times = {k: [] for k in names}
        for r in range(rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            ev = []
            for k in order:
                flush()
                s, e = cupy.cuda.Event(), cupy.cuda.Event()
                s.record()
                fns[k]()
                e.record()
                ev.append((k, s, e))
            ev[-1][2].synchronize()
            for k, s, e in ev:
                times[k].append(cupy.cuda.get_elapsed_time(s, e))
        cub = statistics.median(times["cublas"])
        print(f"{M}x{N}x{K}, {rounds} rounds: cuBLAS median {cub:.3f} ms (min {min(times['cublas']):.3f}, max {max(times['cublas']):.3f})")
        for k in names[1:]:
            med = statistics.median(times[k])
            paired = statistics.median(c / t for c, t in zip(times["cublas"], times[k]))
            print(f"  {k:8s} median {med:.3f} ms (min {min(times[k]):.3f}, max {max(times[k]):.3f})  x cuBLAS {cub / med:.3f}  paired {paired:.3f}")


if __name__ == "__main__":
    main()
