"""Rung 12: float64 on Hopper's FP64 tensor cores (mma.sync m16n8k{4,8} .f64, sm_90)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import ALL_LAYOUTS, WarpGridConfig
from ..dtypes import FLOAT64, DType, as_dtype
from ..strategy import Strategy


@dataclass(frozen=True)
class DmmaConfig(WarpGridConfig):
    """float64 on the FP64 tensor cores: ``mma.sync.aligned.m16n8k{mma_k}.row.col.f64`` (DMMA).

    A bm x bn block tile of (bm/wm)*(bn/wn) warps, each a wm x wn warp tile of 16 x 8 MMA tiles
    whose accumulators stay in registers; a `stages`-deep cp.async pipeline of bk-deep stages,
    grouped block order (`group_m`) and ``__launch_bounds__(threads, min_blocks)``. Every product
    and sum is an FP64 fused multiply-add, so the result has FP64 FMA accuracy and Inf and NaN
    propagate without a special path.

    The m16n8k* shapes exist on sm_90 only (Ampere has m8n8k4 at half the rate), so the kernel
    is compiled for sm_90 and the config refuses other GPUs.
    """

    STRATEGY: ClassVar[str] = "dmma"
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ALL_LAYOUTS

    def _layout_tiles_split(self) -> bool:
        # every operand is copied as it lies, 16-byte pairs along its contiguous direction
        # (kernels/_macros.j2's copy_rows, and the template's interior copies that walk the same
        # split): row-major A as bm rows of bk, column-major A as bk rows of bm (As[k][m], which
        # needs bk <= bm to fit the stage As[m][k] sizes), row-major B as bk rows of bn,
        # column-major B as bn rows of bk (Bs[n][k], swizzled: bk 8 or a multiple of 16, and a
        # thread's rows 4 apart so they share one swizzle)
        b_rstep = self.threads // max(self.bk // 2, 1)
        return (self._rows_split(self.bm, self.bk, 2) and self._rows_split(self.bk, self.bm, 2)
                and self._rows_split(self.bk, self.bn, 2) and self._rows_split(self.bn, self.bk, 2)
                and self.bk <= self.bm and (self.bk == 8 or self.bk % 16 == 0) and b_rstep % 4 == 0)
    DYNAMIC_SMEM: ClassVar[bool] = True
    #: interior blocks copy a misaligned operand (odd K or N) through a second kernel's 8-byte
    #: pairs instead of the edge copies: 7-18% faster at 2047^3-8191x8191x513 (eleventh session)
    ELEM_KERNEL: ClassVar[bool] = True
    #: a partial tile's blocks (M or N not a multiple of bm or bn) shift inside M and N and copy
    #: as interior ones, in a third kernel: 5000 x 3000 x 1000 0.87 -> 0.92x cuBLAS on the 128 x 64
    #: tile (twenty-first session), while the main kernel stays as it was for whole tiles
    EDGE_KERNEL: ClassVar[bool] = True
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float64",)
    #: NVRTC target: the m16n8k{4,8,16} .f64 MMA shapes need sm_90
    NVRTC_ARCH: ClassVar["str | None"] = "sm_90"
    # the 128 x 128 tile of 32 x 64 warps (two m16 rows: the FRAG_AHEAD loop), one block per SM:
    # the tuner's pick at 2048^3-8192^3 and 3001^3, 7-13% ahead of the same tile in 64 x 32 warps
    # (four rows, the default before the thirteenth session) in every tune of that session
    # (scripts/gpu_s13j.sh: 3001^3 1.23 against 1.34 ms, 5000 x 3000 x 1000 0.65 against 0.71,
    # 8192^3 21.2 against 22.6), which the cost model, pricing both alike, broke toward the default
    bm: int = 128
    bn: int = 128
    bk: int = 16
    wm: int = 32
    wn: int = 64
    mma_k: int = 8
    stages: int = 3
    group_m: int = 8
    min_blocks: int = 1
    #: 1: the pairs layout (the template's Pairs note): the MMA computes C^T = B^T * A^T tile by
    #: tile, so that every pair of fragment registers is one 16-byte ld.shared (half the shared
    #: reads of the layout at 0), from an unpadded, swizzled As[m][k] and a Bs[k][n] padded by 2.
    #: Row-major operands only (:meth:`layouts`), bk a multiple of 16, wn of 16, mma_k 8.
    pairs: int = 0

    #: the MMA depths the template issues (both run at the FP64 tensor-core peak on sm_90)
    MMA_KS: ClassVar[tuple[int, ...]] = (4, 8)
    #: row padding (doubles) of As[m][k] and Bs[k][n] (A_PAD also of As[k][m], a column-major A's
    #: tile): row strides of 4 (mod 8) doubles keep the fragment reads free of bank conflicts (the
    #: template's Banks notes). A column-major B's tile Bs[n][k] is swizzled instead, and every
    #: layout's tiles fit these stages, so smem_bytes() is the same for every layout
    A_PAD: ClassVar[int] = 4
    B_PAD: ClassVar[int] = 4
    #: registers per thread for what is not an accumulator or a fragment (addresses, loop state)
    OTHER_REGS: ClassVar[int] = 24

    #: (A_PAD, B_PAD) of the pairs layout: As[m][k] unpadded (swizzled instead), Bs[k][n] rows of
    #: bn + 2 doubles (2 mod 16: its 16-byte fragment reads are conflict-free)
    PAIRS_PADS: ClassVar[tuple[int, int]] = (0, 2)
    #: `pairs` may be 0, and a config at 0 keeps the kernel symbol, source and tuning keys it had
    #: before the pairs layout
    SWITCHES: ClassVar[frozenset[str]] = frozenset({"pairs"})

    def pads(self) -> tuple[int, int]:
        """(A_PAD, B_PAD): the row padding of As[m][k] and Bs[k][n] in doubles."""
        return self.PAIRS_PADS if self.pairs else (self.A_PAD, self.B_PAD)

    def extras(self) -> frozenset[str]:
        """The class's EXTRAS, less the epilogue and out_dtype in the pairs layout: its K loop holds
        247-254 of 255 registers on the 128-row tiles, and an epilogue's extras (alpha, beta, bias,
        an activation) spilled 24-32 bytes there; `auto` gives such calls the heuristic's dmma
        config instead (execute.extras_needed), and a call that names a pairs config with an
        epilogue is refused when rendered (render.render)."""
        return self.EXTRAS - {"epilogue", "out_dtype"} if self.pairs else self.EXTRAS

    def layouts(self) -> tuple[tuple[bool, bool], ...]:
        """The class's layouts, or row-major operands only in the pairs layout (whose fragment
        pairs lie along A's rows and B's rows; a transposed operand is copied first)."""
        have = super().layouts()
        return tuple(lay for lay in have if lay == (False, False)) if self.pairs else have

    def smem_bytes(self, dtype: Any = FLOAT64) -> int:
        isz = as_dtype(dtype).itemsize
        a_pad, b_pad = self.pads()
        return self.stages * (self.bm * (self.bk + a_pad) + self.bk * (self.bn + b_pad)) * isz

    @property
    def frag_ahead(self) -> bool:
        """Whether the K loop reads its fragments ahead of the DMMAs that use them (A one m16 row
        ahead, B one 8-deep sub-step: the template's FRAG_AHEAD loop) rather than just before.
        Measured on the H100 (scripts/gpu_s12c.sh, bit-identical outputs): ahead is 5-12% faster
        on warp tiles of one or two m16 rows (768^3 0.81 -> 0.91x cuBLAS, 1024^3 0.86 -> 0.90),
        where a row's few DMMAs could not hide the reads issued before them; at four rows
        (wm = 64, the 128 x 64 tile of 2048^3-8192^3) it is 6% slower: the registers are nearly
        all taken (255 of 255) and the row's 16 DMMAs already hide the reads."""
        return self.wm // 16 <= 2

    def template_constants(self, dt: DType) -> dict[str, int]:
        # SPLIT_K: slices of K per blockIdx.z, 1 here (the template renders the unsplit kernel)
        a_pad, b_pad = self.pads()
        return {"A_PAD": a_pad, "B_PAD": b_pad, "SPLIT_K": self.splits, "FRAG_AHEAD": int(self.frag_ahead and not self.pairs),
                "PAIRS": int(self.pairs)}

    def registers(self) -> tuple[int, int]:
        """(a lower bound on the 32-bit registers a thread needs, the most that
        ``__launch_bounds__(threads, min_blocks)`` leaves it): the accumulators (wm*wn/32
        doubles), the fragments of one 8-deep step (4 doubles of A per m16 tile, 2 of B per n8
        tile) and OTHER_REGS, against 65536 / (threads * min_blocks), capped at 255. ptxas keeps
        the fragments of a whole stage live where it can, so a config can pass this and still
        spill: the tests compile every config of the search space and require 0 spills."""
        acc = 2 * self.wm * self.wn // 32
        if self.pairs:  # a whole sub-step's fragments ahead, two buffers
            frags = 2 * 2 * (4 * (self.wn // 16) + 2 * (self.wm // 8))
        else:
            frags = 2 * (4 * (self.wm // 16) + 2 * (self.wn // 8))
        budget = min(255, 65536 // max(self.threads * self.min_blocks, 1))
        return acc + frags + self.OTHER_REGS, budget

    def rules(self, limits, dt):
        yield (
            self.runs_on(limits),
            f"dmma runs only on sm_90 (Hopper) GPUs, the ones with m16n8k{self.mma_k} FP64 MMAs; "
            f"{limits.name} is sm_{limits.compute_capability}",
        )
        yield from self._warp_grid_rules()
        yield (self.mma_k in self.MMA_KS, f"mma_k ({self.mma_k}) must be one of {', '.join(map(str, self.MMA_KS))}")
        yield (self.wm % 16 == 0, f"wm ({self.wm}) must be a multiple of 16 (the MMA tile's rows)")
        yield (self.wn % 8 == 0, f"wn ({self.wn}) must be a multiple of 8 (the MMA tile's columns)")
        yield (
            self.bk % 8 == 0,
            f"bk ({self.bk}) must be a multiple of 8 (the fragments are read 8 k at a time)",
        )
        if self.pairs:
            yield (
                self.bk % 16 == 0 and self.wn % 16 == 0 and self.mma_k == 8,
                f"the pairs layout needs bk and wn multiples of 16 and mma_k 8 (its 16-byte fragment "
                f"pairs: two k of A's rows, two columns of B's); got bk={self.bk}, wn={self.wn}, mma_k={self.mma_k}",
            )
            a_rv, b_rv = max(self.bk // 2, 1), max(self.bn // 2, 1)  # 16-byte pairs in a row of A's, B's tile
            yield (
                self.threads % a_rv == 0 and self.threads % b_rv == 0 and (self.threads // a_rv) % 2 == 0,
                f"the pairs layout copies whole rows of each tile per pass (its main and edge kernels have "
                f"no other copies) and an even number of A rows between a thread's copies (its swizzle is by "
                f"row parity): {self.threads} threads must be a multiple of {a_rv} and of {b_rv}, an even "
                f"multiple of {a_rv}",
            )
        acc = self.wm * self.wn // 32
        yield (
            acc <= 64,
            f"a warp tile of wm*wn = {self.wm * self.wn} gives {acc} double accumulators per thread "
            f"({2 * acc} registers); at most 64 fit beside the fragments",
        )
        need, budget = self.registers()
        yield (
            need <= budget,
            f"at least {need} registers per thread (accumulators, one step's fragments, addresses) "
            f"must fit the {budget} that {self.min_blocks} block(s) of {self.threads} threads leave a thread",
        )
        yield from self._pipeline_rules(limits, dt)


STRATEGY = Strategy.of(
    DmmaConfig,
    "12_dmma.cu.j2",
    "float64 on Hopper's FP64 tensor cores: mma.sync m16n8k8/k4 .f64 (FP64 FMA accuracy), cp.async pipeline",
    [
        # the same tile in warps of 64 x 32 (four m16 rows, the loop that reads fragments just
        # before their DMMAs): 4 stages, 8 deep, k4 MMAs
        dict(wm=64, wn=32, stages=4),
        dict(wm=64, wn=32),
        dict(wm=64, wn=32, bk=8, stages=4),
        dict(wm=64, wn=32, mma_k=4),
        # fewer than ~one wave of 128 x 128 tiles: smaller tiles, more blocks per SM
        dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2),
        # bk 16 spills here once the interior-copy loop is instantiated beside the general one
        dict(bm=64, bn=128, bk=8, wm=64, wn=32, stages=4, min_blocks=2),
        dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3),
        # the small cubes unsplit, as cuBLAS runs them (scripts/probe_cublas_kernels.py: 32 x 32 x 32
        # tiles in 5 stages at 256^3, 64 x 64 x 16 in 4 at 640^3; probe_dmma_configs.py: 256^3 8.3 us
        # against 9.4 split, H100)
        dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2),
        # 576^3-768^3 (the 768 bucket; probe_dmma_configs.py --mid, tenth session, H100): 32 x 64 x
        # 16 tiles in 4 stages at 4 blocks per SM ran 0.81-0.90x cuBLAS where the shipped split pick
        # ran 0.66-0.75x; 64 x 64 x 16 in 8 warps of 32 x 16 (one block per SM hides more latency
        # with two warps per scheduler) beat the same tile in 4 warps on all six shapes, 6-25%
        dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
        dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2),
        # short K, C-store-bound (8192 x 8192 x 128 writes 512 MB and reads 16): the plain row-major
        # block order (group_m=1) writes C in order, where groups of 8 tile rows (for A and B's
        # reuse in L2, which short panels do not need) scatter it (scripts/gpu_s12j.sh,
        # gpu_s12k.sh, H100, × cuBLAS from groups of 8 to row-major: 8192^2 x 128 0.92 -> 0.99,
        # 8192^2 x 8 0.97 -> 1.01, 16384^2 x 16 0.99 -> 1.03, 8192^2 x 1 0.97 -> 0.99; no change
        # at 4096^3 or 5000 x 3000 x 1000)
        dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2, group_m=1),
        dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3, group_m=1),
        dict(bm=128, bn=128, bk=8, wm=64, wn=32, stages=4, group_m=1),
        # about one wave of 128 x 64 tiles (M x N up to ~1M outputs: 896^3-1024^3) in 8 warps of
        # 32 x 32 at one block per SM, 32 deep (cuBLAS's 1024^3 tile, probe_cublas_kernels.py):
        # 1001^3 0.88x cuBLAS against auto's 0.73 before, 1024^3 0.92 (gpu_s12e.sh, gpu_s12m.sh)
        dict(bm=128, bn=64, bk=32, wm=32, wn=32, stages=3),
        # the pairs layout (twenty-second session; scripts/gpu_s22c.sh, H100, x cuBLAS against the
        # same tile without it, in one run): 128 x 128 at 2048^3 1.00 against 0.95, 4096^3 1.00
        # against 0.93, 6144 x 4096 x 2048 1.01 against 0.94; 128 x 64 at 5000 x 3000 x 1000 0.98
        # against 0.92, in 4 stages at 8192 x 8192 x 128 0.99 against 0.92; 128 x 64 x 32 at 1024^3
        # 1.01 against 0.92; 64 x 64 at 640^3 1.00 against 0.91, 16384 x 64 x 4096 1.03 against 1.00
        dict(wm=32, wn=64, pairs=1),
        dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2, pairs=1),
        dict(bm=128, bn=64, wm=64, wn=32, stages=4, min_blocks=2, pairs=1),
        dict(bm=128, bn=64, bk=32, wm=32, wn=32, stages=3, pairs=1),
        dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, pairs=1),
    ],
)
