"""register_blocked's config by the cost model (thirtieth session). The heuristic gives float32
outputs of at least one wave of 128 x 128 tiles register_blocked's default (128 x 128, 2 blocks per
SM) where tf32x3 is not allowed (K < TF32X3_MIN_K under "auto", or an "ieee" request); over one to
three waves its last wave can be mostly empty (random seed 35: 527x7279x66, 285 tiles for 264
slots, 0.75x cuBLAS FP32), where the model prefers a smaller tile of the rung. Per shape: auto
("auto"; the heuristic's default, "heur", under an ieee request), the model's pick among
register_blocked's configs ("rbm"), and the model's first pick among every rung ("m1").

    PYTHONPATH=. python3 scripts/variants_s30/probe_rb_configs.py --class short_k --seed 3003 --count 16
    PYTHONPATH=. python3 scripts/variants_s30/probe_rb_configs.py --class ieee --seed 3004 --count 10
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS
FP32); 3 alternating rounds, CUDA events after warm-up, L2 flushed, medians.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from _probe import log_uniform  # noqa: E402

from tiled_matmul import costmodel, dispatch  # noqa: E402

#: class -> (fixed shapes, K range, precision request)
CLASSES = {"short_k": ([(527, 7279, 66)], (8, 127), "auto"), "ieee": ([], (128, 8192), "ieee")}


def rb_model(M, N, K, precision) -> dict:
    p = dispatch.model_choice(M, N, K, "float32", None, precision, ("register_blocked",))
    return dispatch._own_params(p)


def draw(cls, seed, count) -> list:
    """The class's fixed shapes, then `count` whose pick is register_blocked's default and whose
    model config differs: M, N 128-20000 log-uniform, at most 20 GFLOP."""
    fixed, (klo, khi), precision = CLASSES[cls]
    rs = np.random.default_rng(seed)
    out = list(fixed)
    while len(out) < len(fixed) + count:
        M, N, K = log_uniform(rs, 128, 20000), log_uniform(rs, 128, 20000), log_uniform(rs, klo, khi)
        if 2 * M * N * K > 20e9:
            continue
        c = dispatch.choose(M, N, K, "float32", precision=precision)
        if c.strategy == "register_blocked" and not c.params and c.transposed is None and rb_model(M, N, K, precision):
            out.append((M, N, K))
    return out


def variants(M, N, K, precision) -> dict:
    out = {}
    if precision != "auto":
        out["heur"] = ("register_blocked", {})
    out["rbm"] = ("register_blocked", rb_model(M, N, K, precision))
    top = costmodel.rank(M, N, K, "float32", precision, None, dispatch.measured_efficiencies(None))[0]
    out["m1"] = (top.strategy, dispatch._own_params(top))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--class", dest="cls", choices=sorted(CLASSES), default="short_k")
    ap.add_argument("--seed", type=int, default=3003)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    precision = CLASSES[args.cls][2]
    shapes = draw(args.cls, args.seed, args.count)
    pick = lambda M, N, K: variants(M, N, K, precision)  # noqa: E731
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, pick), "kernels;", shapes)
        return
    from _probe import auto_against

    kw = {} if precision == "auto" else {"precision": precision}
    auto_against(shapes, pick, "float32", args.seed, **kw)


if __name__ == "__main__":
    main()
