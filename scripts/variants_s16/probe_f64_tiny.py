"""float64's short-K products with unaligned C rows (an odd N) after the staged stores: `auto` (the
cost model's pick: dmma's 32 x 32 tile at 4447x127x15) against warp_tiled's 64 x 64 and 32 x 32
tiles, register_blocked's 64 x 64 and dmma's 128 x 64 (sixteenth session).

    PYTHONPATH=. python3 scripts/variants_s16/probe_f64_tiny.py
"""

from __future__ import annotations

import sys

from tiled_matmul.heuristic import _SMALL, _SMALL32
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SHAPES = [(4447, 127, 15), (16068, 51, 8), (8000, 251, 8), (1265, 51, 137), (12399, 19, 89), (2000, 1001, 64)]


def main() -> None:
    flush = L2Flusher()
    for M, N, K in SHAPES:
        compare("float64", M, N, K, [("auto", {}), ("warp_tiled", dict(_SMALL)), ("warp_tiled", dict(_SMALL32)),
                                     ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4)),
                                     ("dmma", dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2)),
                                     ("dmma", dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2))], flush)


if __name__ == "__main__":
    main()
