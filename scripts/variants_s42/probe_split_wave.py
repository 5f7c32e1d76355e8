"""Forty-second session: one-row 16-bit products (M <= 128) whose 128 x 128 tiles fill more than half
a wave but at most one (67-132 tiles on 132 SMs). heuristic._tma_split_count cuts no slices there
(2 x tiles > SMs), so auto runs wgmma_tma's 128 x 128 tile unsplit, with up to half the SMs idle,
although such a product is a stream of B (N x K) and every SM could stream. The forty-first
session saw 32x10186x8192 run 124 us unsplit and 103 us split in 2. How many slices pay, and does
a wave count (ceil(tiles x s / SMs) / s, the busiest CTA's share of one unsplit tile) predict it?

Rows: cuBLAS, auto, and wgmma_tma_split_k's 128 x 128 tile with s = 2, 3, 4, 5, 6, 8 slices (B read
in place where TMA cannot address it: the b_rows sibling). A column prints the wave count of each
s, so that a rule can be fitted on the fixed shapes and judged on the draw (--seed, --count):
every variant is timed on the draw too. Every row validated first (NaN-poisoned C, float64
reference, per element: tiled_matmul.measure), 3 alternating rounds, L2 flushed.

    PYTHONPATH=. python3 scripts/variants_s42/probe_split_wave.py [--dtype float16] [--seed 4201] [--count 8]
    PYTHONPATH=. python3 scripts/variants_s42/probe_split_wave.py --compile-only CACHE_DIR   # no GPU
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SLICES = (2, 3, 4, 5, 6, 8)
SMS = 132
# (M, N, K): tiles of 128 x 128 = ceil(N / 128) from 68 to 128; N % 8 != 0 on four (b_rows)
SHAPES = [(32, 10186, 8192), (16, 10240, 4096), (64, 8704, 8192), (128, 8704, 4096), (32, 12800, 8192),
          (64, 12802, 4096), (16, 14336, 16384), (128, 15360, 8192), (100, 16384, 4096), (32, 11008, 4096),
          (64, 13824, 5120), (16, 9214, 16384)]


def draw(seed: int, count: int) -> list:
    """`count` shapes with M 9-128, 67-128 tiles (N even, any N % 8) and K 2048-16384 log-uniform."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        M, tiles = int(rng.integers(9, 129)), int(rng.integers(67, 129))
        N = tiles * 128 - 2 * int(rng.integers(0, 64))
        K = int(np.exp(rng.uniform(np.log(2048), np.log(16384))))
        out.append((M, N, K))
    return out


def waves(N: int, s: int) -> float:
    """The busiest CTA's share of one unsplit tile's K steps with s slices (one tile row)."""
    tiles = -(-N // 128)
    return -(-tiles * s // SMS) / s


def compile_only(cache: str, dtypes) -> None:
    """Every split variant and its b_rows sibling into the cubin cache `cache` (NVRTC, no GPU)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
    from _probe import precompile

    from tiled_matmul.registry import get

    e = get("wgmma_tma_split_k")
    jobs = [(e, cfg) for s in SLICES for cfg in (e.make_config(split_k=s), e.make_config(split_k=s, b_rows=1))]
    for dt in dtypes:
        print(precompile(cache, jobs, dt), dt, "kernels")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=4201)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    if args.compile_only:
        compile_only(args.compile_only, ("float16", "bfloat16"))
        return
    import tiled_matmul as tm
    from _half import call_row, cells, cublas_cell, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    fixed: dict = {}
    held: dict = {}
    labels = ["auto", *(f"split {s}" for s in SLICES)]
    print(f"{args.dtype}: µs (× cuBLAS); split s = wgmma_tma_split_k 128 x 128, s slices; waves = "
          "ceil(tiles·s/132)/s for s = " + ", ".join(map(str, SLICES)))
    for title, shapes, logs in (("fixed", SHAPES, fixed), (f"draw (seed {args.seed})", draw(args.seed, args.count), held)):
        print(f"\n{title}\n\n| shape | tiles | auto's pick | waves | cuBLAS µs | {' | '.join(labels)} |")
        print("|---|---:|---|---|---:|" + "---:|" * len(labels))
        for M, N, K in shapes:
            pick = tm.explain("auto", (M, N, K), dtype=args.dtype)
            params = {k: v for k, v in pick["params"].items() if k in ("bm", "bn", "stages", "cluster_m", "split_k", "b_rows")}
            sets = make_inputs((M, N, K), args.dtype)
            rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets)}
            rows.update({f"split {s}": (call_row("wgmma_tma_split_k", {"split_k": s}), sets) for s in SLICES})
            res = timed_rows(rows, flush)
            w = " ".join(f"{waves(N, s):.2f}" for s in SLICES)
            print(f"| {M}×{N}×{K} | {-(-N // 128)} | {pick['strategy']} {params} | {w} | {cublas_cell(res)} | "
                  f"{' | '.join(cells(res, labels, logs))} |", flush=True)
        print()
        geomeans(logs)


if __name__ == "__main__":
    main()
