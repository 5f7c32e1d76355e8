"""Data for the split-K rules and the cost model's short-K terms (seventeenth session): every
candidate of a grid of shapes timed, one JSON line each, for fitting on the CPU afterwards.

    PYTHONPATH=. python3 scripts/variants_s17/probe_sweep.py split float32 OUT.jsonl
    PYTHONPATH=. python3 scripts/variants_s17/probe_sweep.py shortk float64 OUT.jsonl

split:  small C, long K: the dtype's split rung on each of the heuristic's split tiles at every
        split count, plus auto's pick and cuBLAS.
shortk: float64 (or float32) outputs from 2^16 to 2^24 elements at K = 1..256 on every dmma
        config and a few SIMT tiles, plus auto's pick and cuBLAS.
Each candidate is checked once (tm.check), then timed: CUDA events, L2 flushed, median of 7.
"""

from __future__ import annotations

import json
import sys
import time

import tiled_matmul as tm
from tiled_matmul import heuristic as h
from tiled_matmul import registry
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

SPLIT_MN = [(41, 59), (64, 64), (94, 50), (128, 128), (92, 281), (256, 256)]
SPLIT_K = [512, 2048, 8192, 32768]
RUNG = {"float32": ("wgmma_split_k", h._WG_SPLIT_TILES, (2, 4, 8, 16, 32, 64, 128)),
        "float64": ("dmma_split_k", h._DMMA_SPLIT_TILES, (2, 4, 8, 16, 32, 64)),
        "float16": ("mma_half_split_k", (*h._HALF_SPLIT_TILES, h._HALF_TINY), (2, 4, 8, 16, 32, 64))}
SHORT_MN = [(4447, 127), (12399, 18), (1265, 51), (2000, 1000), (8000, 250), (600, 600), (16000, 64)]
SHORT_K = [1, 8, 16, 32, 64, 137, 256]
SIMT = {"float64": [("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4)),
                    ("warp_tiled", dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, min_blocks=4))],
        "float32": [("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4))]}


def run(dt, shape, cands, flush, out):
    (a, b, c), = make_inputs(shape, dt)
    crow = cublas_row("probe", dtype=dt)
    with crow.context():
        t = time_fn(lambda i: crow.call(a, b, c), repeat=7, warmup=2, flush=flush).median_ms
    out.write(json.dumps(dict(dtype=dt, shape=shape, strategy="cublas", params={}, ms=t)) + "\n")
    for name, params in [("auto", {})] + cands:
        rec = dict(dtype=dt, shape=shape, strategy=name, params=params)
        try:
            k = tm.kernel(name, **params)
            k(a, b, out=c)
            if not tm.check(c, a, b).passed:
                rec["error"] = "WRONG"
            else:
                rec["ms"] = time_fn(lambda i: k(a, b, out=c), repeat=7, warmup=2, flush=flush).median_ms
            if name == "auto":
                kf = k.kernel_for(*shape, dt)
                rec["picked"] = [kf.strategy.name, kf.config.params()]
        except Exception as exc:  # an invalid config for this shape: recorded, not timed
            rec["error"] = f"{type(exc).__name__}: {str(exc)[:100]}"
        out.write(json.dumps(rec) + "\n")
    out.flush()


def main() -> None:
    what, dt, path = sys.argv[1:4]
    flush = L2Flusher()
    t0 = time.time()
    with open(path, "w") as out:
        if what == "split":
            rung, tiles, splits = RUNG[dt]
            cands = [(rung, dict(tile, split_k=s)) for tile in tiles for s in splits]
            for M, N in SPLIT_MN:
                for K in SPLIT_K:
                    run(dt, (M, N, K), cands, flush, out)
                    print(f"{dt} {M}x{N}x{K} done {time.time() - t0:.0f}s", flush=True)
        else:
            cands = [("dmma" if dt == "float64" else "warp_tiled", c.params())
                     for c in registry.get("dmma" if dt == "float64" else "warp_tiled").configs] + SIMT[dt]
            for M, N in SHORT_MN:
                for K in SHORT_K:
                    run(dt, (M, N, K), cands, flush, out)
                    print(f"{dt} {M}x{N}x{K} done {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
