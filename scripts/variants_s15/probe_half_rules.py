"""`auto`'s half picks before and after the 32 x 32 tile rules (fifteenth session), and the split on
32 x 32 tiles for small outputs with K under HALF_SPLIT_MIN_K (where `auto` keeps wgmma_tma), against
cuBLAS: each candidate checked (tm.check), then timed (probe_small.compare: CUDA events, L2 flushed,
medians of 9, 3 alternating rounds with cuBLAS).

    PYTHONPATH=. python3 scripts/variants_s15/probe_half_rules.py
"""

from __future__ import annotations

import sys

from tiled_matmul import heuristic
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SPLIT64 = lambda s: ("mma_half_split_k", {"split_k": s})  # noqa: E731
#: the picks before the rules (heuristic.half_pick at 3418772)
BEFORE = {(41, 59, 834): SPLIT64(4), (631, 15, 573): SPLIT64(4), (3178, 33, 915): SPLIT64(4),
          (504, 205, 1632): SPLIT64(8), (200, 1000, 700): SPLIT64(4), (128, 128, 1024): SPLIT64(8),
          (64, 64, 2000): SPLIT64(8), (1265, 51, 137): ("mma_half", heuristic._HALF_SMALL),
          (16049, 85, 7): ("mma_half", heuristic._HALF_SMALL), (12399, 18, 89): ("mma_half", heuristic._HALF_SMALL),
          (4447, 127, 15): ("mma_half", heuristic._HALF_SMALL), (27, 3988, 55): ("mma_half", heuristic._HALF_SMALL)}
#: shorter K than HALF_SPLIT_MIN_K, few tiles: wgmma_tma's 128 x 128 tile now
SHORT = [(239, 82, 258), (300, 300, 256), (512, 512, 384), (1000, 200, 400), (700, 700, 500), (2000, 100, 300)]


def main() -> None:
    flush = L2Flusher()
    for dt in ("float16", "bfloat16"):
        for (M, N, K), before in BEFORE.items():
            compare(dt, M, N, K, [("auto", {}), before], flush)
        for M, N, K in SHORT:
            compare(dt, M, N, K, [("auto", {}), ("mma_half_split_k", heuristic._half_split(M, N, K, 132)),
                                  ("mma_half", heuristic._HALF_TINY)], flush)


if __name__ == "__main__":
    main()
