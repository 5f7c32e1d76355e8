"""Rung 19: mma_half over slices of K into a float32 workspace, then a fixed-order sum rounded once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .. import pad
from ..configs import CappedSplitK
from ..strategy import Strategy
from .mma_half import MmaHalfConfig


@dataclass(frozen=True)
class MmaHalfSplitKConfig(CappedSplitK, MmaHalfConfig):
    """mma_half (float16 / bfloat16 on tensor cores, FP32 accumulation) with K cut into `split_k`
    slices (blockIdx.z), for a 16-bit product whose C is too small to fill the GPU with mma_half's
    tiles while K is long: GEMV- and decode-like shapes (x·B, A·x), long K on a small C, the small
    cubes.

    Each slice writes its FP32 partial product to a [slices, M, N] float32 workspace with plain
    stores; a second kernel adds the slices in float32 in a fixed order (SplitReduce.reduce_lanes)
    and rounds each sum once into C's type, so the result is bit-identical from run to run and
    rounded once, as mma_half's. The workspace is capped at WORKSPACE_CAP bytes
    (:class:`~tiled_matmul.configs.CappedSplitK`): fewer slices where split_k would pass it, and
    where not even 2 fit, one slice, which is mma_half's kernel writing C (its rounding, no
    workspace).

    Plain row-major products with C of the inputs' type only (``EXTRAS`` empty): `auto` gives a
    call with a batch, an epilogue, other layouts or a float32 C to mma_half.
    """

    STRATEGY: ClassVar[str] = "mma_half_split_k"
    EXTRAS: ClassVar[frozenset[str]] = frozenset()
    #: a product whose A or B rows are not 16-byte aligned (an odd K or N: the kernel's element
    #: loads, eight per 16 bytes) runs on zero-padded copies of both (tiled_matmul.pad) from this
    #: K and PAD_MIN_FLOP on: on the H100 (scripts/variants_s16/probe_pad.py, float16) the aligned
    #: kernel on the padded shape ran 261x473x14735 in 41.8 us against 123.9 unpadded (cuBLAS 56.1),
    #: 92x281x16065 18.6 against 46.3, 1092x285x6374 45.2 against 111.9, 590x749x1252 27.9 against
    #: 50.9; the copies move A and B twice (read, write) and cost three launches
    PAD_MIN_K: ClassVar[int] = 1024
    PAD_MIN_FLOP: ClassVar[int] = 2**28
    #: ... and while the padded copies of A, B and C (allocated per launch, freed after it) stay
    #: within this many bytes
    PAD_MAX_BYTES: ClassVar[int] = 512 * 2**20
    bm: int = 64
    bn: int = 64
    bk: int = 32
    wm: int = 32
    wn: int = 32
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 3
    split_k: int = 8

    def pads(self, M: int, N: int, K: int, flags: int) -> bool:
        """Whether a launch runs on padded copies of A and B (see PAD_MIN_K and PAD_MAX_BYTES)."""
        if flags & 3 == 3 or K < self.PAD_MIN_K or 2 * M * N * K < self.PAD_MIN_FLOP:
            return False
        Kp, Np = pad.padded(K, 2), pad.padded(N, 2)
        return (M * Kp + Kp * Np + M * Np) * 2 <= self.PAD_MAX_BYTES

    def padding_bytes(self, M: int, N: int, K: int, dtype: Any = None) -> int:
        """Where :meth:`pads` (rows of A or B not 16-byte multiples): A and B read once and written
        padded, the padded C read once and its columns written into C."""
        from ..operands import launch_flags

        isz = self._dtype(dtype).itemsize
        if not self.pads(M, N, K, launch_flags(0, 0, 0, K, N, isz)):  # operands at aligned addresses
            return 0
        Kp, Np = pad.padded(K, isz), pad.padded(N, isz)
        return (M * (K + Kp) + K * N + Kp * Np + M * (Np + N)) * isz

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int,
               stream: Any) -> None:
        """CappedSplitK's launch; where :meth:`pads`, on A and B copied into zero-padded rows of
        16 bytes (K and N rounded up) and into a padded C, whose columns are then copied into C.
        The padded product sums the same terms (and zeros past K) in a fixed order: bit-identical
        from run to run, though its slice bounds, cut from the padded K, may differ from an
        unpadded launch's."""
        if not self.pads(M, N, K, flags):
            return super().launch(kernel, A, B, C, M, N, K, flags, stream)
        import cupy

        isz = C.itemsize  # 2: this rung's C is of the inputs' 16-bit type
        Kp, Np = pad.padded(K, isz), pad.padded(N, isz)
        with stream:  # the pool hands these out again only after work queued later on `stream`
            a, b, c = (_Mem(cupy.cuda.alloc(n * isz), isz) for n in (M * Kp, Kp * Np, M * Np))
        pad.pad_into(A.data.ptr, a.data.ptr, M, K, M, Kp, isz, stream)
        pad.pad_into(B.data.ptr, b.data.ptr, K, N, Kp, Np, isz, stream)
        super().launch(kernel, a, b, c, M, Np, Kp, flags | 3, stream)
        pad.unpad_into(c.data.ptr, C.data.ptr, M, N, Np, isz, stream)


class _Mem:
    """A device allocation as a launch reads an operand: `.data.ptr` and `.itemsize`."""

    def __init__(self, mem: Any, itemsize: int):
        self.data, self.itemsize = mem, itemsize


STRATEGY = Strategy.of(
    MmaHalfSplitKConfig,
    "19_mma_half_split_k.cu.j2",
    "mma_half over split_k slices of K into a float32 workspace, then a fixed-order sum rounded once "
    "(float16/bfloat16)",
    [
        # 64 x 64 tiles of four 32 x 32 warps, 3 blocks per SM: mma_half's small-output tile
        dict(split_k=2),
        dict(split_k=4),
        dict(split_k=16),
        dict(split_k=32),
        dict(split_k=64),
        # 128 x 128 tiles (mma_half's default): a C of under a wave of them with a long K
        dict(bm=128, bn=128, wm=64, wn=32, min_blocks=2, split_k=2),
        dict(bm=128, bn=128, wm=64, wn=32, min_blocks=2, split_k=4),
        # 32 x 32 tiles of four 16 x 16 warps, 4 blocks per SM: small outputs with K up to 2048
        # (heuristic.HALF_SPLIT_SHORT_K): 41x59x834 0.97x cuBLAS against 0.50 on 4 slices of one
        # 64 x 64 tile, 631x15x573 0.98 against 0.58 (scripts/variants_s15/probe_half_rules.py, H100)
        dict(bm=32, bn=32, wm=16, wn=16, min_blocks=4, split_k=4),
        dict(bm=32, bn=32, wm=16, wn=16, min_blocks=4, split_k=8),
    ],
)
