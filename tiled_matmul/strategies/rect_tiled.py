"""Rung 4: rectangular shared-memory tiles with a coarsening factor along N."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import Config
from ..dtypes import FLOAT32, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class RectTiledConfig(Config):
    """Rectangular tiles: tile_m × tile_k of A and tile_k × tile_n of B in shared memory.

    A block has (tile_n / coarsen) × tile_m threads; each accumulates `coarsen` outputs of one
    row, strided by tile_n / coarsen columns so a warp's shared-memory reads hit distinct banks.
    """

    STRATEGY: ClassVar[str] = "rect_tiled"
    tile_m: int = 32
    tile_n: int = 64
    tile_k: int = 16
    coarsen: int = 4

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.tile_m, self.tile_n)

    def block(self) -> tuple[int, int, int]:
        return (max(self.tile_n // self.coarsen, 1), self.tile_m, 1)

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        return (self.tile_m * self.tile_k + self.tile_k * self.tile_n) * as_dtype(dtype).itemsize

    def rules(self, limits, dt):
        yield (
            self.tile_n % self.coarsen == 0,
            f"tile_n ({self.tile_n}) must be a multiple of coarsen ({self.coarsen})",
        )


STRATEGY = Strategy.of(
    RectTiledConfig,
    "04_rect_tiled.cu.j2",
    "rectangular tiles with a coarsening factor: one thread accumulates several outputs along N",
    [
        dict(tile_m=16, tile_n=32, tile_k=16, coarsen=2),  # N tile twice as wide, 2 outputs/thread
        dict(tile_m=32, tile_n=16, tile_k=16, coarsen=1),  # 32×16 output tile, K stride 16
        dict(tile_m=32, tile_n=64, tile_k=16, coarsen=2),
        dict(tile_m=32, tile_n=64, tile_k=16, coarsen=4),
        dict(tile_m=64, tile_n=64, tile_k=8, coarsen=4),
    ],
    tunable=False,
)
