"""Rung 7: warp_tiled over slices of K, then a fixed-order (deterministic) sum of the slices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import SplitKField, cdiv
from ..dtypes import FLOAT32, as_dtype
from ..strategy import Strategy
from .warp_tiled import WarpTiledConfig


@dataclass(frozen=True)
class SplitKConfig(SplitKField, WarpTiledConfig):
    """warp_tiled with K cut into `split_k` slices (blockIdx.z), for small M·N with long K.

    Each slice writes its partial product to a [split_k, M, N] workspace with plain stores; a
    second kernel adds the slices in a fixed order (SplitReduce.reduce_lanes), so the result is
    bit-identical from run to run (no atomics). :meth:`launch` does both launches.
    """

    #: the reduce kernel's slice count is the template constant SPLIT_K (kernels/07_split_k.cu.j2)
    REDUCE_SLICES_ARG: ClassVar[bool] = False

    STRATEGY: ClassVar[str] = "split_k"
    bm: int = 64
    bn: int = 64
    bk: int = 8
    wm: int = 32
    wn: int = 32
    tm: int = 4
    tn: int = 8
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 4
    split_k: int = 8

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        tiles = cdiv(M, self.bm) * cdiv(N, self.bn)
        steps = self.split_k * cdiv(self.k_slice(K), self.bk) if K else 0
        return tiles * steps * self.bm * self.bk, tiles * steps * self.bk * self.bn

    def workspace_bytes(self, M: int, N: int, dtype: Any = FLOAT32, K: "int | None" = None,
                        device: Any = None) -> int:
        """Bytes of the [split_k, M, N] workspace (K and device do not change it)."""
        return self.split_k * M * N * as_dtype(dtype).itemsize

    def launch(self, kernel, A, B, C, M: int, N: int, K: int, flags: int, stream) -> None:
        """Partial products into a fresh workspace, then the fixed-order reduction into C (the
        reduce kernel reads the slice count from its template constant)."""
        self.launch_slices(kernel, self.grid(M, N), A, B, C, M, N, K, flags, stream)


STRATEGY = Strategy.of(
    SplitKConfig,
    "07_split_k.cu.j2",
    "warp_tiled over split_k slices of K into a workspace, then a fixed-order (deterministic) sum",
    [
        dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4, split_k=8),
        dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4, split_k=4),
        dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4, split_k=16),
        dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2, split_k=4),
        dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2, split_k=16),
        dict(bm=64, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=4, group_m=8, min_blocks=3, split_k=8),
    ],
)
