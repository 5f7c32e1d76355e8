"""16-bit products with a short K and rows that are not 16-byte aligned (thirty-first session).
random_shapes.py --seed 3102 (float16) put mma_half's default tile at 0.78-0.87x cuBLAS on
12778x4500x4, 16328x1673x187, 669x6953x206 (seed 3101), 532x12461x35: an odd K or N keeps them off
TMA below HALF_TMA_MIN_K (C would be written padded and copied back) and the kernel reads such
rows element by element. Rows per shape:

- auto;
- "al": mma_half's default on the padded shape (A, B, C in rows of 16 bytes, zeros past the
  matrix; timed without the copies): what aligned loads and stores would give;
- "al_a": the same with only K padded (A aligned, B and C still element by element);
- "tma": wgmma_tma's default on the padded shape (no copies);
- "cfgN": mma_half configs on the unpadded operands;
- the copies that padding A and B would add ("pad µs": pad.pad_into twice, timed alone).

    PYTHONPATH=. python3 scripts/variants_s31/probe_half_short_k.py --dtype float16 --seed 3103 --count 8
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.dirname(__file__))

from _probe import log_uniform  # noqa: E402

FIXED = [(16328, 1673, 187), (669, 6953, 206), (532, 12461, 35), (12778, 4500, 4)]
CONFIGS = {
    "st2": dict(stages=2),
    "t256": dict(bm=128, bn=256, wm=64, wn=64, stages=3, min_blocks=1),
    "t64": dict(bm=128, bn=64, wm=64, wn=32),
    "bk64": dict(bk=64, stages=2),
}


def draw(seed, count, dtype):
    """FIXED, then M, N 500-16384 and K 4-255 log-uniform, at most 40 GFLOP, A's or B's rows not
    16-byte multiples, on which auto runs mma_half's default tile."""
    from tiled_matmul import dispatch

    rs = np.random.default_rng(seed)
    out = list(FIXED)
    while len(out) < len(FIXED) + count:
        M, N, K = log_uniform(rs, 500, 16384), log_uniform(rs, 500, 16384), log_uniform(rs, 4, 255)
        c = dispatch.choose(M, N, K, dtype)
        if 2 * M * N * K <= 40e9 and (N % 8 or K % 8) and c.strategy == "mma_half" and not c.params:
            out.append((M, N, K))
    return out


def padded_sets(sets, pad_n=True):
    """Each (a, b, c) of `sets` copied into zero-padded arrays of the padded shape (K, and N where
    `pad_n`, rounded up to 8)."""
    import cupy

    out = []
    for a, b, c in sets:
        (M, K), N = a.shape, b.shape[1]
        Kp, Np = -(-K // 8) * 8, (-(-N // 8) * 8 if pad_n else N)
        ap = cupy.zeros((M, Kp), a.dtype)
        ap[:, :K] = a
        bp = cupy.zeros((Kp, Np), b.dtype)
        bp[:K, :N] = b
        out.append((ap, bp, cupy.empty((M, Np), c.dtype)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=3103)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.seed, args.count, args.dtype)
    if args.compile_only:
        from _probe import precompile

        from tiled_matmul import registry

        todo = [("mma_half", registry.get("mma_half").make_config(**p)) for p in [{}, *CONFIGS.values()]]
        todo.append(("wgmma_tma", registry.get("wgmma_tma").make_config()))
        print(precompile(args.compile_only, todo, args.dtype), "kernels;", shapes)
        return
    import cupy

    from tiled_matmul import pad
    from tiled_matmul.dispatch import choose
    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs
    from tiled_matmul.timing import time_fn

    from _half import call_row as strat
    from _half import cells, geomeans, timed_rows

    flush = L2Flusher()
    labels = ["auto", "al", "al_a", "tma", *CONFIGS]
    logs: dict = {}
    print(f"{args.dtype}, seed {args.seed}")
    print("| shape | cuBLAS µs | " + " | ".join(labels) + " | pad µs | auto's pick |")
    print("|---|---:|" + "---:|" * len(labels) + "---:|---|")
    for M, N, K in shapes:
        sets = make_inputs((M, N, K), args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets),
                "al": (strat("mma_half", {}), padded_sets(sets)), "al_a": (strat("mma_half", {}), padded_sets(sets, False)),
                "tma": (strat("wgmma_tma", {}), padded_sets(sets))}
        rows.update({k: (strat("mma_half", p), sets) for k, p in CONFIGS.items()})
        res = timed_rows(rows, flush)
        a, b, _ = sets[0]
        Kp, Np = -(-K // 8) * 8, -(-N // 8) * 8
        ab, bb = cupy.empty((M, Kp), a.dtype), cupy.empty((Kp, Np), a.dtype)
        s = cupy.cuda.get_current_stream()

        def pads(i):
            pad.pad_into(a.data.ptr, ab.data.ptr, M, K, M, Kp, 2, s)
            pad.pad_into(b.data.ptr, bb.data.ptr, K, N, Kp, Np, 2, s)

        pad_us = time_fn(pads, repeat=20, warmup=3, flush=flush).median_ms * 1e3
        c = choose(M, N, K, args.dtype)
        print(f"| {M}×{N}×{K} | {res['cublas'][0]:.1f} | " + " | ".join(cells(res, labels, logs)) + f" | {pad_us:.1f} | "
              f"{c.strategy} {dict(c.params)} |", flush=True)
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
