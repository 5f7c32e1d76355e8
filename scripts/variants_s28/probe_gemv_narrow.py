"""x·B with 1-8 rows on a narrow B (twenty-eighth session): gemv_xb's configs against auto's pick.

auto's pick for M = 2 and 5-8 is gemv_xb with one K group of 256 threads (1024 columns of C per
block): on a B of 45 columns 244 of its 256 threads idle, and K is cut across blocks instead
(6x45x6043 0.45x cuBLAS, benchmarks/random_shapes.py --seed 28). Per shape, every gemv_xb search-space
config valid for the dtype, each with split_plan's predicted microseconds beside it.

    PYTHONPATH=. python3 scripts/variants_s28/probe_gemv_narrow.py --seed 2801 --count 16 --dtype float32
    PYTHONPATH=. python3 scripts/variants_s28/probe_gemv_narrow.py --compile-only CACHE_DIR --seed 2801 --count 16

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside
cuBLAS); 3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS and a device
copy of the product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from tiled_matmul import dispatch, registry

FIXED = [(6, 45, 6043), (2, 36, 7515), (2, 126, 936), (8, 300, 20000), (8, 1000, 4000), (5, 200, 30000),
         (3, 600, 12000), (7, 2000, 3000), (1, 64, 20000), (4, 100, 8632)]
SMS = 132


def auto_name(M, N, K, dtype):
    import tiled_matmul as tm

    k = tm.kernel("auto").kernel_for(M, N, K, dtype)
    return k.strategy.name, k.config


def shapes(rs, count, dtype):
    out = []
    while len(out) < count:
        M = int(rs.integers(1, 9))
        N = int(round(math.exp(rs.uniform(math.log(9), math.log(4096)))))
        K = int(round(math.exp(rs.uniform(math.log(128), math.log(40000)))))
        if auto_name(M, N, K, dtype)[0] == "gemv_xb":
            out.append((M, N, K))
    return out


def label(p: dict) -> str:
    """t256 mt8 u4 mb2 kg1 for a gemv_xb config's params."""
    short = dict(threads="t", mt="mt", unroll="u", min_blocks="mb", kg="kg")
    return " ".join(f"{short[k]}{v}" for k, v in p.items())


def variants(M, N, K, dtype) -> dict:
    """label -> (params, predicted µs); "auto" -> None."""
    entry = registry.get("gemv_xb")
    limits = dispatch._limits(None)
    out = {"auto": None}
    for cfg in entry.search_space:
        if cfg.is_valid(limits, dtype):
            p = cfg.params()
            out[label(p)] = (p, cfg.split_plan(M, N, K, SMS, dtype)[1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2801)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--no-fixed", action="store_true")
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    dtype = args.dtype
    shape_list = ([] if args.no_fixed else [s for s in FIXED if auto_name(*s, dtype)[0] == "gemv_xb"])
    shape_list += shapes(np.random.default_rng(args.seed), args.count, dtype)
    if args.compile_only:
        from _probe import precompile

        print(precompile(args.compile_only, [("gemv_xb", cfg) for cfg in registry.get("gemv_xb").search_space], dtype),
              "kernels;", len(shape_list), "shapes:", shape_list)
        return

    import cupy
    import tiled_matmul as tm
    from tiled_matmul.timing import L2Flusher

    from _probe import time_shape
    from _rounds import print_geomeans

    flush = L2Flusher()
    gen = cupy.random.default_rng(args.seed)
    np_dt = np.dtype(dtype)
    print(f"| shape | call | µs | × cuBLAS | % copy | pick |  ({dtype})")
    print("|---|---|---:|---:|---:|---|")
    logs: dict = {}
    best_of: dict = {}
    for M, N, K in shape_list:
        a = gen.uniform(-1, 1, (M, K), dtype=np.float64).astype(np_dt)
        b = gen.uniform(-1, 1, (K, N), dtype=np.float64).astype(np_dt)
        c = cupy.empty((M, N), dtype=np_dt)
        fns = {"cublas": lambda: cupy.matmul(a, b)}
        name, cfg = auto_name(M, N, K, dtype)
        extra = {"auto": f"{name} {cfg.params()}"}
        pred = {}
        for lab, v in variants(M, N, K, dtype).items():
            if v is None:
                fns[lab] = lambda: tm.matmul(a, b, out=c)
            else:
                fns[lab] = lambda p=v[0]: tm.matmul(a, b, out=c, strategy="gemv_xb", **p)
                extra[lab] = f"pred {v[1]:.1f}"
                pred[lab] = v[1]
        res, med = time_shape((M, N, K), fns, extra, c, a, b, flush, logs)
        cands = {lab: med[lab] for lab in pred if lab in med}
        if cands:
            fastest = min(cands, key=cands.get)
            by_model = min(pred, key=pred.get)
            best_of[(M, N, K)] = (fastest, by_model, med["auto"] / med[fastest],
                                  med.get(by_model, float("nan")) / med[fastest], med["cublas"] / med[fastest])
    print()
    print_geomeans(logs)
    print("\n| shape | fastest config | model's pick | auto / fastest | model's / fastest | fastest × cuBLAS |")
    print("|---|---|---|---:|---:|---:|")
    for s, (f, m, ra, rm, rc) in best_of.items():
        print(f"| {s[0]}x{s[1]}x{s[2]} | {f} | {m} | {ra:.2f} | {rm:.2f} | {rc:.2f} |")


if __name__ == "__main__":
    main()
