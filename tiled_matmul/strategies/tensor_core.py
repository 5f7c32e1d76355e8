"""Rung 8: float32 on tensor cores, mma.sync TF32 with the 3xTF32 split, cp.async pipeline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import ALL_LAYOUTS, TF32Modes, WarpGridConfig
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class TensorCoreConfig(TF32Modes, WarpGridConfig):
    """float32 on tensor cores: mma.sync m16n8k8 TF32 with each operand split into big + small
    TF32 parts and three MMAs per product (3xTF32), which keeps float32 accuracy.

    The MMAs of one bk-deep K step chain into a partial tile that FADD then adds to the float32
    accumulators (the tensor core rounds toward zero; chaining over all of K would let that bias
    grow with K). A block whose result holds an Inf or NaN recomputes its tile with plain FMAs,
    so Inf and NaN propagate as in FP32.

    A bm x bn block tile of (bm/wm)*(bn/wn) warps, each a wm x wn warp tile of 16x8 MMA tiles; a
    `stages`-deep cp.async pipeline of bk-deep stages, grouped block order (`group_m`), and
    ``__launch_bounds__(threads, min_blocks)``. float32 only: float64 has no TF32 split.
    """

    STRATEGY: ClassVar[str] = "tensor_core"
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ALL_LAYOUTS

    def _layout_tiles_split(self) -> bool:
        # column-major operands are copied by copy_transposed (kernels/_macros.j2): A as bm x bk
        # blocks of 8 m x 4 k per warp, B as bk x bn blocks of 4 k x 8 n
        # (row-major ones with a run-time leading dimension by copy_rows)
        return (self._transposed_split(self.bm, self.bk, 8) and self._transposed_split(self.bk, self.bn, 4)
                and self._rows_split(self.bm, self.bk, 4) and self._rows_split(self.bk, self.bn, 4))
    DYNAMIC_SMEM: ClassVar[bool] = True
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32",)
    bm: int = 128
    bn: int = 128
    bk: int = 16  # 32 deep costs ptxas ~20 bytes of spills with the range guard
    wm: int = 64
    wn: int = 32
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 1
    passes: int = 3  # TF32 MMAs per product: 3 (tf32x3) or 1 (tf32)

    #: row padding (floats) of As[m][k] and Bs[k][n]: see the template's Layout notes
    A_PAD: ClassVar[int] = 4
    B_PAD: ClassVar[int] = 8

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        isz = as_dtype(dtype).itemsize
        return self.stages * (self.bm * (self.bk + self.A_PAD) + self.bk * (self.bn + self.B_PAD)) * isz

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {"A_PAD": self.A_PAD, "B_PAD": self.B_PAD}

    def rules(self, limits, dt):
        yield from self._warp_grid_rules()
        yield self._passes_rule()
        yield (self.wm % 16 == 0, f"wm ({self.wm}) must be a multiple of 16 (the MMA tile's rows)")
        yield (self.wn % 8 == 0, f"wn ({self.wn}) must be a multiple of 8 (the MMA tile's columns)")
        yield (self.bk % 8 == 0, f"bk ({self.bk}) must be a multiple of 8 (the MMA tile's depth)")
        acc = self.wm * self.wn // 32
        yield (acc <= 128, f"a warp tile of wm*wn = {self.wm * self.wn} gives {acc} accumulators per thread; at most 128 fit in registers")
        yield from self._pipeline_rules(limits, dt)


STRATEGY = Strategy.of(
    TensorCoreConfig,
    "08_tensor_core.cu.j2",
    "float32 on tensor cores: mma.sync TF32 with big+small operand splits (3xTF32, float32 accuracy), cp.async pipeline",
    [
        dict(bm=128, bn=128, bk=32, wm=32, wn=64, stages=4),
        dict(bm=128, bn=128, bk=16, wm=32, wn=64, stages=4),
        dict(bm=128, bn=64, bk=32, wm=32, wn=32, stages=4),
        dict(bm=64, bn=128, bk=32, wm=32, wn=32, stages=4),
        dict(bm=64, bn=64, bk=32, wm=32, wn=32, stages=4, min_blocks=2),
        dict(bm=64, bn=64, bk=16, wm=32, wn=32, stages=5, min_blocks=2),
    ],
)
