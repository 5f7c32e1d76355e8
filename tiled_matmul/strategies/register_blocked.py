"""Rung 5: a register-blocked block tile, double-buffered shared memory, 128-bit loads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import ALL_LAYOUTS, Config
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class RegisterBlockedConfig(Config):
    """A bm × bn block tile staged through shared memory bk at a time, double-buffered.

    Each of the (bm/tm)·(bn/tn) threads accumulates tm × tn outputs in registers as outer
    products of a column of A (stored transposed in shared memory) and a row of B.
    """

    STRATEGY: ClassVar[str] = "register_blocked"
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ALL_LAYOUTS
    DYNAMIC_SMEM: ClassVar[bool] = True
    #: a second kernel for launches whose C rows are not 16-byte aligned (bit 1 of flags clear),
    #: the one that stores C through shared memory (05_register_blocked.cu.j2): the main kernel
    #: keeps its registers (80 at 128 x 64, tm 8, tn 4: three blocks per SM), also where only A's
    #: rows are unaligned (K % 4 != 0: 8192 x 8192 x 1)
    ELEM_KERNEL: ClassVar[bool] = True
    ELEM_FLAGS: ClassVar[int] = 2
    #: 16-byte vectors hold 4 floats or 2 doubles; tm, tn and bk are multiples of 4 so both fit.
    VEC_MULTIPLE: ClassVar[int] = 4
    bm: int = 128
    bn: int = 128
    bk: int = 8
    tm: int = 8
    tn: int = 8

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.bm, self.bn)

    def block(self) -> tuple[int, int, int]:
        return ((self.bn // self.tn) * (self.bm // self.tm), 1, 1)

    @staticmethod
    def pad(dt: DType) -> int:
        """Row padding (elements) of the shared tiles: one 16-byte vector, which keeps rows
        16-byte aligned and moves the transposed stores of A onto distinct banks."""
        return dt.vec

    @property
    def tile_k(self) -> int:
        return self.bk

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {"PAD": self.pad(dt), "VEC": dt.vec}

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        dt = as_dtype(dtype)
        p = self.pad(dt)
        return 2 * self.bk * ((self.bm + p) + (self.bn + p)) * dt.itemsize

    def rules(self, limits, dt):
        v = self.VEC_MULTIPLE
        yield (self.bm % self.tm == 0, f"bm ({self.bm}) must be a multiple of tm ({self.tm})")
        yield (self.bn % self.tn == 0, f"bn ({self.bn}) must be a multiple of tn ({self.tn})")
        for name in ("tm", "tn", "bk"):
            val = getattr(self, name)
            yield (val % v == 0, f"{name} ({val}) must be a multiple of {v} (16-byte vectors)")
        yield (self.tm * self.tn <= 128, f"tm*tn = {self.tm * self.tn} accumulators must be <= 128 (registers)")
        threads = (self.bm // max(self.tm, 1)) * (self.bn // max(self.tn, 1))
        for tile, rows in (("A", self.bm), ("B", self.bn)):
            n_vec = rows * self.bk // dt.vec
            yield self._splits_rule(f"{tile} tile ({rows}x{self.bk} = {n_vec} vectors of {dt.vec})", n_vec, threads)


STRATEGY = Strategy.of(
    RegisterBlockedConfig,
    "05_register_blocked.cu.j2",
    "bm×bn block tile, double-buffered shared memory, tm×tn register outer products, 128-bit loads",
    [
        dict(bm=128, bn=128, bk=8, tm=8, tn=8),
        dict(bm=128, bn=128, bk=16, tm=8, tn=8),
        dict(bm=128, bn=64, bk=16, tm=8, tn=4),
        dict(bm=64, bn=64, bk=16, tm=4, tn=4),
        dict(bm=64, bn=128, bk=16, tm=4, tn=8),
    ],
)
