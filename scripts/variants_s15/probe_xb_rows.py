"""Which x·B rung for float16/bfloat16 by row count (fifteenth session): gemv_xb_mma's configs
(tensor cores, Cᵀ = Bᵀ·Aᵀ) against `auto` (gemv_xb_half for M <= 4 with aligned rows of B, the
split otherwise) and cuBLAS, M = 1..8, rows of B aligned and not (an LM head's 50257 columns).
Each candidate is checked (tm.check) then timed (probe_small.compare: CUDA events, L2 flushed,
medians of 9, 3 alternating rounds with cuBLAS).

    PYTHONPATH=. python3 scripts/variants_s15/probe_xb_rows.py [quick]

gemv_xb_mma was dropped after its quick run (benchmarks/results/h100/session15/probe_xb_rows_quick.txt:
0.73-0.77x cuBLAS at 4..8x8192x8192 against auto's 0.86-0.94; 32 columns of B per warp read 64-byte
runs of rows 16 KiB apart). Its template and module are kept as scripts/variants_s15/gemv_xb_mma.patch
(`git apply` it to run this again).
"""

from __future__ import annotations

import sys

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

QUICK = [(8, 8192, 8192), (4, 8192, 8192), (5, 4096, 4096), (4, 50257, 4096), (8, 4097, 1000), (3, 14336, 4096)]


def main() -> None:
    flush = L2Flusher()
    mma = [("gemv_xb_mma", c.params()) for c in tm.STRATEGIES["gemv_xb_mma"].search_space]
    if sys.argv[1:] == ["quick"]:
        for M, N, K in QUICK:
            compare("float16", M, N, K, [("auto", {})] + mma, flush)
        return
    for dt in ("float16", "bfloat16"):
        for N, K in ((8192, 8192), (4096, 4096), (50257, 4096), (14336, 4096), (1024, 65536)):
            for M in ((1, 2, 3, 4, 5, 8) if dt == "float16" else (2, 4, 8)):
                compare(dt, M, N, K, [("auto", {})] + mma, flush)


if __name__ == "__main__":
    main()
