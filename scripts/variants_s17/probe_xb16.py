"""gemv_xb with 16 rows of x per block (mt=16) for x.B with M = 9..16, where `auto` runs a tile rung
(float32 9x14458x2306 on wgmma 0.69x cuBLAS, float64 on gemv_xb's 8-row tile twice 0.79x):
first correct on ragged shapes (NaN-poisoned output, tm.check), then timed with auto and cuBLAS
(3 alternating rounds, CUDA events, L2 flushed, medians of 9).

    PYTHONPATH=. python3 scripts/variants_s17/probe_xb16.py
"""

from __future__ import annotations

import itertools
import statistics

import cupy as cp
import numpy as np

import tiled_matmul as tm
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

CONFIGS = [dict(threads=256, mt=16, unroll=4, min_blocks=1, kg=1), dict(threads=256, mt=16, unroll=4, min_blocks=1, kg=16),
           dict(threads=256, mt=16, unroll=2, min_blocks=1, kg=16)]
RAGGED = list(itertools.product((9, 13, 16), (1, 7, 33, 1000, 4097), (1, 129, 1000, 5000)))
TIMED = [(9, 14458, 2306), (16, 4096, 4096), (12, 8192, 8192), (16, 14458, 2306), (10, 822, 10967)]


def main() -> None:
    flush = L2Flusher()
    for dt in ("float32", "float64"):
        configs = []
        for params in CONFIGS:
            try:
                tm.registry.get("gemv_xb").make_config(**params).validate(None, dt)
                configs.append(params)
            except ValueError as exc:  # too many registers for this dtype: say so
                print(f"{dt} gemv_xb {params}: {str(exc)[:90]}")
        for params in configs:
            k = tm.kernel("gemv_xb", **params)
            bad = []
            for M, N, K in RAGGED:
                a = cp.asarray(np.random.default_rng(M * N + K).uniform(-1, 1, (M, K)), dtype=dt)
                b = cp.asarray(np.random.default_rng(K).uniform(-1, 1, (K, N)), dtype=dt)
                out = cp.full((M, N), cp.nan, dtype=dt)
                try:
                    k(a, b, out=out)
                    if not tm.check(out, a, b).passed:
                        bad.append((M, N, K))
                except Exception as exc:  # an invalid shape for this config: say so
                    bad.append((M, N, K, type(exc).__name__))
            print(f"{dt} gemv_xb {params}: {len(RAGGED) - len(bad)} of {len(RAGGED)} ragged shapes correct {bad[:5]}",
                  flush=True)
        for shape in TIMED:
            (a, b, c), = make_inputs(shape, dt)
            crow = cublas_row("probe", dtype=dt)
            rows = {"cublas": (lambda: crow.call(a, b, c), crow.context)}
            auto = tm.kernel("auto")
            rows["auto=" + auto.kernel_for(*shape, dt).strategy.name] = (lambda: auto(a, b, out=c), None)
            for params in configs:
                k = tm.kernel("gemv_xb", **params)
                rows[f"mt=16 unroll={params['unroll']} kg={params['kg']}"] = (lambda k=k: k(a, b, out=c), None)
            ts = {r: [] for r in rows}
            for _ in range(3):
                for r, (f, ctx) in rows.items():
                    if ctx:
                        with ctx():
                            ts[r].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3)
                    else:
                        ts[r].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3)
            cub = statistics.median(ts["cublas"])
            print(f"{dt} {'x'.join(map(str, shape))}: cuBLAS {cub:.1f} us | " + " | ".join(
                f"{r} {statistics.median(ts[r]):.1f} ({cub / statistics.median(ts[r]):.2f}x)" for r in rows if r != "cublas"),
                flush=True)


if __name__ == "__main__":
    main()
