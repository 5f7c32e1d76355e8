"""Rung 21: gemv_ax for float16 and bfloat16: A streamed once, values widened to float, sums in float."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..dtypes import BFLOAT16, FLOAT16, FLOAT32, DType
from ..strategy import Strategy
from .gemv_ax import GemvAxConfig


@dataclass(frozen=True)
class GemvAxHalfConfig(GemvAxConfig):
    """gemv_ax (C[M, N] = A[M, K] · B[K, N] for small N, reading A once) on 16-bit operands: a
    lane's 16-byte loads of A hold 8 values, widened (exactly) where they are used; B's step is
    staged in shared memory as floats; the products and sums run in float and each output is
    rounded once into C's type, so the error is that of one FP32 sum of exact products, as in
    mma_half and cuBLAS's half GEMMs. A split of K (chosen at launch, as gemv_ax's) writes float32
    partials, summed in a fixed order and rounded by the reduce kernel.

    A step is 256·unroll elements of K (gemv_ax's 128·unroll in float32): the same bytes per load.
    Plain row-major products with C of the inputs' type only (``EXTRAS`` empty): `auto` gives a
    call with a batch, an epilogue, other layouts or a float32 C to the tensor-core rungs.
    """

    STRATEGY: ClassVar[str] = "gemv_ax_half"
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float16", "bfloat16")
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ()

    @property
    def tile_k(self) -> int:
        """Elements of K per step: unroll 16-byte vectors of 8 values per lane."""
        return 256 * self.unroll

    def pad(self, dt: DType) -> int:
        """float32's padding: B is staged as floats."""
        return super().pad(FLOAT32)

    def smem_bytes(self, dtype: Any = FLOAT16) -> int:
        return 2 * self.nt * (self.tile_k + self.pad(FLOAT32)) * 4

    def registers(self, dt: DType) -> int:
        """About: rows·nt float sums, a step's rows·unroll 16-byte vectors of A (4 registers each),
        one vector's 8 values widened per row and 8 of B, plus addresses and indices."""
        return self.rows * self.nt + 4 * self.rows * self.unroll + 8 * (self.rows + 1) + 40

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "HALF": 1, "BF16": int(dt == BFLOAT16)}


STRATEGY = Strategy.of(
    GemvAxHalfConfig,
    "21_gemv_ax_half.cu.j2",
    "gemv_ax for float16/bfloat16: A streamed once with 16-byte loads along K, B staged as floats, float sums "
    "rounded once",
    [
        # gemv_ax's configs at the same bytes per load, each with no spill in either dtype (ptxas,
        # sm_90); gemv_ax's nt=8 rows=4 tile takes one block per SM here (at 2 it spilled 16 bytes)
        dict(nt=1, rows=4, unroll=2),
        dict(nt=1, rows=4, unroll=1),
        dict(nt=2),
        dict(nt=4, rows=4, unroll=1),
        dict(nt=8, rows=2, unroll=1),
        dict(nt=8, rows=4, unroll=1, min_blocks=1),
    ],
)
