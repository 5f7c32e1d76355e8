"""Thirty-eighth session: 16-bit products with a narrow C (N <= 128) and many rows. half_pick sends
them to wgmma_tma's 128 x 256 tile (in 2-CTA clusters where B's rows are not 128-byte multiples),
of which half or more is padding; gpu_s38b.sh saw 10186x50x4008 at 67.7 us there against 53.9 on
the 128 x 128 tile (cuBLAS 61.8), and 10186x128x4001 116 against 104. Rows: auto, the 128 x 256
(cluster) tile, 128 x 128, 128 x 64, cuBLAS; M from under one wave of 128-row tiles to several,
aligned and unaligned N and K. Each row validated first (NaN-poisoned C, float64 reference), then
alternating rounds with L2 flushed; x cuBLAS is the median of the rounds' ratios.

    PYTHONPATH=. python3 scripts/variants_s38/probe_narrow_n.py [--dtype float16]
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(m, n, k) for m in (10186, 32768) for n in (16, 50, 64, 128) for k in (1024, 4008)] \
    + [(10186, 50, 4001), (10186, 96, 4001), (4096, 64, 8192), (65536, 100, 2048), (16384, 128, 16384),
       (17000, 200, 4096), (10186, 128, 300)]

VARIANTS = {
    "256c": ("wgmma_tma", {"bm": 128, "bn": 256, "stages": 3, "cluster_m": 2}),
    "256": ("wgmma_tma", {}),
    "128": ("wgmma_tma", {"bm": 128, "bn": 128, "stages": 5}),
    "64": ("wgmma_tma", {"bm": 128, "bn": 64, "stages": 8}),
}


def main() -> None:
    from _half import config_probe

    config_probe(SHAPES, VARIANTS)


if __name__ == "__main__":
    main()
