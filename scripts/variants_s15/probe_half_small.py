"""The half random sweep's lowest rows after gemv_ax_mma (fifteenth session): small outputs with a
short or long K on mma_half_split_k, mma_half and wgmma_tma, against smaller tiles and other split
counts. Each candidate is checked (tm.check) then timed (probe_small.compare: CUDA events, L2
flushed, medians of 9, 3 alternating rounds with cuBLAS); invalid configs say why.

    PYTHONPATH=. python3 scripts/variants_s15/probe_half_small.py
"""

from __future__ import annotations

import sys

from tiled_matmul.heuristic import _HALF_SMALL, _HALF_TMA_NARROW
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SHAPES = [(41, 59, 834), (94, 50, 6180), (631, 15, 573), (3178, 33, 915), (504, 205, 1632), (92, 281, 16065),
          (239, 82, 258), (1265, 51, 137), (16049, 85, 7), (4447, 127, 15), (27, 3988, 55)]
T32 = dict(bm=32, bn=32, wm=16, wn=16, stages=4, min_blocks=4)
T64_32 = dict(bm=64, bn=32, wm=32, wn=16, stages=4, min_blocks=4)


def main() -> None:
    flush = L2Flusher()
    for M, N, K in SHAPES:
        cands = [("auto", {}), ("mma_half", _HALF_SMALL), ("mma_half", T32), ("mma_half", T64_32),
                 ("wgmma_tma", _HALF_TMA_NARROW)]
        cands += [("mma_half_split_k", dict(split_k=s)) for s in (2, 4, 8, 16)]
        cands += [("mma_half_split_k", dict(T32, split_k=s)) for s in (2, 4, 8)]
        compare("float16", M, N, K, cands, flush)


if __name__ == "__main__":
    main()
