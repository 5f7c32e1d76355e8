"""`strategy="auto"` against cuBLAS on ragged shapes (the goal: >= 1.2x on shapes such as
3001x2999x3007), timed in the same run.

    PYTHONPATH=. python3 benchmarks/ragged_auto.py [--shapes 3001x2999x3007,...] [--json FILE]

Ragged here means no dimension is a multiple of 4: rows are not 16-byte aligned, so the kernels
copy one element per cp.async, and the last tiles of every dimension are partial. Each shape gets
fresh [-1, 1) inputs; `auto` picks from the shipped database or the heuristic (printed). Both rows
are measured by tiled_matmul.measure: validated first (NaN-poisoned output, float64 reference; a
row that fails is not timed), then CUDA-event medians of 9 after warm-up, L2 flushed before each;
cuBLAS is cupy.matmul with TF32 off. Each result's relative error is printed next to cuBLAS's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

os.environ.setdefault("CUPY_TF32", "0")

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.measure import (OK, L2Flusher, auto_row, cublas_row, make_inputs, parse_shapes,  # noqa: E402
                                  time_validated, validate)
from tiled_matmul.dispatch import choose  # noqa: E402

SHAPES = "3001x2999x3007,5003x4001x2999,1999x2001x1997,4097x4095x4093,7001x6999x2003,2501x3499x1501,6007x5003x4001,1001x3001x5003"
STUDY = "ragged_auto"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", default=SHAPES)
    p.add_argument("--json", default="")
    args = p.parse_args()
    plan = dict(repeat=9, budget_s=float("inf"))
    flush = L2Flusher()
    rows = []
    for M, N, K in parse_shapes(args.shapes):
        sets = make_inputs((M, N, K), "float32")
        v = validate(auto_row(STUDY), sets)
        auto = time_validated(auto_row(STUDY), v, sets, flush, **plan)
        cub = time_validated(cublas_row(STUDY), validate(cublas_row(STUDY), sets), sets, flush, **plan)
        ratio = cub.median_ms / auto.median_ms if auto.ok and cub.ok else None
        c = choose(M, N, K)
        rep = v.report
        rows.append(dict(shape=[M, N, K], auto_ms=auto.median_ms, cublas_ms=cub.median_ms, ratio=ratio,
                         strategy=c.strategy, params=c.params, source=c.source,
                         rel_err=None if rep is None else rep.rel_err,
                         cublas_rel_err=None if rep is None else rep.cublas_rel_err,
                         passed=auto.status == OK, message=auto.message))
    print(f"GPU: {tm.device_limits().name}; CUPY_TF32={os.environ['CUPY_TF32']}")
    print(f"{'shape':>16} {'auto ms':>8} {'cuBLAS ms':>9} {'x cuBLAS':>8} {'relerr/cuBLAS':>16}  pick")
    for r in rows:
        M, N, K = r["shape"]
        params = " ".join(f"{k}={v}" for k, v in r["params"].items())
        times = (f"{r['auto_ms']:8.3f} {r['cublas_ms']:9.3f} {r['ratio']:8.2f}" if r["ratio"] is not None
                 else f"{'-':>8} {'-':>9} {'-':>8}")
        errs = "-" if r["rel_err"] is None else f"{r['rel_err']:.1e}/{r['cublas_rel_err']:.1e}"
        print(f"{M}x{N}x{K:<6} {times} {errs:>16}  {r['strategy']} {params} ({r['source']})"
              f"{'' if r['passed'] else '  ' + r['message']}")
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    if ratios:
        gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"geometric mean {gm:.2f}x cuBLAS, lowest {min(ratios):.2f}x over {len(ratios)} timed shapes; ", end="")
    print(f"{sum(not r['passed'] for r in rows)} failed checks")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 1 if any(not r["passed"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
