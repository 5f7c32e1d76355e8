"""Rung 13: wgmma over slices of K, then a fixed-order (deterministic) sum of the slices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..configs import SplitKField, cdiv
from ..dtypes import FLOAT32, as_dtype
from ..strategy import Strategy
from .wgmma import WgmmaConfig


@dataclass(frozen=True)
class WgmmaSplitKConfig(SplitKField, WgmmaConfig):
    """wgmma with K cut into `split_k` slices (blockIdx.z), for a C too small to fill the GPU
    with wgmma tiles while K is long (64x64x65536, 32x1024x32768, 512^3).

    Each slice writes its partial product to a [slices, M, N] float32 workspace with plain stores;
    a second kernel adds the slices in the fixed order 0..slices-1, so the result is bit-identical
    from run to run (no atomics). A block whose partial holds an Inf or NaN recomputes its slice
    with FMAs, as wgmma recomputes its tile. :meth:`launch` does both launches.

    The workspace is capped at WORKSPACE_CAP bytes: where split_k slices of M x N would pass it,
    the launch uses as many slices as fit (:meth:`slices`, a function of M and N alone, so the
    same shape always sums in the same order), and where not even 2 fit, one slice, which writes C
    itself with no workspace and no reduce (the wgmma kernel's result).
    """

    STRATEGY: ClassVar[str] = "wgmma_split_k"
    #: bytes of workspace one launch may allocate, at most
    WORKSPACE_CAP: ClassVar[int] = 256 * 1024 * 1024
    bm: int = 64
    bn: int = 128
    stages: int = 6
    group_m: int = 8
    min_blocks: int = 1
    split_k: int = 8

    def slices(self, M: int, N: int, dtype: Any = FLOAT32) -> int:
        """Slices a launch for an M x N output uses: split_k, or fewer to keep the workspace
        within WORKSPACE_CAP; 1 (no workspace) when not even 2 fit."""
        fit = self.WORKSPACE_CAP // max(1, M * N * as_dtype(dtype).itemsize)
        n = min(self.split_k, fit)
        return n if n >= 2 else 1

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """One block per (tile, slice): tiles along x, the slices the launch uses along z."""
        return (cdiv(M, self.bm) * cdiv(N, self.bn), 1, self.slices(M, N))

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """Each slice's blocks read their slice's BK-deep steps; the slices end on BK boundaries,
        so the steps add up to the unsplit kernel's cdiv(K, BK) per tile."""
        tiles, _, slices = self.grid(M, N)
        per = self.k_slice(K, slices)
        steps = sum(cdiv(min(K, (z + 1) * per) - min(K, z * per), self.BK) for z in range(slices))
        return tiles * steps * self.bm * self.BK, tiles * steps * self.BK * self.bn

    def workspace_bytes(self, M: int, N: int, dtype: Any = FLOAT32, K: "int | None" = None,
                        device: Any = None) -> int:
        """Bytes of the [slices, M, N] workspace one launch allocates (0 when it runs unsplit;
        K and device do not change it)."""
        slices = self.slices(M, N, dtype)
        return slices * M * N * as_dtype(dtype).itemsize if slices > 1 else 0

    def launch(self, kernel, A, B, C, M: int, N: int, K: int, flags: int, stream) -> None:
        """Partial products into a fresh workspace, then the fixed-order reduction into C; or,
        where the workspace cap leaves one slice, the main kernel straight into C."""
        grid = self.grid(M, N)
        self.launch_slices(kernel, grid, A, B, C, M, N, K, flags, stream, np.int32(grid[2]))


STRATEGY = Strategy.of(
    WgmmaSplitKConfig,
    "13_wgmma_split_k.cu.j2",
    "wgmma over split_k slices of K into a workspace, then a fixed-order (deterministic) sum",
    [
        # 64 x 64 tiles, 2 blocks per SM: the most tiles for small C (1024x32, small cubes)
        dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=2),
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
