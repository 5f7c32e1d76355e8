"""gemv_xb_tma's 8-row picks on 64-column blocks (heuristic._XB_TMA[8]) against its 32-column
config and gemv_xb's pick, on the long-K M > 4 shapes where the 64-column pick lost 1-6% in
probe_xb_tma_rule.py --heldout --seed 2021, and two it won. 3 alternating rounds, each pick checked
first.

    python3 scripts/variants_s20/probe_xb_tma_tiles.py
"""
import statistics

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul import heuristic
from tiled_matmul.timing import L2Flusher

from _rounds import pct_of_copy, timed_with_copy

SHAPES = [(7, 5100, 4976), (5, 5364, 13120), (8, 7812, 18436), (7, 5544, 41400), (5, 16844, 5480), (7, 7912, 3920),
          (5, 5952, 16060), (8, 8192, 8192), (8, 8192, 16384)]
PICKS = {"wide": ("gemv_xb_tma", {}), "narrow": ("gemv_xb_tma", heuristic._XB_TMA_NARROW[8])}


def main():
    flush = L2Flusher()
    rs = np.random.default_rng(4)
    print("| shape | gemv_xb µs | wide µs | narrow µs | wide / narrow | % copy (xb, wide, narrow) |")
    print("|---|---:|---:|---:|---:|---|")
    for M, N, K in SHAPES:
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        picks = dict(PICKS, xb=heuristic._gemv(M, N, K))
        fns = {k: (lambda p=p: tm.matmul(a, b, strategy=p[0], **p[1])) for k, p in picks.items()}
        for k, f in fns.items():
            assert tm.check(f(), a, b).passed, (k, (M, N, K))
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        r = statistics.median(n / w for w, n in zip(res["wide"], res["narrow"]))
        pct = ", ".join(f"{pct_of_copy(nbytes, med[k], med['copy']):.1f}" for k in ("xb", "wide", "narrow"))
        print(f"| {M}×{N}×{K} | {med['xb'] * 1e3:.1f} | {med['wide'] * 1e3:.1f} | {med['narrow'] * 1e3:.1f} | {r:.3f} | {pct} |",
              flush=True)


if __name__ == "__main__":
    main()
