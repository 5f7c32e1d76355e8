"""dmma's 128 x 64 tile at two blocks per SM (the pick of 5000x3000x1000, 0.88x cuBLAS against the
target 0.90) in its neighbours outside the search space: 8-deep stages (4, 5, 6 of them), k4 MMAs,
2 stages, tile groups of 4 and 16 (nineteenth session).

    PYTHONPATH=. python3 scripts/variants_s19/probe_f64_128x64.py OUT.jsonl [ROUNDS]
"""

from __future__ import annotations

import sys

sys.path.insert(0, "scripts/variants_s17")
sys.path.insert(0, "scripts/variants_s19")
from probe_f64_tiles import probe  # noqa: E402

SHAPES = [(5000, 3000, 1000), (3000, 5000, 1000), (10000, 1500, 1000), (6000, 4000, 2000), (2048, 2048, 2048),
          (4096, 4096, 4096)]
BASE = dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2)
CANDS = [("dmma", dict(BASE, **v)) for v in ({}, dict(bk=8, stages=4), dict(bk=8, stages=5), dict(bk=8, stages=6),
                                             dict(mma_k=4), dict(stages=2), dict(group_m=4), dict(group_m=16))]

if __name__ == "__main__":
    probe(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3, SHAPES, CANDS)
