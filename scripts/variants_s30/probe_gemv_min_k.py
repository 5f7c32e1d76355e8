"""The GEMV rungs below heuristic.GEMV_MIN_K (thirtieth session). A float32 product with M or N at
most 8, a streamed operand under GEMV_MIN_STREAM elements and K < 128 runs on warp_tiled's one 32 x
32 block per tile walking K; random draws put such products at 0.70-0.81x cuBLAS FP32 (3x1x81 7.3
against 5.1 us, 1x165x66 7.1 against 5.7). The limit was set where "the launch is the time" at K of
2-47. Per shape: auto, and auto's pick with GEMV_MIN_K lowered to 16 in the process ("gemv").

    PYTHONPATH=. python3 scripts/variants_s30/probe_gemv_min_k.py --seed 3007 --count 20
    PYTHONPATH=. python3 scripts/variants_s30/probe_gemv_min_k.py --seed 3009 --count 20 --limit 48 --no-fixed   # held out (before GEMV_SHORT_K shipped)
    PYTHONPATH=. python3 scripts/variants_s30/probe_gemv_min_k.py --dtype float64 --seed 3010 --count 20
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS
FP32); 3 alternating rounds, CUDA events after warm-up, L2 flushed, medians.
"""
import argparse
import os
import sys
from unittest import mock

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from _probe import choice_under, log_uniform  # noqa: E402

from tiled_matmul import dispatch, heuristic  # noqa: E402

FIXED = [(3, 1, 81), (1, 165, 66)]


def lowered_pick(M, N, K, T=16, dtype="float32") -> "tuple | None":
    """auto's (strategy, params) with _gemv's K limit at T, or None where it runs the shape
    transposed."""
    # the limit _gemv reads: GEMV_SHORT_K once it shipped (thirtieth session), GEMV_MIN_K before;
    # _half_gemv (float16, bfloat16) reads GEMV_MIN_K for x·B, and for A·x GEMV_MIN_K before the
    # thirty-first session, GEMV_SHORT_K since: both lowered
    if dtype in ("float16", "bfloat16"):
        patch = mock.patch.multiple(heuristic, GEMV_MIN_K=T, GEMV_SHORT_K=T)
    else:
        patch = mock.patch.object(heuristic, "GEMV_SHORT_K" if hasattr(heuristic, "GEMV_SHORT_K") else "GEMV_MIN_K", T)
    c = choice_under(M, N, K, dtype, patch)
    return None if c.transposed is not None else (c.strategy, dict(c.params))


def draw(seed, count, dtype="float32", T=16, fixed=True, ax_only=False) -> list:
    """FIXED (unless not `fixed`), then x·B and A·x in turn (A·x only with `ax_only`): thin side
    1-8, wide side 1-3000, K 16-127 log-uniform, whose pick moves with the limit lowered to T."""
    rs = np.random.default_rng(seed)
    out = list(FIXED) if fixed else []
    while len(out) < (len(FIXED) if fixed else 0) + count:
        thin, wide, K = int(rs.integers(1, 9)), log_uniform(rs, 1, 3000), log_uniform(rs, 16, 127)
        M, N = (wide, thin) if len(out) % 2 or ax_only else (thin, wide)
        c = dispatch.choose(M, N, K, dtype)
        low = lowered_pick(M, N, K, T, dtype)
        if c.transposed is None and low is not None and low != (c.strategy, dict(c.params)):
            out.append((M, N, K))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3007)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    ap.add_argument("--limit", type=int, default=16, help="GEMV_MIN_K for the 'gemv' column")
    ap.add_argument("--no-fixed", action="store_true")
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shipped = getattr(heuristic, "GEMV_SHORT_K", heuristic.GEMV_MIN_K)
    if args.limit >= shipped:  # no shape's pick would move: draw would never return
        raise SystemExit(f"--limit {args.limit} moves no pick: the shipped limit is {shipped}")
    shapes = draw(args.seed, args.count, args.dtype, args.limit, not args.no_fixed)
    picks = {s: lowered_pick(*s, args.limit, args.dtype) for s in shapes}
    pick = lambda M, N, K: {"gemv": picks[(M, N, K)]}  # noqa: E731
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, pick, args.dtype), "kernels;", shapes)
        return
    from _probe import auto_against

    auto_against(shapes, pick, args.dtype, args.seed)


if __name__ == "__main__":
    main()
