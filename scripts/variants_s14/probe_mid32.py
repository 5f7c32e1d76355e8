"""float32 shapes between half a wave and two waves of wgmma's tiles, where auto ran 0.5-0.73x
cuBLAS in the random sweep (seed 15): wgmma's tiles, wgmma_split_k and wgmma_tma_tf32 against
auto and cuBLAS (fourteenth session). Checked (tm.check), then CUDA events, L2 flushed, medians
of 9 in 3 alternating rounds.

    PYTHONPATH=. python3 scripts/variants_s14/probe_mid32.py
"""

from __future__ import annotations

import contextlib
import statistics

import tiled_matmul as tm
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(3114, 291, 3243), (1092, 285, 6374), (1715, 831, 3649), (2110, 663, 3825), (4124, 291, 485),
          (1000, 1000, 1000), (3000, 500, 2000), (1500, 1500, 1500), (2500, 300, 4000)]
CANDS = [("auto", {}), ("wgmma", dict(bm=64, bn=128, stages=6)), ("wgmma", dict(bm=64, bn=64, stages=4, min_blocks=2)),
         ("wgmma", {}), ("wgmma_split_k", dict(bm=64, bn=128, stages=6, min_blocks=1, split_k=2)),
         ("wgmma_split_k", dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=2)),
         ("wgmma_split_k", dict(bm=128, bn=128, stages=3, min_blocks=1, split_k=2)),
         ("wgmma_split_k", dict(bm=128, bn=128, stages=3, min_blocks=1, split_k=4)),
         ("wgmma_tma_tf32", {})]


def main() -> None:
    flush = L2Flusher()
    for M, N, K in SHAPES:
        (a, b, c), = make_inputs((M, N, K), "float32")
        crow = cublas_row("probe")
        rows = {"cublas": (lambda: crow.call(a, b, c), crow.context)}
        for name, params in CANDS:
            try:
                k = tm.kernel(name, **params)
                k(a, b, out=c)
                if not tm.check(c, a, b).passed:
                    print(f"  {M}x{N}x{K} {name} {params}: WRONG")
                    continue
            except Exception as exc:
                print(f"  {M}x{N}x{K} {name} {params}: {type(exc).__name__} {str(exc)[:80]}")
                continue
            label = name if name != "auto" else "auto=" + k.kernel_for(M, N, K, "float32").strategy.name
            rows[f"{label} {params}"] = (lambda k=k: k(a, b, out=c), contextlib.nullcontext)
        ts = {r: [] for r in rows}
        for _ in range(3):
            for r, (f, ctx) in rows.items():
                with ctx():
                    ts[r].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3)
        cub = statistics.median(ts["cublas"])
        print(f"float32 {M}x{N}x{K}: cuBLAS {cub:.1f} us", flush=True)
        for r in rows:
            if r != "cublas":
                t = statistics.median(ts[r])
                print(f"    {r:<75} {t:8.1f} us {cub / t:5.2f}x", flush=True)


if __name__ == "__main__":
    main()
