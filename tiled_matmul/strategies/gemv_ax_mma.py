"""Rung 22: skinny 16-bit A·x on the tensor cores: A streamed once into mma.sync fragments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import SkinnyConfig, cdiv
from ..dtypes import BFLOAT16, FLOAT16, DType
from ..strategy import Strategy


@dataclass(frozen=True)
class GemvAxMmaConfig(SkinnyConfig):
    """C[M, N] = A[M, K] · B[K, N] for float16/bfloat16 with few columns (A·x and up to 8 columns
    per chunk), where reading A is the cost, on the tensor cores (mma.sync m16n8k16, FP32 sums).

    A block of kg warps covers 16·rt rows of C and a chunk of 8 columns: every warp streams those
    rows of A over its share of the block's K range, `unroll` consecutive 32-deep chunks loaded
    together (and its next `unroll` in flight while the MMAs take them), each value of A going from
    its load straight into an MMA fragment; B's chunk rows reach the fragments through one
    coalesced load and an ldmatrix per chunk. The warps' sums are added in warp order and each
    output rounded once into C's type, as in mma_half. The grid is row blocks × column chunks
    (cdiv(N, 8)) × K slices, the slices chosen at launch (:meth:`SkinnyConfig.k_splits`; float32
    partials, summed in slice order by the reduce kernel).

    Where gemv_ax_half multiplies each value of A into its columns with FFMAs (8 per value at 8
    columns, plus the widening), one MMA here takes 16 x 16 values of A into all 8 columns. Rows of
    A 16-byte aligned load 8 values per lane; 4-byte aligned ones (K even) 2; else one.
    Plain row-major products with C of the inputs' type only (``EXTRAS`` empty).
    """

    STRATEGY: ClassVar[str] = "gemv_ax_mma"
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float16", "bfloat16")
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ()
    #: the float16/bfloat16 m16n8k16 MMA, ldmatrix and cvt.rn.bf16 need sm_80 or later
    MIN_CC: ClassVar[int] = 80
    #: columns of C per block (the MMA's n8)
    COLS: ClassVar[int] = 8
    rt: int = 2
    kg: int = 8
    unroll: int = 2
    min_blocks: int = 2

    @property
    def threads(self) -> int:
        return 32 * self.kg

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (16 * self.rt, self.COLS)

    @property
    def tile_k(self) -> int:
        """Elements of K one pass of the block's warps covers (slices are whole multiples of it)."""
        return 32 * self.kg * self.unroll

    def output_blocks(self, M: int, N: int) -> int:
        return cdiv(M, self.tile_mn[0]) * cdiv(N, self.COLS)

    def streamed(self, M: int, N: int, K: int) -> int:
        """A, once per chunk of 8 columns."""
        return cdiv(N, self.COLS) * M * K

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """A: once per column chunk; B: every row block reads its chunk's columns over K."""
        return self.streamed(M, N, K), cdiv(M, self.tile_mn[0]) * K * N

    def smem_bytes(self, dtype: Any = FLOAT16) -> int:
        """The warps' partial sums (kg·rt·4·32 floats) and each warp's 32 staged rows of B (16 bytes each)."""
        return self.kg * self.rt * 4 * 32 * 4 + self.kg * 32 * 16

    def registers(self, dt: DType) -> int:
        """About: two sets of the unroll chunks' A fragments (rt·8 registers a chunk) and B
        fragments (4 a chunk), rt·4 float sums, plus addresses and indices."""
        return 2 * self.unroll * (8 * self.rt + 4) + 4 * self.rt + 24

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "BF16": int(dt == BFLOAT16)}

    def rules(self, limits, dt):
        cc = int(limits.compute_capability)
        yield (cc >= self.MIN_CC, f"gemv_ax_mma needs an sm_80 or later GPU (float16/bfloat16 m16n8k16 MMAs); "
                                  f"{limits.name} is sm_{cc}")
        yield from self._skinny_rules(limits, dt)
        yield (1 <= self.rt <= 4, f"rt ({self.rt}) must be between 1 and 4 (m16 tiles of rows per warp)")
        yield (1 <= self.kg <= 32, f"kg ({self.kg}) must be between 1 and 32 (warps per block)")
        yield (1 <= self.unroll <= 4, f"unroll ({self.unroll}) must be between 1 and 4")
        yield self._fits_sm_rule(limits, dt, self.occupancy(dt))


STRATEGY = Strategy.of(
    GemvAxMmaConfig,
    "22_gemv_ax_mma.cu.j2",
    "skinny A·x for float16/bfloat16 on the tensor cores: A streamed once straight into mma.sync m16n8k16 "
    "fragments, 8 columns per chunk, FP32 sums rounded once; K split at launch",
    [
        # x cuBLAS on the H100 (scripts/variants_s15/probe_ax_cols.py, float16; bfloat16 alike):
        # 8192x8x8192 0.99-1.00, 8192x3x8192 1.24, 4096x4x4096 1.21, 8192x8x8190 (rows of A 4-byte
        # aligned) 1.16; `auto`'s pick where its blocks fill the SMs evenly and K > 2048
        dict(),
        # 16 rows, 3 blocks per SM: short K and uneven rounds of the default's blocks (`auto`'s
        # other pick): 100000x8x1000 1.10 (default 0.91), 9298x6x5590 1.03 (0.89), 12399x6x890 0.95
        dict(rt=1, min_blocks=3),
        # 4-warp blocks: 4096x3x4096 1.38, 8192x8x8192 0.98
        dict(kg=4, min_blocks=4),
        # 16 warps along K: 8192x3x8192 1.43, 8192x4x8192 1.09, 1000x7x1000 1.40; 0.75 at K = 1000
        dict(rt=1, kg=16, min_blocks=1),
    ],
)
