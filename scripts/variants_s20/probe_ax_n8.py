"""A·x at N = 8 against N = 1 (8192 x {8, 1} x 8192 float32): TMA-fed A with B's stage as a 2-D box
of 32-byte rows or as one 1-D bulk copy (bulk_gemv.cu's ax_tma2), auto's gemv_ax, cuBLAS and a
device copy of the same bytes, 3 alternating rounds; `--ncu` runs each product once (for ncu).

    python3 scripts/variants_s20/probe_ax_n8.py [--ncu]
"""
import ctypes
import os
import sys

import cupy
import numpy as np

from tiled_matmul import matmul
from tiled_matmul.launch import function_ptr, launch_with_args
from tiled_matmul.timing import L2Flusher

from _rounds import print_rows, timed_with_copy
from probe_bulk_gemv import tmap

HERE = os.path.dirname(os.path.abspath(__file__))
# (NN, BM, RKC, STAGES, consumer warps, B_BULK[, NO_B]); the first run (ax_n8.txt) had the first
# four of N = 8, and (1, 64, 128, 6, 8, False), whose B box coordinates were N = 8's (wrong at
# N = 1); the second (ax_n8_depth.txt) 4-8 stages; the third the NO_B control (unchecked: its
# results are wrong by design)
VARIANTS = {8: [(8, 64, 128, 4, 16, True), (8, 64, 128, 4, 16, True, True), (8, 64, 64, 8, 16, True),
                (8, 64, 64, 8, 16, True, True)],
            1: [(1, 64, 128, 6, 8, True)]}


def name(v):
    return "ax_tma2<" + ", ".join(str(x).lower() for x in v) + ">"


def runner(mod, v, a, b):
    M, K = a.shape
    NN, BM, RKC, ST, CW = v[:5]
    fn = mod.get_function(name(v))
    smem = ST * (BM * RKC + RKC * NN) * 4 + 16 * ST
    fn.max_dynamic_shared_size_bytes = smem
    bmap = tmap(b.data.ptr, 1, K, 1, RKC) if NN == 1 else tmap(b.data.ptr, K, NN, RKC, NN)
    maps = [(ctypes.c_ubyte * 128).from_buffer_copy(m) for m in (tmap(a.data.ptr, M, K, BM, RKC), bmap)]
    fptr = function_ptr(fn)

    def call():
        c = cupy.empty((M, NN), dtype=cupy.float32)
        args = [*maps, ctypes.c_uint64(b.data.ptr), ctypes.c_uint64(c.data.ptr), ctypes.c_int32(M), ctypes.c_int32(K),
                ctypes.c_int32(K)]
        launch_with_args(fptr, (-(-M // BM), 1, 1), ((CW + 1) * 32, 1, 1), smem, cupy.cuda.get_current_stream().ptr,
                         args)
        return c
    return call


def main():
    src = open(os.path.join(HERE, "bulk_gemv.cu")).read()
    names = [name(v) for vs in VARIANTS.values() for v in vs]
    mod = cupy.RawModule(code=src, options=("-std=c++17", "-arch=sm_90a"), name_expressions=names)
    flush = L2Flusher()
    rs = np.random.default_rng(8)
    for N in (8, 1):
        M = K = 8192
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        ref = cupy.matmul(a.astype(cupy.float64), b.astype(cupy.float64))
        fns = {"auto": lambda: matmul(a, b), "cublas": lambda: cupy.matmul(a, b)}
        fns.update({name(v): runner(mod, v, a, b) for v in VARIANTS[N]})
        for k, f in fns.items():
            err = float(cupy.max(cupy.abs(f().astype(cupy.float64) - ref)))
            assert err < 1e-3 or k.endswith("true, true>"), (k, err)
        if "--ncu" in sys.argv:
            cupy.cuda.Device().synchronize()
            continue
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes)


if __name__ == "__main__":
    main()
