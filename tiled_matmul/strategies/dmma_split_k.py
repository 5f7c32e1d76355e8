"""Rung 17: dmma over slices of K, then a fixed-order (deterministic) sum of the slices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..configs import CappedSplitK
from ..strategy import Strategy
from .dmma import DmmaConfig


@dataclass(frozen=True)
class DmmaSplitKConfig(CappedSplitK, DmmaConfig):
    """dmma (float64 on the FP64 tensor cores) with K cut into `split_k` slices (blockIdx.z), for
    a C too small to fill the GPU with dmma tiles while K is long enough to share (256^3-768^3,
    64x64x65536, 32x1024x32768, 64x8192x8192): 32 x 64, 64 x 64 and 128 x 64 tiles.

    Each slice writes its partial product to a [slices, M, N] float64 workspace with plain stores;
    a second kernel adds the slices in a fixed order (SplitReduce.reduce_lanes), so the result is
    bit-identical from run to run (no atomics). The products and sums are FP64 FMAs and adds, so Inf and NaN
    propagate as through dmma's single chain. :meth:`launch` does both launches. Operand layouts
    (column-major A or B, leading dimensions), batches and epilogues are dmma's (the epilogue
    runs in the reduce kernel).

    The workspace is capped at WORKSPACE_CAP bytes (:class:`~tiled_matmul.configs.CappedSplitK`):
    where split_k slices of M x N would pass it, the launch uses as many slices as fit, and where
    not even 2 fit, one slice, which writes C itself with no workspace and no reduce (the dmma
    kernel's result).
    """

    STRATEGY: ClassVar[str] = "dmma_split_k"
    bm: int = 64
    bn: int = 64
    bk: int = 8
    wm: int = 32
    wn: int = 32
    mma_k: int = 8
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 3
    split_k: int = 4

    @property
    def frag_ahead(self) -> bool:
        """dmma's rule, except at 4 blocks per SM: there the slice's bounds take the registers that
        the ahead loop's extra fragments need within 128 per thread (ptxas spilled 4 bytes at
        32 x 64 x 16), so that tile keeps the loop that reads fragments just before their DMMAs."""
        return super().frag_ahead and self.min_blocks < 4


STRATEGY = Strategy.of(
    DmmaSplitKConfig,
    "17_dmma_split_k.cu.j2",
    "dmma over split_k slices of K into a workspace, then a fixed-order (deterministic) sum (float64)",
    [
        # 64 x 64 tiles of four 32 x 32 warps, 8-deep steps, 3 blocks per SM (12 warps): the most
        # tiles for a small C (dmma's own config for one wave of them)
        dict(split_k=2),
        dict(split_k=8),
        dict(split_k=16),
        dict(split_k=32),
        # 16-deep steps, half the barriers per slice; 2 blocks per SM (ptxas spills at 3), in 8
        # warps of 32 x 16: split 2 ways, 5-9% faster than in 4 warps of 32 x 32 at 576^3-1024^3
        # (scripts/probe_dmma_configs.py --mid, H100, tenth session)
        dict(bk=16, wn=16, min_blocks=2, split_k=8),
        # 32 x 64 tiles of four 16 x 32 warps, 4 blocks per SM: half the padded MMAs of 64 rows
        # where M <= 32 (decode: 32x1024x32768, 32x4096x4096); with 2 or 4 slices, the small
        # cubes 256^3-512^3 (0.75-0.91x cuBLAS DGEMM against 0.55-0.63x for unsplit dmma:
        # scripts/probe_small.py)
        dict(bm=32, bn=64, bk=16, wm=16, wn=32, min_blocks=4, split_k=16),
        dict(bm=32, bn=64, bk=16, wm=16, wn=32, min_blocks=4, split_k=4),
        dict(bm=32, bn=64, bk=16, wm=16, wn=32, min_blocks=4, split_k=2),
        # 128 x 64 tiles, 2 blocks per SM: a quarter less L2 traffic per MMA than 64 x 64 (a 64 x 64
        # float64 tile at the DMMA peak reads 8.4 TB/s, more than L2 serves) where C has a few
        # such tiles and K many slices (256x256x131072); 8-deep steps (16 spill with an epilogue)
        dict(bm=128, bn=64, bk=8, wm=64, wn=32, stages=4, min_blocks=2, split_k=16),
        # the same tiles at 2 slices: a C of under a wave of them with K long enough to share
        # (128x8192x8192, 1024^3: 64-128 tiles for 264 resident blocks); the heuristic's split tile
        dict(bm=128, bn=64, bk=8, wm=64, wn=32, stages=4, min_blocks=2, split_k=2),
        # dmma's own 128 x 64 x 16 tile in 3 stages (cuBLAS DGEMM's), split 2 and 4 ways: 3-6% faster
        # than the 8-deep steps where 128 x 64 tiles fill one to three waves badly (128x8192x8192
        # 0.372 -> 0.351 ms, 640x4000x4000 0.497 -> 0.470, 513x8191x8191 2.15 -> 2.05), and at 4
        # slices faster than the 8-deep tile at 4 on 10 of the 12 shapes probed (not 64x8192x8192,
        # 300x300x30000, by 2%, where neither is auto's pick), which it replaced
        # (scripts/variants_s11/probe_split16.py, H100, eleventh session). With batched epilogue
        # extras ptxas spills 8-12 B (tests/test_epilogue.py KNOWN_SPILLS); plain, layouts and
        # unbatched epilogues do not
        dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2, split_k=2),
        dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2, split_k=4),
        # dmma's 32 x 32 x 32 tiles in 5 stages (cuBLAS's small tile), split: 1024 x 32 x 32768
        # at 4-8 slices 115 us against 140 on 32 x 64 at 16 (scripts/probe_dmma_configs.py
        # --split32, H100)
        dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2, split_k=4),
        dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2, split_k=8),
        # two m16 rows per warp (32 x 64 warps: dmma's FRAG_AHEAD loop) in 128 x 64 and 64 x 128
        # tiles at 2 blocks per SM, against the four-row 128 x 64 tile (alternating rounds, H100,
        # scripts/gpu_s13a.sh, gpu_s13b.sh): 128x8192x8192 at 2 slices 0.91 -> 0.93x cuBLAS,
        # 256x256x131072 at 32 0.90 -> 0.92; 64x8192x8192 on 64 x 128 at 4 slices 0.98 (the 64 x 64
        # entry at 2: 0.94)
        dict(bm=128, bn=64, bk=16, wm=32, wn=64, stages=3, min_blocks=2, split_k=2),
        dict(bm=128, bn=64, bk=16, wm=32, wn=64, stages=3, min_blocks=2, split_k=32),
        dict(bm=64, bn=128, bk=16, wm=32, wn=64, stages=3, min_blocks=2, split_k=4),
        # the same 128 x 64 tile in dmma's pairs layout (twenty-second session, scripts/gpu_s22h.sh,
        # probe_pairs_split.py, H100, x cuBLAS in one run): 128x8192x8192 at 2 slices 0.93 -> 0.99,
        # 256x256x131072 at 32 0.92 -> 0.98 (64x8192x8192 on 64 x 128 at 4: 0.98 -> 0.97, not kept).
        # Its misaligned-operand kernel spills 12 B (tests/test_dmma_split_k.py KNOWN_ELEM_SPILLS)
        dict(bm=128, bn=64, bk=16, wm=32, wn=64, stages=3, min_blocks=2, split_k=2, pairs=1),
        dict(bm=128, bn=64, bk=16, wm=32, wn=64, stages=3, min_blocks=2, split_k=32, pairs=1),
    ],
)
