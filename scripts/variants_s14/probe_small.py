"""Candidates against auto and cuBLAS on the random sweep's small and skinny shapes that `auto`
loses on (fourteenth session): float32/float64 with the GEMV rungs below GEMV_MIN_STREAM, and the
half dtypes' short-K and narrow shapes. Each candidate is checked (tm.check) then timed: CUDA
events, L2 flushed, medians of 9, 3 alternating rounds with cuBLAS (measure.cublas_row).

    PYTHONPATH=. python3 scripts/variants_s14/probe_small.py
"""

from __future__ import annotations

import contextlib
import statistics

import tiled_matmul as tm
from tiled_matmul.heuristic import _AX, _HALF_SMALL, _XB, _XB_ONE_GROUP
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn


def gemv(M, N, K):
    p2 = lambda n: 1 << (n - 1).bit_length()  # noqa: E731
    if M <= 8 < N or (M <= 8 and N <= 8 and M <= N):
        return [("gemv_xb", _XB[p2(M)]), ("gemv_xb", _XB_ONE_GROUP.get(p2(M), _XB[p2(M)]))]
    return [("gemv_ax", _AX[p2(N)])]


F32 = [(4, 60, 655), (1, 4, 12791), (93, 1, 1397), (2, 9, 21), (676, 4, 2), (28, 1515, 5), (1220, 6, 9),
       (3, 53, 47), (88, 45, 1), (1265, 51, 137), (12399, 18, 89), (1, 1000, 1000), (1000, 3, 2000)]
HALF = [(239, 82, 258), (1265, 51, 137), (12399, 18, 89), (631, 15, 573), (300, 300, 256), (512, 512, 384),
        (2110, 663, 3825), (4124, 291, 485), (93, 1, 1397), (8192, 1, 8192)]


def cands(dt, M, N, K):
    if dt in ("float32", "float64"):
        out = [("auto", {})]
        if min(M, N) <= 8:
            out += gemv(M, N, K)
        out += [("split_k", dict(split_k=4)), ("split_k", dict(split_k=16))]
        return out
    out = [("auto", {}), ("mma_half", _HALF_SMALL), ("mma_half_split_k", dict(split_k=2)),
           ("mma_half_split_k", dict(split_k=4)), ("mma_half_split_k", dict(split_k=8)),
           ("wgmma_tma", {}), ("wgmma_tma", dict(bm=128, bn=128, stages=5))]
    return out


def compare(dt: str, M: int, N: int, K: int, candidates, flush) -> None:
    """Check each (strategy, params) of `candidates` on fresh inputs, then time them and cuBLAS in 3
    alternating rounds; print each median and its ratio to cuBLAS's."""
    (a, b, c), = make_inputs((M, N, K), dt)
    crow = cublas_row("probe", dtype=dt)
    rows = {"cublas": (lambda: crow.call(a, b, c), crow.context)}
    for name, params in candidates:
        try:
            k = tm.kernel(name, **params)
            k(a, b, out=c)
            if not tm.check(c, a, b).passed:
                print(f"  {dt} {M}x{N}x{K} {name} {params}: WRONG")
                continue
        except Exception as exc:  # an invalid config for this dtype: say so and go on
            print(f"  {dt} {M}x{N}x{K} {name} {params}: {type(exc).__name__} {str(exc)[:80]}")
            continue
        label = name if name != "auto" else "auto=" + k.kernel_for(M, N, K, dt).strategy.name
        rows[f"{label} {params}"] = (lambda k=k: k(a, b, out=c), contextlib.nullcontext)
    ts = {r: [] for r in rows}
    for _ in range(3):
        for r, (f, ctx) in rows.items():
            with ctx():
                ts[r].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3)
    cub = statistics.median(ts["cublas"])
    print(f"{dt} {M}x{N}x{K}: cuBLAS {cub:.1f} us", flush=True)
    for r in rows:
        if r != "cublas":
            t = statistics.median(ts[r])
            print(f"    {r:<70} {t:8.1f} us {cub / t:5.2f}x", flush=True)


def main() -> None:
    flush = L2Flusher()
    for dt, shapes in (("float32", F32), ("float64", F32[:8]), ("float16", HALF)):
        for M, N, K in shapes:
            compare(dt, M, N, K, cands(dt, M, N, K), flush)


if __name__ == "__main__":
    main()
