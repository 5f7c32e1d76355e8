"""Eleventh session: the dmma_stream_k rung (dmma's template with STREAM_K) against auto and cuBLAS
on float64 shapes whose tiles fill the resident blocks in a bad number of waves, and a few whole
ones; its bits across two runs and its error against cuBLAS's DGEMM.

    git apply scripts/variants_s11/dmma_stream_k.patch    # the rung (not shipped), then
    PYTHONPATH=. python3 scripts/variants_s11/probe_stream_k.py [ROUNDS]

The patch folds stream-K into kernels/12_dmma.cu.j2 (STREAM_K: one wave of persistent blocks,
whole tiles for the whole waves, the last one or two shared by K step, the owner adding partials in
block order) as strategy dmma_stream_k (not in the cost model: tunable=False). The walk's state is
recomputed per item (an opaque copy of the thread index and M) to keep it out of the K loop's
registers: 0 spills at 64 x 64 tiles, 8-140 B at 128 x 64.
"""
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(768, 768, 768), (640, 640, 640), (1024, 1024, 1024), (1001, 1001, 1001), (1500, 1500, 1500),
          (640, 4000, 4000), (5000, 3000, 1000), (2500, 3500, 1500), (513, 8191, 8191), (128, 8192, 8192),
          (64, 8192, 8192), (256, 256, 131072), (2048, 2048, 2048), (4096, 4096, 4096), (777, 1999, 2001)]
CANDS = {"sk 64x64 8w": dict(), "sk 64x64 4w": dict(wn=32),
         "sk 128x64x8": dict(bm=128, bk=8, wm=64, wn=32, stages=4),
         "sk 128x64x16": dict(bm=128, bk=16, wm=64, wn=32, stages=3)}


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rs = np.random.default_rng(6)
    flush = L2Flusher()
    print("| shape | auto ms | " + " | ".join(f"{k}" for k in CANDS) + " | cuBLAS ms | best sk × cuBLAS | auto × cuBLAS | bits stable | max err |")
    print("|---|---:|" + "---:|" * len(CANDS) + "---:|---|---:|---|---:|")
    for (M, N, K) in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        fns = {"auto": lambda i: tm.matmul(a, b)}
        for k, p in CANDS.items():
            fns[k] = (lambda i, p=p: tm.matmul(a, b, strategy="dmma_stream_k", **p))
        fns["cublas"] = lambda i: cupy.matmul(a, b)
        err = max(float(cupy.max(cupy.abs(f(0) - ref))) / scale for f in fns.values())
        stable = all(bool(cupy.all(fns[k](0).view(cupy.uint64) == fns[k](0).view(cupy.uint64))) for k in CANDS)
        rep = max(5, min(30, int(3e10 / (2 * M * N * K))))
        res = {k: [] for k in fns}
        for r in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(f, repeat=rep, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        best = min((med[k], k) for k in CANDS)
        print(f"| {M}×{N}×{K} | {med['auto']:.4f} | " + " | ".join(f"{med[k]:.4f}" for k in CANDS)
              + f" | {med['cublas']:.4f} | {med['cublas'] / best[0]:.2f} ({best[1]}) | {med['cublas'] / med['auto']:.2f}"
              f" | {stable} | {err:.1e} |", flush=True)


if __name__ == "__main__":
    main()
