"""dmma_split_k with and without the pairs layout (DmmaConfig.pairs) on the float64 suite's split
rows and their neighbours, beside auto and cuBLAS DGEMM (twenty-second session).

    PYTHONPATH=. python3 scripts/variants_s22/probe_pairs_split.py [ROUNDS]

Every candidate is checked first (tm.check, output NaN-poisoned before the launch), then timed in
alternating rounds with cuBLAS (CUDA events after warm-up, L2 flushed, median of 9 a round); the
table gives each candidate's median over rounds x cuBLAS.
"""
from __future__ import annotations

import sys

import cupy
from probe_pairs import checked, medians  # (this directory: the same check and timing)

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

T2 = dict(bm=128, bn=64, bk=16, wm=32, wn=64, stages=3, min_blocks=2)   # two m16 rows per warp
T4 = dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2)   # four
W = dict(bm=64, bn=128, bk=16, wm=32, wn=64, stages=3, min_blocks=2)
S64 = dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2)
ROWS = [  # (shape, {name: params})
    ((128, 8192, 8192), {"128x64 r2 s2": {**T2, "split_k": 2}, "128x64 r2 s2 P": {**T2, "split_k": 2, "pairs": 1},
                         "128x64 r4 s2 P": {**T4, "split_k": 2, "pairs": 1}}),
    ((256, 256, 131072), {"128x64 r2 s32": {**T2, "split_k": 32}, "128x64 r2 s32 P": {**T2, "split_k": 32, "pairs": 1},
                          "64x64 s32 P": {**S64, "split_k": 32, "pairs": 1}}),
    ((64, 8192, 8192), {"64x128 s4": {**W, "split_k": 4}, "64x128 s4 P": {**W, "split_k": 4, "pairs": 1}}),
    ((1024, 1024, 1024), {"64x64 s2": {**S64, "split_k": 2}, "64x64 s2 P": {**S64, "split_k": 2, "pairs": 1}}),
    ((768, 768, 768), {"64x64 s2": {**S64, "split_k": 2}, "64x64 s2 P": {**S64, "split_k": 2, "pairs": 1},
                       "64x64 s4 P": {**S64, "split_k": 4, "pairs": 1}}),
    ((512, 512, 512), {"64x64 s4": {**S64, "split_k": 4}, "64x64 s4 P": {**S64, "split_k": 4, "pairs": 1}}),
]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    flush = L2Flusher()
    rng = cupy.random.default_rng(22)
    for (M, N, K), cands in ROWS:
        a = rng.standard_normal((M, K))
        b = rng.standard_normal((K, N))
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b),
               **checked(a, b, cands, "dmma_split_k")}
        med = medians(fns, rounds, flush)
        print(f"{M}x{N}x{K:<7} cuBLAS {med['cublas'] * 1e3:8.1f} us  " +
              "  ".join(f"{k} {med['cublas'] / v:.3f}" for k, v in med.items() if k != "cublas"), flush=True)


if __name__ == "__main__":
    main()
