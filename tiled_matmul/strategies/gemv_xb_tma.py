"""Rung 24: skinny x·B (small M) with B streamed through a TMA ring: one producer thread, the bytes
in flight bound by shared memory instead of registers."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import tma
from ..configs import SkinnyConfig, cdiv
from ..device import DeviceLimits, device_limits
from ..dtypes import FLOAT32, DType, as_dtype
from ..strategy import Strategy
from .wgmma_tma import PackedLauncher, addressable, addressable_copy_bytes, kept_launcher, zero_rows


@dataclass(frozen=True)
class GemvXbTmaConfig(SkinnyConfig):
    """C[M, N] = A[M, K] · B[K, N] for small M, where reading B is the cost (sm_90a).

    A block of `warps` consumer warps and one producer warp covers `bn` columns of C and `mt`
    rows of A. The producer moves B in boxes of `rk` rows x `bn` columns, and A's matching `mt` x
    `rk` box, by TMA into a ring of `stages` stages; the consumers read each stage from shared
    memory (one 16-byte vector of a row per thread per row, mt·VEC accumulators) and release it.
    The ring, not the registers, holds the bytes in flight: gemv_xb's threads hold theirs in
    registers, and at mt = 8 few fit (8 x 8192 x 8192 float32 at 87% of a device copy's bandwidth
    there, 89.9% here; scripts/variants_s20/probe_bulk_gemv.py, H100).

    The grid is column blocks × row chunks (cdiv(M, mt)) × K slices, the slices chosen at launch
    (:meth:`SkinnyConfig.k_splits`); a split writes a [S, M, N] workspace that the reduce kernel
    sums in slice order. Operands whose base or row pitch is not a multiple of 16 bytes (TMA's
    rule; a single row of A may have any pitch) are copied into padded rows first, except a B
    whose rows are contiguous on an aligned base: that one is read as rows of `fold` of its rows
    (:meth:`fold`), so the product still reads B once.
    """

    STRATEGY: ClassVar[str] = "gemv_xb_tma"
    DYNAMIC_SMEM: ClassVar[bool] = True
    NVRTC_ARCH: ClassVar["str | None"] = "sm_90a"
    #: its own launch signature (two tensor maps): plain 2-D products only
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    #: float32: the template is written for any 16-byte vector of T, but float64 (whose GEMV rows
    #: already stream at 93% of a copy on gemv_xb) has not been measured on it, and its stages
    #: take twice the shared memory
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32",)
    warps: int = 8
    bn: int = 64
    rk: int = 64
    stages: int = 4
    mt: int = 8
    min_blocks: int = 1

    @property
    def threads(self) -> int:
        return (self.warps + 1) * 32

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.mt, self.bn)

    @property
    def tile_k(self) -> int:
        """Rows of B in one stage (K slices are whole multiples of it)."""
        return self.rk

    def output_blocks(self, M: int, N: int) -> int:
        return cdiv(M, self.mt) * cdiv(N, self.bn)

    def streamed(self, M: int, N: int, K: int) -> int:
        """B, once per chunk of mt rows."""
        return cdiv(M, self.mt) * K * N

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """A: every column block's rows (the parts of a box past M are zero-filled, not read); B:
        once per row chunk."""
        return cdiv(N, self.bn) * M * K, self.streamed(M, N, K)

    def vec(self, dt: DType) -> int:
        return 16 // dt.itemsize

    def k_lanes(self, dt: DType) -> int:
        """Consumer threads along K (each owns one 16-byte vector of the block's columns)."""
        return self.warps * 32 // max(1, self.bn // self.vec(dt))

    def registers(self, dt: DType) -> int:
        """About: the mt·VEC accumulators, one vector of B and the addresses."""
        return (self.mt * self.vec(dt) + self.vec(dt)) * dt.itemsize // 4 + 40

    def stage_elements(self, dt: DType = FLOAT32, folded: bool = True) -> int:
        """B's box (rk rows of bn elements; for a folded B, bn + VEC: its boxes start up to a
        vector early, the template's "Folded B"), then A's (mt x rk)."""
        return self.rk * (self.bn + (self.vec(dt) if folded else 0)) + self.mt * self.rk

    def smem_bytes(self, dtype: Any = FLOAT32, folded: bool = True) -> int:
        """The ring (which later holds the K lanes' sums) and its two mbarriers per stage: the
        folded kernel's, the larger (`folded` False: the plain kernel's, which its launch asks
        for)."""
        dt = as_dtype(dtype)
        return self.stages * self.stage_elements(dt, folded) * dt.itemsize + 16 * self.stages

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "VEC": self.vec(dt)}

    def rules(self, limits: DeviceLimits, dt: DType):
        yield self._min_blocks_rule(hi=4)
        yield (1 <= self.warps <= 16, f"warps ({self.warps}) must be between 1 and 16")
        yield (self.mt in (1, 2, 4, 8, 16), f"mt ({self.mt}) must be 1, 2, 4, 8 or 16")
        vec = self.vec(dt)
        yield (self.bn % vec == 0 and 8 <= self.bn <= 256 and self.bn * dt.itemsize % 16 == 0,
               f"bn ({self.bn}) must be 8 .. 256 columns and a whole number of 16-byte vectors ({vec} elements)")
        lanes = self.bn // vec if self.bn % vec == 0 else 0
        yield (lanes > 0 and self.warps * 32 % lanes == 0,
               f"the consumers' {self.warps * 32} threads must split evenly over bn/VEC = {lanes} vector lanes")
        kl = self.k_lanes(dt) if lanes else 0
        yield (kl > 0 and 4 <= self.rk <= 256 and self.rk % kl == 0 and self.rk * dt.itemsize % 16 == 0,
               f"rk ({self.rk}) must be 4 .. 256 rows, a multiple of the {kl} K lanes, and 16-byte rows of A's box")
        yield (1 <= self.stages <= 16, f"stages ({self.stages}) must be between 1 and 16")
        yield (self.rk * (self.bn + vec) * dt.itemsize % 128 == 0 and self.stage_elements(dt) * dt.itemsize % 128 == 0,
               f"rk ({self.rk}) x (bn + {vec}) and a stage of {self.stage_elements(dt)} elements must be whole "
               "128-byte multiples (where TMA copies land)")
        yield (kl * self.mt * self.bn <= self.stages * self.stage_elements(dt, folded=False),
               f"the K lanes' sums ({kl} x {self.mt} x {self.bn}) must fit the ring of {self.stages} stages")
        yield self._fits_sm_rule(limits, dt, self.min_blocks)
        yield self._registers_rule(limits, dt)

    def padding_bytes(self, M: int, N: int, K: int, dtype: Any = None) -> int:
        """A, where TMA cannot address it (rows not 16-byte multiples, a single row excepted), and
        B, where it can neither address it nor read it folded (:meth:`fold`, at an aligned
        address), are copied into padded rows first: each read once and written padded."""
        dt = as_dtype(dtype if dtype is not None else FLOAT32)
        b_bytes = addressable_copy_bytes(K, N, dt.itemsize) if self.fold(dt, K, N, 0, N) == 0 else 0
        return addressable_copy_bytes(M, K, dt.itemsize) + b_bytes

    # -- the launch ------------------------------------------------------------------------------
    def fold(self, dt: DType, K: int, N: int, b_ptr: int, ldb: int) -> int:
        """Rows of B that one row of its tensor map holds: 1 where TMA can read B as it is; else,
        for B's rows contiguous (ldb = N) on a 16-byte-aligned base, the fewest rows whose
        elements make a multiple of 16 bytes (2 or 4 for float32), if that many divide the K
        lanes, leave boxes of whole 128-byte multiples (shared-memory destinations), hold a box
        row (N >= bn) and K has that many rows; else 0: B is copied into padded rows."""
        if tma.matrix_problem("b", b_ptr, K, N, ldb, dt.itemsize) is None:
            return 1
        row = N * dt.itemsize
        fold = tma.ALIGN // math.gcd(row, tma.ALIGN)
        ok = (ldb == N and b_ptr % tma.ALIGN == 0 and self.k_lanes(dt) % fold == 0 and self.rk % fold == 0
              and self.rk // fold * (self.bn + self.vec(dt)) * dt.itemsize % 128 == 0 and N >= self.bn
              and K >= fold)
        return fold if ok else 0

    def tensor_maps(self, dt: DType, M: int, K: int, N: int, a_ptr: int, lda: int, b_ptr: int,
                    ldb: int, fold: int = 1) -> tuple[bytes, bytes]:
        """The encoded maps of A (boxes of mt rows x rk columns) and B (rk rows x bn columns), no
        swizzle (a consumer reads a row of a box as 16-byte vectors: no bank conflict). With
        `fold` > 1, B's map is K // fold rows of fold·N elements in boxes of rk // fold of them and
        bn + VEC columns, and A's stops at K - K % fold columns (the template's "Folded B")."""
        code = tma.DATA_TYPE[dt.name]
        ka = K - K % fold
        amap = tma.MAPS.get(a_ptr, M, ka, lda, dt.itemsize, code, self.mt, self.rk, "a", swizzle=0)
        if fold == 1:
            bmap = tma.MAPS.get(b_ptr, K, N, ldb, dt.itemsize, code, self.rk, self.bn, "b", swizzle=0)
        else:
            bmap = tma.MAPS.get(b_ptr, K // fold, fold * N, fold * ldb, dt.itemsize, code, self.rk // fold,
                                self.bn + self.vec(dt), "b", swizzle=0)
        return amap, bmap

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int,
               stream: Any) -> None:
        """One launch into C, or the slices into a fresh workspace and the fixed-order reduce, on
        `stream`. A or B that TMA cannot address is first copied into padded rows (see the
        class docstring)."""
        if M == 0 or N == 0:
            return
        if K == 0:
            zero_rows(C.data.ptr, M, N, N, C.itemsize, stream.ptr)
            return
        dt = kernel.dtype
        splits = self.k_splits(M, N, K, device_limits(kernel.device).sm_count, dt)  # (no batches: EXTRAS)
        grid = (self.output_blocks(M, N), 1, splits)
        fold = self.fold(dt, K, N, B.data.ptr, N)
        launcher = self._launcher(kernel, fold > 1)
        key = (A.data.ptr, B.data.ptr, M, N, K, splits)
        if splits == 1:
            key += (C.data.ptr,)
        plan = launcher.plans.get(key)
        if plan is not None and splits == 1:
            launcher.launch_packed(plan, stream.ptr)
            return
        a, lda = addressable(A, M, K, stream)
        b, ldb = (B, N) if fold else addressable(B, K, N, stream)
        fold = fold or 1
        padded = a is not A or b is not B
        amap, bmap = self.tensor_maps(dt, M, K, N, a.data.ptr, lda, b.data.ptr, ldb, fold)
        extra = (fold, a.data.ptr, lda, b.data.ptr) if fold > 1 else ()
        if splits == 1:
            packed = launcher.pack(grid, amap, bmap, C.data.ptr, M, N, K, *extra)
            if not padded:  # a padded copy's address is this call's alone
                launcher.remember(key, packed)
            launcher.launch_packed(packed, stream.ptr)
            return
        # the reduce's flags, bit 1: C's and the workspace's rows are 16-byte vectors (N a multiple
        # of VEC, C aligned)
        vec_ok = N % self.vec(dt) == 0 and C.data.ptr % 16 == 0
        self.launch_split(kernel, splits, lambda out: launcher.launch_packed(
            launcher.pack(grid, amap, bmap, out, M, N, K, *extra), stream.ptr), C, M, N, 2 if vec_ok else 0, stream)

    def _launcher(self, kernel: Any, folded: bool) -> "XbTmaLauncher":
        """The packed launcher of the plain kernel, or of its "_folded" companion (built on first
        use, kept with the compiled kernel), each asking for its own ring."""
        if not folded:
            return kept_launcher(kernel, "__xb_tma__", lambda: XbTmaLauncher(
                kernel.raw, self.block(), self.smem_bytes(kernel.dtype, folded=False)))

        def make() -> XbTmaLauncher:
            import cupy

            from ..compile import allow_dynamic_smem  # (compile imports the registry, which imports this)

            fn = kernel.companion(kernel.name + "_folded")
            with cupy.cuda.Device(kernel.device):
                allow_dynamic_smem(fn, self, kernel.smem_bytes)
            return FoldedXbTmaLauncher(fn, self.block(), kernel.smem_bytes)

        return kept_launcher(kernel, "__xb_tma_folded__", make)


