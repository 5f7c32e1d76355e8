"""Eleventh session: dmma's interior blocks on operands whose rows are not 16-byte aligned (odd K
or N) copy through the fixed-pointer interior loop in 8-byte pairs instead of load_tile's element
copies. `tm.matmul` (auto) from two checkouts, alternating in one process:

    python3 scripts/variants_s11/compare_elem.py ROOT base,new [ROUNDS] [aligned]

`aligned` times only the shapes whose rows are 16-byte multiples (the 16-byte loop's regression check).

Per shape: each variant's error against cuBLAS's DGEMM (max |C - ref| / max(|A||B|)), whether the
two variants' outputs are bit-identical, and CUDA-event medians (L2 flushed) per round with each
variant's time over cuBLAS's in the same round. Aligned shapes must keep their time (the 16-byte
interior loop is unchanged).
"""
import os
import statistics
import sys

import cupy
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "variants_s9"))
from _checkout import import_checkout, leave  # noqa: E402

SHAPES = [(4096, 4096, 4096), (2048, 2048, 2048), (8192, 8192, 2048), (3001, 2999, 3007), (2047, 2047, 2047), (1001, 1001, 1001),
          (5001, 3001, 1001), (5000, 3000, 1000), (4095, 4097, 4095), (8191, 8191, 513), (513, 8191, 8191),
          (3000, 3000, 3001), (3000, 3001, 3000), (777, 1999, 2001)]


def main():
    root, variants = sys.argv[1], sys.argv[2].split(",")
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    shapes = [s for s in SHAPES if s[1] % 2 == 0 and s[2] % 2 == 0] if "aligned" in sys.argv[4:] else SHAPES
    fns, timing = {}, None
    for v in variants:
        tm = import_checkout(f"{root}/{v}")
        fns[v] = tm.matmul
        if timing is None:
            from tiled_matmul.timing import L2Flusher, time_fn
            timing = (L2Flusher(), time_fn)
        leave(f"{root}/{v}")
    flush, time_fn = timing
    rs = np.random.default_rng(7)
    table = []
    for (M, N, K) in shapes:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        ref = cupy.matmul(a, b)
        scale = float(cupy.max(cupy.abs(a) @ cupy.abs(b)))
        outs = {v: fns[v](a, b) for v in variants}
        errs = {v: float(cupy.max(cupy.abs(outs[v] - ref))) / scale for v in variants}
        same = bool(cupy.all(outs[variants[0]].view(cupy.uint64) == outs[variants[-1]].view(cupy.uint64)))
        rep = max(5, min(40, int(4e10 / (2 * M * N * K))))
        res = {k: [] for k in [*variants, "cublas"]}
        for r in range(rounds):
            for v in variants:
                res[v].append(time_fn(lambda i, v=v: fns[v](a, b), repeat=rep, warmup=2, flush=flush).median_ms)
            res["cublas"].append(time_fn(lambda i: cupy.matmul(a, b), repeat=rep, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(x) for k, x in res.items()}
        ratio = {v: statistics.median(c / t for c, t in zip(res["cublas"], res[v])) for v in variants}
        print(f"{M}x{N}x{K}: bit-equal {same}; " + "; ".join(
            f"{v} {med[v]:.4f} ms {ratio[v]:.2f}x err {errs[v]:.1e}" for v in variants) + f"; cublas {med['cublas']:.4f}",
            flush=True)
        table.append((M, N, K, med, ratio, same, errs))
    print("\n| shape | " + " | ".join(f"{v} ms | {v} × cuBLAS" for v in variants) + " | cuBLAS ms | bit-equal | max err |")
    print("|---|" + "---:|---:|" * len(variants) + "---:|---|---:|")
    for M, N, K, med, ratio, same, errs in table:
        print(f"| {M}×{N}×{K} | " + " | ".join(f"{med[v]:.4f} | {ratio[v]:.2f}" for v in variants)
              + f" | {med['cublas']:.4f} | {same} | {max(errs.values()):.1e} |")


if __name__ == "__main__":
    main()
