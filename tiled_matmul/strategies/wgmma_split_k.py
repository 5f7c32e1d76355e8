"""Rung 13: wgmma over slices of K, then a fixed-order (deterministic) sum of the slices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..configs import CappedSplitK
from ..strategy import Strategy
from .wgmma import WgmmaConfig


@dataclass(frozen=True)
class WgmmaSplitKConfig(CappedSplitK, WgmmaConfig):
    """wgmma with K cut into `split_k` slices (blockIdx.z), for a C too small to fill the GPU
    with wgmma tiles while K is long (64x64x65536, 32x1024x32768, 512^3).

    Each slice writes its partial product to a [slices, M, N] float32 workspace with plain stores;
    a second kernel adds the slices in a fixed order (SplitReduce.reduce_lanes), so the result is
    bit-identical from run to run (no atomics). A block whose partial holds an Inf or NaN recomputes its slice
    with FMAs, as wgmma recomputes its tile. :meth:`launch` does both launches.

    The workspace is capped at WORKSPACE_CAP bytes (:class:`~tiled_matmul.configs.CappedSplitK`):
    where split_k slices of M x N would pass it, the launch uses as many slices as fit, and where
    not even 2 fit, one slice, which writes C itself with no workspace and no reduce (the wgmma
    kernel's result).
    """

    STRATEGY: ClassVar[str] = "wgmma_split_k"
    #: up to 128 slices: one 64 x 64 tile with K = 65536 fills 128 SMs with 512-deep slices (H100,
    #: scripts/probe_split128.py: 0.97x cuBLAS FP32 against 0.89x at 64 slices; 64x64x131072 1.06x
    #: against 0.84x)
    MAX_SPLIT: ClassVar[int] = 128
    bm: int = 64
    bn: int = 128
    stages: int = 6
    group_m: int = 8
    min_blocks: int = 1
    split_k: int = 8


STRATEGY = Strategy.of(
    WgmmaSplitKConfig,
    "13_wgmma_split_k.cu.j2",
    "wgmma over split_k slices of K into a workspace, then a fixed-order (deterministic) sum",
    [
        # 64 x 64 tiles, 2 blocks per SM: the most tiles for small C (1024x32, small cubes; at
        # 256^3-768^3, 4 or 8 slices ran 1.1-1.2x cuBLAS FP32 against 0.86-1.05x for unsplit
        # wgmma: scripts/probe_small.py)
        dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=2),
        dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=4),
        dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=8),
        dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=16),
        dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=32),
        # 64 x 128: M <= 64 with wide N (32x1024)
        dict(bm=64, bn=128, stages=6, split_k=4),
        dict(bm=64, bn=128, stages=6, split_k=8),
        dict(bm=64, bn=128, stages=6, split_k=32),
        # 128 x 128: the least traffic per MMA where C has a few such tiles (256x256)
        dict(bm=128, bn=128, stages=3, split_k=4),
        dict(bm=128, bn=128, stages=3, split_k=16),
    ],
)
