"""Rung 2: each thread computes a tm × tn block of outputs from global memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..configs import Config
from ..strategy import Strategy


@dataclass(frozen=True)
class ThreadTileConfig(Config):
    """Each thread computes tm × tn outputs straight from global memory (no shared memory).

    A thread's outputs are strided by the block dims so neighbouring threads touch neighbouring
    columns: every load and store of a warp stays coalesced.
    """

    STRATEGY: ClassVar[str] = "thread_tile"
    block_x: int = 16
    block_y: int = 16
    tm: int = 4
    tn: int = 4

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.block_y * self.tm, self.block_x * self.tn)

    def block(self) -> tuple[int, int, int]:
        return (self.block_x, self.block_y, 1)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        # Each launched thread reads tm rows of A and tn columns of B, K long (edge threads clamp).
        gx, gy, _ = self.grid(M, N)
        threads = gx * gy * self.threads
        return threads * self.tm * K, threads * self.tn * K

    def rules(self, limits, dt):
        yield (self.tm * self.tn <= 64, f"tm*tn = {self.tm * self.tn} accumulators must be <= 64 (registers)")


STRATEGY = Strategy.of(
    ThreadTileConfig,
    "02_thread_tile.cu.j2",
    "each thread computes a tm×tn block of outputs from global memory (register reuse only)",
    [
        dict(block_x=16, block_y=16, tm=2, tn=2),
        dict(block_x=16, block_y=16, tm=4, tn=4),
        dict(block_x=32, block_y=8, tm=4, tn=2),
        dict(block_x=16, block_y=8, tm=8, tn=4),
    ],
    tunable=False,
)
