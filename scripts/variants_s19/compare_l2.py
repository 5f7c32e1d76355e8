"""Memory-bound products from several checkouts (scripts/variants_s19/l2_trees.sh: L2 prefetch
distances), alternating in one process with cuBLAS and a device copy of the same bytes:

    python3 scripts/variants_s19/compare_l2.py ROOT base,pf2,pf4 ROUNDS SPEC [SPEC ...]

A SPEC is MxNxK@dtype (auto's pick). Per spec: whether every variant's output is bit-identical to
the first's, each variant's max |C - ref| / max(|A||B|) against float64, and the medians over
ROUNDS rounds (CUDA events, L2 flushed) as ms, x cuBLAS and % of the copy's bandwidth.
"""
import os
import statistics
import sys

import cupy
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "variants_s9"))
from _checkout import matmuls  # noqa: E402


def main():
    root, variants, rounds = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
    fns, flush, time_fn = matmuls(root, variants)
    rs = np.random.default_rng(7)
    rows = []
    for spec in sys.argv[4:]:
        shape, dtype = spec.split("@")
        M, N, K = (int(d) for d in shape.split("x"))
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=dtype)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=dtype)
        ref = cupy.matmul(a.astype(cupy.float64), b.astype(cupy.float64))
        scale = float(cupy.max(cupy.abs(a).astype(cupy.float64) @ cupy.abs(b).astype(cupy.float64)))
        outs = {v: fns[v](a, b) for v in variants}
        errs = {v: float(cupy.max(cupy.abs(outs[v].astype(cupy.float64) - ref))) / scale for v in variants}
        same = all(bool(cupy.all(outs[v] == outs[variants[0]])) for v in variants)
        nbytes = (M * K + K * N + M * N) * a.itemsize
        src = cupy.empty(nbytes, dtype=cupy.uint8)
        dst = cupy.empty_like(src)
        res = {k: [] for k in [*variants, "cublas", "copy"]}
        for _ in range(rounds):
            for v in variants:
                res[v].append(time_fn(lambda i, v=v: fns[v](a, b), repeat=15, warmup=3, flush=flush).median_ms)
            res["cublas"].append(time_fn(lambda i: cupy.matmul(a, b), repeat=15, warmup=3, flush=flush).median_ms)
            res["copy"].append(time_fn(lambda i: dst.data.copy_from_device_async(src.data, nbytes), repeat=15,
                                       warmup=3, flush=flush).median_ms)
        med = {k: statistics.median(x) for k, x in res.items()}
        pct = {v: 100 * (nbytes / med[v]) / (2 * nbytes / med["copy"]) for v in variants}
        ratio = {v: statistics.median(c / t for c, t in zip(res["cublas"], res[v])) for v in variants}
        rows.append((spec, med, ratio, pct, same, max(errs.values())))
        print(f"{spec}: bit-equal {same}, err {max(errs.values()):.1e}; " + "; ".join(
            f"{v} {med[v] * 1e3:.1f} us {ratio[v]:.2f}x {pct[v]:.1f}%" for v in variants)
            + f"; cublas {med['cublas'] * 1e3:.1f} us; copy {med['copy'] * 1e3:.1f} us", flush=True)
    print("\n| product | " + " | ".join(f"{v} µs | × cuBLAS | % copy" for v in variants) + " | cuBLAS µs | bit-equal |")
    print("|---|" + "---:|---:|---:|" * len(variants) + "---:|---|")
    for spec, med, ratio, pct, same, err in rows:
        print(f"| {spec} | " + " | ".join(f"{med[v] * 1e3:.1f} | {ratio[v]:.2f} | {pct[v]:.1f}" for v in variants)
              + f" | {med['cublas'] * 1e3:.1f} | {same} |")


if __name__ == "__main__":
    main()
