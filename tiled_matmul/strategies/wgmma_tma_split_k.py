"""Rung 23: wgmma_tma over slices of K into a float32 workspace, then a fixed-order sum rounded once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import CappedSplitK, cdiv
from ..device import DeviceLimits, device_limits
from ..dtypes import FLOAT16, DType
from ..strategy import Strategy
from .wgmma_tma import CountTmaLauncher, WgmmaTmaConfig, addressable, kept_launcher, persistent_count, zero_rows


@dataclass(frozen=True)
class WgmmaTmaSplitKConfig(CappedSplitK, WgmmaTmaConfig):
    """wgmma_tma (float16 / bfloat16 on Hopper's warpgroup tensor cores, TMA-fed, persistent) with
    K cut into `split_k` slices, for a 16-bit product whose C gives too few wgmma tiles to fill the
    GPU while K is long: decode-like x·B (M = 9..128 rows against a wide B), long K on a small C,
    the small cubes.

    The persistent CTAs walk (tile, slice) units; each writes its float32 partial product to a
    [slices, M, N] float32 workspace with plain stores, and a second kernel adds the slices in
    float32 in a fixed order (SplitReduce.reduce_lanes) and rounds each sum once into C's type:
    bit-identical from run to run, rounded once, as wgmma_tma's accumulators are. The workspace is
    capped at WORKSPACE_CAP bytes (:class:`~tiled_matmul.configs.CappedSplitK`): fewer slices where
    split_k would pass it, and one where not even 2 fit (still through the workspace and the
    reduce, which alone writes C).

    Plain row-major products with C of the inputs' type only (``EXTRAS`` empty; `out_bits` 16 and
    `cluster_m` 1). Operands TMA cannot address (rows that are not 16-byte multiples) are first
    copied into padded rows, as for wgmma_tma, but for a B whose base and pitch lie on 4 bytes
    under a C of one tile row: the config's ``b_rows=1`` sibling reads that B in place (see
    :meth:`WgmmaTmaConfig.rows_sibling`; the same cp.async producer, walking the (tile, slice) units).
    """

    STRATEGY: ClassVar[str] = "wgmma_tma_split_k"
    #: row-major operands only and no extras (its launch takes none: the general path copies other
    #: layouts first, and gives epilogues to another rung)
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ()
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    #: up to 128 slices: one 128 x 128 tile with K = 65536 fills 128 SMs with 512-deep slices
    MAX_SPLIT: ClassVar[int] = 128
    bm: int = 128
    bn: int = 128
    stages: int = 6
    split_k: int = 4

    def smem_bytes(self, dtype: Any = FLOAT16) -> int:
        # the ring of stages (no C tile: partials are stored from registers), 1 KB for the
        # 1024-byte round-up, full and empty mbarriers
        return self.stages * (self.bm + self.bn) * self.BK * 2 + 1024 + 16 * self.stages

    def template_constants(self, dt: DType) -> dict[str, Any]:
        # the main kernel writes float32 partials (OUT_BITS 32); BF16 picks the reduce's rounding
        return {**super().template_constants(dt), "OUT_BITS": 32, "BF16": int(dt == "bfloat16")}

    def rules(self, limits: DeviceLimits, dt: DType):
        yield from super().rules(limits, dt)
        yield (self.out_bits == 16, f"out_bits ({self.out_bits}) must be 16: the reduce writes C in the input dtype")
        yield (self.cluster_m == 1, f"cluster_m ({self.cluster_m}) must be 1: the split CTAs share no B boxes")

    def for_out_dtype(self, out_dtype: Any) -> None:
        """None: the reduce writes C in the inputs' dtype only (out_bits 16)."""
        return None

    def workspace_bytes(self, M: int, N: int, dtype: Any = None, K: "int | None" = None,
                        device: Any = None) -> int:
        """Bytes of the [slices, M, N] float32 workspace one launch allocates (one slice too: this
        rung always reduces)."""
        return self.slices(M, N, dtype) * M * N * 4 if M and N else 0

    def ctas(self, M: int, N: int, sms: int) -> int:
        """Persistent CTAs one launch runs: at most one per SM, the fewest that take as many waves
        of (tile, slice) units as `sms` would."""
        tiles, _, slices = self.grid(M, N)
        return persistent_count(tiles * slices, sms)

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int, stream: Any) -> None:
        """C = A @ B for C-contiguous operands: the partial products into a fresh workspace, then
        the fixed-order reduction into C (`flags` is ignored: the kernels' own are computed here).
        ValueError when C's item size is not 2."""
        if C.itemsize != 2:
            raise ValueError(f"wgmma_tma_split_k writes C in the inputs' 16-bit dtype; C has {C.itemsize}-byte "
                             "elements")
        if M == 0 or N == 0:
            return
        if K == 0:
            zero_rows(C.data.ptr, M, N, N, 2, stream.ptr)
            return
        import cupy

        slices = self.slices(M, N, kernel.dtype)
        a, lda = addressable(A, M, K, stream)
        # B in place (TMA, or the b_rows sibling's copies), else copied into padded rows
        cfg, main, b, ldb = self.read_b(kernel, B, M, K, N, N, False, False, stream)
        # held until both launches are queued: freed memory goes back to the pool in stream order
        work = cupy.cuda.alloc(slices * M * N * 4)
        launcher = _launcher(main)
        key = (a.data.ptr, lda, b.data.ptr, ldb, work.ptr, M, N, K, slices)
        plan = launcher.plans.get(key)
        if plan is None:  # encoded and sized once per operand layout and workspace
            amap, bmap = cfg.tensor_maps(kernel.dtype, M, N, K, a.data.ptr, lda, b.data.ptr, ldb)
            grid_x = self.ctas(M, N, device_limits(kernel.device).sm_count)
            # flags: bit 0 paired float stores (the workspace's rows keep column pairs aligned
            # where N is even); no TMA stores (tmC unused: A's map fills its slot)
            plan = launcher.remember(key, launcher.pack_split(grid_x, amap, bmap, work.ptr, M, N, K, int(N % 2 == 0),
                                                              slices))
        launcher.launch_packed(plan, stream.ptr)
        # the reduce reads float4 vectors of each slice where M * N keeps them 16-byte aligned
        self.launch_reduce(kernel, work.ptr, C, M, N, 2 if (M * N) % 4 == 0 else 0, stream, slices)


