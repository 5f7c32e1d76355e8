"""float32 products with a short K (17-127: auto computes them in ieee, precision.TF32X3_MIN_K) and
an output of at least one wave of 128 x 128 tiles, where the heuristic gives register_blocked
(random seed 29: 15400x4737x82 0.88x cuBLAS). Per shape: auto; warp_tiled's default tile; the cost
model's three fastest ieee configs.

    PYTHONPATH=. python3 scripts/variants_s28/probe_short_k.py --seed 2809 --count 10
    PYTHONPATH=. python3 scripts/variants_s28/probe_short_k.py --seed 2809 --count 10 --compile-only DIR

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS
FP32); 3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, a device copy of the
product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from tiled_matmul import costmodel, dispatch


def draw(seed, count):
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N = (int(round(math.exp(rs.uniform(math.log(1500), math.log(30000))))) for _ in range(2))
        K = int(rs.integers(17, 128))
        if 2 * M * N * K <= 60e9 and dispatch.choose(M, N, K, "float32").strategy == "register_blocked":
            out.append((M, N, K))
    return out


def variants(M, N, K) -> dict:
    out = {"warp_tiled": ("warp_tiled", {})}
    seen = set()
    for p in costmodel.rank(M, N, K, "float32", "ieee", efficiencies=dispatch.measured_efficiencies(None)):
        key = (p.strategy, tuple(sorted(p.params.items())))
        if key not in seen:
            seen.add(key)
            out[f"model{len(seen)}"] = (p.strategy, dispatch._own_params(p))
        if len(seen) == 3:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2809)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.seed, args.count)
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, variants), "kernels;", shapes)
        return

    from _probe import auto_against

    auto_against(shapes, variants, "float32", args.seed, precision="ieee")


if __name__ == "__main__":
    main()
