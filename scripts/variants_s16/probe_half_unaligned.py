"""mma_half where C's rows are not 16-byte aligned (N % 8 != 0): its staged store against the
template before (gpu_s16i.sh swaps it in), `auto` and cuBLAS, on the half sweep's short-K lows and
aligned neighbours (sixteenth session).

    PYTHONPATH=. python3 scripts/variants_s16/probe_half_unaligned.py LABEL | rule
"""

from __future__ import annotations

import sys

from tiled_matmul.heuristic import _HALF_SMALL, _HALF_TINY
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SHAPES = [(16049, 85, 7), (16068, 50, 8), (4447, 127, 15), (4447, 128, 16), (1265, 51, 137), (12399, 18, 89),
          (8000, 250, 8), (3001, 2999, 64), (2000, 1001, 200)]


#: random half shapes whose pick moves from the 32 x 32 tile to the 64 x 64 one with
#: heuristic.HALF_TINY_MAX_TILES_PER_SM (its check: `rule`)
MOVED = [(14050, 109, 1), (1824, 588, 6), (501, 2266, 43), (4761, 261, 3), (6344, 234, 134), (65, 9309, 57),
         (2000, 1001, 200), (8000, 250, 8)]


def main() -> None:
    flush = L2Flusher()
    if sys.argv[1:] == ["rule"]:
        for M, N, K in MOVED:
            compare("float16", M, N, K, [("auto", {}), ("mma_half", dict(_HALF_TINY)), ("mma_half", dict(_HALF_SMALL))],
                    flush)
        return
    print("template:", sys.argv[1] if sys.argv[1:] else "current", flush=True)
    for dt in ("float16", "bfloat16"):
        for M, N, K in SHAPES if dt == "float16" else SHAPES[:3]:
            compare(dt, M, N, K, [("auto", {}), ("mma_half", dict(_HALF_TINY)), ("mma_half", dict(_HALF_SMALL))], flush)


if __name__ == "__main__":
    main()
