"""Rung 1: one thread per output element, every operand read straight from global memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..configs import Config
from ..strategy import Strategy


@dataclass(frozen=True)
class NaiveConfig(Config):
    """One thread per output element; a block of block_x (along N) × block_y (along M) threads."""

    STRATEGY: ClassVar[str] = "naive"
    block_x: int = 16
    block_y: int = 16

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.block_y, self.block_x)

    def block(self) -> tuple[int, int, int]:
        return (self.block_x, self.block_y, 1)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        # Every output reads its whole row of A and column of B (the seed's M*N*2K).
        return M * N * K, M * N * K


STRATEGY = Strategy.of(
    NaiveConfig,
    "01_naive.cu.j2",
    "one thread per output; every operand read straight from global memory",
    [dict(block_x=16, block_y=16), dict(block_x=32, block_y=8), dict(block_x=32, block_y=32), dict(block_x=8, block_y=8)],
    tunable=False,
)
