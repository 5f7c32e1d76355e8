"""Rung 14: float16 and bfloat16 on tensor cores, mma.sync m16n8k16 with FP32 accumulation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import WarpGridConfig
from ..dtypes import BFLOAT16, FLOAT16, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class MmaHalfConfig(WarpGridConfig):
    """float16 and bfloat16 on tensor cores: ``mma.sync.aligned.m16n8k16.row.col.f32`` with
    16-bit operands (exact products) and FP32 accumulators, the result rounded once into C's
    type (the input dtype, or float32 for ``out_dtype=float32``).

    A bm x bn block tile of (bm/wm)*(bn/wn) warps, each a wm x wn warp tile of 16 x 8 MMA tiles
    fed by ``ldmatrix`` (``.trans`` for B, which is k-major); a `stages`-deep cp.async pipeline of
    bk-deep stages, grouped block order (`group_m`) and ``__launch_bounds__(threads,
    min_blocks)``. Any M, N, K: edges are zero-filled, rows that are not 16-byte aligned are read
    element by element. The products and sums Inf and NaN take need no special path.

    The teaching rung of half precision: Hopper's faster path is warpgroup wgmma fed by TMA.
    """

    STRATEGY: ClassVar[str] = "mma_half"
    DYNAMIC_SMEM: ClassVar[bool] = True
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float16", "bfloat16")
    #: NVRTC target: the bfloat16 m16n8k16 MMA and cvt.rn.bf16 need sm_80 or later; the kernel is
    #: compiled for the device's own architecture
    MIN_CC: ClassVar[int] = 80
    bm: int = 128
    bn: int = 128
    bk: int = 32
    wm: int = 64
    wn: int = 32
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 2  # 2 x 8 warps per SM: ptxas fits the 128 x 128 tile in 128 registers

    #: row padding (elements) of As[m][k] and Bs[k][n]: 16 bytes, see the template's Layout notes
    A_PAD: ClassVar[int] = 8
    B_PAD: ClassVar[int] = 8

    def smem_bytes(self, dtype: Any = FLOAT16) -> int:
        isz = as_dtype(dtype).itemsize
        return self.stages * (self.bm * (self.bk + self.A_PAD) + self.bk * (self.bn + self.B_PAD)) * isz

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {"A_PAD": self.A_PAD, "B_PAD": self.B_PAD, "BF16": int(dt == BFLOAT16)}

    def rules(self, limits, dt):
        cc = int(limits.compute_capability)
        yield (cc >= self.MIN_CC, f"mma_half needs an sm_80 or later GPU (bfloat16/float16 m16n8k16 MMAs); "
                                  f"{limits.name} is sm_{cc}")
        yield from self._warp_grid_rules()
        yield (self.wm % 16 == 0, f"wm ({self.wm}) must be a multiple of 16 (the MMA tile's rows)")
        yield (self.wn % 16 == 0, f"wn ({self.wn}) must be a multiple of 16 (ldmatrix reads B two n8 tiles at a time)")
        yield (self.bk % 16 == 0, f"bk ({self.bk}) must be a multiple of 16 (the MMA tile's depth)")
        acc = self.wm * self.wn // 32
        yield (acc <= 128, f"a warp tile of wm*wn = {self.wm * self.wn} gives {acc} accumulators per thread; "
                           "at most 128 fit in registers")
        yield from self._pipeline_rules(limits, dt)


STRATEGY = Strategy.of(
    MmaHalfConfig,
    "14_mma_half.cu.j2",
    "float16/bfloat16 on tensor cores: mma.sync m16n8k16 with FP32 accumulation, ldmatrix(.trans) fragments, "
    "cp.async pipeline",
    [
        dict(min_blocks=1),
        dict(bk=64, stages=3, min_blocks=1),
        dict(wm=32, wn=64),
        dict(bm=128, bn=256, wm=64, wn=64, stages=3, min_blocks=1),
        dict(bm=256, bn=128, wm=64, wn=64, stages=3, min_blocks=1),
        dict(bm=128, bn=64, wm=64, wn=32),
        dict(bm=64, bn=128, wm=32, wn=64),
        dict(bm=64, bn=64, wm=32, wn=32, min_blocks=3),
        # 32 x 32 in four 16 x 16 warps, 4 blocks per SM: small outputs with a short K (`auto`'s pick
        # where C's rows need padding and K < 256: 1265x51x137 0.80x cuBLAS against the 64 x 64 tile's
        # 0.53, 12399x18x89 1.03 against 0.82; scripts/variants_s15/probe_half_rules.py, H100)
        dict(bm=32, bn=32, wm=16, wn=16, min_blocks=4),
    ],
)
