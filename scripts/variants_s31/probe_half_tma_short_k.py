"""16-bit products whose C rows are not 16-byte aligned (N % 8) and whose K is under
heuristic.HALF_TMA_MIN_K: half_pick keeps them off TMA, a rule set on small outputs where
wgmma_tma's copies were the time (12399x18x89). gpu_s31b.sh timed wgmma_tma on padded operands at
1.04-3.70x cuBLAS on 12 large such outputs, where mma_half ran 0.77-0.87 (wgmma_tma stores C's
unaligned rows itself; only A and B are copied into padded rows). Here the full call
(tm.matmul(strategy="wgmma_tma"), the copies included) against auto, on two classes:

- big: outputs of at least half a wave of 128 x 256 tiles (half_pick's first TMA branch);
- mid: at least HALF_TINY_MAX_TILES_PER_SM 64 x 64 tiles per SM but under half a wave of 128 x 256
  (mma_half's 64 x 64 tile now; wgmma_tma's 128 x 64 and 128 x 128 tiles timed).

    PYTHONPATH=. python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype float16 --seed 3107 --count 8 --fixed
    PYTHONPATH=. python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype bfloat16 --seed 3108 --count 8
    PYTHONPATH=. python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype float16 --seed 3109 --count 10 --held-out
    PYTHONPATH=. python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype float16 --seed 3111 --count 12 --narrow
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)

Rows validated first (NaN-poisoned C, float64 reference); 3 alternating rounds, L2 flushed, medians.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.dirname(__file__))

from _probe import log_uniform  # noqa: E402

from tiled_matmul import heuristic  # noqa: E402
from tiled_matmul.tiling import cdiv  # noqa: E402

#: gpu_s31b.sh's shapes (probe_half_short_k.py --seed 3103)
FIXED = [(16328, 1673, 187), (669, 6953, 206), (532, 12461, 35), (12778, 4500, 4), (1187, 5447, 4),
         (1281, 1652, 209), (820, 4308, 163), (6836, 6530, 187), (5283, 1532, 6), (4709, 2254, 21),
         (5439, 4229, 5), (2557, 2706, 12)]
SMS = 132
VARIANTS = {"tma": ("wgmma_tma", {}), "tma_s": ("wgmma_tma", dict(heuristic._HALF_TMA_SMALL)),
            "tma_n": ("wgmma_tma", dict(heuristic._HALF_TMA_NARROW))}
#: --held-out: the rule's shapes (big class, K HALF_TMA_PAD_MIN_K-255) against the pick before it
HELD_OUT = {"old": ("mma_half", {})}


def klass(M, N):
    if 2 * cdiv(M, 128) * cdiv(N, 256) >= SMS:
        return "big"
    if cdiv(M, 64) * cdiv(N, 64) >= heuristic.HALF_TINY_MAX_TILES_PER_SM * SMS:
        return "mid"
    return None


def draw(seed, count, fixed, k_lo=4, classes=("big", "mid"), n_hi=16384):
    """`count` shapes per class of `classes` (M 300-16384, N 300-n_hi and K k_lo-255 log-uniform,
    N % 8 != 0, at most 40 GFLOP), after FIXED where `fixed`."""
    rs = np.random.default_rng(seed)
    out = list(FIXED) if fixed else []
    need = {"big": 0, "mid": 0, **{c: count for c in classes}}
    while any(need.values()):
        M, N, K = log_uniform(rs, 300, 16384), log_uniform(rs, 300, n_hi), log_uniform(rs, k_lo, 255)
        k = klass(M, N)
        if N % 8 and k and need[k] and 2 * M * N * K <= 40e9:
            need[k] -= 1
            out.append((M, N, K))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=3107)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--fixed", action="store_true")
    ap.add_argument("--held-out", action="store_true",
                    help="big class, K from heuristic.HALF_TMA_PAD_MIN_K: auto against mma_half's default (the old pick)")
    ap.add_argument("--narrow", action="store_true",
                    help="the rule's shapes with N 300 to --n-hi: its tile against 128 x 64, 128 x 128 and the old pick")
    ap.add_argument("--n-hi", type=int, default=1500, help="with --narrow: the widest N drawn")
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    variants = HELD_OUT if args.held_out else {**VARIANTS, **HELD_OUT} if args.narrow else VARIANTS
    if args.held_out or args.narrow:
        shapes = draw(args.seed, args.count, False, heuristic.HALF_TMA_PAD_MIN_K, ("big",), args.n_hi if args.narrow else 16384)
    else:
        shapes = draw(args.seed, args.count, args.fixed)
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, lambda M, N, K: variants,
                                args.dtype), "kernels;", shapes)
        return
    from tiled_matmul.dispatch import choose
    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs

    from _half import call_row, cells, geomeans, timed_rows

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", *variants]
    print(f"{args.dtype}, seed {args.seed}")
    print("| shape | class | cuBLAS µs | " + " | ".join(labels) + " | auto's pick |")
    print("|---|---|---:|" + "---:|" * len(labels) + "---|")
    for M, N, K in shapes:
        sets = make_inputs((M, N, K), args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets)}
        rows.update({k: (call_row(name, p), sets) for k, (name, p) in variants.items()})
        res = timed_rows(rows, flush)
        cls = klass(M, N)
        row_cells = cells(res, labels, logs, lambda k: f"{cls} {k}")
        c = choose(M, N, K, args.dtype)
        print(f"| {M}×{N}×{K} | {cls} | {res['cublas'][0]:.1f} | " + " | ".join(row_cells) +
              f" | {c.strategy} {dict(c.params)} |", flush=True)
    print()
    geomeans(dict(sorted(logs.items())))


if __name__ == "__main__":
    main()
