"""Small skinny float32 products (one side 9-64, the other 9-3000, K 128-1500, the large operand
under heuristic.AX_CHUNK_MIN_STREAM), where auto runs one warp_tiled block row per 32 rows and
loses a few microseconds (random seed 30: 85x25x247 12.8 against cuBLAS's 9.1 us; seed 28:
30x34x228 0.82x). Per shape: auto; "heur", the heuristic's pick (auto's before dispatch.MODEL_SMALL,
which came after the first run, gpu_s28p.sh); the cost model's pick among the GEMV rung's configs
(gemv_ax for A·x, gemv_xb for x·B, in chunks); the model's two fastest candidates overall,
narrowed as auto narrows (twenty-eighth session).

    PYTHONPATH=. python3 scripts/variants_s28/probe_small_skinny.py --seed 2812 --count 12
    PYTHONPATH=. python3 scripts/variants_s28/probe_small_skinny.py --seed 2812 --count 12 --compile-only DIR
    PYTHONPATH=. python3 scripts/variants_s28/probe_small_skinny.py --seed 2813 --count 16 --no-fixed   # held out

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS
FP32); 3 alternating rounds, CUDA events after warm-up, L2 flushed, medians.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from tiled_matmul import costmodel, dispatch  # noqa: E402
from tiled_matmul.heuristic import recommend  # noqa: E402

FIXED = [(85, 25, 247), (30, 34, 228), (25, 579, 234)]


def draw(seed, count):
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        thin = int(rs.integers(9, 65))
        wide = int(round(math.exp(rs.uniform(math.log(9), math.log(3000)))))
        K = int(round(math.exp(rs.uniform(math.log(128), math.log(1500)))))
        M, N = (wide, thin) if len(out) % 2 else (thin, wide)
        if recommend(M, N, K, "float32", sms=132)[0] == "warp_tiled":
            out.append((M, N, K))
    return out


def variants(M, N, K) -> dict:
    eff = dispatch.measured_efficiencies(None)
    name, params = recommend(M, N, K, "float32", sms=132)
    out = {"heur": (name, dict(params))}  # the heuristic's pick (auto's before dispatch.MODEL_SMALL)
    rung = "gemv_ax" if N < M else "gemv_xb"
    ranked = costmodel.rank(M, N, K, "float32", strategies=(rung,), efficiencies=eff)
    if ranked:
        out["gemv"] = (rung, dispatch._own_params(ranked[0]))
    for i, p in enumerate(costmodel.rank(M, N, K, "float32", efficiencies=eff)[:2]):
        out[f"m{i + 1}"] = (p.strategy, dispatch.narrowed(p.strategy, dispatch._own_params(p), M))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2812)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    ap.add_argument("--no-fixed", action="store_true")
    args = ap.parse_args()
    shapes = ([] if args.no_fixed else FIXED) + draw(args.seed, args.count)
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, variants), "kernels;", shapes)
        return

    from _probe import auto_against

    auto_against(shapes, variants, "float32", args.seed)


if __name__ == "__main__":
    main()
