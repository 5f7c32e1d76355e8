"""Eleventh session: dmma_tail (dmma on the rows of C that fill whole waves, split-K on the rest)
against dmma and dmma_split_k at the same 128 x 64 x 16 tile, auto and cuBLAS, on float64 shapes
whose tiles fill the GPU in a bad number of waves, and on a few that fill it well.

    git apply scripts/variants_s11/dmma_tail.patch    # the rung (not shipped), then
    PYTHONPATH=. python3 scripts/variants_s11/probe_tail.py [ROUNDS]

(The run recorded in RESULTS also had the cost model weigh dmma_tail as the sum of a dmma and a
dmma_split_k prediction, which made `auto` pick it at 1500^3 and 640x4000x4000; the patch leaves
the model alone.)

Per shape: each candidate's error against cuBLAS (max |C - ref| / max(|A||B|)), dmma_tail's bits
across two runs, and CUDA-event medians (L2 flushed) in alternating rounds.
"""
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(1500, 1500, 1500), (640, 4000, 4000), (5000, 3000, 1000), (3001, 2999, 3007), (2500, 3500, 1500),
          (6000, 1000, 700), (513, 8191, 8191), (1001, 1001, 1001), (3000, 3000, 3000), (2048, 2048, 2048),
          (4096, 4096, 4096), (1536, 1536, 1536), (777, 1999, 2001)]
T16 = dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rs = np.random.default_rng(4)
    flush = L2Flusher()
    cands = {"tail s2": ("dmma_tail", dict(T16, split_k=2)), "tail s4": ("dmma_tail", dict(T16, split_k=4)),
             "tail s8": ("dmma_tail", dict(T16, split_k=8)), "dmma": ("dmma", T16)}
    print("| shape | auto | " + " | ".join(cands) + " | cuBLAS ms | best tail × cuBLAS | auto × cuBLAS | bits stable | max err |")
    print("|---|---:|" + "---:|" * len(cands) + "---:|---:|---:|---|---:|")
    for (M, N, K) in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        fns = {"auto": lambda i: tm.matmul(a, b)}
        for k, (s, p) in cands.items():
            fns[k] = (lambda i, s=s, p=p: tm.matmul(a, b, strategy=s, **p))
        fns["cublas"] = lambda i: cupy.matmul(a, b)
        err = max(float(cupy.max(cupy.abs(f(0) - ref))) / scale for f in fns.values())
        c1, c2 = fns["tail s4"](0), fns["tail s4"](0)
        same = bool(cupy.all(c1.view(cupy.uint64) == c2.view(cupy.uint64)))
        rep = max(5, min(30, int(3e10 / (2 * M * N * K))))
        res = {k: [] for k in fns}
        for r in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(f, repeat=rep, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        best = min((med[k], k) for k in cands if k.startswith("tail"))
        print(f"| {M}×{N}×{K} | {med['auto']:.4f} | " + " | ".join(f"{med[k]:.4f}" for k in cands)
              + f" | {med['cublas']:.4f} | {med['cublas'] / best[0]:.2f} ({best[1]}) | {med['cublas'] / med['auto']:.2f}"
              f" | {same} | {err:.1e} |", flush=True)


if __name__ == "__main__":
    main()
