"""The half GEMV shapes the fourteenth session's rules leave to the split (A·x with N = 5..8, A·x
with rows of A not 16-byte aligned, x·B with M = 8): the GEMV rungs' other configs against auto
and cuBLAS, float16 (probe_small.compare: checked, then 3 alternating rounds).

    PYTHONPATH=. python3 scripts/variants_s14/probe_half_edges.py
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from probe_small import compare  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

AX8 = [("auto", {}), ("gemv_ax_half", dict(nt=8, rows=4, unroll=1, min_blocks=1)),
       ("gemv_ax_half", dict(nt=8, rows=2, unroll=1)), ("gemv_ax_half", dict(nt=8, rows=1, unroll=2)),
       ("gemv_ax_half", dict(nt=8, rows=2, unroll=2, min_blocks=1))]
AX_ELEM = [("auto", {}), ("gemv_ax_half", dict(nt=1, rows=4, unroll=2)), ("gemv_ax_half", dict(nt=1, rows=4, unroll=1)),
           ("mma_half_split_k", dict(split_k=8))]
XB8 = [("auto", {}), ("gemv_xb_half", dict(threads=256, mt=8, unroll=8, min_blocks=1, kg=16)),
       ("gemv_xb_half", dict(mt=8)), ("gemv_xb_half", dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32))]
CASES = [((8192, 8, 8192), AX8), ((8192, 6, 8192), AX8), ((9298, 1, 5590), AX_ELEM), ((29, 1, 1810), AX_ELEM),
         ((8192, 3, 4099), AX_ELEM), ((8, 8192, 8192), XB8), ((6, 4096, 4096), XB8)]


def main() -> None:
    flush = L2Flusher()
    for (M, N, K), cands in CASES:
        compare("float16", M, N, K, cands, flush)


if __name__ == "__main__":
    main()
