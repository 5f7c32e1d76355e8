"""float32's small outputs with a short K (the random sweep's lowest float32 rows, fifteenth
session): `auto` (warp_tiled's 64 x 64 tile at 4 blocks per SM there) against smaller tiles of the
FFMA rungs, and cuBLAS. Each candidate is checked (tm.check) then timed (probe_small.compare).

    PYTHONPATH=. python3 scripts/variants_s15/probe_f32_small.py [risky]
"""

from __future__ import annotations

import sys

from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SHAPES = [(16049, 85, 7), (16068, 50, 8), (4447, 127, 15), (1265, 51, 137), (12399, 18, 89), (88, 45, 1),
          (27, 3988, 55), (239, 82, 258), (2000, 100, 300), (1000, 200, 400)]
W = dict(bk=16, stages=3, min_blocks=4)
CANDS = [("auto", {}),
         ("warp_tiled", dict(W, bm=32, bn=32, wm=16, wn=32, tm=4, tn=4)),
         ("warp_tiled", dict(W, bm=32, bn=32, wm=32, wn=32, tm=4, tn=8)),
         ("warp_tiled", dict(W, bm=32, bn=64, wm=32, wn=32, tm=4, tn=8)),
         ("warp_tiled", dict(W, bm=64, bn=32, wm=32, wn=32, tm=4, tn=8)),
         ("register_blocked", dict(bm=32, bn=32, bk=16, tm=4, tn=4)),
         ("register_blocked", dict(bm=64, bn=32, bk=16, tm=4, tn=4)),
         ("rect_tiled", dict(tile_m=32, tile_n=16, tile_k=16, coarsen=1)),
         ("smem_tiled", dict(tile=16))]


#: larger outputs in the same fallback (under a wave of 128 x 128 tiles, K < 256), for the 32 x 32
#: tile's bound
RISKY = [(1400, 1400, 200), (1000, 1000, 100), (2000, 500, 128), (700, 700, 250), (1000, 1000, 16),
         (3000, 600, 60), (500, 500, 255)]


def main() -> None:
    flush = L2Flusher()
    if sys.argv[1:] == ["risky"]:
        for M, N, K in RISKY:
            compare("float32", M, N, K, [("auto", {}), ("warp_tiled", dict(W, bm=64, bn=64, wm=32, wn=32, tm=4, tn=8)),
                                         CANDS[1]], flush)
        return
    for M, N, K in SHAPES:
        compare("float32", M, N, K, CANDS, flush)


if __name__ == "__main__":
    main()