class XbTmaLauncher(PackedLauncher):
    """The gemv_xb_tma kernel's arguments (xmap, bmap, C, M, N, K): two 128-byte tensor maps by
    value, then C's address and three ints."""

    OFFSETS = (0, 128, 256, 264, 268, 272)
    SIZE = 320

    def pack(self, grid: tuple[int, int, int], amap: bytes, bmap: bytes, c_ptr: int, M: int, N: int,
             K: int) -> tuple:
        """(grid, argument address array's address, buffers kept alive)."""
        raw, base, params, params_ptr = self.new_buffer()
        ctypes.memmove(base, amap, 128)
        ctypes.memmove(base + 128, bmap, 128)
        ctypes.c_uint64.from_address(base + self.OFFSETS[2]).value = c_ptr
        words = (ctypes.c_int32 * 3).from_address(base + self.OFFSETS[3])
        words[0], words[1], words[2] = M, N, K
        return grid, params_ptr, (raw, params)

    def launch_packed(self, packed: tuple, stream_ptr: int) -> None:
        (gx, gy, gz), bx = packed[0], self.block[0]
        self._launch(self.fptr, gx, gy, gz, bx, 1, 1, self.smem, stream_ptr, packed[1], 0)


class FoldedXbTmaLauncher(XbTmaLauncher):
    """The "_folded" kernel's arguments: the plain kernel's, then fold, A's address, its pitch and
    B's address (read for the last K % fold rows only)."""

    OFFSETS = (0, 128, 256, 264, 268, 272, 276, 280, 288, 296)

    def pack(self, grid: tuple[int, int, int], amap: bytes, bmap: bytes, c_ptr: int, M: int, N: int,
             K: int, fold: int = 1, a_ptr: int = 0, lda: int = 0, b_ptr: int = 0) -> tuple:
        grid, params_ptr, keep = super().pack(grid, amap, bmap, c_ptr, M, N, K)
        base = keep[1][0]
        ctypes.c_int32.from_address(base + self.OFFSETS[6]).value = fold
        ctypes.c_uint64.from_address(base + self.OFFSETS[7]).value = a_ptr
        ctypes.c_int32.from_address(base + self.OFFSETS[8]).value = lda
        ctypes.c_uint64.from_address(base + self.OFFSETS[9]).value = b_ptr
        return grid, params_ptr, keep


STRATEGY = Strategy.of(
    GemvXbTmaConfig,
    "24_gemv_xb_tma.cu.j2",
    "skinny x·B (small M) on sm_90a: B streamed in rk x bn boxes by TMA into a ring of stages, one producer warp and warps consumer warps; K split across blocks at launch",
    # heuristic._XB_TMA and _XB_TMA_NARROW: 64-column blocks by rows of A, and 32-column ones;
    # 16-row chunks (heuristic._skinny_chunks) on 64 and 32 columns
    [
        dict(mt=1, rk=128, stages=6), dict(mt=2, rk=128, stages=6), dict(mt=4, rk=128, stages=6),
        dict(mt=1, bn=32, rk=128, stages=8), dict(mt=2, bn=32, rk=128, stages=8),
        dict(mt=4, bn=32, rk=128, stages=8), dict(mt=8, bn=32, rk=128),
        dict(mt=16), dict(mt=16, bn=32, stages=8),
    ],
)
