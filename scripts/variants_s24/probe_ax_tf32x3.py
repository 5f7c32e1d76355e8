"""float32 A.x at N = 8 on the TF32 tensor cores (3xTF32, ax_tf32x3.cu) against auto's gemv_ax,
cuBLAS and a device copy of the same bytes (twenty-fourth session), 3 alternating rounds; the
16-bit gemv_ax_mma on the same bytes as a reference for the MMA-fed structure.

    PYTHONPATH=. python3 scripts/variants_s24/probe_ax_tf32x3.py

Each variant is checked first (NaN-poisoned output): the largest per-element error
|C - ref| / (|A|.|B|) against a float64 reference, beside cuBLAS's.
"""
import os
import sys

import cupy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "variants_s20"))
from _rounds import print_rows, timed_with_copy  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.timing import L2Flusher  # noqa: E402

VARIANTS = [(1, 8, 2, 0, 2), (1, 8, 1, 0, 3), (2, 8, 1, 0, 2), (1, 4, 2, 0, 4), (2, 4, 1, 0, 4),
            (1, 16, 2, 0, 1), (1, 8, 2, 1, 2), (2, 8, 1, 1, 2), (1, 8, 2, 2, 2)]


def name(v):
    return "ax3<" + ", ".join(map(str, v)) + ">"


def per_element(c, a, b):
    ref = cupy.matmul(a.astype(cupy.float64), b.astype(cupy.float64))
    den = cupy.matmul(cupy.abs(a).astype(cupy.float64), cupy.abs(b).astype(cupy.float64))
    return float(cupy.max(cupy.abs(c.astype(cupy.float64) - ref) / den))


def main():
    src = open(os.path.join(HERE, "ax_tf32x3.cu")).read()
    src = src[:src.index("template __global__")]
    mod = cupy.RawModule(code=src, options=("-std=c++17",), name_expressions=[name(v) for v in VARIANTS])
    flush = L2Flusher()
    rs = np.random.default_rng(24)
    for M, K in ((8192, 8192), (16384, 4096), (4096, 16384)):
        N = 8
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        c = cupy.full((M, N), cupy.nan, dtype=cupy.float32)
        fns = {"auto": lambda: tm.matmul(a, b, out=c), "cublas": lambda: cupy.matmul(a, b)}
        for v in VARIANTS:
            fn = mod.get_function(name(v))
            fns[name(v)] = (lambda fn=fn, v=v: fn((M // (16 * v[0]),), (32 * v[1],), (a, b, c, np.int32(M), np.int32(K))))
        errs = {}
        for k, f in fns.items():
            c.fill(cupy.nan)
            out = f()
            errs[k] = per_element(out if k == "cublas" else c, a, b)
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes, extra={k: f"{e:.2e}" for k, e in errs.items()})
    # the 16-bit MMA-fed A.x on the same bytes
    for M, N, K in ((8192, 8, 16384),):
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float16)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float16)
        fns = {"auto f16": lambda: tm.matmul(a, b), "cublas f16": lambda: cupy.matmul(a, b)}
        nbytes = (M * K + K * N + M * N) * 2
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes, base="cublas f16", extra={})


if __name__ == "__main__":
    main()
