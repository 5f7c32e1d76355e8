"""`strategy="auto"` against cuBLAS on shapes drawn at random: the check that `auto` generalises
beyond the public suite (issue 11: "the suite is a sample").

    PYTHONPATH=. python3 benchmarks/random_shapes.py [--count 40] [--seed 14] [--lo 1] \
        [--dtypes float32,float64] [--max-gflop 200] [--rounds 3] [--out DIR]

Each of M, N and K is drawn log-uniformly from [--lo, 16384] (with --lo 1, one draw in four
takes one dimension from 1..64: the skinny and decode-like shapes a real program meets), redrawn
while the product exceeds --max-gflop. Both rows are measured by tiled_matmul.measure: validated first
(NaN-poisoned output, float64 reference; a row that fails is not timed), then CUDA-event medians
after warm-up, L2 flushed before each, in --rounds alternating rounds (auto, cuBLAS, auto, ...);
the ratio is the median of the rounds' ratios. cuBLAS is cupy.matmul with FP32 compute (float32
with TF32 off; float16 with FP32 accumulation; bfloat16 through the library ``bf16_cublas``
names). The table, the geometric mean and the lowest rows per dtype go to stdout and, with
--out, to DIR/random_shapes_lo<LO>.md.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from pathlib import Path

os.environ.setdefault("CUPY_TF32", "0")

import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.dispatch import choose  # noqa: E402
from tiled_matmul.measure import (L2Flusher, auto_row, cublas_row, make_inputs,  # noqa: E402
                                  time_validated, validate)

STUDY = "random_shapes"
PLAN = dict(repeat=7, budget_s=2.0)


def draw_shapes(count: int, seed: int, max_gflop: float, lo: int = 1, hi: int = 16384) -> list[tuple[int, int, int]]:
    """`count` shapes, reproducible from `seed` (see the module docstring)."""
    rng = np.random.default_rng(seed)
    shapes: list[tuple[int, int, int]] = []
    while len(shapes) < count:
        dims = [int(round(math.exp(rng.uniform(math.log(lo), math.log(hi))))) for _ in range(3)]
        if lo == 1 and rng.uniform() < 0.25:
            dims[int(rng.integers(3))] = int(rng.integers(1, 65))
        if 2 * math.prod(dims) <= max_gflop * 1e9:
            shapes.append((dims[0], dims[1], dims[2]))
    return shapes


def measure(shape: tuple[int, int, int], dtype: str, flush: L2Flusher, rounds: int) -> dict:
    sets = make_inputs(shape, dtype)
    arow, crow = auto_row(STUDY), cublas_row(STUDY, dtype=dtype)
    va, vc = validate(arow, sets), validate(crow, sets)
    autos, cubs = [], []
    for _ in range(max(1, rounds)):
        autos.append(time_validated(arow, va, sets, flush, **PLAN))
        cubs.append(time_validated(crow, vc, sets, flush, **PLAN))
    ok = autos[0].ok and cubs[0].ok
    c = choose(*shape, dtype)
    return dict(shape=shape, dtype=dtype, ok=autos[0].ok, message=autos[0].message,
                auto_ms=statistics.median(r.median_ms for r in autos) if ok else None,
                cublas_ms=statistics.median(r.median_ms for r in cubs) if ok else None,
                ratio=statistics.median(b.median_ms / a.median_ms for a, b in zip(autos, cubs)) if ok else None,
                pick=f"{c.strategy} " + " ".join(f"{k}={v}" for k, v in c.params.items()) + f" ({c.source})")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--seed", type=int, default=14)
    p.add_argument("--dtypes", default="float32,float64")
    p.add_argument("--lo", type=int, default=1, help="smallest dimension drawn")
    p.add_argument("--max-gflop", type=float, default=200.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", default="")
    args = p.parse_args()
    flush = L2Flusher()
    shapes = draw_shapes(args.count, args.seed, args.max_gflop, args.lo)
    lines = [f"GPU: {tm.device_limits().name}; {args.count} shapes, seed {args.seed}, at most "
             f"{args.max_gflop:g} GFLOP; {args.rounds} alternating rounds; `PYTHONPATH=. python3 "
             f"benchmarks/random_shapes.py --count {args.count} --seed {args.seed} --lo {args.lo} --dtypes {args.dtypes} "
             f"--max-gflop {args.max_gflop:g} --rounds {args.rounds}`", ""]
    failed = 0
    for dtype in args.dtypes.split(","):
        rows = []
        for shape in shapes:
            r = measure(shape, dtype, flush, args.rounds)
            rows.append(r)
            M, N, K = shape
            ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
            print(f"{dtype} {M}x{N}x{K}: {ratio} {r['pick']} {'' if r['ok'] else r['message']}", flush=True)
        failed += sum(not r["ok"] for r in rows)
        lines += [f"### {dtype}", "", "| shape | auto ms | cuBLAS ms | × cuBLAS | auto's pick |", "|---|---:|---:|---:|---|"]
        for r in sorted(rows, key=lambda r: (r["ratio"] is not None, r["ratio"] or 0)):
            M, N, K = r["shape"]
            if r["ratio"] is None:
                lines.append(f"| {M}×{N}×{K} | – | – | failed: {r['message']} | {r['pick']} |")
            else:
                lines.append(f"| {M}×{N}×{K} | {r['auto_ms']:.4f} | {r['cublas_ms']:.4f} | {r['ratio']:.2f} | {r['pick']} |")
        ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
        if ratios:
            gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
            lines += ["", f"{dtype}: geometric mean {gm:.3f}× cuBLAS, lowest {min(ratios):.2f}, "
                      f"{sum(x < 0.9 for x in ratios)} of {len(ratios)} under 0.90", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / f"random_shapes_lo{args.lo}.md").write_text(text + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
