"""Rung 11: skinny A·x (small N): A streamed once per chunk of nt columns of B, K split at launch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import SkinnyConfig, cdiv
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class GemvAxConfig(SkinnyConfig):
    """C[M, N] = A[M, K] · B[K, N] for small N (matrix times a vector or a few), where reading A
    is the cost.

    A block of `threads` threads covers threads/32·rows rows of C and `nt` columns: each warp
    streams `rows` rows of A along K with 16-byte loads (unroll·4 elements per lane and row per
    step, all in flight together) and keeps rows·nt partial sums per lane, reduced by shuffles at
    the end. Each step's slice of B is staged transposed in shared memory (double-buffered). The
    grid is row blocks × column chunks (cdiv(N, nt)) × K slices, the slices chosen at launch
    (:meth:`SkinnyConfig.k_splits`).
    """

    STRATEGY: ClassVar[str] = "gemv_ax"
    #: a column-major A is not streamed along K (copied first)
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ((False, False), (False, True))
    DYNAMIC_SMEM: ClassVar[bool] = True
    threads: int = 256
    nt: int = 4
    rows: int = 2
    unroll: int = 2
    min_blocks: int = 2

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.threads // 32 * self.rows, self.nt)

    @property
    def tile_k(self) -> int:
        """Elements of K per step: unroll groups of 4 per lane (slices are whole multiples of it)."""
        return 128 * self.unroll

    def output_blocks(self, M: int, N: int) -> int:
        return cdiv(M, self.tile_mn[0]) * cdiv(N, self.nt)

    def streamed(self, M: int, N: int, K: int) -> int:
        """A, once per chunk of nt columns."""
        return cdiv(N, self.nt) * M * K

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """A: once per column chunk; B: every row block stages its columns over its K range."""
        return self.streamed(M, N, K), cdiv(M, self.tile_mn[0]) * K * N

    def pad(self, dt: DType) -> int:
        """Row padding (elements) of the transposed B tile: a whole number of 16-byte vectors (rows
        stay aligned for the vector reads), and enough that the 32 transposing stores of a warp
        (32/nt rows of B, nt columns) fall in distinct banks where nt divides 32."""
        words = dt.itemsize // 4
        spread = max(1, 32 // (self.nt * words))
        return cdiv(spread, dt.vec) * dt.vec

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        dt = as_dtype(dtype)
        return 2 * self.nt * (self.tile_k + self.pad(dt)) * dt.itemsize

    def registers(self, dt: DType) -> int:
        """Registers a thread needs, about: rows·nt accumulators, and the rows·unroll·4 values of
        A and nt·unroll·4 of B of one step (the compiler issues all of a step's loads first), plus
        addresses and indices."""
        values = self.rows * self.nt + 4 * self.unroll * (self.rows + self.nt)
        return values * dt.itemsize // 4 + 40

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "PAD": self.pad(dt)}

    def rules(self, limits, dt):
        yield from self._skinny_rules(limits, dt)
        yield (1 <= self.nt <= 32, f"nt ({self.nt}) must be between 1 and 32 (one lane stores each column)")
        yield (1 <= self.rows <= 16, f"rows ({self.rows}) must be between 1 and 16")
        yield (1 <= self.unroll <= 16, f"unroll ({self.unroll}) must be between 1 and 16")
        yield self._fits_sm_rule(limits, dt, self.occupancy(dt))


STRATEGY = Strategy.of(
    GemvAxConfig,
    "11_gemv_ax.cu.j2",
    "skinny A·x (small N): A streamed once per nt columns, a warp per rows of A with 16-byte loads along K; K split at launch",
    [
        dict(nt=1, rows=4, unroll=4),
        dict(nt=1),
        dict(nt=2),
        dict(nt=8, rows=4, unroll=1),
        dict(nt=4, rows=4, unroll=1),
        dict(nt=16, rows=1, unroll=1, min_blocks=1),
    ],
)
