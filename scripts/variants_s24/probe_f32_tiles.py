"""float32 shapes where dispatch.MODEL_TILES moves auto's pick off the heuristic's: the heuristic's
pick and the cost model's (among the three wgmma rungs) timed beside cuBLAS FP32 (twenty-fourth
session; shapes that no study used to set the rule).

    PYTHONPATH=. python3 scripts/variants_s24/probe_f32_tiles.py SEED [SEED ...] [--lo 256] [--count 24] [--skinny]

Shapes: benchmarks/random_shapes.py's draw for each seed, kept where the rule applies. Each product
is checked first (tm.check, NaN-poisoned output, against the float64 product); timings alternate in
3 rounds (CUDA events after warm-up, L2 flushed, median of 7 a round).
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
from random_shapes import draw_shapes  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import dispatch  # noqa: E402
from tiled_matmul.dtypes import as_dtype  # noqa: E402
from tiled_matmul.heuristic import recommend  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds", nargs="+", type=int)
    ap.add_argument("--lo", type=int, default=256)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--skinny", action="store_true",
                    help="instead: outputs with 9 <= min(M, N) <= 64 (which the rule leaves to the heuristic) "
                         "where the heuristic gives a MODEL_TILES rung, the model's pick among the rule's rungs")
    args = ap.parse_args()
    flush = L2Flusher()
    rng = cupy.random.default_rng(26)
    dt = as_dtype("float32")
    lh, lm = [], []
    for seed in args.seeds:
        for M, N, K in draw_shapes(args.count, seed, 200.0, lo=args.lo):
            h = recommend(M, N, K, "float32")
            if args.skinny:
                overridden, among = dispatch.MODEL_TILES["float32"]
                if not (9 <= min(M, N) <= 64 and K >= 128 and h[0] in overridden):
                    continue
            else:
                among = dispatch._model_tiles(M, N, K, dt, "auto", h[0], dispatch._sm_count(None))
                if among is None:
                    continue
            p = dispatch.model_choice(M, N, K, "float32", None, "auto", among)
            m = (p.strategy, dispatch._own_params(p))
            a = rng.uniform(-1, 1, (M, K), dtype=cupy.float32)
            b = rng.uniform(-1, 1, (K, N), dtype=cupy.float32)
            c = cupy.full((M, N), cupy.nan, dtype=cupy.float32)
            fns = {"cublas": lambda: cupy.matmul(a, b)}
            ok = True
            for tag, (s, params) in (("heuristic", h), ("model", m)):
                c.fill(cupy.nan)
                tm.matmul(a, b, out=c, strategy=s, **params)
                rep = tm.check(c, a, b)
                ok &= rep.passed
                fns[tag] = (lambda s=s, params=params: tm.matmul(a, b, out=c, strategy=s, **params))
            res = {k: [] for k in fns}
            for _ in range(3):
                for k, f in fns.items():
                    res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
            med = {k: statistics.median(v) for k, v in res.items()}
            rh, rm = med["cublas"] / med["heuristic"], med["cublas"] / med["model"]
            lh.append(math.log(rh))
            lm.append(math.log(rm))
            print(f"{seed} {M}x{N}x{K}: cuBLAS {med['cublas'] * 1e3:.1f} us, heuristic {rh:.3f} ({h[0]} {h[1]}), "
                  f"model {rm:.3f} ({m[0]} {m[1]}){'' if ok else ' CHECK FAILED'}", flush=True)
    if lh:
        print(f"{len(lh)} shapes: geometric mean x cuBLAS, heuristic {math.exp(statistics.fmean(lh)):.3f} "
              f"(lowest {math.exp(min(lh)):.2f}), model {math.exp(statistics.fmean(lm)):.3f} (lowest {math.exp(min(lm)):.2f})")


if __name__ == "__main__":
    main()
