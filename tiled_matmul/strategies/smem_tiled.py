"""Rung 3: square shared-memory tiles; each element loaded once per tile and used TILE times."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import Config
from ..dtypes import FLOAT32, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class SmemTiledConfig(Config):
    """Square tile × tile shared-memory tiles of A and B; one thread per output of the tile."""

    STRATEGY: ClassVar[str] = "smem_tiled"
    tile: int = 32

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.tile, self.tile)

    def block(self) -> tuple[int, int, int]:
        return (self.tile, self.tile, 1)

    @property
    def tile_k(self) -> int:
        return self.tile

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        return 2 * self.tile * self.tile * as_dtype(dtype).itemsize


STRATEGY = Strategy.of(
    SmemTiledConfig,
    "03_smem_tiled.cu.j2",
    "square TILE×TILE shared-memory tiles: each element loaded once per tile, used TILE times",
    [dict(tile=8), dict(tile=16), dict(tile=32)],
    tunable=False,
)
