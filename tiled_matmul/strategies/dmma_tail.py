"""Rung 18: dmma's whole waves of tiles, the partial last wave's tiles split by K (float64)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import split_k_rule, wave_factor
from ..device import DeviceLimits, device_limits
from ..dtypes import FLOAT64, as_dtype
from ..strategy import Strategy
from ..tiling import cdiv, occupancy
from .dmma import DmmaConfig


@dataclass(frozen=True)
class DmmaTailConfig(DmmaConfig):
    """dmma where the tiles do not fill whole waves: the first `head` tiles of the grouped order
    (whole waves of resident blocks) run as dmma's, straight into C, and each of the `tail` tiles
    left is cut into up to `split_k` slices of K, one block per slice, so that the last wave's
    slots share them instead of `tail` blocks holding that wave alone (:meth:`plan`). The slices
    write BM x BN partial tiles to a small workspace (at most one wave's tiles); a second kernel
    adds each tile's slices in slice order, so the result is bit-identical from run to run.

    One launch holds both kinds of block (the tail's start as the last whole wave's slots free
    up), then the reduce as its programmatic dependent. Plain row-major float64 products only
    (EXTRAS is empty): a call with a batch, an epilogue, other operand layouts or an out_dtype
    runs `auto`'s rung for it instead. Where the tiles fill whole waves, or the tail is too big
    or K too short to cut, it is dmma's launch.
    """

    STRATEGY: ClassVar[str] = "dmma_tail"
    #: split_k caps the plan's slices rather than setting them, so the cost model weighs no split_k
    #: variants of its configs (they would plan the same launch on most shapes)
    COST_SPLIT_VARIANTS: ClassVar[bool] = False
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ()
    #: shallowest K slice a tail tile is cut into (elements of K): a slice's pipeline fill and
    #: its partial tile's trip through the workspace must stay small beside its DMMAs
    MIN_SLICE: ClassVar[int] = 128
    #: most slices split_k may allow a tail tile (as for the split rungs)
    MAX_SPLIT: ClassVar[int] = 64
    #: threads per block of the tail reduce kernel, and its blocks per SM at most (grid-stride)
    REDUCE_THREADS: ClassVar[int] = 256
    REDUCE_BLOCKS_PER_SM: ClassVar[int] = 16
    # dmma's 128 x 128 tile in 8 warps of 32 x 64 at one block per SM (its pick at 2048^3-8192^3).
    # One block per SM is where a partial wave costs a whole wave time; at two, a block alone on
    # its SM runs faster and dmma's last partial wave of 7 cost it 1% (5000 x 3000 x 1000 on
    # 128 x 64 tiles: 0.617 ms for 7.12 waves, 0.612 for the 7 whole ones: scripts/gpu_s13c.sh).
    # The pairs layout's 64 x 64 tile at two per SM is in the search space all the same: where
    # the last wave is a small part of one or two, its split gained up to 10% (the space below)
    bm: int = 128
    bn: int = 128
    bk: int = 16
    wm: int = 32
    wn: int = 64
    stages: int = 3
    min_blocks: int = 1
    split_k: int = 32

    @property
    def splits(self) -> int:
        """12_dmma.cu.j2's SPLIT_K: above 1, its slice bounds render (here, the most slices)."""
        return self.split_k

    def template_constants(self, dt: Any) -> dict[str, int]:
        return {**super().template_constants(dt), "TAIL": 1, "REDUCE_THREADS": self.REDUCE_THREADS}

    def rules(self, limits: DeviceLimits, dt: Any):
        yield from super().rules(limits, dt)
        yield split_k_rule(self.split_k, self.MAX_SPLIT)

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """dmma's grid, one block per tile; the launch's own is :meth:`grid_for_k` (it plans from
        K and the GPU). The traffic model's global reads are dmma's through it: a tail tile's
        slices end on bk boundaries, so their steps add up to the whole tile's."""
        bm, bn = self.tile_mn
        return (cdiv(M, bm) * cdiv(N, bn), 1, 1)

    def slots(self, limits: DeviceLimits, registers: "int | None" = None, dtype: Any = FLOAT64) -> int:
        """Blocks resident on the whole GPU at once: its SMs times the blocks per SM that threads,
        shared memory and `registers` per thread allow (the ``__launch_bounds__`` promise,
        `min_blocks`, when not given)."""
        if registers is None:
            per_sm = self.min_blocks
        else:
            per_sm = occupancy(self.threads, self.smem_bytes(dtype), registers, limits)["blocks_per_sm"]
        return limits.sm_count * max(1, per_sm)

    def plan(self, M: int, N: int, K: int, slots: int) -> tuple[int, int, int]:
        """(head, tail, slices) for an M x N x K product on a GPU of `slots` resident blocks:
        `head` whole tiles (whole waves), `tail` tiles left, each cut into `slices` slices of K:
        as many as fill the slots the tail leaves idle, at most split_k, each at least MIN_SLICE
        deep. (tiles, 0, 1) where that leaves fewer than 2 slices, or under one wave of tiles
        (dmma_split_k's case: every tile split): dmma's launch.

        >>> DmmaTailConfig().plan(1500, 1500, 1500, 132)        # 144 tiles: a wave + 12
        (132, 12, 11)
        >>> DmmaTailConfig().plan(8192, 8192, 8192, 132)        # 4096 tiles: 31 waves + 4
        (4092, 4, 32)
        >>> DmmaTailConfig().plan(4096, 4096, 4096, 132)        # 1024 tiles: 7 waves + 100
        (1024, 0, 1)
        >>> DmmaTailConfig().plan(1000, 1000, 1000, 132)        # 64 tiles: under one wave
        (64, 0, 1)
        """
        bm, bn = self.tile_mn
        tiles = cdiv(M, bm) * cdiv(N, bn)
        head = tiles // slots * slots
        tail = tiles - head
        slices = min(self.split_k, slots // max(tail, 1), K // self.MIN_SLICE)
        if head == 0 or tail == 0 or slices < 2:
            return tiles, 0, 1
        return head, tail, slices

    def cost_waves(self, M: int, N: int, K: int, sms: int, per_sm: int) -> float:
        """The cost model's wave factor Q (configs.wave_factor) of this launch: the head's whole
        waves, then the tail's tail * slices blocks, each 1/slices of a tile, in their own rounds:
        Q = (head + Q_tail * tail) / tiles, Q_tail being wave_factor of the tail's blocks."""
        head, tail, slices = self.plan(M, N, K, sms * per_sm)
        if not tail:
            return wave_factor(head, sms, per_sm)
        return (head + wave_factor(tail * slices, sms, per_sm) * tail) / (head + tail)

    def grid_for_k(self, M: int, N: int, K: int, device: "int | DeviceLimits | None" = None) -> tuple[int, int, int]:
        """The launch's grid: head + tail * slices blocks along x (:meth:`plan` on `device`, the
        current GPU or the H100 stand-in, at min_blocks per SM). :meth:`grid` (without K) is
        dmma's, one block per tile."""
        head, tail, slices = self.plan(M, N, K, self.slots(device_limits(device)))
        return (head + tail * slices, 1, 1)

    def reduced_bytes(self, M: int, N: int, K: int, device: "int | DeviceLimits | None" = None,
                      dtype: Any = FLOAT64) -> int:
        """Bytes of C the reduce kernel writes: the tail's tiles (0 when it runs as dmma)."""
        bm, bn = self.tile_mn
        _, tail, _ = self.plan(M, N, K, self.slots(device_limits(device)))
        return tail * bm * bn * as_dtype(dtype).itemsize

    def workspace_bytes(self, M: int, N: int, dtype: Any = FLOAT64, K: "int | None" = None,
                        device: "int | DeviceLimits | None" = None) -> int:
        """Bytes of the partial tiles one launch writes (0 when it runs as dmma); without K, the
        most any K could need: the tail's blocks never pass one wave, so one wave of tiles."""
        isz = as_dtype(dtype).itemsize
        bm, bn = self.tile_mn
        slots = self.slots(device_limits(device))
        if K is None:
            return slots * bm * bn * isz
        _, tail, slices = self.plan(M, N, K, slots)
        return tail * slices * bm * bn * isz if tail else 0

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int,
               stream: Any) -> None:
        """The head's and the tail's blocks in one launch, then (where there is a tail) the reduce
        of the tail's slices into C as its dependent, both on `stream`."""
        import cupy

        from ..launch import dependent_launch_supported, function_ptr, launch_with_args

        limits = device_limits(kernel.device)
        head, tail, slices = self.plan(M, N, K, self.slots(limits, kernel.num_regs or None))
        direct = kernel.launcher  # loads the elem companion with its shared memory allowed
        bm, bn = self.tile_mn
        work = cupy.cuda.alloc(tail * slices * bm * bn * C.itemsize) if tail else None
        w_ptr = work.ptr if work is not None else 0
        args = [ctypes.c_void_p(A.data.ptr), ctypes.c_void_p(B.data.ptr), ctypes.c_void_p(C.data.ptr),
                ctypes.c_int(M), ctypes.c_int(N), ctypes.c_int(K), ctypes.c_int(flags), ctypes.c_void_p(w_ptr),
                ctypes.c_int(head), ctypes.c_int(slices)]
        launch_with_args(direct.fptr_for(flags, M, N), (head + tail * slices, 1, 1), direct.block, direct.smem, stream.ptr, args)
        if not tail:
            return
        fn = kernel.companion(self.reduce_symbol(kernel.name))
        items = tail * bm * bn // 2
        blocks = max(1, min(cdiv(items, self.REDUCE_THREADS), limits.sm_count * self.REDUCE_BLOCKS_PER_SM))
        rargs = [ctypes.c_void_p(w_ptr), ctypes.c_void_p(C.data.ptr), ctypes.c_int(M), ctypes.c_int(N),
                 ctypes.c_int(flags), ctypes.c_int(head), ctypes.c_int(slices)]
        launch_with_args(function_ptr(fn), (blocks, 1, 1), (self.REDUCE_THREADS, 1, 1), 0, stream.ptr, rargs,
                         dependent=dependent_launch_supported(limits.compute_capability))

    @staticmethod
    def reduce_symbol(kernel_name: str) -> str:
        """The tail reduce kernel's symbol: "tail_" + the main kernel's name without "tm_"."""
        return "tail_" + kernel_name.removeprefix("tm_")


STRATEGY = Strategy.of(
    DmmaTailConfig,
    "18_dmma_tail.cu.j2",
    "dmma's whole waves, the partial last wave's tiles split by K into a workspace, then a "
    "fixed-order (deterministic) sum (float64)",
    # The default alone: with dmma's 128 x 64 x 32 tile in 8 warps (one block per SM) beside it,
    # the cost model picked that tile at 700 x 1500 x 1000 (0.0695 ms against auto's 0.0574 before;
    # its 1.09 waves of 128 x 64 tiles against 64 x 64 tiles in one exact wave), where the 128 x 128
    # tile leaves auto's pick alone (scripts/gpu_s13i.sh)
    [
        # dmma's pairs-layout tiles (twenty-third session; scripts/gpu_s23a.sh,
        # variants_s23/probe_tail_pairs.py, H100, x cuBLAS in one run, against the same tile as dmma):
        # 128 x 128: 1500^3 0.77 -> 1.14, 3616x636x3700 0.65 -> 1.03, 6719x708x3394 0.91 -> 1.01;
        # 64 x 64, 2 per SM: 2342x534x7592 0.86 -> 0.95, 542x2180x652 0.97 -> 1.00. (The 128 x 64
        # tile, 2 per SM, gained as much (1500^3 0.97 -> 1.16, 6779x1324x6244 0.93 -> 1.02), but
        # its tail kernels spill 8 B at the 255 registers two blocks per SM allow: not here)
        dict(wm=32, wn=64, pairs=1),
        dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, pairs=1),
    ],
)
