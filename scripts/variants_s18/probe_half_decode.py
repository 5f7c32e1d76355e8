"""16-bit decode-like and long-K shapes with aligned rows (eighteenth session): auto's pick against
every candidate the cost model ranks (probe_lows.compare: each checked with tm.check, then timed
with cuBLAS in 3 alternating rounds, CUDA events, L2 flushed, medians of 9). Is a tensor-core
split on wgmma worth building, and where?

    PYTHONPATH=. python3 scripts/variants_s18/probe_half_decode.py [dtype]
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s17"))

from probe_lows import compare  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

SHAPES = [(4, 4096, 4096), (8, 8192, 8192), (16, 4096, 4096), (16, 8192, 8192), (32, 4096, 4096),
          (32, 8192, 4096), (64, 8192, 8192), (64, 4096, 11008), (128, 4096, 4096),
          (64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768), (128, 128, 16384),
          (4096, 16, 4096), (8192, 32, 8192)]


def main() -> None:
    flush = L2Flusher()
    dt = sys.argv[1] if sys.argv[1:] else "float16"
    for M, N, K in SHAPES:
        compare(dt, M, N, K, flush)


if __name__ == "__main__":
    main()
