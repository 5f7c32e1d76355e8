"""float32 GEMV shapes (x·B with M <= 8, A·x with N <= 8) where the heuristic's table pick of
gemv_xb / gemv_ax and the cost model's pick among the same rung's configs differ (twenty-eighth
session; float64 already takes the model's pick): the two timed beside cuBLAS FP32.

Shapes are drawn log-uniform (the small side 1-8, the long one 9-60000, K 16-60000, the streamed
operand at most 2^28 elements), kept where the picks differ; half of the x·B draws with B over 2^24
elements.

    PYTHONPATH=. python3 scripts/variants_s28/probe_gemv_model.py --seed 2802 --xb 24 --ax 12
    PYTHONPATH=. python3 scripts/variants_s28/probe_gemv_model.py --seed 2802 --xb 24 --ax 12 --compile-only DIR
    PYTHONPATH=. python3 scripts/variants_s28/probe_gemv_model.py --compare filter --dtype float64 --seed 2803 --xb 12 --ax 0
    PYTHONPATH=. python3 scripts/variants_s28/probe_gemv_model.py --seed 2811 --xb 0 --ax 0 --xb-tma 12

(--compare filter: the model's picks without and with costmodel.groups_fit, which came after the
first run.)

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

from tiled_matmul import costmodel, dispatch, registry
from tiled_matmul.heuristic import recommend


def _model(M, N, K, rung, dtype, groups=True):
    """The model's params among `rung`'s configs, with or without costmodel.groups_fit."""
    if groups:
        return dispatch._own_params(dispatch.model_choice(M, N, K, dtype, None, "auto", (rung,)))
    saved = costmodel.groups_fit
    costmodel.groups_fit = lambda *a: True
    try:
        return dispatch._own_params(costmodel.rank(M, N, K, dtype, strategies=(rung,),
                                                   efficiencies=dispatch.measured_efficiencies(None))[0])
    finally:
        costmodel.groups_fit = saved


def fallback_pair(M, N, K, dtype):
    """((strategy, params) of dispatch.fallback_choice without costmodel.groups_fit, and with it),
    or None where they agree."""
    def pick():
        costmodel.clear_cache()
        c = dispatch.fallback_choice(M, N, K, dtype)
        return c.strategy, c.params

    saved = costmodel.groups_fit
    costmodel.groups_fit = lambda *a: True
    try:
        before = pick()
    finally:
        costmodel.groups_fit = saved
    after = pick()
    if before[0] == after[0] and registry.get(before[0]).make_config(**before[1]) == registry.get(after[0]).make_config(**after[1]):
        return None
    return before, after


def picks(M, N, K, rung, compare="table", dtype="float32"):
    """("before", "after") params for `rung`: compare "table", the heuristic's table pick and the
    model's; "filter", the model's without and with costmodel.groups_fit. None where they name
    one config or the heuristic picks another rung."""
    name, params = recommend(M, N, K, dtype, sms=132, wgmma=True, dmma=True)
    if name != rung:
        return None
    entry = registry.get(rung)
    before = dict(params) if compare == "table" else _model(M, N, K, rung, dtype, groups=False)
    after = _model(M, N, K, rung, dtype)
    if entry.make_config(**before) == entry.make_config(**after):
        return None
    return before, after


def draw(rs, count, rung, big_every=0, compare="table", dtype="float32"):
    out = []
    while len(out) < count:
        small = int(rs.integers(1, 17 if rung == "gemv_xb_tma" else 9))
        long_ = int(round(math.exp(rs.uniform(math.log(9), math.log(60000)))))
        K = int(round(math.exp(rs.uniform(math.log(16), math.log(60000)))))
        if rung == "gemv_xb_tma":  # its products: rows of A and B whole 16-byte vectors
            long_, K = -(-long_ // 4) * 4, -(-K // 4) * 4
        xb = rung.startswith("gemv_xb")
        M, N = (small, long_) if xb else (long_, small)
        stream = K * (N if xb else M)
        if stream > 2**28:
            continue
        if big_every and (len(out) % big_every == 0) != (stream > 2**24):
            continue
        if compare == "fallback":
            p = fallback_pair(M, N, K, dtype)
            if p is not None and p[0][0] != p[1][0]:  # the rung moves
                out.append(((M, N, K), None, p))
            continue
        p = picks(M, N, K, rung, compare, dtype)
        if p is not None:
            out.append(((M, N, K), rung, ((rung, p[0]), (rung, p[1]))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2802)
    ap.add_argument("--xb", type=int, default=24)
    ap.add_argument("--ax", type=int, default=12)
    ap.add_argument("--xb-tma", type=int, default=0, help="also this many x·B shapes of gemv_xb_tma (M 1-16)")
    ap.add_argument("--compare", choices=("table", "filter", "fallback"), default="table",
                    help="table: the heuristic's table pick against the model's; filter: the model's without "
                         "costmodel.groups_fit against with it; fallback: dispatch.fallback_choice without and "
                         "with it, where the rung moves (the x·B draws)")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    rs = np.random.default_rng(args.seed)
    dtype, np_dt = args.dtype, np.dtype(args.dtype)
    cases = (draw(rs, args.xb, "gemv_xb", 2 if args.compare == "table" else 0, args.compare, dtype)
             + draw(rs, args.ax, "gemv_ax", 0, args.compare, dtype)
             + draw(rs, args.xb_tma, "gemv_xb_tma", 2, args.compare, dtype))
    before, after = ("table", "model") if args.compare == "table" else ("unfiltered", "filtered")
    if args.compile_only:
        from _probe import precompile

        todo = [(rung, registry.get(rung).make_config(**p)) for _, _, pair in cases for rung, p in pair]
        print(precompile(args.compile_only, todo, dtype), "kernels;", len(cases), "shapes:", [c[0] for c in cases])
        return

    import cupy
    import tiled_matmul as tm
    from tiled_matmul.timing import L2Flusher

    from _probe import time_shape
    from _rounds import print_geomeans

    flush = L2Flusher()
    gen = cupy.random.default_rng(args.seed)
    print(f"| shape | call | µs | × cuBLAS | % copy | params |  ({dtype}, {args.compare})")
    print("|---|---|---:|---:|---:|---|")
    logs: dict = {}
    for (M, N, K), rung, ((r0, p0), (r1, p1)) in cases:
        a = gen.uniform(-1, 1, (M, K), dtype=np.float64).astype(np_dt)
        b = gen.uniform(-1, 1, (K, N), dtype=np.float64).astype(np_dt)
        c = cupy.empty((M, N), dtype=np_dt)
        fns = {"cublas": lambda: cupy.matmul(a, b),
               before: lambda: tm.matmul(a, b, out=c, strategy=r0, **p0),
               after: lambda: tm.matmul(a, b, out=c, strategy=r1, **p1)}
        extra = {before: f"{r0} {p0}", after: f"{r1} {p1}"}
        big = "big" if K * (M if rung == "gemv_ax" else N) > 2**24 else "small"
        time_shape((M, N, K), fns, extra, c, a, b, flush, logs, key=lambda lab: (rung or "fallback", big, lab))
    print()
    print_geomeans(logs)


if __name__ == "__main__":
    main()
