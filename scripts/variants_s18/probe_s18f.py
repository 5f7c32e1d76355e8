"""The eighteenth session's 16-bit picks against the seventeenth's (heuristic_s17.py, the
heuristic as the session began: not committed, made by
``git show 1a339f0:tiled_matmul/heuristic.py > scripts/variants_s18/heuristic_s17.py``), with
cuBLAS, in 3 alternating rounds (probe_tma_split_picks.compare: CUDA events, L2 flushed, medians of
9; each pick checked with tm.check first). Shapes whose pick did not move are skipped.

    PYTHONPATH=. python3 scripts/variants_s18/probe_s18f.py [dtype ...]
"""

from __future__ import annotations

import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from probe_tma_split_picks import compare  # noqa: E402

from tiled_matmul import heuristic as h  # noqa: E402
from tiled_matmul.timing import L2Flusher  # noqa: E402


def _old_heuristic():
    """heuristic_s17.py loaded as a module of the tiled_matmul package (its relative imports)."""
    path = os.path.join(os.path.dirname(__file__), "heuristic_s17.py")
    spec = importlib.util.spec_from_file_location("tiled_matmul.heuristic_s17", path)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "tiled_matmul"
    spec.loader.exec_module(mod)
    return mod


SHAPES = [
    # decode-like, long K, A·x with a few columns
    (8, 8192, 8192), (16, 4096, 4096), (32, 4096, 4096), (64, 8192, 8192), (128, 4096, 4096), (64, 4096, 11008),
    (64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768), (8192, 32, 8192), (4096, 16, 4096),
    (9, 3000, 40000), (2205, 9, 9937), (16, 12, 12791), (261, 473, 14735),
    # small A·x, 9..64 columns
    (94, 50, 6180), (30, 11, 242), (3519, 29, 204), (1265, 51, 137), (1000, 12, 1000), (600, 40, 800),
    (2000, 20, 500), (150, 64, 3000),
    # small and mid cubes and boxes
    (256, 256, 256), (384, 384, 384), (512, 512, 512), (640, 640, 640), (768, 768, 768), (1024, 1024, 1024),
    (1000, 200, 400), (1500, 800, 1800), (700, 1300, 900), (300, 2000, 1200), (1100, 900, 2000), (300, 300, 4096),
    (100, 100, 2049), (94, 500, 3000), (46, 1100, 2429), (22, 185, 3899), (245, 80, 7522)]


def main() -> None:
    old_h = _old_heuristic()
    flush = L2Flusher()
    for dt in sys.argv[1:] or ["float16", "bfloat16"]:
        compare(dt, SHAPES, lambda M, N, K, d: old_h.half_pick(M, N, K, d, 132),
                lambda M, N, K, d: h.half_pick(M, N, K, d, 132), flush, skip_same=True)


if __name__ == "__main__":
    main()
