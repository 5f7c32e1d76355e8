"""Rung 6: warp tiles of thread tiles, a multi-stage cp.async pipeline, grouped block order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import ALL_LAYOUTS, WarpGridConfig
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class WarpTiledConfig(WarpGridConfig):
    """A bm × bn block tile split into wm × wn warp tiles of 32 threads, each thread tm × tn.

    Global → shared memory goes through a `stages`-deep cp.async pipeline (dynamic shared
    memory, zero-filled ragged edges); A stays row-major in shared memory, padded so that 16-byte
    reads of 8 different rows hit 8 different bank groups. Tiles are ordered in groups of
    `group_m` tile rows so that blocks running together share A rows and B columns in L2.
    The grid is 1-D (one block per tile), so M is not bound by the grid-y limit.
    """

    STRATEGY: ClassVar[str] = "warp_tiled"
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ALL_LAYOUTS

    def _layout_tiles_split(self) -> bool:
        # the layout loads walk one pointer per operand: THREADS divides a k-row of A (bm/vec
        # vectors, 2 doubles per vector at most), a row of B (bn/vec) and bk
        t = self.threads
        return t % self.bk == 0 and t % max(self.bm // 2, 1) == 0 and t % max(self.bn // 2, 1) == 0
    DYNAMIC_SMEM: ClassVar[bool] = True
    bm: int = 128
    bn: int = 128
    bk: int = 8
    wm: int = 32
    wn: int = 64
    tm: int = 8
    tn: int = 8
    stages: int = 3
    group_m: int = 8
    min_blocks: int = 2

    @staticmethod
    def pad(dt: DType) -> int:
        """Row padding (elements) of the transposed A tile: one 16-byte vector, which keeps rows
        16-byte aligned and spreads the element-wise transposing copies over more banks."""
        return dt.vec

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        dt = as_dtype(dtype)
        return self.stages * self.bk * ((self.bm + self.pad(dt)) + self.bn) * dt.itemsize

    def occupancy(self, dt: DType) -> int:
        """Blocks per SM promised to ptxas (__launch_bounds__): min_blocks for float32; 1 for
        float64, whose accumulators need twice the registers."""
        return self.min_blocks if dt.itemsize == 4 else 1

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {"VEC": dt.vec, "PAD": self.pad(dt), "SPLIT_K": self.splits, "OCCUPANCY": self.occupancy(dt)}

    def rules(self, limits, dt):
        vec = dt.vec
        yield from self._warp_grid_rules()
        yield (self.wm % self.tm == 0, f"wm ({self.wm}) must be a multiple of tm ({self.tm})")
        yield (self.wn % self.tn == 0, f"wn ({self.wn}) must be a multiple of tn ({self.tn})")
        per_warp = (self.wm // max(self.tm, 1)) * (self.wn // max(self.tn, 1))
        yield (per_warp == 32, f"a warp tile holds (wm/tm)*(wn/tn) = {per_warp} threads; it must be 32")
        for name in ("tm", "tn", "bk"):
            val = getattr(self, name)
            yield (val % 4 == 0, f"{name} ({val}) must be a multiple of 4 (16-byte vectors)")
        yield (self.tm * self.tn <= 128, f"tm*tn = {self.tm * self.tn} accumulators must be <= 128 (registers)")
        yield self._stages_rule()
        yield self._min_blocks_rule()
        threads = (self.bm // max(self.wm, 1)) * (self.bn // max(self.wn, 1)) * 32
        yield self._splits_rule(f"A tile ({self.bm}x{self.bk} elements)", self.bm * self.bk, threads)
        yield self._splits_rule(f"B tile ({self.bk * self.bn // vec} vectors of {vec})", self.bk * self.bn // vec, threads)
        yield self._fits_sm_rule(limits, dt, self.occupancy(dt))


STRATEGY = Strategy.of(
    WarpTiledConfig,
    "06_warp_tiled.cu.j2",
    "warp tiles of thread tiles, multi-stage cp.async pipeline (A transposed on the way in), grouped block order",
    [
        dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2),
        dict(bm=128, bn=128, bk=16, wm=32, wn=64, tm=8, tn=8, stages=2, group_m=8, min_blocks=2),
        dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=5, group_m=8, min_blocks=2),
        dict(bm=128, bn=128, bk=8, wm=64, wn=32, tm=8, tn=8, stages=3, group_m=8, min_blocks=2),
        dict(bm=128, bn=128, bk=16, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=1),
        dict(bm=128, bn=256, bk=16, wm=64, wn=64, tm=8, tn=16, stages=3, group_m=8, min_blocks=1),
        dict(bm=64, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=4, group_m=8, min_blocks=3),
        dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, group_m=8, min_blocks=4),
    ],
)
