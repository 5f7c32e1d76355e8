"""Two float32 configs of one shape beside cuBLAS FP32 (twenty-fourth session): auto's pick with
and without dispatch.MODEL_TILES, checked first (tm.check, NaN-poisoned output), then timed in 5
alternating rounds (CUDA events after warm-up, L2 flushed, median of 7 a round).

    PYTHONPATH=. python3 scripts/variants_s24/probe_pair.py MxNxK [MxNxK ...]
"""
from __future__ import annotations

import statistics
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul import dispatch
from tiled_matmul.timing import L2Flusher, time_fn


def main() -> None:
    flush = L2Flusher()
    rng = cupy.random.default_rng(242)
    for text in sys.argv[1:]:
        M, N, K = (int(v) for v in text.split("x"))
        dispatch.clear_cache()
        new = dispatch.choose(M, N, K, "float32")
        saved = dict(dispatch.MODEL_TILES)
        dispatch.MODEL_TILES.clear()
        dispatch.clear_cache()
        old = dispatch.choose(M, N, K, "float32")
        dispatch.MODEL_TILES.update(saved)
        dispatch.clear_cache()
        a = rng.uniform(-1, 1, (M, K), dtype=cupy.float32)
        b = rng.uniform(-1, 1, (K, N), dtype=cupy.float32)
        c = cupy.full((M, N), cupy.nan, dtype=cupy.float32)
        fns = {"cublas": lambda: cupy.matmul(a, b)}
        for tag, ch in (("without", old), ("with", new)):
            c.fill(cupy.nan)
            tm.matmul(a, b, out=c, strategy=ch.strategy, **ch.params)
            assert tm.check(c, a, b).passed, (text, ch)
            fns[tag] = (lambda ch=ch: tm.matmul(a, b, out=c, strategy=ch.strategy, **ch.params))
        res = {k: [] for k in fns}
        for _ in range(5):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        print(f"{text}: cuBLAS {med['cublas'] * 1e3:.1f} us; without MODEL_TILES {med['cublas'] / med['without']:.3f} "
              f"({old.source} {old.strategy} {old.params}); with {med['cublas'] / med['with']:.3f} "
              f"({new.source} {new.strategy} {new.params})", flush=True)


if __name__ == "__main__":
    main()
