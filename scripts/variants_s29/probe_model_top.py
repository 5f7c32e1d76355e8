"""auto's pick (the cost model's, or the heuristic's rung with the model's config) against the cost
model's first candidates among every rung, on a class of float32 shapes where fresh random draws
put auto low, to see whether a faster config exists that the model ranks low or that the
heuristic's rung keeps from it (twenty-ninth session). Classes:

- long_k: M, N 100-2500, K 4000-30000 (random_shapes.py --seed 32: 628x181x14481 0.71x cuBLAS FP32
  on wgmma_split_k's 128-row tile in 64 slices; seed 33: 1674x147x831 0.86);
- xb_short_k: x·B with M 1-8, N 4000-30000, K 128-400 (seed 33: 6x13235x186 0.84 on gemv_xb's
  model config, where the model's first candidates are gemv_xb_tma's).

    PYTHONPATH=. python3 scripts/variants_s29/probe_model_top.py --class long_k --seed 2901 --count 8 --top 6
    PYTHONPATH=. python3 scripts/variants_s29/probe_model_top.py --class xb_short_k --seed 2902 --count 10 --top 5
    (--compile-only DIR: fill a cubin cache without a GPU)

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS);
3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS FP32 and a device copy
of the product's bytes in the same rounds.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from _probe import log_uniform  # noqa: E402

from tiled_matmul import dispatch  # noqa: E402

#: class -> (fixed shapes, (M range, N range, K range))
CLASSES = {
    "long_k": ([(628, 181, 14481), (1674, 147, 831)], ((100, 2500), (100, 2500), (4000, 30000))),
    "xb_short_k": ([(6, 13235, 186)], ((1, 8), (4000, 30000), (128, 400))),
}


def draw(cls, seed, count):
    """`count` shapes of class `cls` (log-uniform in its ranges, at most 40 GFLOP, not run
    transposed), after its fixed ones."""
    fixed, ranges = CLASSES[cls]
    rs = np.random.default_rng(seed)
    out = list(fixed)
    while len(out) < len(fixed) + count:
        M, N, K = (log_uniform(rs, lo, hi) for lo, hi in ranges)
        if 2 * M * N * K <= 40e9 and dispatch.choose(M, N, K, "float32").transposed is None:
            out.append((M, N, K))
    return out


def variants(M, N, K, top) -> dict:
    """label -> (strategy, params): the model's first `top` candidates (_probe.model_top)."""
    from _probe import model_top

    return model_top(M, N, K, "float32", top)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--class", dest="cls", choices=sorted(CLASSES), default="long_k")
    ap.add_argument("--seed", type=int, default=2901)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.cls, args.seed, args.count)
    pick = lambda M, N, K: variants(M, N, K, args.top)  # noqa: E731
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, pick), "kernels;", shapes)
        return
    from _probe import auto_against

    auto_against(shapes, pick, "float32", args.seed)



if __name__ == "__main__":
    main()
