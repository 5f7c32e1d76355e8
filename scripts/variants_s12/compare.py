"""Twelfth session: float64 products from two or more checkouts of the template, alternating in
one process, each against cuBLAS's DGEMM in the same round:

    python3 scripts/variants_s12/compare.py ROOT base,new ROUNDS SPEC [SPEC ...]
    python3 scripts/variants_s12/compare.py - tree ROUNDS SPEC [SPEC ...]   (the tree as it is)

A SPEC is MxNxK (auto) or MxNxK:strategy:key=value,... (that config in every checkout), float64
unless the shape ends in @float32 (MxNxK@float32[:strategy:...]). Per spec:
each variant's error (max |C - ref| / max(|A||B|)), whether the first and last variants' outputs
are bit-identical, CUDA-event medians (L2 flushed) and each variant's ratio to cuBLAS, the
median over ROUNDS rounds (variants and cuBLAS alternate within a round).
"""
import os
import statistics
import sys

import cupy
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "variants_s9"))
from _checkout import matmuls  # noqa: E402


def parse(spec):
    shape, *rest = spec.split(":")
    shape, _, dtype = shape.partition("@")
    M, N, K = (int(d) for d in shape.split("x"))
    if not rest:
        return (M, N, K), dtype or "float64", "auto", {}
    params = dict(kv.split("=") for kv in rest[1].split(",")) if len(rest) > 1 and rest[1] else {}
    return (M, N, K), dtype or "float64", rest[0], {k: int(v) for k, v in params.items()}


def main():
    root, variants, rounds = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
    specs = [parse(s) for s in sys.argv[4:]]
    fns, flush, time_fn = matmuls(root, variants)
    rs = np.random.default_rng(7)
    table = []
    for (M, N, K), dtype, strat, params in specs:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=dtype); b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=dtype)
        ref = cupy.matmul(a.astype(cupy.float64), b.astype(cupy.float64))
        scale = float(cupy.max(cupy.abs(a).astype(cupy.float64) @ cupy.abs(b).astype(cupy.float64)))
        call = {v: (lambda v=v: fns[v](a, b, strategy=strat, **params)) for v in variants}
        outs = {v: call[v]() for v in variants}
        errs = {v: float(cupy.max(cupy.abs(outs[v] - ref))) / scale for v in variants}
        same = bool(cupy.all(outs[variants[0]] == outs[variants[-1]]))
        rep = max(5, min(40, int(4e10 / (2 * M * N * K))))
        res = {k: [] for k in [*variants, "cublas"]}
        for _ in range(rounds):
            for v in variants:
                res[v].append(time_fn(lambda i, v=v: call[v](), repeat=rep, warmup=2, flush=flush).median_ms)
            res["cublas"].append(time_fn(lambda i: cupy.matmul(a, b), repeat=rep, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(x) for k, x in res.items()}
        ratio = {v: statistics.median(c / t for c, t in zip(res["cublas"], res[v])) for v in variants}
        name = f"{M}×{N}×{K}{'' if dtype == 'float64' else ' ' + dtype}" + ("" if strat == "auto" else f" {strat} " + ",".join(f"{k}={v}" for k, v in params.items()))
        print(f"{name}: bit-equal {same}; " + "; ".join(
            f"{v} {med[v]:.4f} ms {ratio[v]:.2f}x err {errs[v]:.1e}" for v in variants) + f"; cublas {med['cublas']:.4f}",
            flush=True)
        table.append((name, med, ratio, same, errs))
    print("\n| product | " + " | ".join(f"{v} ms | {v} × cuBLAS" for v in variants) + " | cuBLAS ms | bit-equal | max err |")
    print("|---|" + "---:|---:|" * len(variants) + "---:|---|---:|")
    for name, med, ratio, same, errs in table:
        print(f"| {name} | " + " | ".join(f"{med[v]:.4f} | {ratio[v]:.2f}" for v in variants)
              + f" | {med['cublas']:.4f} | {same} | {max(errs.values()):.1e} |")


if __name__ == "__main__":
    main()
