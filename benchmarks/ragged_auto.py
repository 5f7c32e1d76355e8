"""`strategy="auto"` against cuBLAS on ragged shapes (issue 4's ">= 1.2x on shapes such as
3001x2999x3007"), timed in the same run.

    PYTHONPATH=. python3 benchmarks/ragged_auto.py [--shapes 3001x2999x3007,...] [--json FILE]

Ragged here means no dimension is a multiple of 4: rows are not 16-byte aligned, so the kernels
copy one element per cp.async, and the last tiles of every dimension are partial. Each shape gets
fresh [-1, 1) inputs; `auto` picks from the shipped database or the heuristic (printed). Times
are CUDA-event medians of 9 after warm-up, L2 flushed before each; cuBLAS is cupy.matmul with
TF32 off. Each result's relative error against a float64 reference is printed next to cuBLAS's.
"""

from __future__ import annotations

import argparse
import json
import math
import os

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402
from tiled_matmul.dispatch import choose  # noqa: E402

SHAPES = "3001x2999x3007,5003x4001x2999,1999x2001x1997,4097x4095x4093,7001x6999x2003,2501x3499x1501,6007x5003x4001,1001x3001x5003"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", default=SHAPES)
    p.add_argument("--json", default="")
    args = p.parse_args()
    rng = np.random.default_rng()
    flush = L2Flusher()
    rows = []
    for spec in args.shapes.split(","):
        M, N, K = (int(x) for x in spec.split("x"))
        a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(np.float32))
        b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(np.float32))
        out = cp.full((M, N), cp.nan, cp.float32)
        tm.matmul(a, b, "auto", out=out)
        rep = tm.check(out, a, b)
        t_auto = time_fn(lambda i: tm.matmul(a, b, "auto", out=out), repeat=9, flush=flush).median_ms
        t_cub = time_fn(lambda i: cp.matmul(a, b, out=out), repeat=9, flush=flush).median_ms
        c = choose(M, N, K)
        rows.append(dict(shape=[M, N, K], auto_ms=t_auto, cublas_ms=t_cub, ratio=t_cub / t_auto,
                         strategy=c.strategy, params=c.params, source=c.source, rel_err=rep.rel_err,
                         cublas_rel_err=rep.cublas_rel_err, passed=rep.passed))
    print(f"GPU: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}; CUPY_TF32={os.environ['CUPY_TF32']}")
    print(f"{'shape':>16} {'auto ms':>8} {'cuBLAS ms':>9} {'x cuBLAS':>8} {'relerr/cuBLAS':>16}  pick")
    for r in rows:
        M, N, K = r["shape"]
        params = " ".join(f"{k}={v}" for k, v in r["params"].items())
        print(f"{M}x{N}x{K:<6} {r['auto_ms']:8.3f} {r['cublas_ms']:9.3f} {r['ratio']:8.2f} "
              f"{r['rel_err']:.1e}/{r['cublas_rel_err']:.1e}  {r['strategy']} {params} ({r['source']})"
              f"{'' if r['passed'] else '  FAILED'}")
    gm = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows))
    print(f"geometric mean {gm:.2f}x cuBLAS, lowest {min(r['ratio'] for r in rows):.2f}x; "
          f"{sum(not r['passed'] for r in rows)} failed checks")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
