"""16-bit x·B with rows of B not 16-byte aligned (an LM head over a vocabulary of 50257 or 32001
columns), where `auto` pads B by a copy for wgmma_tma: gemv_xb_half's element path against it, the
split and cuBLAS, float16 (probe_small.compare: checked, then 3 alternating rounds).

    PYTHONPATH=. python3 scripts/variants_s14/probe_lm_head.py
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from probe_small import compare  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

XB = [("auto", {}), ("gemv_xb_half", dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32)),
      ("gemv_xb_half", dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32)),
      ("gemv_xb_half", dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16)), ("mma_half_split_k", dict(split_k=2))]
SHAPES = [(1, 50257, 4096), (2, 50257, 4096), (4, 50257, 4096), (1, 32001, 4096), (1, 4097, 4096), (3, 1003, 5001)]


def main() -> None:
    flush = L2Flusher()
    for M, N, K in SHAPES:
        compare("float16", M, N, K, XB, flush)


if __name__ == "__main__":
    main()
