"""Probe: TMA-fed skinny float32 products (bulk_gemv.cu's xb_tma and ax_tma) against auto's pick, cuBLAS and a
device copy of the same bytes, in alternating rounds in one process.

    python3 scripts/variants_s20/probe_bulk_gemv.py [ROUNDS]

Every variant's output is checked against the float64 product first (max |C - ref| / max(|A||B|),
printed beside auto's). Timings: CUDA events after warm-up, L2 flushed, medians over the rounds'
medians; % copy = the product's bytes / time over (2 x bytes / copy time).
"""
import ctypes
import os
import statistics
import sys

import cupy
import numpy as np

from tiled_matmul import matmul, tma
from tiled_matmul.launch import function_ptr, launch_with_args
from tiled_matmul.timing import L2Flusher

from _rounds import pct_of_copy, timed_with_copy

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "bulk_gemv.cu")).read()

# (name, kind, template args, split)
#   xb: (M, BN, RK, STAGES, CW)    ax: (NN, BM, RKC, STAGES, CW)
ROWS = {
    "8x8192x8192": [
        ("xb_tma", (8, 64, 64, 4, 8), 1), ("xb_tma", (8, 64, 128, 4, 8), 1), ("xb_tma", (8, 64, 256, 3, 8), 1),
        ("xb_tma", (8, 64, 128, 6, 4), 1), ("xb_tma", (8, 32, 128, 4, 8), 1), ("xb_tma", (8, 128, 64, 4, 8), 2),
    ],
    "2x8192x8192": [("xb_tma", (2, 64, 128, 6, 8), 1), ("xb_tma", (2, 64, 256, 3, 8), 1)],
    "1x8192x8192": [("xb_tma", (1, 64, 256, 3, 8), 1), ("xb_tma", (1, 64, 128, 6, 8), 1)],
    "1x4096x16384": [
        ("xb_tma", (1, 32, 256, 6, 8), 1), ("xb_tma", (1, 32, 128, 8, 8), 1), ("xb_tma", (1, 64, 256, 3, 8), 2),
    ],
    "8192x8x8192": [
        ("ax_tma", (8, 64, 128, 4, 8), 1), ("ax_tma", (8, 64, 256, 3, 8), 1), ("ax_tma", (8, 32, 128, 3, 8), 1),
        ("ax_tma", (8, 64, 128, 4, 16), 1),
    ],
    "8192x1x8192": [("ax_tma", (1, 64, 256, 3, 8), 1), ("ax_tma", (1, 64, 128, 6, 8), 1)],
}
# The 1-D bulk-copy kernels (xb_bulk, ax_bulk) ran in the first version of this probe
# (results/h100/session20/bulk_1d.txt): 10-70% of a copy, one copy per 50-60 SM cycles.


def names():
    out = []
    for cands in ROWS.values():
        for kind, args, _ in cands:
            out.append(f"{kind}<{', '.join(map(str, args))}>")
    return sorted(set(out))


def smem_bytes(kind, args):
    if kind == "xb_tma":
        M, BN, RK, ST, CW = args
        stage = RK * BN + M * RK
    else:
        NN, BM, RKC, ST, CW = args
        stage = BM * RKC + RKC * NN
    return ST * stage * 4 + 16 * ST


def tmap(ptr, rows, cols, box_rows, box_cols):
    """An encoded float32 tensor map, no swizzle (boxes of up to 256 x 256 elements)."""
    return tma.encode(tma.tiled_2d(address=ptr, rows=rows, cols=cols, pitch=cols, itemsize=4,
                                   dtype_code=tma.DATA_TYPE["float32"], box_rows=box_rows, box_cols=box_cols,
                                   swizzle=0))


def runner(mod, kind, args, split, a, b):
    M, K = a.shape
    N = b.shape[1]
    fn = mod.get_function(f"{kind}<{', '.join(map(str, args))}>")
    smem = smem_bytes(kind, args)
    fn.max_dynamic_shared_size_bytes = smem
    threads = (args[4] + 1) * 32
    step = args[2]
    k_per = -(-K // split)
    k_per = -(-k_per // step) * step
    blocks = (-(-(N if kind == "xb_tma" else M) // args[1]), split, 1)
    if kind == "xb_tma":
        maps = (tmap(a.data.ptr, M, K, M, step), tmap(b.data.ptr, K, N, step, args[1]))
        dim = N
    else:
        bmap = tmap(b.data.ptr, 1, K, 1, step) if N == 1 else tmap(b.data.ptr, K, N, step, N)
        maps = (tmap(a.data.ptr, M, K, args[1], step), bmap)
        dim = M
    m0 = (ctypes.c_ubyte * 128).from_buffer_copy(maps[0])
    m1 = (ctypes.c_ubyte * 128).from_buffer_copy(maps[1])
    out_len = M * N
    ws = cupy.empty(split * out_len, dtype=cupy.float32) if split > 1 else None
    sum_fn = mod.get_function("slice_sum")
    fptr = function_ptr(fn)

    def call():
        c = cupy.empty((M, N), dtype=cupy.float32)
        dst = ws if split > 1 else c
        args_ = [m0, m1, ctypes.c_uint64(dst.data.ptr), ctypes.c_int32(dim), ctypes.c_int32(K), ctypes.c_int32(k_per)]
        launch_with_args(fptr, blocks, (threads, 1, 1), smem, cupy.cuda.get_current_stream().ptr, args_)
        if split > 1:
            sum_fn((-(-out_len // 256),), (256,), (ws, c, np.int32(out_len), np.int32(split)))
        return c
    return call


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    mod = cupy.RawModule(code=SRC, options=("-std=c++17", "-arch=sm_90a"), name_expressions=names())
    flush = L2Flusher()
    rs = np.random.default_rng(20)
    table = []
    for shape, cands in ROWS.items():
        M, N, K = (int(d) for d in shape.split("x"))
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        ref = cupy.matmul(a.astype(cupy.float64), b.astype(cupy.float64))
        scale = float(cupy.max(cupy.abs(a).astype(cupy.float64) @ cupy.abs(b).astype(cupy.float64)))
        fns = {"auto": lambda: matmul(a, b), "cublas": lambda: cupy.matmul(a, b)}
        for kind, args, split in cands:
            fns[f"{kind}{args}s{split}"] = runner(mod, kind, args, split, a, b)
        errs = {}
        for k, f in fns.items():
            errs[k] = float(cupy.max(cupy.abs(f().astype(cupy.float64) - ref))) / scale
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, rounds, flush)
        for k in fns:
            pct = pct_of_copy(nbytes, med[k], med["copy"])
            ratio = statistics.median(c / t for c, t in zip(res["cublas"], res[k]))
            table.append((shape, k, med[k] * 1e3, ratio, pct, errs[k]))
            print(f"{shape} {k}: {med[k] * 1e3:.1f} us, {ratio:.3f}x cuBLAS, {pct:.1f}% copy, err {errs[k]:.1e}",
                  flush=True)
    print("\n| product | variant | µs | × cuBLAS | % copy | max err / scale |")
    print("|---|---|---:|---:|---:|---:|")
    for row in table:
        print("| {} | {} | {:.1f} | {:.3f} | {:.1f} | {:.1e} |".format(*row))


if __name__ == "__main__":
    main()
