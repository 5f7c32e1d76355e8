"""float32's short-K products under a wave of 128 x 128 tiles (warp_tiled's fallback in
heuristic.recommend): warp_tiled's 64 x 64 tile (_SMALL) against its 32 x 32 one (_SMALL32),
smem_tiled's 16 x 16 and register_blocked's 32 x 32, over a grid of outputs and K, for the bound of
heuristic._small_tile (sixteenth session). Each candidate is checked (tm.check) then timed
(probe_small.compare: CUDA events, L2 flushed, medians, 3 alternating rounds with cuBLAS).

    PYTHONPATH=. python3 scripts/variants_s16/probe_tiny_k.py [quick | s15]
"""

from __future__ import annotations

import sys

from tiled_matmul.heuristic import _SMALL, _SMALL32
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

OUTPUTS = [(16068, 50), (4447, 127), (1000, 1000), (3000, 600), (1400, 1400), (8000, 250), (16000, 128),
           (500, 500), (128, 16000), (300, 300), (2500, 60)]
KS = [1, 8, 16, 32, 64, 100]
#: the fifteenth session's shapes for the 32 x 32 tile (scripts/variants_s15/probe_f32_small.py)
S15 = [(16049, 85, 7), (1265, 51, 137), (12399, 18, 89), (88, 45, 1), (27, 3988, 55), (500, 500, 255),
       (239, 82, 200), (1000, 1000, 100), (3000, 600, 60), (700, 700, 250)]
CANDS = [("auto", {}), ("warp_tiled", dict(_SMALL)), ("warp_tiled", dict(_SMALL32)), ("smem_tiled", dict(tile=16)),
         ("register_blocked", dict(bm=32, bn=32, bk=16, tm=4, tn=4))]


def main() -> None:
    flush = L2Flusher()
    if sys.argv[1:] == ["s15"]:
        for M, N, K in S15:
            compare("float32", M, N, K, CANDS, flush)
        return
    ks = KS[:3] if sys.argv[1:] == ["quick"] else KS
    for M, N in OUTPUTS:
        for K in ks:
            compare("float32", M, N, K, CANDS, flush)


if __name__ == "__main__":
    main()
