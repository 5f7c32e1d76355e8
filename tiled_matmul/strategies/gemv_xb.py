"""Rung 10: skinny x·B (small M): B streamed once per chunk of mt rows of A, K split at launch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..configs import SkinnyConfig, cdiv
from ..dtypes import DType
from ..strategy import Strategy


@dataclass(frozen=True)
class GemvXbConfig(SkinnyConfig):
    """C[M, N] = A[M, K] · B[K, N] for small M (decode-like x·W), where reading B is the cost.

    A block of `threads` threads covers threads·COLS columns of C and `mt` rows of A: each thread
    keeps mt·COLS accumulators and issues `unroll`·COLS/VEC independent 16-byte loads of B (unroll
    rows) per step, reading A's values through L1 as broadcasts. The grid is column blocks × row
    chunks (cdiv(M, mt)) × K slices, the slices chosen at launch (:meth:`SkinnyConfig.k_splits`).
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

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.mt, self.threads * self.COLS)

    @property
    def tile_k(self) -> int:
        """Rows of B one step loads together (slices are whole multiples of it)."""
        return self.unroll

    def output_blocks(self, M: int, N: int) -> int:
        return cdiv(M, self.mt) * cdiv(N, self.threads * self.COLS)

    def streamed(self, M: int, N: int, K: int) -> int:
        """B, once per chunk of mt rows."""
        return cdiv(M, self.mt) * K * N

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """A: every column block reads its rows' K range (L1 broadcasts); B: once per row chunk."""
        return cdiv(N, self.threads * self.COLS) * M * K, self.streamed(M, N, K)

    def registers(self, dt: DType) -> int:
        """Registers a thread needs, about: the mt·COLS accumulators, the unroll·COLS values of B
        and mt·unroll of A of one step (the compiler issues all of a step's loads first), plus
        addresses and indices."""
        values = self.mt * self.COLS + self.unroll * self.COLS + self.mt * self.unroll
        return values * dt.itemsize // 4 + 40

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "COLS": self.COLS}

    def rules(self, limits, dt):
        yield from self._skinny_rules(limits, dt)
        yield (1 <= self.mt <= 16, f"mt ({self.mt}) must be between 1 and 16")
        yield (1 <= self.unroll <= 16, f"unroll ({self.unroll}) must be between 1 and 16")

STRATEGY = Strategy.of(
    GemvXbConfig,
    "10_gemv_xb.cu.j2",
    "skinny x·B (small M): B streamed once per mt rows with 16-byte loads, unroll rows in flight; K split at launch",
    [
        dict(mt=1),
        dict(mt=2),
        dict(mt=8, unroll=4),
        dict(mt=1, unroll=4, min_blocks=4),
        dict(threads=128, mt=1, unroll=16, min_blocks=4),
        dict(threads=512, mt=1, unroll=8, min_blocks=1),
    ],
)
