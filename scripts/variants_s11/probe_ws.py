"""Eleventh session: dmma with a producer warp (scripts/variants_s11/dmma_ws.cu) against the shipped
dmma kernel at cuBLAS DGEMM's tile and against cuBLAS, on shapes that are whole tiles.

    PYTHONPATH=. python3 scripts/variants_s11/probe_ws.py [ROUNDS]

Per variant: bits against the shipped kernel (same tile, same DMMA order per warp, so the outputs
should be bit-identical) and the error against a float64 reference; then alternating rounds of
CUDA-event medians (L2 flushed) at 2048^3, 4096^3 and 8192^3, and each variant's time over cuBLAS's
in the same round.
"""
import os
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "dmma_ws.cu")).read()
VARIANTS = {  # name: (defines, threads, stages)
    "ws5": ({"STAGES": 3, "MINB": 2}, 160, 3),
    "wg40": ({"STAGES": 3, "MINB": 2, "WG": 1, "PRODUCER_REGS": 40, "CONSUMER_REGS": 216}, 256, 3),
    "wg24": ({"STAGES": 3, "MINB": 2, "WG": 1, "PRODUCER_REGS": 24, "CONSUMER_REGS": 232}, 256, 3),
    "wgp24": ({"STAGES": 3, "MINB": 2, "WG": 1, "PREFETCH": 1, "PRODUCER_REGS": 24, "CONSUMER_REGS": 232}, 256, 3),
}


def build(name):
    defs, threads, stages = VARIANTS[name]
    opts = ("-arch=sm_90a", "-std=c++17") + tuple(f"-D{k}={v}" for k, v in defs.items())
    k = cupy.RawKernel(SRC, "dmma_ws", options=opts)
    smem = stages * (128 * 20 + 16 * 68) * 8 + 2 * stages * 8
    k.max_dynamic_shared_size_bytes = smem
    return k, threads, smem


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    only = sys.argv[2].split(",") if len(sys.argv) > 2 else list(VARIANTS)
    base = tm.kernel("dmma", bm=128, bn=64, bk=16, wm=64, wn=32, mma_k=8, stages=3, group_m=8, min_blocks=2)
    kernels = {v: build(v) for v in only}
    for v, (k, th, smem) in kernels.items():
        print(f"{v}: {k.num_regs} registers, {smem} B shared, {th} threads, local {k.local_size_bytes} B", flush=True)

    def ours(v, a, b, c):
        M, K = a.shape; N = b.shape[1]
        if v == "base":
            return base(a, b, out=c)
        k, th, smem = kernels[v]
        k(((M // 128) * (N // 64),), (th,), (a, b, c, np.int32(M), np.int32(N), np.int32(K), np.int32(3)),
          shared_mem=smem)

    rs = np.random.default_rng(11)
    for (M, N, K) in [(1024, 1024, 1024), (2048, 1024, 4096), (4096, 4096, 4096)]:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        cb = cupy.full((M, N), cupy.nan); ours("base", a, b, cb)
        for v in kernels:
            c = cupy.full((M, N), cupy.nan); ours(v, a, b, c); cupy.cuda.Device().synchronize()
            same = bool(cupy.all(c.view(cupy.uint64) == cb.view(cupy.uint64)))
            err = float(cupy.max(cupy.abs(c - ref))) / scale
            print(f"check {v} {M}x{N}x{K}: bit-equal to base {same}, max err / max(|A||B|) {err:.2e}", flush=True)

    flush = L2Flusher()
    names = ["base", *kernels, "cublas"]
    res = {}
    for n, rep in [(2048, 40), (4096, 20), (8192, 6)]:
        a = cupy.asarray(rs.uniform(-1, 1, (n, n))); b = cupy.asarray(rs.uniform(-1, 1, (n, n)))
        c = cupy.empty((n, n))
        for r in range(rounds):
            for v in names:
                f = (lambda i: cupy.matmul(a, b, out=c)) if v == "cublas" else (lambda i, v=v: ours(v, a, b, c))
                t = time_fn(f, repeat=rep, warmup=2, flush=flush).median_ms
                res.setdefault((n, v), []).append(t)
            print(f"{n}^3 round {r}: " + ", ".join(f"{v} {res[(n, v)][-1]:.3f}" for v in names), flush=True)
    print("\n| n | variant | median ms | TF/s | x cuBLAS (per-round median) |\n|---|---|---:|---:|---:|")
    for n in (2048, 4096, 8192):
        for v in names:
            ts = res[(n, v)]
            ratio = statistics.median(cb / t for cb, t in zip(res[(n, "cublas")], ts))
            print(f"| {n} | {v} | {statistics.median(ts):.3f} | {2 * n**3 / statistics.median(ts) / 1e9:.1f} | {ratio:.3f} |")


if __name__ == "__main__":
    main()
