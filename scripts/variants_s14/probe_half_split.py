"""mma_half_split_k against what `auto` ran before it (mma_half on 64 x 64 tiles, or 128 x 128 from a
wave of them) and cuBLAS, float16/bfloat16, on the public suite's shapes and the random sweep's
worst half rows (fourteenth session). CUDA events, L2 flushed, medians of 7 in 3 alternating
rounds; cuBLAS with FP32 accumulation (measure.cublas_row).

    PYTHONPATH=. python3 scripts/variants_s14/probe_half_split.py [float16,bfloat16]
"""

from __future__ import annotations

import contextlib
import math
import statistics
import sys

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.configs import cdiv
from tiled_matmul.heuristic import _HALF_SMALL
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.suite import suite_shapes
from tiled_matmul.timing import L2Flusher, time_fn

EXTRA = [(1, 4, 12791), (92, 281, 16065), (2205, 8, 9937), (46, 1100, 2429), (504, 205, 1632), (261, 473, 14735),
         (481, 320, 12217), (631, 15, 573), (3178, 33, 915), (239, 82, 258), (4, 60, 655), (93, 1, 1397),
         (1000, 1000, 4000), (700, 1500, 1000), (300, 500, 4000)]


def main() -> None:
    dtypes = sys.argv[1].split(",") if len(sys.argv) > 1 else ["float16"]
    flush = L2Flusher()
    shapes = [s for _, s in suite_shapes()] + EXTRA
    for dt in dtypes:
        print(f"== {dt}: shape, old pick, new pick: ms old / new / cuBLAS, x cuBLAS old -> new")
        olds, news = [], []
        for M, N, K in shapes:
            new = tm.kernel("auto").kernel_for(M, N, K, dt)
            if new.strategy.name != "mma_half_split_k":
                continue
            old = tm.kernel("mma_half", **({} if cdiv(M, 128) * cdiv(N, 128) >= 132 else _HALF_SMALL))
            (a, b, c), = make_inputs((M, N, K), dt)
            crow = cublas_row("probe", dtype=dt)
            fns = {"old": lambda: old(a, b, out=c), "new": lambda: tm.matmul(a, b, out=c),
                   "cublas": lambda: crow.call(a, b, c)}
            ts = {k: [] for k in fns}
            for _ in range(3):
                for k, f in fns.items():
                    with (crow.context() if k == "cublas" else contextlib.nullcontext()):
                        ts[k].append(time_fn(lambda i: f(), repeat=7, warmup=2, flush=flush).median_ms)
            med = {k: statistics.median(v) for k, v in ts.items()}
            ro, rn = med["cublas"] / med["old"], med["cublas"] / med["new"]
            olds.append(ro)
            news.append(rn)
            print(f"{M}x{N}x{K}: {new.config.params()}: {med['old']:.4f} / {med['new']:.4f} / {med['cublas']:.4f} ms, "
                  f"{ro:.2f} -> {rn:.2f}", flush=True)
        gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")  # noqa: E731
        print(f"{dt}: {len(news)} shapes, geometric mean x cuBLAS {gm(olds):.3f} -> {gm(news):.3f}, "
              f"lowest {min(olds, default=0):.2f} -> {min(news, default=0):.2f}")


if __name__ == "__main__":
    main()
