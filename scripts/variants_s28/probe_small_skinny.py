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
    PYTHONPATH=. python3 scripts/variants_s28/probe_small_skinny.py --seed 2903 --count 16 --no-fixed --xb-tma
      (x·B only, where the model's first candidate is gemv_xb_tma: dispatch.SMALL_XB_TMA_ROWS's two
      sides, twenty-ninth session)

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


def draw(seed, count, xb_tma=False):
    """`count` shapes, A·x and x·B in turn (`xb_tma`: x·B alone, whose first candidate in the cost
    model is gemv_xb_tma)."""
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        thin = int(rs.integers(9, 65))
        wide = int(round(math.exp(rs.uniform(math.log(9), math.log(3000)))))
        K = int(round(math.exp(rs.uniform(math.log(128), math.log(1500)))))
        M, N = (wide, thin) if len(out) % 2 and not xb_tma else (thin, wide)
        if recommend(M, N, K, "float32", sms=132)[0] != "warp_tiled":
            continue
        if xb_tma and (M >= N or costmodel.rank(M, N, K, "float32", efficiencies=dispatch.measured_efficiencies(None))[0].strategy
                       != "gemv_xb_tma"):
            continue
        out.append((M, N, K))
    return out


def before_short_k(M, N, K) -> tuple:
    """auto's pick before dispatch.SMALL_XB_SHORT_K (scripts/variants_s29/dispatch_small_xb_short_k.patch,
    not shipped): choose with that rule off (auto's own pick where the rule is not in the tree)."""
    saved = getattr(dispatch, "SMALL_XB_SHORT_K", None)
    if saved is None:
        c = dispatch.choose(M, N, K, "float32")
        return c.strategy, dict(c.params)
    try:
        dispatch.SMALL_XB_SHORT_K = 0
        dispatch.clear_cache()
        c = dispatch.choose(M, N, K, "float32")
    finally:
        dispatch.SMALL_XB_SHORT_K = saved
        dispatch.clear_cache()
    return c.strategy, dict(c.params)


def variants(M, N, K) -> dict:
    eff = dispatch.measured_efficiencies(None)
    name, params = recommend(M, N, K, "float32", sms=132)
    out = {"heur": (name, dict(params))}  # the heuristic's pick (auto's before dispatch.MODEL_SMALL)
    out["s28"] = before_short_k(M, N, K)  # auto's pick before dispatch.SMALL_XB_SHORT_K
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
    ap.add_argument("--xb-tma", action="store_true")
    args = ap.parse_args()
    shapes = ([] if args.no_fixed else FIXED) + draw(args.seed, args.count, args.xb_tma)
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, variants), "kernels;", shapes)
        return

    from _probe import auto_against

    auto_against(shapes, variants, "float32", args.seed)


if __name__ == "__main__":
    main()
