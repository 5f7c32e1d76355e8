"""float32 A·x with 9-32 columns: gemv_ax with 16-32 columns a chunk and 2-4 rows a warp (its B
values read once per `rows` rows of A) against auto (chunks of 8 up to 16 columns, the wgmma rungs
from 17) and cuBLAS FP32, beside a device copy (twenty-fifth session).

    PYTHONPATH=. python3 scripts/variants_s25/probe_ax_wide.py

Each call checked first (tm.check, NaN-poisoned output); 3 alternating rounds, CUDA events after
warm-up, L2 flushed, medians.
"""
import os
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
from _rounds import print_rows, timed_with_copy  # noqa: E402

SHAPES = [(16384, 9, 4096), (5000, 12, 6000), (8192, 16, 8192), (16337, 20, 13807), (4096, 24, 16384),
          (8192, 32, 4096), (13126, 15, 760), (3000, 28, 9000)]
CONFIGS = {"nt16r4": dict(nt=16, rows=4, unroll=1, min_blocks=1), "nt16r2": dict(nt=16, rows=2, unroll=1, min_blocks=1),
           "nt16r2u2": dict(nt=16, rows=2, unroll=2, min_blocks=1), "nt12r4": dict(nt=12, rows=4, unroll=1, min_blocks=1),
           "nt24r2": dict(nt=24, rows=2, unroll=1, min_blocks=1), "nt32r2": dict(nt=32, rows=2, unroll=1, min_blocks=1)}


def main() -> None:
    flush = L2Flusher()
    rs = np.random.default_rng(252)
    print("| shape | call | µs | × cuBLAS | % copy | pick |")
    print("|---|---|---:|---:|---:|---|")
    for M, N, K in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        c = cupy.empty((M, N), dtype=cupy.float32)
        auto = tm.kernel("auto").kernel_for(M, N, K, "float32")
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        extra = {"auto": f"{auto.strategy.name} {auto.config.params()}"}
        for k, p in CONFIGS.items():
            fns[k] = lambda p=p: tm.matmul(a, b, out=c, strategy="gemv_ax", **p)
            extra[k] = str(p)
        for k, f in list(fns.items())[1:]:
            c.fill(cupy.nan)
            f()
            assert tm.check(c, a, b).passed, (k, (M, N, K))
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes, extra=extra)


if __name__ == "__main__":
    main()
