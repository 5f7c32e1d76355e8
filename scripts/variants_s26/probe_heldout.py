"""Held-out check of the twenty-sixth session's two dispatch changes on random float32 shapes no
probe had used: A·x with 17-64 columns (auto before, as shipped with AX_TRANSPOSED = (17, 48),
and with (17, 64)) and x·B with 17-48 rows (before, as shipped, and with the GEMV chunks for
17-32 rows handed to the narrowed wgmma picks instead: heuristic.XB_TMA_CHUNK_MAX = 16).

    PYTHONPATH=. python3 scripts/variants_s26/probe_heldout.py --seed 2601 --count 14

"before" is dispatch.NARROW_TILES = False and AX_TRANSPOSED = None. Each variant's kernel object
is resolved once under its settings and launched directly (its _launch_fast, as tm.matmul's hot
path does), so the settings need not change between timed calls. Every call checked first
(tm.check on a NaN-poisoned C); 3 alternating rounds, CUDA events after warm-up, L2 flushed,
medians, cuBLAS FP32 and a device copy of the product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul import dispatch, heuristic
from tiled_matmul.dtypes import as_dtype
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
from _rounds import describe, log_ratio, print_geomeans, print_rows, timed_with_copy  # noqa: E402

F32 = as_dtype("float32")


def resolved(M, N, K, narrow=True, transposed=(17, 48), chunk_max=heuristic.XB_TMA_CHUNK_MAX):
    saved = dispatch.NARROW_TILES, dispatch.AX_TRANSPOSED, heuristic.XB_TMA_CHUNK_MAX
    dispatch.NARROW_TILES, dispatch.AX_TRANSPOSED, heuristic.XB_TMA_CHUNK_MAX = narrow, transposed, chunk_max
    try:
        dispatch.clear_cache()
        return tm.kernel("auto").kernel_for(M, N, K, "float32")
    finally:
        dispatch.NARROW_TILES, dispatch.AX_TRANSPOSED, heuristic.XB_TMA_CHUNK_MAX = saved
        dispatch.clear_cache()


def chunk_shapes(rs, count):
    """x·B with 17-32 rows where heuristic._skinny_chunks streams B in GEMV chunks."""
    out = []
    while len(out) < count:
        M = int(rs.integers(17, 33))
        N = -(-int(round(math.exp(rs.uniform(math.log(2000), math.log(20000))))) // 4) * 4
        K = -(-int(round(math.exp(rs.uniform(math.log(1000), math.log(20000))))) // 4) * 4
        if heuristic._skinny_chunks(M, N, K, 132, True) is not None:
            out.append((M, N, K))
    return out


def shapes(rs, count, small_side):
    out = []
    while len(out) < count:
        # x·B: 17-48 rows, every other B with whole 16-byte rows (the GEMV chunks' case up to 32)
        small = int(rs.integers(17, 65 if small_side == "N" else 49))
        big = int(round(math.exp(rs.uniform(math.log(1000), math.log(20000)))))
        if small_side == "M" and len(out) % 2 == 0:
            big = -(-big // 4) * 4
        K = int(round(math.exp(rs.uniform(math.log(500), math.log(20000)))))
        if big * K < (dispatch.AX_TRANSPOSED_MIN_STREAM if small_side == "N" else heuristic.XB_TMA_MIN_STREAM_8):
            continue
        out.append((big, small, K) if small_side == "N" else (small, big, K))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2601)
    ap.add_argument("--count", type=int, default=14)
    args = ap.parse_args()
    rs = np.random.default_rng(args.seed)
    flush = L2Flusher()
    gen = cupy.random.default_rng(args.seed)
    dev = cupy.cuda.Device().id
    sets = {"A·x": (shapes(rs, args.count, "N"), {"before": dict(narrow=False, transposed=None),
                                                   "shipped": {}, "to64": dict(transposed=(17, 64))}),
            "x·B": (shapes(rs, args.count, "M"), {"before": dict(narrow=False, transposed=None),
                                                   "shipped": {}, "nochunks": dict(chunk_max=16)}),
            "x·B chunks": (chunk_shapes(rs, args.count // 2), {"shipped": {}, "nochunks": dict(chunk_max=16)})}
    logs = {}
    for label, (shape_list, variants) in sets.items():
        print(f"\n## {label}, seed {args.seed}\n")
        print("| shape | call | µs | × cuBLAS | % copy | pick |")
        print("|---|---|---:|---:|---:|---|")
        for M, N, K in shape_list:
            a = gen.uniform(-1, 1, (M, K), dtype=np.float32)
            b = gen.uniform(-1, 1, (K, N), dtype=np.float32)
            c = cupy.empty((M, N), dtype=np.float32)
            kerns = {v: resolved(M, N, K, **kw) for v, kw in variants.items()}
            fns = {"cublas": lambda: cupy.matmul(a, b)}
            extra = {}
            for v, k in kerns.items():
                fns[v] = lambda k=k: k._launch_fast(a, b, c, M, N, K, dev, F32)
                extra[v] = describe(k)
            for v in kerns:
                c.fill(np.nan)
                fns[v]()
                rep = tm.check(c, a, b)
                assert rep.passed, (v, (M, N, K), rep)
                extra[v] += f" err {rep.comp_err:.1e} (cuBLAS {rep.cublas_comp_err:.1e})"
            nbytes = (M * K + K * N + M * N) * 4
            res, med = timed_with_copy(fns, nbytes, 3, flush)
            print_rows((M, N, K), fns, res, med, nbytes, extra=extra)
            for v in kerns:
                logs.setdefault((label, v), []).append(log_ratio(res, v))
    print()
    print_geomeans(logs)


if __name__ == "__main__":
    main()
