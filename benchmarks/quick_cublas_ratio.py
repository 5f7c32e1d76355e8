"""Time strategies against cuBLAS (cupy.matmul, FP32, TF32 off) in one run.

    PYTHONPATH=. python3 benchmarks/quick_cublas_ratio.py [--sizes 4096] [--strategies register_blocked]

Every row is validated (NaN-poisoned output, float64 reference) before it is timed, with the
measurement core of the package (tiled_matmul.measure): CUDA-event medians of --repeat calls,
L2 flushed before each. A row that fails its check is reported and not timed; the exit status is
then 1.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.measure import L2Flusher, cublas_row, make_inputs, measure, parse_shapes, strategy_row  # noqa: E402

STUDY = "cublas_ratio"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096", help="comma-separated n (for n³) or MxNxK")
    ap.add_argument("--strategies", default="register_blocked")
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    assert os.environ["CUPY_TF32"] == "0"
    plan = dict(repeat=args.repeat, budget_s=float("inf"))
    flush = L2Flusher()
    print(f"GPU: {tm.device_limits().name}; cupy {cp.__version__}; CUPY_TF32={os.environ['CUPY_TF32']}")
    print(f"{'shape':>16} {'strategy':>18} {'ms':>8} {'TFLOP/s':>8} {'x cuBLAS':>8}")
    failed = 0
    for shape in parse_shapes(args.sizes):
        sets = make_inputs(shape, "float32", seed=0)
        label = "x".join(map(str, shape))
        ref = measure(cublas_row(STUDY), sets, flush, **plan)
        recs = [ref] + [measure(strategy_row(STUDY, n, tm.STRATEGIES[n].default), sets, flush, **plan)
                        for n in args.strategies.split(",")]
        for rec in recs:
            if not rec.ok:
                failed += 1
                print(f"{label:>16} {rec.strategy:>18} {rec.status.upper()}: {rec.message}")
                continue
            ratio = ref.median_ms / rec.median_ms if ref.ok else float("nan")
            print(f"{label:>16} {rec.strategy:>18} {rec.median_ms:8.3f} {rec.tflops:8.2f} {ratio:8.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
