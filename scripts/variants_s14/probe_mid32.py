"""float32 shapes between half a wave and two waves of wgmma's tiles, where auto ran 0.5-0.73x
cuBLAS in the random sweep (seed 15): wgmma's tiles, wgmma_split_k and wgmma_tma_tf32 against
auto and cuBLAS (fourteenth session). Checked (tm.check), then CUDA events, L2 flushed, medians
of 9 in 3 alternating rounds.

    PYTHONPATH=. python3 scripts/variants_s14/probe_mid32.py
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from probe_small import compare  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

SHAPES = [(3114, 291, 3243), (1092, 285, 6374), (1715, 831, 3649), (2110, 663, 3825), (4124, 291, 485),
          (1000, 1000, 1000), (3000, 500, 2000), (1500, 1500, 1500), (2500, 300, 4000)]
CANDS = [("auto", {}), ("wgmma", dict(bm=64, bn=128, stages=6)), ("wgmma", dict(bm=64, bn=64, stages=4, min_blocks=2)),
         ("wgmma", {}), ("wgmma_split_k", dict(bm=64, bn=128, stages=6, min_blocks=1, split_k=2)),
         ("wgmma_split_k", dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=2)),
         ("wgmma_split_k", dict(bm=128, bn=128, stages=3, min_blocks=1, split_k=2)),
         ("wgmma_split_k", dict(bm=128, bn=128, stages=3, min_blocks=1, split_k=4)),
         ("wgmma_tma_tf32", {})]


def main() -> None:
    flush = L2Flusher()
    for M, N, K in SHAPES:
        compare("float32", M, N, K, CANDS, flush)


if __name__ == "__main__":
    main()
