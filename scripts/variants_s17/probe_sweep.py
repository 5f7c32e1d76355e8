"""Data for the split-K rules and the cost model's short-K terms (seventeenth session): every
candidate of a grid of shapes timed, one JSON line each, for fitting on the CPU afterwards.

    PYTHONPATH=. python3 scripts/variants_s17/probe_sweep.py split float32 OUT.jsonl
    PYTHONPATH=. python3 scripts/variants_s17/probe_sweep.py shortk float64 OUT.jsonl
    PYTHONPATH=. python3 scripts/variants_s17/probe_sweep.py halfsmall float16 OUT.jsonl
    PYTHONPATH=. python3 scripts/variants_s17/probe_sweep.py xb8 float32 OUT.jsonl

split:  small C, long K: the dtype's split rung on each of the heuristic's split tiles at every
        split count, plus auto's pick and cuBLAS.
shortk: float64 (or float32) outputs from 2^16 to 2^24 elements at K = 1..256 on every dmma
        config and a few SIMT tiles, plus auto's pick and cuBLAS.
halfsmall: 16-bit outputs under half a wave of wgmma_tma's 128 x 256 tiles (M = 2..128, K = 4..1024)
        on wgmma_tma's 128 x 128 tile, mma_half's 32 x 32 and 64 x 64 tiles and mma_half_split_k.
xb8:    x.B with M = 5..8 on gemv_xb's 8-row tile, one K group (the heuristic's) or 16.
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
HALF_SMALL_M = [2, 9, 16, 33, 64, 81, 128]
HALF_SMALL_N = [664, 2227, 8192]
HALF_SMALL_K = [4, 32, 132, 316, 1024]
HALF_SMALL = [("wgmma_tma", dict(bm=128, bn=128, stages=5)), ("mma_half", dict(h._HALF_TINY)),
              ("mma_half", dict(bm=64, bn=64, wm=32, wn=32, stages=4, min_blocks=3)),
              ("mma_half_split_k", dict(h._HALF_TINY, split_k=2)), ("mma_half_split_k", dict(h._HALF_TINY, split_k=4)),
              ("mma_half_split_k", dict(split_k=2)), ("mma_half_split_k", dict(split_k=4))]
XB8_SHAPES = [(5, 822, 10967), (8, 4096, 4096), (6, 14458, 2306), (8, 2000, 20000), (7, 50000, 4096),
              (8, 1024, 65536), (5, 8192, 8192), (8, 8192, 8192), (6, 3000, 5000), (8, 30000, 1000)]
XB8 = [("gemv_xb", dict(mt=8, unroll=4)), ("gemv_xb", dict(threads=256, mt=8, unroll=8, min_blocks=1, kg=16))]
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
        elif what == "halfsmall":
            for M in HALF_SMALL_M:
                for N in HALF_SMALL_N:
                    for K in HALF_SMALL_K:
                        if M > 8 or K >= 132:  # M <= 8 with a short K: the GEMV rungs' (not weighed here)
                            run(dt, (M, N, K), HALF_SMALL, flush, out)
                print(f"{dt} M={M} done {time.time() - t0:.0f}s", flush=True)
        elif what == "xb8":
            for shape in XB8_SHAPES:
                run(dt, shape, XB8, flush, out)
                print(f"{dt} {shape} done {time.time() - t0:.0f}s", flush=True)
        else:
            cands = [("dmma" if dt == "float64" else "warp_tiled", c.params())
                     for c in registry.get("dmma" if dt == "float64" else "warp_tiled").configs] + SIMT[dt]
            for M, N in SHORT_MN:
                for K in SHORT_K:
                    run(dt, (M, N, K), cands, flush, out)
                    print(f"{dt} {M}x{N}x{K} done {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
