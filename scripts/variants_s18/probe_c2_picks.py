"""heuristic._HALF_TMA_CLUSTER (wgmma_tma's 2-CTA clusters where B's rows are not 128-byte
multiples and K >= TMA_CLUSTER_MIN_K) against the default tile it replaces, on shapes not used to
make the rule, with cuBLAS (probe_tma_split_picks.compare: 3 alternating rounds, CUDA events, L2
flushed, medians of 9; each pick checked first).

    PYTHONPATH=. python3 scripts/variants_s18/probe_c2_picks.py [dtype ...]
"""

from __future__ import annotations

import os
import sys
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

from probe_tma_split_picks import compare  # noqa: E402

from tiled_matmul import heuristic as h  # noqa: E402
from tiled_matmul.timing import L2Flusher  # noqa: E402

SHAPES = [(3001, 2999, 3007), (2000, 3000, 1500), (1500, 7000, 2000), (7000, 2000, 1000), (3333, 3333, 3333),
          (2048, 2999, 4096), (8000, 1000, 2000), (4000, 3000, 8000), (12000, 1500, 1200), (6000, 6000, 1000),
          (2500, 4100, 2500), (9000, 9000, 1100), (4100, 4100, 4100), (1300, 10000, 1500)]


def main() -> None:
    flush = L2Flusher()

    def old(M, N, K, dt):
        with mock.patch.object(h, "TMA_CLUSTER_MIN_K", 1 << 40):
            return h.half_pick(M, N, K, dt, 132)

    for dt in sys.argv[1:] or ["float16", "bfloat16"]:
        compare(dt, SHAPES, old, lambda M, N, K, d: h.half_pick(M, N, K, d, 132), flush, skip_same=True)


if __name__ == "__main__":
    main()
