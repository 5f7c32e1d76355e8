"""Rung 9: float32 on Hopper's warpgroup tensor cores (wgmma, sm_90a), 3xTF32 split."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import ALL_LAYOUTS, TF32Modes, WarpGridConfig
from ..device import H100_LIMITS
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class WgmmaConfig(TF32Modes, WarpGridConfig):
    """float32 on Hopper's warpgroup tensor cores: ``wgmma.mma_async`` TF32 with the 3xTF32 split
    of tensor_core, sm_90a only.

    A bm x bn block tile of bn/64 warpgroups (128 threads each). Every warpgroup computes its 64
    columns of C for all bm rows as one wgmma of shape m64 x n{bm} x k8 per product term (C^T =
    B^T A^T, since TF32 wgmma needs its shared-memory operand k-contiguous, as A is and B is not).
    A `stages`-deep cp.async pipeline of 32-deep K steps (one 128-byte swizzled row of A per m),
    grouped block order (`group_m`) and ``__launch_bounds__(threads, min_blocks)``.
    """

    STRATEGY: ClassVar[str] = "wgmma"
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ALL_LAYOUTS

    DYNAMIC_SMEM: ClassVar[bool] = True
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32",)
    #: NVRTC target: wgmma exists only in the architecture-specific sm_90a instruction set
    NVRTC_ARCH: ClassVar["str | None"] = "sm_90a"
    bm: int = 128
    bn: int = 128
    stages: int = 3  # 4 costs ptxas 36 bytes of spills at bm = 128
    group_m: int = 8
    min_blocks: int = 1
    passes: int = 3  # TF32 MMAs per product: 3 (tf32x3) or 1 (tf32)

    #: K depth of a stage: 32 floats, one 128-byte swizzle row
    BK: ClassVar[int] = 32
    #: row padding (floats) of Bs[k][n]: see the template's Layout notes
    B_PAD: ClassVar[int] = 8
    #: the A tile's shared-memory layout: 128 (128-byte swizzle) or 0 (plain core matrices)
    SWIZZLE: ClassVar[int] = 128

    @property
    def bk(self) -> int:
        return self.BK

    @property
    def warpgroups(self) -> int:
        return max(self.bn // 64, 1)

    def block(self) -> tuple[int, int, int]:
        return (128 * self.warpgroups, 1, 1)

    def smem_bytes(self, dtype: Any = FLOAT32, a_col: bool = False, b_col: bool = False) -> int:
        """Shared memory of the plain kernel, or of the one reading A and/or B column-major."""
        isz = as_dtype(dtype).itemsize
        small = 2 if self.passes == 3 else 0
        a = self.bm * self.BK
        b = self.bn * (self.BK + 4) if b_col else self.BK * (self.bn + self.B_PAD)  # Bs[n][k] or Bs[k][n]
        if a_col:
            # two stages of A's big parts + two of its small parts (3 passes) + stages-1 copy
            # buffers of A as it lies and of B
            floats = (2 + small + self.stages - 1) * a + (self.stages - 1) * b
        else:
            # STAGES A stages + two stages of A's small parts (3 passes) + STAGES B stages
            floats = (self.stages + small) * a + self.stages * b
        return floats * isz + 1024  # + 1 KB to align to 1 KB

    def smem_bytes_for(self, dtype: Any = FLOAT32, ex: Any = None) -> int:
        return self.smem_bytes(dtype, bool(ex and ex.a_col), bool(ex and ex.b_col))

    def layouts(self) -> tuple[tuple[bool, bool], ...]:
        # a column-major operand's kernel stages differently (smem_bytes): a pair whose kernel
        # would not fit min_blocks blocks per SM (none in the search spaces) has its operands
        # copied instead. Hopper's limits: wgmma runs on nothing else.
        def fits(pair: tuple[bool, bool]) -> bool:
            smem = self.smem_bytes(FLOAT32, *pair)
            return (smem <= H100_LIMITS.smem_per_block_optin
                    and H100_LIMITS.blocks_by_smem(smem) >= self.min_blocks)

        return tuple(p for p in super().layouts() if fits(p))

    def template_constants(self, dt: DType) -> dict[str, int]:
        # SPLIT_K: slices of K per blockIdx.z, 1 here (the template renders the unsplit kernel)
        return {"BK": self.BK, "B_PAD": self.B_PAD, "SWIZZLE": self.SWIZZLE, "D_REGS": self.bm // 2,
                "SPLIT_K": self.splits}

    def rules(self, limits, dt):
        yield (
            self.runs_on(limits),
            f"wgmma runs only on sm_90 (Hopper) GPUs; {limits.name} is sm_{limits.compute_capability}",
        )
        yield self._passes_rule()
        yield (self.bn % 64 == 0 and self.bn <= 256, f"bn ({self.bn}) must be 64, 128, 192 or 256 (64 columns per warpgroup)")
        yield (
            self.bm % 8 == 0 and self.bm <= 128,
            f"bm ({self.bm}) must be a multiple of 8 up to 128 (the wgmma n size; "
            f"the accumulators and the per-step tile take bm registers per thread)",
        )
        rows = self.threads // self.BK
        yield (
            self.bm % rows == 0,
            f"bm ({self.bm}) must be a multiple of threads/32 = {rows} (rows per pass of the element-wise copies)",
        )
        yield self._stages_rule(3, 8, " (copies run stages-2 steps ahead)")
        yield self._min_blocks_rule()
        yield self._fits_sm_rule(limits, dt, self.min_blocks)


STRATEGY = Strategy.of(
    WgmmaConfig,
    "09_wgmma.cu.j2",
    "float32 on Hopper's warpgroup tensor cores (wgmma, sm_90a), 3xTF32 split, swizzled cp.async pipeline",
    [
        # 112- and 96-row tiles fill the last wave better on ragged sizes (3001: 27 x 24
        # tiles of 112 x 128 make 4.9 waves of 132 blocks; 128 x 128 makes 4.4)
        dict(bm=112, bn=128, stages=3),  # 4 stages cost ptxas spills with the range guard
        dict(bm=120, bn=128, stages=3),
        dict(bm=96, bn=128, stages=4),
        dict(bm=64, bn=128, stages=6),  # ~1 wave of 128 x 128 tiles or fewer (1024^3)
        dict(bm=64, bn=64, stages=4, min_blocks=2),  # N <= 64
        dict(bm=104, bn=64, stages=3, min_blocks=2),  # 112 rows spill with the range guard
    ],
)
