"""dmma_tail (whole waves of tiles, the last partial wave's tiles split by K) on dmma's pairs-layout
tiles, against the same tiles as dmma, auto and cuBLAS DGEMM (twenty-third session). The question:
how much of float64's remaining gap to cuBLAS (8192^3: 4096 tiles of 128 x 128 are 31.03 waves of
132, so the last wave runs 4 tiles on 132 SMs) is wave quantisation that the tail split recovers.

    PYTHONPATH=. python3 scripts/variants_s23/probe_tail_pairs.py [ROUNDS] [SET]

SET: "big" (default) or "random" (16 random float64 shapes, seed 2301, aligned rows). Every
candidate is checked first (tm.check, output NaN-poisoned before the launch), then timed in
alternating rounds with cuBLAS (CUDA events after warm-up, L2 flushed, median of 9 a round); the
table gives each candidate's median over rounds x cuBLAS.
"""
from __future__ import annotations

import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path(__file__).parents[1] / "variants_s22"))
from probe_pairs import checked, medians, print_table  # noqa: E402 (the same check, timing and table)

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.timing import L2Flusher  # noqa: E402

T128 = dict(bm=128, bn=128, wm=32, wn=64, pairs=1)
T64 = dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2, pairs=1)
S64 = dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, pairs=1)
DMMA = {"128x128 P": T128, "128x64 P": T64, "64x64 P": S64}
TAIL = {"T 128x128": {}, "T 128x128 P": T128, "T 128x64 P": T64, "T 64x64 P": S64}
BIG = [(8192, 8192, 8192), (8192, 8192, 4096), (4096, 4096, 4096), (3001, 2999, 3007), (5000, 3000, 1000),
       (3000, 5000, 1000), (10000, 1500, 1000), (1500, 1500, 1500), (1501, 896, 1022), (6144, 3072, 1024),
       (2000, 3000, 1000)]


def random_shapes(n: int = 16, seed: int = 2301) -> list[tuple[int, int, int]]:
    """n float64 shapes, each side log-uniform in 512..8192, N and K rounded up to even."""
    import numpy as np
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        m, nn, k = (int(round(2 ** rng.uniform(9, 13))) for _ in range(3))
        out.append((m, nn + nn % 2, k + k % 2))
    return out


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    shapes = random_shapes() if len(sys.argv) > 2 and sys.argv[2] == "random" else BIG
    flush = L2Flusher()
    rng = cupy.random.default_rng(23)
    names = ["auto", *DMMA, *TAIL]
    rows = []
    for M, N, K in shapes:
        a = rng.standard_normal((M, K))
        b = rng.standard_normal((K, N))
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b),
               **checked(a, b, DMMA), **checked(a, b, TAIL, "dmma_tail")}
        med = medians(fns, rounds, flush)
        rows.append(((M, N, K), med))
        print(f"{M}x{N}x{K}: cuBLAS {med['cublas'] * 1e3:.1f} us", flush=True)
    print_table(rows, names, 18)


if __name__ == "__main__":
    main()
