"""Small cubes (float64, or float32 with --dtype): GPU time and host time of one call.

For each shape and candidate (cuBLAS through cupy.matmul, `auto`, the unsplit tensor-core rung
and its split-K rung at a few slice counts): the host microseconds per call (no wait), the event
time with the L2 flush alone before each repeat (as the benchmarks took it until the seventh
session), and with the flush and its ~200 us spin (timing.L2Flusher's default since: every
launch of the call is queued before the GPU reaches the start event, so GPU time alone).
Medians of 30.

    PYTHONPATH=. python3 scripts/probe_small.py [--shapes 256,384,512] [--dtype float32]
"""

from __future__ import annotations

import argparse

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, host_us_per_call, time_fn

def event_ms(fn, flush, repeat: int = 30) -> float:
    """timing.time_fn's median with `flush` before each repeat."""
    return time_fn(lambda i: fn(), repeat=repeat, warmup=3, flush=flush).median_ms


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="256,384,512,640,768")
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    args = ap.parse_args()
    flush, ahead = L2Flusher(ahead_us=0), L2Flusher()  # the flush alone; the flush and the spin
    cands = [("cuBLAS", None, {}), ("auto", "auto", {})]
    if args.dtype == "float64":
        cands += [("dmma64", "dmma", dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3))]
        cands += [(f"dsk32x64 s{s}", "dmma_split_k", dict(bm=32, bn=64, bk=16, wm=16, wn=32, min_blocks=4, split_k=s))
                  for s in (2, 4, 8)]
        cands += [(f"dsk64 s{s}", "dmma_split_k", dict(split_k=s)) for s in (2, 4)]
    else:
        cands += [("wgmma64", "wgmma", dict(bm=64, bn=64, stages=4, min_blocks=2))]
        cands += [(f"wsk64 s{s}", "wgmma_split_k", dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=s))
                  for s in (2, 4, 8)]
    print(f"{'shape':>6} {'candidate':<16} {'host us':>8} {'event us':>9} {'GPU us':>8}")
    for s in [int(x) for x in args.shapes.split(",")]:
        a = cp.random.uniform(-1, 1, (s, s)).astype(args.dtype)
        b = cp.random.uniform(-1, 1, (s, s)).astype(args.dtype)
        out = cp.empty((s, s), dtype=args.dtype)
        ref = cp.matmul(a.astype(cp.float64), b.astype(cp.float64))
        for label, name, params in cands:
            if name is None:
                fn = lambda: cp.matmul(a, b, out=out)
            else:
                fn = (lambda name=name, params=params: tm.matmul(a, b, out=out, strategy=name, **params))
            out.fill(cp.nan)
            fn()
            err = float(cp.abs(out - ref).max())
            host = host_us_per_call(fn, calls=300, wait=False)
            ev = event_ms(fn, flush) * 1e3
            gpu = event_ms(fn, ahead) * 1e3
            print(f"{s:>6} {label:<16} {host:8.1f} {ev:9.1f} {gpu:8.1f}   err {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
