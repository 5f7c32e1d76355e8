"""gemv_xb_half and gemv_ax_half against what `auto` ran before them (mma_half_split_k) and cuBLAS,
float16/bfloat16 x·B (M <= 8) and A·x (N <= 8) shapes, with the % of a device copy's bandwidth for the bytes read
(fourteenth session). Checked, then CUDA events, L2 flushed, medians of 9 in 3 alternating rounds.

    PYTHONPATH=. python3 scripts/variants_s14/probe_half_gemv.py
"""

from __future__ import annotations

import contextlib
import statistics

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.heuristic import _half_split
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(1, 8192, 8192), (2, 8192, 8192), (8, 8192, 8192), (1, 4096, 16384), (4, 4096, 4096), (1, 91, 397),
          (3, 1000, 200), (8, 12288, 4096), (1, 1000, 100000), (5, 257, 40000),
          # A.x (gemv_ax_half)
          (8192, 1, 8192), (8192, 2, 8192), (8192, 8, 8192), (4096, 4, 4096), (29, 1, 1816), (9296, 1, 5592),
          (100000, 1, 1000), (8, 8, 4096)]


def main() -> None:
    flush = L2Flusher()
    for dt in ("float16", "bfloat16"):
        for M, N, K in SHAPES:
            (a, b, c), = make_inputs((M, N, K), dt)
            nbytes = a.nbytes + b.nbytes + c.nbytes
            src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
            copy_us = time_fn(lambda i: dst.data.copy_from_device_async(src.data, nbytes), repeat=9, warmup=2,
                              flush=flush).median_ms * 1e3
            crow = cublas_row("probe", dtype=dt)
            new = tm.kernel("auto")
            old = tm.kernel("mma_half_split_k", **_half_split(M, N, K, 132))
            rows = {"cublas": (lambda: crow.call(a, b, c), crow.context), "auto": (lambda: new(a, b, out=c), None),
                    "split": (lambda: old(a, b, out=c), None)}
            for r in ("auto", "split"):
                rows[r][0]()
                assert tm.check(c, a, b).passed, (r, M, N, K)
            ts = {r: [] for r in rows}
            for _ in range(3):
                for r, (f, ctx) in rows.items():
                    with (ctx() if ctx else contextlib.nullcontext()):
                        ts[r].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3)
            med = {r: statistics.median(v) for r, v in ts.items()}
            pick = new.kernel_for(M, N, K, dt)
            pct = lambda t: 100 * copy_us / (2 * t)  # noqa: E731  (a copy reads and writes nbytes)
            print(f"{dt} {M}x{N}x{K}: cuBLAS {med['cublas']:.1f} us ({pct(med['cublas']):.0f}% of copy); "
                  f"split {med['split']:.1f} ({med['cublas'] / med['split']:.2f}x); auto {med['auto']:.1f} "
                  f"({med['cublas'] / med['auto']:.2f}x, {pct(med['auto']):.0f}%) = {pick.strategy.name} "
                  f"{pick.config.params()}", flush=True)


if __name__ == "__main__":
    main()
