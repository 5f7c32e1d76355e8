"""The random sweeps' lowest rows (sixteenth session, seeds 14 and 15) against every candidate the
cost model ranks, plus a few it does not weigh: is a faster kernel already there (a pick to fix)
or is none fast enough (a kernel to fix)? Each candidate is checked (tm.check), then timed with
cuBLAS in 3 alternating rounds (CUDA events, L2 flushed, medians of 9).

    PYTHONPATH=. python3 scripts/variants_s17/probe_lows.py [dtype ...]
"""

from __future__ import annotations

import contextlib
import statistics
import sys

import tiled_matmul as tm
from tiled_matmul import costmodel, dispatch
from tiled_matmul.device import device_limits
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

LOWS = {
    "float64": [(504, 205, 1632), (88, 45, 1), (92, 281, 16065), (2205, 8, 9937), (4700, 5, 1),
                (1265, 51, 137), (12399, 18, 89), (239, 82, 258), (4447, 127, 15), (1, 91, 397)],
    "float16": [(92, 281, 16065), (46, 1100, 2429), (1265, 51, 137), (239, 82, 258), (1, 91, 397),
                (94, 50, 6180), (7058, 31, 1139)],
    "float32": [(41, 59, 834), (1, 91, 397), (92, 281, 16065), (3114, 291, 3243), (94, 50, 6180)],
}
#: the float64 suite's rows under 0.95x cuBLAS (shape_suite_session16.md), run as `... probe_lows.py suite`
SUITE_LOWS = {"float64": [(5000, 3000, 1000), (1024, 1024, 1024), (768, 768, 768), (128, 8192, 8192),
                          (256, 256, 131072), (4096, 4096, 4096), (640, 640, 640)]}
#: the lows of the seventeenth session's first sweeps (seeds 16 and 17), run as `... probe_lows.py new`
NEW_LOWS = {
    "float32": [(9, 14458, 2306), (5, 822, 10967), (30, 11, 242), (16, 4096, 4096)],
    "float64": [(9, 14458, 2306), (87, 388, 132), (10656, 18, 232), (36, 459, 155), (81, 2227, 316)],
    "float16": [(9, 14458, 2306), (16, 664, 4), (2, 2408, 6), (87, 388, 132), (81, 2227, 316), (37, 234, 206),
                (30, 11, 242), (245, 80, 7522), (3519, 29, 204), (16, 4096, 4096), (32, 8192, 4096)],
}
EXTRA = {
    "float64": [("dmma_tail", {}), ("dmma_tail", dict(bn=64, wm=64, wn=32, min_blocks=2))],
    "float32": [("register_blocked", dict(bm=64, bn=64)), ("smem_tiled", {})],
    "float16": [("mma_half_split_k", dict(split_k=2)), ("mma_half_split_k", dict(split_k=4)),
                ("mma_half", {}), ("wgmma_tma", {})],
}


def candidates(dt, M, N, K, top=14):
    limits = device_limits()
    ranked = costmodel.rank(M, N, K, dt, "auto", limits, dispatch.measured_efficiencies(limits))
    out, seen = [("auto", {}, None, None)], set()
    for i, p in enumerate(ranked[:top]):
        key = (p.strategy, tuple(sorted(p.params.items())))
        if key not in seen:
            seen.add(key)
            out.append((p.strategy, dict(p.params), i + 1, p.ms))
    for name, params in EXTRA[dt]:
        out.append((name, params, None, None))
    return out


def compare(dt, M, N, K, flush):
    (a, b, c), = make_inputs((M, N, K), dt)
    crow = cublas_row("probe", dtype=dt)
    rows = {"cublas": (lambda: crow.call(a, b, c), crow.context, None, None)}
    for name, params, rank, pred in candidates(dt, M, N, K):
        try:
            k = tm.kernel(name, **params)
            k(a, b, out=c)
            if not tm.check(c, a, b).passed:
                print(f"  {dt} {M}x{N}x{K} {name} {params}: WRONG")
                continue
        except Exception as exc:  # an invalid config for this shape or dtype: say so and go on
            print(f"  {dt} {M}x{N}x{K} {name} {params}: {type(exc).__name__} {str(exc)[:80]}")
            continue
        label = name if name != "auto" else "auto=" + k.kernel_for(M, N, K, dt).strategy.name
        default = tm.registry.get(name).default.params() if name != "auto" else {}
        label = f"{label} {' '.join(f'{x}={y}' for x, y in params.items() if default.get(x) != y)}"
        rows[label] = (lambda k=k: k(a, b, out=c), contextlib.nullcontext, rank, pred)
    ts = {r: [] for r in rows}
    for _ in range(3):
        for r, (f, ctx, _, _) in rows.items():
            with ctx():
                ts[r].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3)
    cub = statistics.median(ts["cublas"])
    print(f"{dt} {M}x{N}x{K}: cuBLAS {cub:.1f} us", flush=True)
    meds = sorted((statistics.median(ts[r]), r) for r in rows if r != "cublas")
    for t, r in meds:
        _, _, rank, pred = rows[r]
        extra = "" if rank is None else f" (model #{rank}, {pred * 1e3:.1f} us)"
        print(f"    {r[:90]:<90} {t:8.1f} us {cub / t:5.2f}x{extra}", flush=True)


def main() -> None:
    flush = L2Flusher()
    lows = {"new": NEW_LOWS, "suite": SUITE_LOWS}.get(sys.argv[1] if sys.argv[1:] else "", LOWS)
    for dt in [a for a in sys.argv[1:] if a not in ("new", "suite")] or list(lows):
        for M, N, K in lows[dt]:
            compare(dt, M, N, K, flush)


if __name__ == "__main__":
    main()
