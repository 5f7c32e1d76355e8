"""Two questions for the eighteenth session's last rules, one JSON line per candidate
(probe_sweep.run: each checked with tm.check, then timed: CUDA events, L2 flushed, median of 7),
with auto's pick and cuBLAS:

ax:  16-bit A·x with N = 9..64 columns (auto: the TMA split, mma_half or mma_half_split_k) on
     gemv_ax_mma's configs, which auto takes only up to N = 8.
mid: 16-bit mid-size products under a few waves of wgmma_tma's tiles (5000x3000x1000 ran 0.68x
     cuBLAS) on every wgmma_tma tile, and wgmma_tma_split_k's 128 x 256 tile on decode shapes.

    PYTHONPATH=. python3 scripts/variants_s18/probe_s18e.py ax|mid OUT.jsonl [dtype]
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s17"))

from probe_sweep import run  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

AX_SHAPES = [(M, N, K) for M, N, K in [
    (4096, 16, 4096), (8192, 16, 8192), (16384, 16, 2048), (4096, 32, 4096), (8192, 32, 8192), (2000, 32, 16384),
    (4096, 64, 4096), (8192, 64, 8192), (1000, 12, 1000), (3519, 29, 204), (94, 50, 6180), (1265, 51, 137),
    (7058, 31, 1139), (30, 11, 242), (100000, 16, 1000), (9298, 24, 5590), (50000, 9, 4096), (2048, 48, 11008)]]
AX = [("gemv_ax_mma", {}), ("gemv_ax_mma", dict(rt=1, min_blocks=3)), ("gemv_ax_mma", dict(kg=4, min_blocks=4)),
      ("gemv_ax_mma", dict(rt=1, kg=16, min_blocks=1))]
MID_SHAPES = [(5000, 3000, 1000), (1024, 1024, 1024), (768, 768, 768), (3000, 2000, 1500), (2048, 2048, 1024),
              (4000, 4000, 500), (512, 512, 512), (16, 8192, 8192), (32, 4096, 4096), (64, 8192, 8192)]
MID = [("wgmma_tma", {}), ("wgmma_tma", dict(bm=128, bn=192, stages=4)), ("wgmma_tma", dict(bm=128, bn=128, stages=5)),
       ("wgmma_tma", dict(bm=256, bn=128, stages=3)), ("wgmma_tma", dict(bm=128, bn=256, stages=3, cluster_m=2)),
       ("wgmma_tma", dict(bm=128, bn=192, stages=4, cluster_m=2)), ("wgmma_tma", dict(bm=128, bn=128, stages=6)),
       ("wgmma_tma", dict(bm=128, bn=64, stages=8)),
       ("wgmma_tma_split_k", dict(split_k=2)), ("wgmma_tma_split_k", dict(split_k=4)),
       ("wgmma_tma_split_k", dict(bn=256, stages=4, split_k=2)), ("wgmma_tma_split_k", dict(bn=256, stages=4, split_k=4)),
       ("wgmma_tma_split_k", dict(bn=256, stages=4, split_k=8))]


def main() -> None:
    what, path = sys.argv[1:3]
    dt = sys.argv[3] if len(sys.argv) > 3 else "float16"
    shapes, cands = {"ax": (AX_SHAPES, AX), "mid": (MID_SHAPES, MID)}[what]
    flush = L2Flusher()
    with open(path, "w") as out:
        for shape in shapes:
            run(dt, shape, cands, flush, out)


if __name__ == "__main__":
    main()
