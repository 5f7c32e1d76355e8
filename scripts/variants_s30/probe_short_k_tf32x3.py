"""tf32x3 below K = 128 (thirtieth session). `auto` runs float32 on FFMA below
precision.TF32X3_MIN_K (128), where fresh short-K shapes on large outputs ran 0.91x cuBLAS FP32
(scripts/gpu_s30c.sh, lowest 0.73). The threshold came from the numerics suite's depths 1, 2, 3, 8,
16, 100: tf32x3's componentwise error over cuBLAS FP32 at most 1.92x at K = 16 and 1.32x at 100,
nothing measured in between.

accuracy: every data set of tiled_matmul.numerics at K in KS, three seeds, M = N = 512 (the suite's
side) and 2048 x 2048: the worst ratio of tf32x3's componentwise error (the tf32x3 request's pick
and wgmma_tma_tf32) to cuBLAS FP32's, NaN/Inf masks, against ieee's.
speed: short-K float32 shapes (K 16-127, any M and N) whose auto pick moves when tf32x3 is allowed
there, auto against that pick ("t3": precision.TF32X3_MIN_K lowered to 16 in the process for the
choice; _probe.auto_against: every call tm.check'ed first, 3 alternating rounds).

    PYTHONPATH=. python3 scripts/variants_s30/probe_short_k_tf32x3.py accuracy
    PYTHONPATH=. python3 scripts/variants_s30/probe_short_k_tf32x3.py speed --seed 3005 --count 16
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)
"""
import argparse
import os
import sys
from unittest import mock

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from _probe import choice_under, log_uniform  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import dispatch  # noqa: E402

KS = (16, 24, 32, 48, 64, 96, 127)
SIDES = (512, 2048)


def lowered_pick(M, N, K, T=16) -> "tuple | None":
    """auto's (strategy, params) with precision.TF32X3_MIN_K at T (the only reader of the
    threshold is precision.modes_for), or None where it runs the shape transposed."""
    from tiled_matmul import precision

    c = choice_under(M, N, K, "float32", mock.patch.object(precision, "TF32X3_MIN_K", T))
    return None if c.transposed is not None else (c.strategy, dict(c.params))


def draw(seed, count) -> list:
    """M, N 1-20000, K 16-127 log-uniform, at most 20 GFLOP, whose auto pick moves with tf32x3
    allowed (lowered_pick)."""
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N, K = log_uniform(rs, 1, 20000), log_uniform(rs, 1, 20000), log_uniform(rs, 16, 127)
        if 2 * M * N * K > 20e9:
            continue
        c = dispatch.choose(M, N, K, "float32")
        low = lowered_pick(M, N, K)
        if c.transposed is None and low is not None and low != (c.strategy, dict(c.params)):
            out.append((M, N, K))
    return out


def kernels_for(shapes) -> list:
    out = []
    for M, N, K in shapes:
        k = tm.kernel("auto").kernel_for(M, N, K, "float32")
        out.append((k.strategy, k.config))
        low = lowered_pick(M, N, K)
        if low is not None:
            out.append((low[0], tm.kernel(low[0], **low[1]).config))
        out.append(("wgmma_tma_tf32", tm.kernel("wgmma_tma_tf32").config))
    return out


def accuracy() -> None:
    import cupy

    from tiled_matmul import numerics
    from tiled_matmul.measure import cublas_compute_type

    worst: dict = {}
    print("| side | K | data | seed | cuBLAS | ieee | tf32x3 pick | wgmma_tma_tf32 | masks |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for side in SIDES:
        for K in KS:
            for name in numerics.DATASETS:
                for seed in range(3):
                    a_h, b_h = numerics.make(name, side, side, K, seed)
                    a, b = cupy.asarray(a_h), cupy.asarray(b_h)
                    a64, b64 = cupy.asarray(a_h.astype(np.float64)), cupy.asarray(b_h.astype(np.float64))
                    ref, den = a64 @ b64, cupy.abs(a64) @ cupy.abs(b64)
                    with cublas_compute_type("fp32"):
                        cub = cupy.matmul(a, b)
                    e_cub = numerics.componentwise_error(cub, a, b, ref, den)
                    mask = numerics.nonfinite_mask(cub)
                    errs, masks = [], True
                    for kw in (dict(precision="ieee"), dict(precision="tf32x3"), dict(strategy="wgmma_tma_tf32")):
                        out = cupy.full((side, side), cupy.nan, dtype=cupy.float32)
                        tm.matmul(a, b, out=out, **kw)
                        errs.append(numerics.componentwise_error(out, a, b, ref, den))
                        masks &= bool((numerics.nonfinite_mask(out) == mask).all())
                    ratios = [(e / e_cub) if e_cub > 0 else (0.0 if e == 0 else float("inf")) for e in errs]
                    for label, r in zip(("ieee", "tf32x3", "tma"), ratios):
                        w = worst.setdefault((side, K, label), (0.0, ""))
                        if r > w[0]:
                            worst[(side, K, label)] = (r, name)
                    if seed == 0:
                        print(f"| {side} | {K} | {name} | {seed} | {e_cub:.2e} | {ratios[0]:.2f} | {ratios[1]:.2f} | "
                              f"{ratios[2]:.2f} | {'equal' if masks else 'DIFFER'} |", flush=True)
    print()
    print("| side | K | worst ieee / cuBLAS | worst tf32x3 pick / cuBLAS | worst wgmma_tma_tf32 / cuBLAS |")
    print("|---:|---:|---|---|---|")
    for side in SIDES:
        for K in KS:
            cells = [f"{worst[(side, K, lab)][0]:.2f} ({worst[(side, K, lab)][1]})" for lab in ("ieee", "tf32x3", "tma")]
            print(f"| {side} | {K} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("accuracy", "speed"))
    ap.add_argument("--seed", type=int, default=3005)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.seed, args.count) if args.mode == "speed" else [
        (s, s, K) for s in SIDES for K in KS]
    if args.compile_only:
        from _probe import precompile

        print(precompile(args.compile_only, kernels_for(shapes)), "kernels;", shapes)
        return
    if args.mode == "accuracy":
        accuracy()
        return
    from _probe import auto_against

    picks = {s: lowered_pick(*s) for s in shapes}
    auto_against(shapes, lambda M, N, K: {"t3": picks[(M, N, K)]}, "float32", args.seed)


if __name__ == "__main__":
    main()
