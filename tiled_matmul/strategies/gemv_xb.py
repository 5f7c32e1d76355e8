"""Rung 10: skinny x·B (small M): B streamed once per chunk of mt rows of A, K split at launch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import SkinnyConfig, cdiv
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class GemvXbConfig(SkinnyConfig):
    """C[M, N] = A[M, K] · B[K, N] for small M (decode-like x·W), where reading B is the cost.

    A block of `threads` threads, in `kg` groups along K of threads/kg column lanes, covers
    (threads/kg)·COLS columns of C and `mt` rows of A: each thread keeps mt·COLS accumulators over
    its group's run of the block's K slice and issues `unroll`·COLS/VEC independent 16-byte loads
    of B (unroll rows) per step, reading A's values through L1 as broadcasts; the groups' sums are
    added in shared memory, in group order, before the store. The grid is column blocks × row
    chunks (cdiv(M, mt)) × K slices, the slices chosen at launch (:meth:`SkinnyConfig.k_splits`).

    kg > 1 narrows the block so that the output alone fills the GPU (a 1 x 8192 output is 128
    blocks of 64 columns at threads=512, kg=32): K is then not split across blocks, and the
    workspace and the reduce kernel of a split are not needed.
    """

    STRATEGY: ClassVar[str] = "gemv_xb"
    #: a column-major B is not streamed along N (copied first)
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ((False, False), (True, False))
    #: columns of C per thread: one 16-byte vector of float32, two of float64 (a dtype-free geometry)
    COLS: ClassVar[int] = 4
    threads: int = 256
    mt: int = 4
    unroll: int = 8
    min_blocks: int = 2
    kg: int = 1

    @property
    def lanes(self) -> int:
        """Threads across the columns (one K group)."""
        return self.threads // self.kg

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.mt, self.lanes * self.COLS)

    @property
    def tile_k(self) -> int:
        """Rows of B one step of every K group loads together (slices are whole multiples of it)."""
        return self.unroll * self.kg

    def output_blocks(self, M: int, N: int) -> int:
        return cdiv(M, self.mt) * cdiv(N, self.lanes * self.COLS)

    def streamed(self, M: int, N: int, K: int) -> int:
        """B, once per chunk of mt rows."""
        return cdiv(M, self.mt) * K * N

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """A: every column block reads its rows' K range (L1 broadcasts); B: once per row chunk."""
        return cdiv(N, self.lanes * self.COLS) * M * K, self.streamed(M, N, K)

    def registers(self, dt: DType) -> int:
        """Registers a thread needs, about: the mt·COLS accumulators, the unroll·COLS values of B
        and mt·unroll of A of one step (the compiler issues all of a step's loads first), plus
        addresses and indices."""
        values = self.mt * self.COLS + self.unroll * self.COLS + self.mt * self.unroll
        return values * dt.itemsize // 4 + 40

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        """The K groups' sums of one row (static shared memory), none with one group."""
        return self.threads * self.COLS * as_dtype(dtype).itemsize if self.kg > 1 else 0

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "COLS": self.COLS}

    def rules(self, limits, dt):
        yield from self._skinny_rules(limits, dt)
        yield (1 <= self.mt <= 16, f"mt ({self.mt}) must be between 1 and 16")
        yield (1 <= self.unroll <= 16, f"unroll ({self.unroll}) must be between 1 and 16")
        yield (1 <= self.kg <= 64 and self.threads % self.kg == 0 and self.lanes % 8 == 0,
               f"kg ({self.kg}) must be between 1 and 64 and leave threads/kg ({self.threads}/{self.kg}) a "
               "whole multiple of 8 column lanes (each warp load covers whole 128-byte lines)")

STRATEGY = Strategy.of(
    GemvXbConfig,
    "10_gemv_xb.cu.j2",
    "skinny x·B (small M): B streamed once per mt rows with 16-byte loads, unroll rows in flight; K split among kg thread groups of a block and across blocks at launch",
    [
        dict(mt=1),
        dict(mt=2),
        dict(mt=8, unroll=4),
        dict(threads=128, mt=1, unroll=16, min_blocks=4),
        # K groups: the output alone fills the GPU, no split of K (float32 only where marked: the
        # registers of float64 values do not fit the block)
        dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32),
        dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32),  # float32 only
        dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16),
        dict(threads=256, mt=8, unroll=8, min_blocks=1, kg=16),  # float32 only
    ],
)
