"""Eleventh session: float64 shapes whose rows are not 16-byte multiples (odd K or N) take dmma's
element-copy path. Does copying A and B into zero-padded, aligned buffers (K and N rounded up to
even; C computed padded, then copied out) pay for its copies?

    PYTHONPATH=. python3 scripts/variants_s11/probe_pad.py

Per shape: auto as shipped, the padded route (copies included, and the padded product alone),
and cuBLAS, CUDA-event medians with L2 flushed, in alternating rounds; errors against cuBLAS.
"""
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(3001, 2999, 3007), (2047, 2047, 2047), (1001, 1001, 1001), (5001, 3001, 1001), (4095, 4097, 4095),
          (8191, 8191, 513), (513, 8191, 8191), (3000, 3000, 3001)]
dtype = sys.argv[1] if len(sys.argv) > 1 else "float64"


def up(x):
    return x + (-x) % 2 if dtype == "float64" else x + (-x) % 4


def main():
    rs = np.random.default_rng(5)
    flush = L2Flusher()
    rows = []
    for (M, N, K) in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=dtype)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=dtype)
        Kp, Np = up(K), up(N)
        ap = cupy.zeros((M, Kp), dtype); bp = cupy.zeros((Kp, Np), dtype)

        def padded(i):
            ap[:, :K] = a
            bp[:K, :N] = b
            cp = tm.matmul(ap, bp)
            return cupy.ascontiguousarray(cp[:, :N])

        ap[:, :K] = a; bp[:K, :N] = b
        fns = {"auto": lambda i: tm.matmul(a, b), "padded": padded,
               "padded_product": lambda i: tm.matmul(ap, bp), "cublas": lambda i: cupy.matmul(a, b)}
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        errs = {k: float(cupy.max(cupy.abs(f(0)[:, :N] - ref))) / scale for k, f in fns.items()}
        rep = max(5, min(40, int(4e10 / (2 * M * N * K))))
        res = {k: [] for k in fns}
        for r in range(3):
            for k, f in fns.items():
                res[k].append(time_fn(f, repeat=rep, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        ratio = {k: statistics.median(c / t for c, t in zip(res["cublas"], v)) for k, v in res.items()}
        rows.append((M, N, K, med, ratio, errs))
        print(f"{M}x{N}x{K}: " + ", ".join(f"{k} {med[k]:.4f} ms ({ratio[k]:.2f}x, err {errs[k]:.1e})" for k in fns),
              flush=True)
    print(f"\n| {dtype} shape | auto ms | padded ms (copies in) | padded product ms | cuBLAS ms | auto x | padded x |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for M, N, K, med, ratio, errs in rows:
        print(f"| {M}x{N}x{K} | {med['auto']:.4f} | {med['padded']:.4f} | {med['padded_product']:.4f} | "
              f"{med['cublas']:.4f} | {ratio['auto']:.2f} | {ratio['padded']:.2f} |")


if __name__ == "__main__":
    main()
