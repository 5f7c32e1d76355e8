"""Which A·x rung for float16/bfloat16 by column count (fifteenth session): gemv_ax_half (widen and
FFMA) against gemv_ax_mma's configs (tensor cores) and cuBLAS, N = 1..8, rows of A aligned and not.
Each candidate is checked (tm.check) then timed (probe_small.compare: CUDA events, L2 flushed,
medians of 9, 3 alternating rounds with cuBLAS).

    PYTHONPATH=. python3 scripts/variants_s15/probe_ax_cols.py [elem | quick]
"""

from __future__ import annotations

import sys

import tiled_matmul as tm
from tiled_matmul.heuristic import _AX_HALF
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402


QUICK = [(8192, 8, 8192), (8192, 4, 8192), (4096, 6, 4096), (100000, 8, 1000), (9298, 6, 5590), (8192, 8, 8191)]
ELEM = [(9298, 3, 5590), (9298, 6, 5590), (9298, 8, 5590), (12399, 6, 890), (1000, 7, 1000), (4096, 6, 4098),
        (4096, 6, 4099), (8192, 8, 8190), (8192, 8, 8191)]


def main() -> None:
    flush = L2Flusher()
    mma = [("gemv_ax_mma", c.params()) for c in tm.STRATEGIES["gemv_ax_mma"].search_space]
    if sys.argv[1:] == ["quick"]:  # a few of both paths, float16
        for M, N, K in QUICK:
            compare("float16", M, N, K, mma, flush)
        return
    if sys.argv[1:] == ["elem"]:  # rows of A not 16-byte aligned (and 1000x7x1000's small A)
        for M, N, K in ELEM:
            compare("float16", M, N, K, [("auto", {})] + mma, flush)
        return
    for dt in ("float16", "bfloat16"):
        for M, K in ((8192, 8192), (4096, 4096), (100000, 1000), (9298, 5590)):
            for N in ((1, 2, 3, 4, 6, 8) if dt == "float16" else (3, 4, 8)):
                half = [("gemv_ax_half", _AX_HALF.get(N, {}))] if N <= 4 else []  # its default config at 3, 4
                compare(dt, M, N, K, [("auto", {})] + half + mma, flush)


if __name__ == "__main__":
    main()
