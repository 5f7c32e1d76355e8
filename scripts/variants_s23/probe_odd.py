"""Where float64 products with an odd N or K lose time (twenty-third session): auto on the shape as
given, against auto on A copied into rows one element longer (an even leading dimension: A's rows
16-byte aligned, the copy timed on its own), and against the next even shape (N and K rounded up:
the aligned kernels' time, an upper bound on what padding could give), with cuBLAS on both shapes.

    PYTHONPATH=. python3 scripts/variants_s23/probe_odd.py SEED COUNT [ROUNDS]

Shapes: variants_s21/probe_f64_random.py's "odd" draw for SEED. Every product is checked first
(tm.check, NaN-poisoned output); timings alternate in rounds (CUDA events after warm-up, L2
flushed, median of 7 a round).
"""
from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path(__file__).parents[1] / "variants_s21"))
from probe_f64_random import shapes  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402


def main() -> None:
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    flush = L2Flusher()
    rng = cupy.random.default_rng(seed)
    cols = ["auto", "lda+1", "copy A", "auto even", "cuBLAS even"]
    print(f"{'shape':18s} {'cuBLAS us':>9s} " + " ".join(f"{c:>11s}" for c in cols) + "   (x cuBLAS of the odd shape; copy A in us)")
    logs = {c: [] for c in cols if c != "copy A"}
    for M, N, K in shapes(seed, count, True):
        a, b = rng.standard_normal((M, K)), rng.standard_normal((K, N))
        Ne, Ke = N + N % 2, K + K % 2
        ae, be = rng.standard_normal((M, Ke)), rng.standard_normal((Ke, Ne))
        ap = cupy.zeros((M, K + 1))
        ap[:, :K] = a
        av = ap[:, :K]
        c, ce = cupy.full((M, N), cupy.nan), cupy.full((M, Ne), cupy.nan)
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c),
               "lda+1": lambda: tm.matmul(av, b, out=c), "copy A": lambda: ap[:, :K].__setitem__(slice(None), a),
               "auto even": lambda: tm.matmul(ae, be, out=ce), "cuBLAS even": lambda: cupy.matmul(ae, be)}
        ok = True
        for name, (x, y, out) in {"auto": (a, b, c), "lda+1": (av, b, c), "auto even": (ae, be, ce)}.items():
            out.fill(cupy.nan)
            tm.matmul(x, y, out=out)
            ok &= tm.check(out, x, y).passed
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        cub = med["cublas"]
        cells = [f"{med['copy A'] * 1e3:11.1f}" if k == "copy A" else f"{cub / med[k]:11.3f}" for k in cols]
        for k in logs:
            logs[k].append(math.log(cub / med[k]))
        print(f"{f'{M}x{N}x{K}':18s} {cub * 1e3:9.1f} " + " ".join(cells) + ("" if ok else "  CHECK FAILED"), flush=True)
    print("geometric means: " + ", ".join(f"{k} {math.exp(statistics.fmean(v)):.3f}" for k, v in logs.items()))


if __name__ == "__main__":
    main()
