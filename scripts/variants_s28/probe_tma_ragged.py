"""float32 products auto runs on wgmma_tma_tf32 whose rows of A (K % 4) or of B (N % 4) are not
whole 16-byte vectors, so the TMA rung first copies that operand into padded rows (twenty-eighth
session: on A·x with 65-128 columns that copy made the transposed cp.async run 18 of 18 times
faster, dispatch.AX_TRANSPOSED_WIDE). Per shape: auto; "cp", the cost model's pick among wgmma and
wgmma_split_k (cp.async, reading both operands in place), narrowed as auto narrows; "heur", the
heuristic's wgmma pick; "padded", auto's TMA pick on operands the caller padded (the copy's cost
left out, a bound on what reading in place could give).

    PYTHONPATH=. python3 scripts/variants_s28/probe_tma_ragged.py --seed 2808 --count 16
    PYTHONPATH=. python3 scripts/variants_s28/probe_tma_ragged.py --seed 2808 --count 16 --compile-only DIR

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS);
3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS FP32 and a device
copy of the product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from tiled_matmul import dispatch, heuristic


def draw(seed, count, max_gflop=120.0):
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N = (int(round(math.exp(rs.uniform(math.log(130), math.log(30000))))) for _ in range(2))
        K = int(round(math.exp(rs.uniform(math.log(200), math.log(16000)))))
        if (K % 4 == 0 and N % 4 == 0) or 2 * M * N * K > max_gflop * 1e9:
            continue
        c = dispatch.choose(M, N, K, "float32")
        if c.strategy == "wgmma_tma_tf32" and c.transposed is None:
            out.append((M, N, K))
    return out


def variants(M, N, K) -> dict:
    """label -> (strategy, params)."""
    out = {}
    p = dispatch.model_choice(M, N, K, "float32", None, "auto", ("wgmma", "wgmma_split_k"))
    out["cp"] = (p.strategy, dispatch.narrowed(p.strategy, dispatch._own_params(p), M))
    h = heuristic._wgmma_pick(M, N, K, 132)
    if h is not None:
        out["heur"] = (h[0], dispatch.narrowed(h[0], dict(h[1]), M))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2808)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.seed, args.count)
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, variants), "kernels;", shapes)
        return

    from _probe import auto_against, padded_call

    def padded(a, b, c, k):
        """auto's pick on operands the caller padded: views of 16-byte rows, no copy at the call."""
        return {"padded": (padded_call(a, b, c, k.strategy.name, k.config.params()), "auto's pick, operands in padded rows")}

    auto_against(shapes, variants, "float32", args.seed, more=padded)


if __name__ == "__main__":
    main()
