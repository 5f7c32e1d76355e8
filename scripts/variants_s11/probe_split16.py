"""Eleventh session: dmma_split_k at dmma's 128 x 64 x 16 tile (3 stages, 2 blocks per SM), which its
search space lacks (only 8-deep steps at 128 x 64), against the 8-deep tile, auto and cuBLAS on
float64 shapes whose 128 x 64 tiles fill one to three waves badly.

    PYTHONPATH=. python3 scripts/variants_s11/probe_split16.py [ROUNDS]
"""
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(640, 4000, 4000), (1500, 1500, 1500), (513, 8191, 8191), (1024, 1024, 1024), (1001, 1001, 1001),
          (128, 8192, 8192), (64, 8192, 8192), (768, 768, 768), (2500, 3500, 1500), (5000, 3000, 1000),
          (300, 300, 30000), (256, 256, 131072)]
T16 = dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2)
T8 = dict(bm=128, bn=64, bk=8, wm=64, wn=32, stages=4, min_blocks=2)
CANDS = {f"bk16 s{s}": ("dmma_split_k", dict(T16, split_k=s)) for s in (2, 4, 8, 16)}
CANDS.update({f"bk8 s{s}": ("dmma_split_k", dict(T8, split_k=s)) for s in (2, 4)})


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rs = np.random.default_rng(3)
    flush = L2Flusher()
    print("| shape | auto ms | " + " | ".join(f"{k} ms" for k in CANDS) + " | cuBLAS ms | best × cuBLAS | auto × cuBLAS |")
    print("|---|---:|" + "---:|" * len(CANDS) + "---:|---|---:|")
    for (M, N, K) in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        fns = {"auto": lambda i: tm.matmul(a, b)}
        for k, (s, p) in CANDS.items():
            fns[k] = (lambda i, s=s, p=p: tm.matmul(a, b, strategy=s, **p))
        fns["cublas"] = lambda i: cupy.matmul(a, b)
        for k, f in fns.items():
            err = float(cupy.max(cupy.abs(f(0) - ref))) / scale
            assert err < 1e-13, (k, err)
        rep = max(5, min(30, int(3e10 / (2 * M * N * K))))
        res = {k: [] for k in fns}
        for r in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(f, repeat=rep, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        best = min((med[k], k) for k in CANDS)
        print(f"| {M}×{N}×{K} | {med['auto']:.4f} | " + " | ".join(f"{med[k]:.4f}" for k in CANDS)
              + f" | {med['cublas']:.4f} | {med['cublas'] / best[0]:.2f} ({best[1]}) | {med['cublas'] / med['auto']:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
