"""dmma's misaligned-operand kernel where C's rows are not 16-byte aligned (an odd N, float64): its
staged store against the template before (gpu_s16g.sh swaps it in), `auto` and cuBLAS on short-K
products, and the aligned neighbours (sixteenth session).

    PYTHONPATH=. python3 scripts/variants_s16/probe_dmma_unaligned.py LABEL
"""

from __future__ import annotations

import sys

from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SHAPES = [(4447, 127, 15), (4447, 128, 16), (1265, 51, 137), (16067, 51, 8), (3001, 2999, 16), (8191, 8191, 8),
          (8192, 8192, 8), (2000, 1001, 64), (5001, 3001, 1000)]
T32 = dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2)
T128 = dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2)


def main() -> None:
    flush = L2Flusher()
    print("template:", sys.argv[1] if sys.argv[1:] else "current", flush=True)
    for M, N, K in SHAPES:
        compare("float64", M, N, K, [("auto", {}), ("dmma", T32), ("dmma", T128)], flush)


if __name__ == "__main__":
    main()
