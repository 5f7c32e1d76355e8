"""Thirty-seventh session, for the next: 16-bit products with few rows (or columns) whose
streamed operand's rows are not 16-byte multiples. random_shapes.py (seed 3702) ran 50×10186×4000
at 0.51–0.53× cuBLAS: half_pick sends M > GEMV_MAX (8) to wgmma_tma, which first copies the 81 MB
B into padded rows (read + write + read again: about 3× the bytes of reading B in place); only
M ≤ 8 goes to mma_half_split_k, which pads too from K = 1024. mma_half reads unaligned rows in place
(its element staging, unsplit launches). The question: from what height does the TMA route win?

Rows: auto, wgmma_tma (its copies), mma_half on its 64×64 and 32×32 tiles, mma_half_split_k at 2
and 4 slices, cuBLAS; x·B with N unaligned (M = 9..128) and the A·x mirror (N = 9..128, K
unaligned), plus aligned neighbours (N or K rounded up to a multiple of 8) as the control. Each
row validated first (NaN-poisoned C, float64 reference, tiled_matmul.measure), then 3 alternating
rounds with L2 flushed; × cuBLAS is the median of the rounds' ratios.

    PYTHONPATH=. python3 scripts/variants_s37/probe_skinny_unaligned.py [--dtype float16]
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(m, 10186, 4000) for m in (9, 16, 32, 50, 64, 96, 128)] + [(50, 10192, 4000), (32, 50257, 4096)] \
    + [(10186, n, 4001) for n in (16, 50, 128)] + [(10186, 50, 4008)]

VARIANTS = {
    "wgmma_tma": ("wgmma_tma", {"bm": 128, "bn": 128, "stages": 5}),
    "mh64": ("mma_half", {"bm": 64, "bn": 64, "wm": 32, "wn": 32, "stages": 4, "min_blocks": 3}),
    "mh32": ("mma_half", {"bm": 32, "bn": 32, "wm": 16, "wn": 16, "stages": 4, "min_blocks": 4}),
    "split2": ("mma_half_split_k", {"split_k": 2}),
    "split4": ("mma_half_split_k", {"split_k": 4}),
}


def main() -> None:
    from _half import config_probe

    config_probe(SHAPES, VARIANTS)


if __name__ == "__main__":
    main()
