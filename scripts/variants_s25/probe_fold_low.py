"""The one held-out loss of the folded B (7x1747x7191: 0.33x cuBLAS where gemv_xb ran 1.0x,
gpu_s25f.sh): the same product with and without the fold, the tail rows and the A copy
(neighbouring N and K), two configs, in 5 alternating rounds (CUDA events, L2 flushed, medians).

    PYTHONPATH=. python3 scripts/variants_s25/probe_fold_low.py [--padded-a]
"""
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

from _pair import rounds

SHAPES = [(7, 1747, 7191), (7, 1747, 7192), (7, 1748, 7191), (7, 1748, 7192), (5, 2001, 3001), (7, 2001, 7191)]
ROUNDS = 5
PICKS = {"bn32": dict(mt=8, bn=32, rk=128), "bn64": {}}


def main() -> None:
    global SHAPES, ROUNDS
    flush = L2Flusher()
    rng = cupy.random.default_rng(3)
    padded_a = "--padded-a" in sys.argv
    if padded_a:  # the second run: A's rows already padded by the caller (no copy), 10 rounds
        SHAPES, ROUNDS = [(7, 1747, 7191), (7, 2001, 7191)], 10
    for M, N, K in SHAPES:
        a = rng.uniform(-1, 1, (M, K), dtype=cupy.float32)
        if padded_a:
            a = cupy.zeros((M, K + 1), dtype=cupy.float32)[:, :K]
            a[...] = rng.uniform(-1, 1, (M, K), dtype=cupy.float32)
        b = rng.uniform(-1, 1, (K, N), dtype=cupy.float32)
        fns = {"cublas": lambda: cupy.matmul(a, b), "gemv_xb": lambda: tm.matmul(a, b, strategy="gemv_xb", mt=8, unroll=4)}
        for name, p in PICKS.items():
            assert tm.check(tm.matmul(a, b, strategy="gemv_xb_tma", **p), a, b).passed
            fns[name] = lambda p=p: tm.matmul(a, b, strategy="gemv_xb_tma", **p)
        med, res = rounds(fns, ROUNDS, flush)
        print(f"{M}x{N}x{K}: " + ", ".join(f"{n} {ms * 1e3:.1f}" for n, ms in med.items())
              + f"  (rounds of bn32: {', '.join(f'{x * 1e3:.0f}' for x in res['bn32'])})", flush=True)


if __name__ == "__main__":
    main()
