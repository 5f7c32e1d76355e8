"""Rung 20: gemv_xb for float16 and bfloat16: B streamed once, values widened to float, sums in float."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..dtypes import BFLOAT16, FLOAT16, DType
from ..strategy import Strategy
from .gemv_xb import GemvXbConfig


@dataclass(frozen=True)
class GemvXbHalfConfig(GemvXbConfig):
    """gemv_xb (C[M, N] = A[M, K] · B[K, N] for small M, reading B once) on 16-bit operands: each
    value of A and B is widened to float as it is loaded (exactly), the products and sums run in
    float, and each output is rounded once into C's type, so the error is that of one FP32 sum of
    exact products, as in mma_half and cuBLAS's half GEMMs. A split of K (chosen at launch, as
    gemv_xb's) writes float32 partials, summed in a fixed order and rounded by the reduce kernel.

    A thread's columns are one 16-byte vector of 8 values (COLS = 8), so a block covers twice the
    columns of the same config in float32 and streams the same bytes per load. Plain row-major
    products with C of the inputs' type only (``EXTRAS`` empty): `auto` gives a call with a
    batch, an epilogue, other layouts or a float32 C to the tensor-core rungs.
    """

    STRATEGY: ClassVar[str] = "gemv_xb_half"
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float16", "bfloat16")
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ()
    COLS: ClassVar[int] = 8
    mt: int = 4
    unroll: int = 4  # gemv_xb's 8 rows of 8 values spilled (ptxas, 2 blocks of 256 threads per SM)

    def registers(self, dt: DType) -> int:
        """About: the mt·COLS float sums, a step's unroll 16-byte vectors of B (4 registers each) and
        the mt values of A widened per row, plus addresses and indices."""
        return self.mt * self.COLS + 4 * self.unroll + self.mt + 40

    def smem_bytes(self, dtype: Any = FLOAT16) -> int:
        """The K groups' float sums of one row, none with one group."""
        return self.threads * self.COLS * 4 if self.kg > 1 else 0

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "HALF": 1, "BF16": int(dt == BFLOAT16)}


STRATEGY = Strategy.of(
    GemvXbHalfConfig,
    "20_gemv_xb_half.cu.j2",
    "gemv_xb for float16/bfloat16: B streamed once with 16-byte loads, values widened to float, float sums "
    "rounded once",
    [
        # gemv_xb's configs, each with no spill in either dtype (ptxas, sm_90): 8 values per
        # thread and row take its 4-row steps at 2 blocks per SM, or its 8-row steps in 128-thread
        # blocks at 4 per SM or with K groups at 1
        dict(mt=1, unroll=8),
        dict(mt=2, unroll=8),
        dict(mt=8),
        dict(threads=128, mt=1, unroll=8, min_blocks=4),
        dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32),
        dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32),
        dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16),
        dict(threads=256, mt=8, unroll=8, min_blocks=1, kg=16),
    ],
)
