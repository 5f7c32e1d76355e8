"""float64 mid-size products (M, N 32-6000, K 64-4000, at most 20 GFLOP), where random draws put
auto at 0.76-0.81x cuBLAS DGEMM (benchmarks/random_shapes.py --dtypes float64 --seed 29:
4798x197x512, 672x2876x925): auto's pick (the cost model's) against the model's next candidates,
to see whether a faster config exists that the model ranks low (twenty-eighth session).

    PYTHONPATH=. python3 scripts/variants_s28/probe_f64_mid.py --seed 2810 --count 10 --top 6
    PYTHONPATH=. python3 scripts/variants_s28/probe_f64_mid.py --seed 2810 --count 10 --top 6 --compile-only DIR

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS);
3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, a device copy of the
product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from tiled_matmul import registry  # noqa: E402

FIXED = [(4798, 197, 512), (672, 2876, 925), (47, 2961, 149), (171, 862, 384), (231, 117, 645), (1204, 2109, 733)]


def draw(seed, count):
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N = (int(round(math.exp(rs.uniform(math.log(32), math.log(6000))))) for _ in range(2))
        K = int(round(math.exp(rs.uniform(math.log(64), math.log(4000)))))
        if min(M, N) > 8 and 2 * M * N * K <= 20e9:
            out.append((M, N, K))
    return out


def variants(M, N, K, top) -> dict:
    """label -> (strategy, params): the model's first `top` candidates (_probe.model_top)."""
    from _probe import model_top

    return model_top(M, N, K, "float64", top)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2810)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = FIXED + draw(args.seed, args.count)
    if args.compile_only:
        import tiled_matmul as tm
        from _probe import precompile

        todo = []
        for M, N, K in shapes:
            k = tm.kernel("auto").kernel_for(M, N, K, "float64")
            todo += [(k.strategy, k.config)] + [(n, registry.get(n).make_config(**p))
                                               for n, p in variants(M, N, K, args.top).values()]
        print(precompile(args.compile_only, todo, "float64"), "kernels;", shapes)
        return

    from _probe import auto_against

    _, per_shape = auto_against(shapes, lambda M, N, K: variants(M, N, K, args.top), "float64", args.seed)
    print("\n| shape | fastest of the model's top | × cuBLAS | auto × cuBLAS |")
    print("|---|---|---:|---:|")
    for (M, N, K), (med, extra) in per_shape.items():
        cands = {lab: t for lab, t in med.items() if lab not in ("cublas", "auto", "copy")}
        f = min(cands, key=cands.get)
        print(f"| {M}x{N}x{K} | {f} {extra[f][:70]} | {med['cublas'] / med[f]:.2f} | {med['cublas'] / med['auto']:.2f} |")

if __name__ == "__main__":
    main()
