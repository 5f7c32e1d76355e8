"""float64 skinny products with 4-8 columns or rows on dmma's small tiles against the GEMV rungs
(nineteenth session): the float64 suite's 8192x8x8192 runs on dmma's 32 x 32 tile at 0.98x cuBLAS
(its database entry), while the cost model, which dispatches float64, prices that tile 2.3x too
slow there (0.478 predicted, 0.204 ms measured) and sends shapes off the suite to gemv_ax
(4500x8x60000 0.90x, 2800x8x60000 0.89x in probe_split_rule.py --third).

    PYTHONPATH=. python3 scripts/variants_s19/probe_f64_skinny.py OUT.jsonl [ROUNDS]
"""

from __future__ import annotations

import sys

sys.path.insert(0, "scripts/variants_s17")
sys.path.insert(0, "scripts/variants_s19")
from probe_f64_tiles import probe  # noqa: E402

SHAPES = [(4500, 8, 60000), (2800, 8, 60000), (8192, 8, 8192), (30000, 8, 20000), (11000, 6, 25000),
          (6000, 4, 20000), (8, 4500, 60000), (8, 30000, 20000), (5, 7000, 30000), (16000, 8, 4096)]
T32 = dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2)
T3264 = dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4)
CANDS = ([("dmma", T32), ("dmma", T3264)] + [("dmma_split_k", dict(T32, split_k=s)) for s in (2, 4, 8, 16)]
         + [("dmma_split_k", dict(T3264, split_k=s)) for s in (2, 4, 8)])

if __name__ == "__main__":
    probe(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2, SHAPES, CANDS)
