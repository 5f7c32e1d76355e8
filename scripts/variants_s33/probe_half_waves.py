"""heuristic.HALF_TMA_WAVE_GAIN: wgmma_tma's 128 x 128 tile instead of 128 x 256 (alone or in 2-CTA
clusters) where whole waves of persistent CTAs make its tiles cheaper (heuristic._narrow_waves),
on random 16-bit products of the rule's class, against the pick without the rule and cuBLAS.
The rule is a candidate: apply scripts/variants_s33/half_waves.patch first (it defines both names).

Two draws per dtype, each of `--count` shapes the rule moves (_narrow_waves < 1) and `--near`
shapes it leaves (1 <= _narrow_waves < HALF_TMA_NARROW_COST): the first draw sets the gain
threshold, the second holds it out.

    PYTHONPATH=. python3 scripts/variants_s33/probe_half_waves.py --dtype float16 --seed 3301 --count 8 --near 3
    PYTHONPATH=. python3 scripts/variants_s33/probe_half_waves.py --seed 1 --shapes 3000x2000x1536,...
    (--list: print the draw and each pick, no GPU needed)

M and N log-uniform in 700-12000, K in 128-8192, at most 80 GFLOP, in half_pick's first TMA
branch (half a wave of 128 x 256 tiles or more). Rows validated first (NaN-poisoned C, float64
reference); 3 alternating rounds, L2 flushed, medians; cells "µs (x cuBLAS)".
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

from _probe import log_uniform  # noqa: E402

from tiled_matmul import heuristic  # noqa: E402
from tiled_matmul.tiling import cdiv  # noqa: E402

SMS = 132


def old_pick(M, N, K, dtype):
    """half_pick without the wave rule."""
    keep = heuristic.HALF_TMA_WAVE_GAIN
    heuristic.HALF_TMA_WAVE_GAIN = -1.0
    try:
        return heuristic.half_pick(M, N, K, dtype, SMS)
    finally:
        heuristic.HALF_TMA_WAVE_GAIN = keep


def draw(seed, dtype, count, near):
    """(shape, predicted fraction) for `count` moved and `near` left shapes."""
    rs = np.random.default_rng(seed)
    moved, left = [], []
    while len(moved) < count or len(left) < near:
        M, N, K = log_uniform(rs, 700, 12000), log_uniform(rs, 700, 12000), log_uniform(rs, 128, 8192)
        if 2 * M * N * K > 80e9 or 2 * cdiv(M, 128) * cdiv(N, 256) < SMS:
            continue
        name, params = old_pick(M, N, K, dtype)
        if name != "wgmma_tma" or params.get("bn", 256) != 256:
            continue
        w = heuristic._narrow_waves(M, N, SMS)
        if w < 1 and len(moved) < count:
            moved.append(((M, N, K), w))
        elif 1 <= w < heuristic.HALF_TMA_NARROW_COST and len(left) < near:
            left.append(((M, N, K), w))
    return moved + left


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--near", type=int, default=3)
    ap.add_argument("--shapes", default="", help="MxNxK,... instead of a draw")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.shapes:
        shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
        shapes = [(s, heuristic._narrow_waves(s[0], s[1], SMS)) for s in shapes]
    else:
        shapes = draw(args.seed, args.dtype, args.count, args.near)
    if args.list:
        for (M, N, K), w in shapes:
            print(f"{M}x{N}x{K} waves {w:.3f} old {old_pick(M, N, K, args.dtype)} new {heuristic.half_pick(M, N, K, args.dtype, SMS)}")
        return
    import cupy

    from tiled_matmul.measure import L2Flusher, cublas_row, make_inputs
    import _half

    flush = L2Flusher()
    logs: dict = {}
    print(f"seed {args.seed}, {args.dtype}\n")
    print("| shape | predicted 128×128 / old | old pick | old | 128×128 | new / old |\n|---|---:|---|---:|---:|---:|")
    for (M, N, K), w in shapes:
        (a, b, c), = make_inputs((M, N, K), args.dtype, seed=args.seed)
        sets = [(a, b, c)]
        _, old = old_pick(M, N, K, args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets),
                "old": (_half.call_row("wgmma_tma", old), sets),
                "narrow": (_half.call_row("wgmma_tma", dict(heuristic._HALF_TMA_NARROW)), sets)}
        res = _half.timed_rows(rows, flush)
        cells = _half.cells(res, ["old", "narrow"], logs, key=lambda k, w=w: (k, w < 1))
        gain = res["narrow"][1] / res["old"][1] if res["old"][0] and res["narrow"][0] else float("nan")
        print(f"| {M}×{N}×{K} | {w:.3f} | {old or '128×256'} | {cells[0]} | {cells[1]} | {gain:.3f} |", flush=True)
        del a, b, c
        cupy.get_default_memory_pool().free_all_blocks()
    print()
    _half.geomeans(logs)


if __name__ == "__main__":
    main()