class SplitTmaLauncher(CountTmaLauncher):
    """The split kernel's arguments: wgmma_tma's (tmA, tmB, tmC, C, M, N, K, ldc, flags) and the
    slice count."""

    def pack_split(self, grid_x: int, amap: bytes, bmap: bytes, work_ptr: int, M: int, N: int, K: int,
                   flags: int, slices: int) -> tuple:
        """The plan's launch into the workspace at `work_ptr` (ldc = N)."""
        return self.pack_count(grid_x, amap, bmap, amap, work_ptr, M, N, K, N, flags, slices)


def _launcher(kernel: Any) -> SplitTmaLauncher:
    """The SplitTmaLauncher of a CompiledKernel (built on first use, kept with the kernel)."""
    return kept_launcher(kernel, "__tma_split__",
                         lambda: SplitTmaLauncher(kernel.raw, kernel.config.block(), kernel.smem_bytes))


STRATEGY = Strategy.of(
    WgmmaTmaSplitKConfig,
    "23_wgmma_tma_split_k.cu.j2",
    "wgmma_tma over split_k slices of K into a float32 workspace, then a fixed-order sum rounded once "
    "(float16/bfloat16)",
    [
        # 128 x 128 tiles, 6 stages of 32 KB: decode-like C (M <= 128 rows, a wide N) and long K
        dict(split_k=2),
        dict(split_k=4),
        dict(split_k=8),
        dict(split_k=16),
        dict(split_k=32),
        dict(split_k=64),
        # 128 x 64: twice the tiles of a narrow C
        dict(bn=64, stages=8, split_k=4),
        dict(bn=64, stages=8, split_k=16),
    ],
)
