"""Eleventh session: stream-K dmma (scripts/variants_s11/dmma_sk.cu) against the same kernel run
data-parallel (one tile per block: G = tiles), auto as shipped and cuBLAS, on float64 shapes whose
128 x 64 tiles fill the GPU's 264 slots (2 per SM) badly and on a few that fill them well.

    PYTHONPATH=. python3 scripts/variants_s11/probe_sk.py [ROUNDS]

Per shape: errors against cuBLAS (max |C - ref| / max(|A||B|)), stream-K's bits across two runs,
then CUDA-event medians (L2 flushed) in alternating rounds.
"""
import os
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = [(5000, 3000, 1000), (640, 4000, 4000), (1024, 1024, 1024), (768, 768, 768), (1500, 1500, 1500),
          (2500, 3500, 1500), (6000, 1000, 700), (128, 8192, 8192), (8192, 8192, 128), (2048, 2048, 2048),
          (3000, 3000, 3000), (4096, 4096, 4096), (512, 8192, 8192)]
BM, BN, BK, THREADS, STAGES = 128, 64, 16, 128, 3
PART = 64 * 32 // 32 * THREADS  # MT*NT*4*THREADS = 4*4*4*128


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    k = cupy.RawKernel(open(os.path.join(HERE, "dmma_sk.cu")).read(), "dmma_sk", options=("-arch=sm_90", "-std=c++17"))
    smem = STAGES * (BM * (BK + 4) + BK * (BN + 4)) * 8
    k.max_dynamic_shared_size_bytes = smem
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    G_sk = 2 * sms
    W = cupy.empty(G_sk * 4 * 4 * 4 * THREADS, dtype=cupy.float64)
    Fl = cupy.zeros(max(G_sk, 1), dtype=cupy.int32)
    epoch = [0]
    print(f"dmma_sk: {k.num_regs} registers, {smem} B shared, G = {G_sk}", flush=True)

    def sk(a, b, c, G):
        M, K = a.shape
        N = b.shape[1]
        epoch[0] += 1
        k((G,), (THREADS,), (a, b, c, np.int32(M), np.int32(N), np.int32(K), W, Fl, np.int32(epoch[0])),
          shared_mem=smem)
        return c

    rs = np.random.default_rng(9)
    flush = L2Flusher()
    rows = []
    for (M, N, K) in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        tiles = -(-M // BM) * -(-N // BN)
        c1 = cupy.full((M, N), cupy.nan); c2 = cupy.full((M, N), cupy.nan); cd = cupy.full((M, N), cupy.nan)
        sk(a, b, c1, G_sk); sk(a, b, c2, G_sk); sk(a, b, cd, tiles)
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        same = bool(cupy.all(c1.view(cupy.uint64) == c2.view(cupy.uint64)))
        e_sk = float(cupy.max(cupy.abs(c1 - ref))) / scale
        e_dp = float(cupy.max(cupy.abs(cd - ref))) / scale
        c = cupy.empty((M, N))
        fns = {"stream-K": lambda i: sk(a, b, c, G_sk), "data-parallel": lambda i: sk(a, b, c, tiles),
               "auto": lambda i: tm.matmul(a, b), "cublas": lambda i: cupy.matmul(a, b)}
        rep = max(5, min(30, int(3e10 / (2 * M * N * K))))
        res = {n: [] for n in fns}
        for r in range(rounds):
            for n, f in fns.items():
                res[n].append(time_fn(f, repeat=rep, warmup=2, flush=flush).median_ms)
        med = {n: statistics.median(v) for n, v in res.items()}
        ratio = {n: statistics.median(cb / t for cb, t in zip(res["cublas"], v)) for n, v in res.items()}
        print(f"{M}x{N}x{K}: tiles {tiles} ({tiles / G_sk:.2f} waves); bits stable {same}; err sk {e_sk:.1e} dp {e_dp:.1e}; "
              + ", ".join(f"{n} {med[n]:.4f} ms ({ratio[n]:.2f}x)" for n in fns), flush=True)
        rows.append((M, N, K, tiles / G_sk, med, ratio, same, max(e_sk, e_dp)))
    print("\n| shape | waves of 128×64 | stream-K ms (× cuBLAS) | same kernel data-parallel | auto | cuBLAS ms | bits stable | max err |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for M, N, K, w, med, ratio, same, err in rows:
        print(f"| {M}×{N}×{K} | {w:.2f} | {med['stream-K']:.4f} ({ratio['stream-K']:.2f}) | "
              f"{med['data-parallel']:.4f} ({ratio['data-parallel']:.2f}) | {med['auto']:.4f} ({ratio['auto']:.2f}) | "
              f"{med['cublas']:.4f} | {same} | {err:.1e} |")


if __name__ == "__main__":
    main()
