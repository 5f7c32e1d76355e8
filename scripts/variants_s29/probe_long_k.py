"""float32 products with a long K on a mid-size output (M, N 100-2500, K 4000-30000), where fresh
random draws put auto at 0.71x cuBLAS FP32 (benchmarks/random_shapes.py --seed 32: 628x181x14481 on
wgmma_split_k's 128-row tile in 64 slices; seed 33: 1674x147x831 0.86): auto's pick (the cost
model's) against the model's next candidates, to see whether a faster config exists that the model
ranks low (twenty-ninth session).

    PYTHONPATH=. python3 scripts/variants_s29/probe_long_k.py --seed 2901 --count 8 --top 6
    PYTHONPATH=. python3 scripts/variants_s29/probe_long_k.py --seed 2901 --count 8 --top 6 --compile-only DIR

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS);
3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS FP32 and a device copy
of the product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from tiled_matmul import costmodel, dispatch  # noqa: E402

FIXED = [(628, 181, 14481), (1674, 147, 831)]


def draw(seed, count):
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N = (int(round(math.exp(rs.uniform(math.log(100), math.log(2500))))) for _ in range(2))
        K = int(round(math.exp(rs.uniform(math.log(4000), math.log(30000)))))
        if 2 * M * N * K <= 40e9 and dispatch.choose(M, N, K, "float32").transposed is None:
            out.append((M, N, K))
    return out


def variants(M, N, K, top) -> dict:
    """label -> (strategy, params): the model's first `top` candidates (m1 is auto's pick where no
    database entry or rule serves the shape)."""
    out = {}
    for i, p in enumerate(costmodel.rank(M, N, K, "float32", efficiencies=dispatch.measured_efficiencies(None))[:top]):
        out[f"m{i + 1}"] = (p.strategy, dispatch._own_params(p))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2901)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = FIXED + draw(args.seed, args.count)
    pick = lambda M, N, K: variants(M, N, K, args.top)  # noqa: E731
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, pick), "kernels;", shapes)
        return
    from _probe import auto_against

    auto_against(shapes, pick, "float32", args.seed)



if __name__ == "__main__":
    main()
