"""Held-out check of heuristic._skinny_chunks (twenty-fifth session): float32 x·B products with
9-32 rows and A·x products with 9-16 columns, drawn at random (seeded) where the rule applies,
timed as auto picks them now ("new"), as auto picked them before the rule ("old": the rule
switched off, the dispatch cache cleared), and as cuBLAS FP32, beside a device copy of the
product's bytes. `--ieee` times a few under precision="ieee" too (cuBLAS FP32 is the baseline).

    PYTHONPATH=. python3 scripts/variants_s25/probe_chunks.py [--seed S] [--count N] [--ieee]

Each call is checked first (tm.check, NaN-poisoned output); 3 alternating rounds, CUDA events
after warm-up, L2 flushed, medians.
"""
from __future__ import annotations

import argparse
import math

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul import dispatch, heuristic
from tiled_matmul.timing import L2Flusher

from _pair import choose_patched, print_means, time_pair  # noqa: E402


def draw(rs: np.random.Generator, count: int) -> list[tuple[int, int, int]]:
    """count shapes where the rule fires: two thirds x·B, one third A·x."""
    out = []
    while len(out) < count:
        wide = int(math.exp(rs.uniform(math.log(512), math.log(20000)))) // 4 * 4
        K = int(math.exp(rs.uniform(math.log(256), math.log(24000)))) // 4 * 4
        if len(out) % 3 < 2:
            shape = (int(rs.integers(9, heuristic.XB_TMA_CHUNK_MAX + 1)), wide, K)
        else:
            shape = (wide + int(rs.integers(0, 4)), int(rs.integers(9, heuristic.AX_CHUNK_MAX + 1)), K + int(rs.integers(0, 4)))
        if heuristic._skinny_chunks(*shape, 132, True) is not None and shape[0] * shape[1] * shape[2] < 2**31:
            out.append(shape)
    return out


def pick(M: int, N: int, K: int, precision: str, rule: bool) -> dispatch.Choice:
    return choose_patched(M, N, K, precision) if rule else choose_patched(M, N, K, precision,
                                                                          _skinny_chunks=lambda *a: None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2501)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--ieee", action="store_true")
    args = ap.parse_args()
    rs = np.random.default_rng(args.seed)
    flush = L2Flusher()
    logs: dict = {}
    print(f"seed {args.seed}")
    print("| shape | precision | cuBLAS µs | new × cuBLAS | old × cuBLAS | new / old | new % copy | new pick | old pick |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|")
    shapes = draw(rs, args.count)
    runs = [(s, "auto") for s in shapes] + ([(s, "ieee") for s in shapes[:8]] if args.ieee else [])
    for (M, N, K), precision in runs:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        c = cupy.empty((M, N), dtype=cupy.float32)
        picks = {"new": pick(M, N, K, precision, True), "old": pick(M, N, K, precision, False)}
        calls = {k: (lambda ch=ch: tm.matmul(a, b, out=c, strategy=ch.strategy, precision=precision, **ch.params))
                 for k, ch in picks.items()}
        t = time_pair(a, b, c, calls, flush)
        for k in ("new", "old"):
            logs.setdefault((precision, k), []).append(math.log(t["x"][k]))
        print(f"| {M}×{N}×{K} | {precision} | {t['cublas_us']:.1f} | {t['x']['new']:.3f} | {t['x']['old']:.3f} | "
              f"{t['first_over_second']:.3f} | {t['pct']['new']:.1f} | {picks['new'].strategy} {picks['new'].params} | "
              f"{picks['old'].strategy} {picks['old'].params} |{'' if t['ok'] else ' CHECK FAILED'}", flush=True)
    print_means(logs)

if __name__ == "__main__":
    main()
