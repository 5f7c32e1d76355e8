"""Skinny float32 products with 9 to 64 rows (x·B) or columns (A·x) that stream a large operand:
auto's pick (the wgmma rungs) against the GEMV rungs run in chunks of rows or columns, and cuBLAS
FP32, beside a device copy of the product's bytes (twenty-fifth session).

    PYTHONPATH=. python3 scripts/variants_s25/probe_skinny.py [--quick]

Every candidate is checked first (tm.check, NaN-poisoned output); 3 alternating rounds, CUDA
events after warm-up, L2 flushed, medians. A candidate whose config the rung refuses is skipped
with the reason.
"""
from __future__ import annotations

import math
import os
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
from _rounds import print_rows, timed_with_copy  # noqa: E402

ROWS = [(17, 3287, 12617), (28, 3384, 6031), (12, 8192, 8192), (16, 8192, 8192), (24, 4096, 16384),
        (31, 12329, 5807), (9, 4096, 4096), (20, 6000, 3000), (32, 4096, 4096), (13, 2048, 2048),
        (16, 4096, 1024), (48, 8192, 8192), (64, 8192, 8192), (23, 3824, 3944)]
COLS = [(16337, 20, 13807), (8192, 16, 8192), (5000, 12, 6000), (13126, 15, 760), (4096, 24, 16384),
        (8192, 32, 4096), (16384, 9, 4096)]


def row_candidates(M: int, N: int, K: int) -> dict:
    chunks = math.ceil(M / 16)
    mt = math.ceil(M / chunks)
    c = {"xb_mt": ("gemv_xb", dict(mt=mt, unroll=4, min_blocks=1)),
         "xb_mt_u2": ("gemv_xb", dict(mt=mt, unroll=2, min_blocks=1)),
         "xb_mt_kg": ("gemv_xb", dict(threads=256, mt=mt, unroll=4, min_blocks=1, kg=16))}
    if N % 4 == 0 and K % 4 == 0:
        c.update({"tma8": ("gemv_xb_tma", {}), "tma16": ("gemv_xb_tma", dict(mt=16)),
                  "tma16_n": ("gemv_xb_tma", dict(mt=16, bn=32, rk=64, stages=8)),
                  "tma16_s6": ("gemv_xb_tma", dict(mt=16, stages=6))})
    return c


def col_candidates(M: int, N: int, K: int) -> dict:
    chunks = math.ceil(N / 32)
    nt = math.ceil(N / chunks)
    return {"ax_nt": ("gemv_ax", dict(nt=nt, rows=1, unroll=1, min_blocks=1)),
            "ax_nt_u2": ("gemv_ax", dict(nt=nt, rows=1, unroll=2, min_blocks=1)),
            "ax_16": ("gemv_ax", dict(nt=16, rows=1, unroll=1, min_blocks=1)),
            "ax_8": ("gemv_ax", dict(nt=8, rows=4, unroll=1))}


def main() -> None:
    quick = "--quick" in sys.argv
    flush = L2Flusher()
    rs = np.random.default_rng(251)
    logs: dict = {}
    print("| shape | call | µs | × cuBLAS | % copy | pick |")
    print("|---|---|---:|---:|---:|---|")
    for shapes, cands in ((ROWS, row_candidates), (COLS, col_candidates)):
        for M, N, K in shapes[:4] if quick else shapes:
            a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
            b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
            c = cupy.empty((M, N), dtype=cupy.float32)
            auto = tm.kernel("auto").kernel_for(M, N, K, "float32")
            picks = {"auto": None, **cands(M, N, K)}
            fns = {"cublas": lambda: cupy.matmul(a, b)}
            extra = {"auto": f"{auto.strategy.name} {auto.config.params()}"}
            for k, p in picks.items():
                f = (lambda: tm.matmul(a, b, out=c)) if p is None else (
                    lambda p=p: tm.matmul(a, b, out=c, strategy=p[0], **p[1]))
                try:
                    c.fill(cupy.nan)
                    f()
                    ok = tm.check(c, a, b).passed
                except (ValueError, TypeError) as e:
                    print(f"<!-- {M}x{N}x{K} {k} skipped: {str(e)[:160]} -->", flush=True)
                    continue
                if not ok:
                    print(f"<!-- {M}x{N}x{K} {k} CHECK FAILED -->", flush=True)
                    continue
                fns[k] = f
                if p is not None:
                    extra[k] = f"{p[0]} {p[1]}"
            nbytes = (M * K + K * N + M * N) * 4
            res, med = timed_with_copy(fns, nbytes, 3, flush)
            print_rows((M, N, K), fns, res, med, nbytes, extra=extra)
            for k in fns:
                logs.setdefault(k, []).append(math.log(med["cublas"] / med[k]))
            best = min((k for k in fns if k not in ("cublas", "auto")), key=lambda k: med[k], default=None)
            if best:
                logs.setdefault("best_gemv", []).append(math.log(med["cublas"] / med[best]))
    for k, v in logs.items():
        print(f"{k}: geometric mean x cuBLAS {math.exp(statistics.fmean(v)):.3f} over {len(v)} (lowest {math.exp(min(v)):.2f})")


if __name__ == "__main__":
    main()
