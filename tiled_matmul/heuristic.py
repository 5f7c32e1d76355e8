"""A tuning-free pick of strategy and config for a shape: what `strategy="auto"` falls back to
when no tuning data covers (M, N, K).

A function of its arguments and the GPU's SM count (no I/O). float16 and bfloat16 have their own
rule, :func:`half_pick` (the tensor-core rungs that compute them); the rest below is float32
and float64. The rules follow H100 measurements against
cuBLAS (FP32, TF32 off) of every config of the fast strategies and register_blocked's default
(benchmarks/fast_kernels.py; numbers in the comments are x cuBLAS):

* skinny products, float32 and float64 alike, go to the memory-bound GEMV rungs: M <= 8 < N to
  gemv_xb (x·B: B streamed once per chunk of mt rows, mt the power of two from M; for M = 1 and
  4, K groups in a block where each group gets at least GEMV_KG_MIN_RUN rows of K), N <= 8 to
  gemv_ax (A·x: A streamed once per chunk of nt columns), when the streamed operand holds at
  least 2^18 elements or K is at least GEMV_SHORT_K (48; below it the launch sets the time, not
  the bytes, and warp_tiled's one block does as well).
* float64 on an sm_90 GPU (``dmma=True``): dmma (FP64 tensor cores) from one wave of its
  default 128 x 128 tiles (warp_tiled's default there on other GPUs: FP64 FMAs, 1 block/SM for
  doubles); below that, for K >= 256 and min(M, N) > 8, dmma_split_k: K slices (>= 128 deep) on
  the 128 x 64, 64 x 64 or 32 x 64 tile that keeps the most of the GPU busy on useful work, as
  wgmma_split_k's rule below (the SIMT split_k it replaces reached 0.31-0.54x cuBLAS DGEMM on
  256^3-512^3 and long K); else the FFMA rules below.
* float32 when the precision request allows tf32x3 (``"auto"``, the default, from K = 128:
  :data:`tiled_matmul.precision.TF32X3_MIN_K`) on an sm_90 GPU (``wgmma=True``): wgmma
  (3xTF32 on warpgroup tensor cores) from one wave of 128 x 128 tiles, with 128-, 112- or 96-row
  tiles, whichever leaves the least of the last wave idle (4096^3 1.41, 4097^3 1.33,
  3001x2999x3007 1.34 with 112 rows, measured with 4 stages, which spill since the range guard
  and so are 3 now), or wgmma_tma_tf32 where TMA_TF32_AUTO lets it run, from TMA_TF32_MIN_WAVE
  of that wave where M and N span more than two tiles; 64 x 128 tiles from 3/4 of a wave of those
  where they fill their waves as well as 64 x 64 tiles do (1024^3 1.43, 128x8192x8192 1.13), 64 x 64
  tiles from one wave of those (16384x64x4096 1.24); below that,
  for K >= 256 and min(M, N) > 8, wgmma_split_k: K slices (>= 64 deep, as many as keep tiles x
  slices within one block per SM) on the 64 x 64, 64 x 128 or 128 x 128 tile that keeps the most
  of the GPU busy on useful work (ties to the bigger tile), where the FFMA rungs below reached
  0.18-0.77 (64x64x65536 0.18, 256x256x131072 0.50, 32x1024x32768 0.58, 512^3 and 640^3 on
  warp_tiled) and split 64 x 64 tiles ran 1.1-1.2x at 256^3-640^3; GEMV-like shapes (M or N <= 8)
  keep to the rules below;
* "tf32x3" or "tf32" asked for by name: those tensor-core rules for every shape, GEMV-like and
  short-K ones included (the narrowest wgmma tile where nothing else applies);
* on other GPUs with tf32x3 allowed: tensor_core (mma.sync 3xTF32) on 128 x 128 tiles from
  one wave of them (4096^3 ~1.09), on 64 x 64 tiles from one wave of those (1024x1024x16384 ~0.96);
* otherwise, at least one wave of 128 x 128 tiles (M*N >= ~132 * 128^2): register_blocked's default
  (4096^3 0.79, 8192^3 0.81, 2048^3 0.82, 3001x2999x3007 0.75; warp_tiled's best 0.73-0.78);
* fewer tiles and K >= 1024: split_k with enough slices for ~2 blocks per SM, on 128 x 128
  tiles when that takes <= 16 slices (1024^3: 0.88, 512x512x16384: 0.76), else on 64 x 64
  tiles, up to 64 slices (256x256x65536: 0.54 -- instead of 0.03 without the split);
* otherwise (small, short K): warp_tiled on 64 x 64 tiles, 4 blocks per SM, or (float32, K < 256,
  few or mostly padded 64 x 64 tiles) on 32 x 32 ones (:func:`_small_tile`).
"""

from __future__ import annotations

from typing import Any

from . import pad
from .configs import cdiv
from .device import device_limits
from .dtypes import as_dtype
from .precision import PASSES, check, modes_for

_SPLIT_BIG = dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2)
_SPLIT_SMALL = dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4)
_SMALL = dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, group_m=8, min_blocks=4)
#: ... and 32 x 32 tiles (two warps of 16 x 32) for float32 where K < SMALL32_MAX_K and the 64 x 64
#: tiles would be few (under SMALL32_FEW of a wave of SMs) or mostly padding (under SMALL32_FILL of
#: their area is C): on the H100 (scripts/variants_s15/probe_f32_small.py, x cuBLAS) against the
#: 64 x 64 tile 1265x51x137 1.10 against 0.79, 12399x18x89 0.99 against 0.79, 88x45x1 1.13 against
#: 0.92, 27x3988x55 1.18 against 1.02, 500x500x255 1.10 against 0.87, 16049x85x7 0.74 against 0.60;
#: not for larger outputs of well-filled tiles (1000x1000x100 0.63 against 0.88, 3000x600x60 0.76
#: against 0.96, 700x700x250 0.93 against 0.97), though 4447x127x15 (0.90 against 0.68) and
#: 16068x50x8 (0.69 against 0.60) would have taken them too
_SMALL32 = dict(bm=32, bn=32, bk=16, wm=16, wn=32, tm=4, tn=4, stages=3, group_m=8, min_blocks=4)
SMALL32_MAX_K = 256
SMALL32_FEW = 0.75
SMALL32_FILL = 0.7


def _small_tile(M: int, N: int, K: int, sms: int) -> dict[str, int]:
    """warp_tiled's tile for a float32 product under a wave of 128 x 128 tiles with a short K:
    :data:`_SMALL32` or :data:`_SMALL` (see there).

    >>> _small_tile(1265, 51, 137, 132)["bm"], _small_tile(16049, 85, 7, 132)["bm"], _small_tile(1000, 1000, 100, 132)["bm"]
    (32, 32, 64)
    """
    tiles = cdiv(M, 64) * cdiv(N, 64)
    if K < SMALL32_MAX_K and (tiles < SMALL32_FEW * sms or M * N < SMALL32_FILL * tiles * 64 * 64):
        return dict(_SMALL32)
    return dict(_SMALL)
_TC_SMALL = dict(bm=64, bn=64, bk=32, wm=32, wn=32, stages=4, min_blocks=2)
#: wgmma block heights for big shapes, their speed relative to 128 rows on whole waves (H100,
#: 4097^3: 1.33x, 1.27x, 1.20x cuBLAS), and the params that select them
_WG_ROWS = {128: (1.0, {}), 112: (0.96, dict(bm=112)), 96: (0.93, dict(bm=96, stages=4))}
#: dmma's pick from one wave of 128 x 128 tiles: 128 x 64 tiles, 2 blocks per SM (H100, x cuBLAS
#: DGEMM: 0.76 / 0.76 / 0.79 at 2048^3 / 4096^3 / 8192^3, against 0.64 / 0.57 / 0.74 for 128 x 128)
_DMMA = dict(bn=64, wm=64, wn=32, min_blocks=2)
_WG_MID = dict(bm=64, bn=128, stages=6)
_WG_NARROW = dict(bm=64, bn=64, stages=4, min_blocks=2)
#: wgmma_split_k's tiles, bigger first (ties go to the bigger one: fewer slices, less traffic per
#: MMA), with the pipeline depth and blocks per SM of each
_WG_SPLIT_TILES = (
    dict(bm=128, bn=128, stages=3, min_blocks=1),
    dict(bm=64, bn=128, stages=6, min_blocks=1),
    dict(bm=64, bn=64, stages=4, min_blocks=2),
)
#: shallowest slice wgmma_split_k cuts: on the H100 the small cubes ran fastest on 64 x 64 tiles
#: in 4 slices at 256^3 (64 deep: 9.6-10.5 us against 12.8-13.1 for unsplit wgmma and 11.2-12.6 for
#: cuBLAS FP32), 4 at 384^3 and 512^3 (96 and 128 deep), 2 at 640^3 (scripts/probe_small.py)
WG_SPLIT_MIN_SLICE = 64
#: shortest K that wgmma_split_k takes: 256 (the smallest cube measured; 4 slices of 64)
WG_SPLIT_MIN_K = 4 * WG_SPLIT_MIN_SLICE
#: dmma_split_k's tiles, bigger first (ties go to the bigger one), each with its step depth, warp
#: tile, pipeline and blocks per SM (its search space's: 0 spills)
_DMMA_SPLIT_TILES = (
    dict(bm=128, bn=64, bk=8, wm=64, wn=32, stages=4, min_blocks=2),
    dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3),
    dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
)
#: shallowest slice dmma_split_k cuts: 16 of its 8-deep steps, so that a block's pipeline fill and
#: its partial tile's store (64 x 64 doubles: 32 KB) stay small beside its MMAs
DMMA_SPLIT_MIN_SLICE = 128
#: shortest K that dmma_split_k takes: two slices of DMMA_SPLIT_MIN_SLICE
DMMA_SPLIT_MIN_K = 2 * DMMA_SPLIT_MIN_SLICE


#: the GEMV rungs take products whose M (gemv_xb) or N (gemv_ax) is at most this
GEMV_MAX = 8
#: ... and whose streamed operand (B for gemv_xb, A for gemv_ax) has at least this many elements
GEMV_MIN_STREAM = 2**18
#: ... or whose K is at least this long, the streamed operand however small: a tile rung walks such
#: a K in one block per tile, a step after another (float32 4x60x655 on warp_tiled 34 us, 1x4x12791
#: and 93x1x1397 on split_k 24-26 us, against 8-9 us for gemv_xb with K groups and gemv_ax, and
#: cuBLAS's 8-10: scripts/variants_s14/probe_small.py, H100; 1x91x397 and 13x5x282 on warp_tiled
#: 22 and 17 us against cuBLAS's 7 and 10: benchmarks/random_shapes.py --seed 15); with a shorter K
#: the launch is the time and the GEMV rungs run as fast as warp_tiled's one block (676x4x2,
#: 2x9x21, 3x53x47: 5-7 us either way). 16-bit x·B (:func:`_half_gemv`) keeps this limit: below it
#: gemv_xb_half lost to mma_half's 32 x 32 tile on 4 of 6 (2x1633x34 1.11 -> 0.74x cuBLAS,
#: scripts/gpu_s31a.sh)
GEMV_MIN_K = 128
#: ... and for float32 and float64 (:func:`_gemv`) from this K: warp_tiled's one block walks K in
#: steps of 16, while a GEMV rung reads it in one pass of its K groups or lanes. H100, float32, x
#: cuBLAS FP32, products of 5-8 us with K 16-127 and a small stream: from K 48 the GEMV rung won
#: on 17 of 18 (3x1x81 0.71 -> 1.02, 1x165x66 0.80 -> 0.99, 2x5x121 1.11 -> 1.55), below 48 it
#: lost on 11 of 26 by up to 18% (7x86x27 1.13 -> 0.93; scripts/gpu_s30e.sh, seeds 3007/3008);
#: held out, 20 fresh shapes with K 48-127: 1.015 -> 1.324, lowest 0.61 -> 0.85, every one faster
#: (scripts/gpu_s30f.sh, seed 3009). float64's model already picks the GEMV rungs there. 16-bit
#: A·x too (gemv_ax_half, gemv_ax_mma against mma_half's 32 x 32 tile): from K 48 faster on all 8 of
#: seed 3101 in float16 and bfloat16 (125x7x117 0.75 -> 1.04, 1x2x75 0.76 -> 0.96), below 48 mixed
#: (faster at K 39-44, up to 5% slower at K 29-32; scripts/gpu_s31a.sh); held out on 32 fresh A·x
#: (gpu_s31b.sh, seeds 3105/3106): float16 0.926 -> 1.080, bfloat16 1.137 -> 1.330, lowest 0.60 ->
#: 0.86, 29 faster, 3 by 2-5% slower
GEMV_SHORT_K = 48
#: params by M rounded up to a power of two (gemv_xb), by N (gemv_ax): one chunk covers the rows
#: or columns, so the big operand is streamed once; mt=8 takes a shorter unroll to fit 2 blocks/SM.
#: M = 1 and 4 take K groups (narrow blocks that fill the GPU without a split of K) where K is
#: long enough for them (GEMV_KG_MIN_RUN), else one group (_XB_ONE_GROUP). On the H100, float32
#: (scripts/probe_gemv_configs.py kg / kg2, tenth session): 1x8192x8192 1-2% faster,
#: 1x1000x100000 6%, 4x12288x5000 2%; the configs fit float64's registers too
_XB = {1: dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), 2: dict(mt=2),
       4: dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16), 8: dict(mt=8, unroll=4)}
_XB_ONE_GROUP = {1: dict(mt=1), 4: {}}
#: rows of K each of gemv_xb's K groups needs at least: a shorter run is mostly its pipeline's ramp
#: and the groups' sum in shared memory (1x50000x2048 float32, 64-row runs: 2.5% slower than one
#: group of 1024 columns with K split 5 ways)
GEMV_KG_MIN_RUN = 256
_AX = {1: dict(nt=1, rows=4, unroll=4), 2: dict(nt=2), 4: {}, 8: dict(nt=8, rows=4, unroll=1)}


def _xb_params(table: dict, one_group: dict, M: int, N: int, K: int) -> dict[str, int]:
    """gemv_xb's (or gemv_xb_half's) params from `table` by M rounded up to a power of two; the
    `one_group` entry instead where the table's K groups would each get a short run while B alone
    fills the GPU (M = 2 and 8 take no groups: nothing to fall back from)."""
    rows = 1 << (M - 1).bit_length()
    params = table[rows]
    kg = params.get("kg", 1)
    if kg > 1 and K < GEMV_KG_MIN_RUN * kg and N * K >= GEMV_MIN_STREAM:
        params = one_group[rows]
    return dict(params)


#: gemv_xb_tma (x·B with B streamed through a TMA ring; sm_90a, plain 2-D float32 products whose
#: rows of A are whole 16-byte vectors, rows of B too or read folded: XB_TMA_RAGGED_MIN_N) takes
#: the x·B products gemv_xb would where B holds at least
#: XB_TMA_MIN_STREAM elements and N >= XB_TMA_MIN_N, or, for M > 4 (its 8-row tile), at least
#: XB_TMA_MIN_STREAM_8. Its ring keeps more bytes in flight than gemv_xb's registers, which hold few
#: at 8 rows: on 95 shapes (scripts/variants_s20/probe_xb_tma_rule.py, H100) every M = 6 and 8 one
#: ran 1.04-2.8x faster (8x1024x1024 29.2 -> 10.4 us, 8x8192x16384 203.7 -> 185.4), but one, below
#: this threshold: 6x2048x1024, 26 -> 418 us, which did not reproduce (12.0 us in two later
#: processes; RESULTS.md, twentieth session); at M <= 4 it gained
#: 4-7% from 2^26 elements of B with N >= 4096 (1x4096x16384 105.5 -> 101.4 us) and lost up to
#: 10% with narrower or smaller B (1x1024x16384 32.6 -> 35.9 us: 32 column blocks, K split 4 ways)
XB_TMA_MIN_STREAM = 2**26
XB_TMA_MIN_N = 4096
XB_TMA_MIN_STREAM_8 = 2**22
#: ... and, at 8 rows, whose grid (column blocks x K slices) is at most this many blocks per SM:
#: on the 48 random shapes of probe_xb_tma_rule.py --heldout, the M > 4 ones ran 1.02-1.67x faster
#: up to 264 blocks (132 SMs; one at 257 blocks 2% slower), and 0.88-1.08x on 335-1683 blocks
#: (6x4252x5548 in 335: 47.0 -> 53.1 us), where each block's ring fills and drains in turn
XB_TMA_MAX_ROUNDS = 2
#: its params by M rounded up to a power of two: 64 columns per block, or 32 where that fills the
#: SMs' one block each (their rings take most of the shared memory) more than 5% better
#: (1x4096x16384: 89.7% of a copy's bandwidth on 128 blocks of 32, 87.5% on 64 blocks of 64 in two
#: K slices; 8x8192x8192: 89.9% on 128 blocks of 64, 86.5% on 256 of 32)
_XB_TMA = {1: dict(mt=1, rk=128, stages=6), 2: dict(mt=2, rk=128, stages=6), 4: dict(mt=4, rk=128, stages=6),
           8: {}}
_XB_TMA_NARROW = {1: dict(mt=1, bn=32, rk=128, stages=8), 2: dict(mt=2, bn=32, rk=128, stages=8),
                  4: dict(mt=4, bn=32, rk=128, stages=8), 8: dict(mt=8, bn=32, rk=128)}


#: gemv_xb_tma takes x·B products whose rows of B are not whole 16-byte vectors only where N is
#: at least this: it reads such a B folded (GemvXbTmaConfig.fold: 2 or 4 rows of B to a row of its
#: tensor map, no copy). On the H100 (scripts/variants_s25/probe_fold.py, 37 ragged shapes, x
#: cuBLAS FP32): each of the 23 with M <= 16 ran 1.005-3.2x faster than auto's pick had
#: (16x50257x4096 0.35 -> 1.14, 4x50257x4096 0.90 -> 1.03, 13x9290x19359 0.68 -> 1.17); from 17
#: rows it lost on 8 of 14 (19x16719x11110 0.70 -> 0.51), so ragged x·B with 9 or more rows goes
#: in chunks only up to 16, or up to XB_TMA_CHUNK_MAX where B is a wave of 128-column blocks wide:
#: the 4 of the 14 that are (N >= 17000) went to wgmma_tma_tf32 and ran 1.6-2.1x faster folded
#: (24x17623x5357 0.27 -> 0.52x cuBLAS), while 8 of the 10 narrower ones lost to wgmma_split_k. As
#: shipped, on 20 held-out shapes (probe_fold.py --heldout --seed 2505): 0.81 -> 1.32x cuBLAS, the
#: lowest 0.96; with 17-32 rows and a wide B, on 12 (gpu_s25j.sh): 0.43 -> 0.76x. Rows of A that
#: are not whole vectors (M > 1) still keep a product off the rung: A is copied into padded rows
#: at each call, and 7x1747x7191 ran 38 us in some rounds and 146-195 in others that way, and
#: 150-670 with A's rows padded by the caller (scripts/variants_s25/probe_fold_low.py; not
#: understood)
XB_TMA_RAGGED_MIN_N = 1024
XB_TMA_RAGGED_CHUNK_MAX = 16


def _a_copied(M: int, K: int) -> bool:
    """Whether gemv_xb_tma would copy A into padded rows (float32 rows of A that are not whole
    16-byte vectors; a single row may have any pitch)."""
    return M > 1 and K % 4 != 0


def _xb_tma(M: int, N: int, K: int, sms: int) -> "tuple[str, dict[str, int]] | None":
    """gemv_xb_tma and its params for a float32 x·B that gemv_xb would take, or None where B is
    small or narrow (XB_TMA_MIN_STREAM, XB_TMA_MIN_N, XB_TMA_MIN_STREAM_8), where a row of A (M > 1)
    is not a whole number of 16-byte vectors (A would be copied), or where a row of B is not and N
    is under XB_TMA_RAGGED_MIN_N (B is read folded from there).

    >>> _xb_tma(8, 8192, 8192, 132)
    ('gemv_xb_tma', {})
    >>> _xb_tma(1, 4096, 16384, 132)
    ('gemv_xb_tma', {'mt': 1, 'bn': 32, 'rk': 128, 'stages': 8})
    >>> _xb_tma(1, 8190, 16384, 132)   # rows of B not whole vectors: read folded
    ('gemv_xb_tma', {'mt': 1, 'rk': 128, 'stages': 6})
    >>> _xb_tma(1, 2048, 32768, 132) is None, _xb_tma(8, 2048, 2048, 132)[0]
    (True, 'gemv_xb_tma')
    """
    big = N * K >= XB_TMA_MIN_STREAM_8 if M > 4 else N * K >= XB_TMA_MIN_STREAM and N >= XB_TMA_MIN_N
    if not big or _a_copied(M, K) or N % 4 and N < XB_TMA_RAGGED_MIN_N:
        return None
    rows = 1 << (M - 1).bit_length()

    def fill(bn: int) -> float:  # the share of one block per SM that the column blocks use
        blocks = cdiv(N, bn)
        return blocks / (cdiv(blocks, sms) * sms)

    params = dict((_XB_TMA_NARROW if fill(32) > 1.05 * fill(64) else _XB_TMA)[rows])
    if rows == 8:
        from .strategies.gemv_xb_tma import GemvXbTmaConfig

        cfg = GemvXbTmaConfig(**params)
        if cfg.output_blocks(M, N) * cfg.k_splits(M, N, K, sms, "float32") > XB_TMA_MAX_ROUNDS * sms:
            return None
    return "gemv_xb_tma", params


#: float32 x·B products with GEMV_MAX < M <= XB_TMA_CHUNK_MAX rows whose B holds at least
#: XB_TMA_MIN_STREAM_8 elements (rows of A whole 16-byte vectors; rows of B too, or read folded up
#: to XB_TMA_RAGGED_CHUNK_MAX rows) stream B through gemv_xb_tma in chunks
#: of 8 or 16 rows (whichever pads M less, ties to 16), the chunks of a column block resident
#: together so that B comes from DRAM about once. The wgmma rungs they went to spend a 64-row tile
#: on them: on 11 such shapes (scripts/variants_s25/probe_skinny.py, H100, x cuBLAS FP32) auto's
#: pick ran 0.80-1.47, gemv_xb_tma's chunks 0.96-1.95 (12x8192x8192 1.11 -> 1.77, 24x4096x16384
#: 0.80 -> 1.10, 32x4096x4096 1.10 -> 1.25); at 48 and 64 rows the wgmma pick stayed faster
#: (64x8192x8192: 1.13 against 0.84)
XB_TMA_CHUNK_MAX = 32
#: float32 A·x products with GEMV_MAX < N <= AX_CHUNK_MAX columns whose A holds at least
#: AX_CHUNK_MIN_STREAM elements stream A through gemv_ax in chunks of 8 columns: on the H100
#: (probe_skinny.py) 16384x9x4096 0.97 -> 1.29x cuBLAS FP32, 5000x12x6000 0.92 -> 1.04,
#: 13126x15x760 0.92 -> 1.18, 8192x16x8192 0.91 -> 1.06; with 20-32 columns (3-4 chunks) the wgmma
#: pick stayed faster (8192x32x4096: 0.98 against 0.61)
AX_CHUNK_MAX = 16
AX_CHUNK_MIN_STREAM = 2**22


def _skinny_chunks(M: int, N: int, K: int, sms: int, tma: bool) -> "tuple[str, dict[str, int]] | None":
    """The GEMV rung, run in chunks of rows (x·B, gemv_xb_tma; needs `tma`) or columns (A·x,
    gemv_ax), for a float32 product a little wider than GEMV_MAX that streams a large operand
    (XB_TMA_CHUNK_MAX, AX_CHUNK_MAX), else None.

    >>> _skinny_chunks(12, 8192, 8192, 132, True), _skinny_chunks(24, 4096, 16384, 132, True)
    (('gemv_xb_tma', {'mt': 16}), ('gemv_xb_tma', {}))
    >>> _skinny_chunks(17, 3287, 12617, 132, True) is None   # ragged rows of B from 17 rows on
    True
    >>> _skinny_chunks(13, 9290, 19360, 132, True)           # ragged: read folded up to 16 rows
    ('gemv_xb_tma', {'mt': 16})
    >>> _skinny_chunks(8192, 16, 8192, 132, True)
    ('gemv_ax', {'nt': 8, 'rows': 4, 'unroll': 1})
    """
    ragged = N % 4 != 0
    rows = XB_TMA_RAGGED_CHUNK_MAX if ragged and cdiv(N, 128) < sms else XB_TMA_CHUNK_MAX
    if (GEMV_MAX < M <= rows and M < N and tma and N * K >= XB_TMA_MIN_STREAM_8 and not _a_copied(M, K)
            and (not ragged or N >= XB_TMA_RAGGED_MIN_N)):
        return "gemv_xb_tma", ({} if cdiv(M, 8) * 8 < cdiv(M, 16) * 16 else dict(mt=16))
    if GEMV_MAX < N <= AX_CHUNK_MAX and N < M and M * K >= AX_CHUNK_MIN_STREAM:
        return "gemv_ax", dict(_AX[8])
    return None


def _gemv(M: int, N: int, K: int) -> "tuple[str, dict[str, int]] | None":
    """The GEMV rung and params for a skinny shape, or None.

    >>> _gemv(4, 60, 655)      # a small B, but a K one tile would walk alone: K groups
    ('gemv_xb', {'threads': 256, 'mt': 4, 'unroll': 8, 'min_blocks': 1, 'kg': 16})
    >>> _gemv(676, 4, 2) is None
    True
    """
    if M <= GEMV_MAX < N and (N * K >= GEMV_MIN_STREAM or K >= GEMV_SHORT_K):
        return "gemv_xb", _xb_params(_XB, _XB_ONE_GROUP, M, N, K)
    if N <= GEMV_MAX and (M * K >= GEMV_MIN_STREAM or K >= GEMV_SHORT_K):
        return "gemv_ax", dict(_AX[1 << (N - 1).bit_length()])
    return None


def _wave_fill(M: int, N: int, bm: int, bn: int, sms: int) -> float:
    """Useful fraction of the block-slots the grid occupies: M*N over (waves * sms * bm * bn)."""
    tiles = cdiv(M, bm) * cdiv(N, bn)
    return M * N / (cdiv(tiles, sms) * sms * bm * bn)


#: most K slices the heuristic asks split_k and dmma_split_k for (their rule allows 64): a 64 x 64
#: output with K = 65536 needs 64 slices of 1024 to put 64 blocks on the GPU
MAX_SLICES = 64
#: most K slices for wgmma_split_k (its rule allows 128): on the H100 a one-tile 64 x 64 x 65536
#: product ran 0.97x cuBLAS FP32 in 128 slices against 0.89x in 64 (scripts/probe_split128.py)
WG_MAX_SLICES = 128


def _slices(tiles: int, K: int, target: int, most: int = 16, depth: int = 256, cap: bool = False) -> int:
    """Power-of-two slice count (2..most), slices >= `depth` deep: the first that reaches `target`
    blocks, or with `cap` the last that stays within `target` blocks."""
    split = 2
    while (split < most and K // (split * 2) >= depth
           and (tiles * split * 2 <= target if cap else tiles * split < target)):
        split *= 2
    return split


def _split_tile(M: int, N: int, K: int, sms: int, tiles_: tuple, depth: int,
                most: int = MAX_SLICES, cap: bool = False) -> dict[str, int]:
    """A split-K rung's params for a C too small to fill `sms` SMs with its tiles: for each tile of
    `tiles_` (bigger first), the power-of-two slice count that reaches one block per SM (with
    `cap`: the most slices that stay within one block per SM), up to `most`, slices >= `depth`
    deep; then the tile whose blocks cover the most SMs with useful work, i.e. the largest
    (M*N / area of its tiles) x min(1, blocks / sms), ties to the bigger tile."""
    best, best_score = None, -1.0
    for tile in tiles_:
        tiles = cdiv(M, tile["bm"]) * cdiv(N, tile["bn"])
        split = _slices(tiles, K, sms, most, depth, cap)
        score = M * N / (tiles * tile["bm"] * tile["bn"]) * min(1.0, tiles * split / sms)
        if score > best_score + 1e-9:
            best, best_score = dict(tile, split_k=split), score
    return best


def _wgmma_split(M: int, N: int, K: int, sms: int, skinny: bool = False) -> dict[str, int]:
    """wgmma_split_k's params for a C of fewer than `sms` 64 x 64 tiles (:func:`_split_tile` over
    its 128 x 128, 64 x 128 and 64 x 64 tiles, up to WG_MAX_SLICES): as many slices as stay within
    one block per SM, each at least WG_SPLIT_MIN_SLICE deep. A `skinny` C (M or N <= GEMV_MAX, on
    the tensor cores only when a precision asks for them) streams an operand: its slices are
    256 deep, or K/4 (>= WG_SPLIT_MIN_SLICE) for a shorter K, and reach one block per SM.

    On the H100 (scripts/variants_s17/probe_sweep.py split, 24 outputs of 41x59 to 256x256 at
    K = 512..32768, every tile at 2..128 slices) this rule's pick came within 10% of the fastest
    on 21 (geometric mean 1.04x the fastest), the earlier one, slices 256 deep or K/4 and blocks
    until one per SM, on 6 (1.25x: 41x59x2048 14.8 us in 8 slices against 9.4 in 32,
    92x281x32768 100 us in 16 slices of 64 x 64 against 81 in 32 of 128 x 128).

    >>> _wgmma_split(256, 256, 256, 132)
    {'bm': 64, 'bn': 64, 'stages': 4, 'min_blocks': 2, 'split_k': 4}
    >>> _wgmma_split(41, 59, 8192, 132)
    {'bm': 64, 'bn': 64, 'stages': 4, 'min_blocks': 2, 'split_k': 128}
    """
    if skinny and min(M, N) <= GEMV_MAX:
        return _split_tile(M, N, K, sms, _WG_SPLIT_TILES, max(WG_SPLIT_MIN_SLICE, min(256, K // 4)), WG_MAX_SLICES)
    return _split_tile(M, N, K, sms, _WG_SPLIT_TILES, WG_SPLIT_MIN_SLICE, WG_MAX_SLICES, cap=True)


def _dmma_split(M: int, N: int, K: int, sms: int) -> dict[str, int]:
    """dmma_split_k's params for a float64 C of fewer than `sms` 128 x 128 tiles (:func:`_split_tile`
    over its 128 x 64, 64 x 64 and 32 x 64 tiles, slices >= DMMA_SPLIT_MIN_SLICE deep), written as
    the differences from its default config.

    >>> _dmma_split(512, 512, 512, 132)
    {'split_k': 4}
    >>> _dmma_split(32, 1024, 32768, 132)
    {'bm': 32, 'bk': 16, 'wm': 16, 'min_blocks': 4, 'split_k': 16}
    """
    params = _split_tile(M, N, K, sms, _DMMA_SPLIT_TILES, DMMA_SPLIT_MIN_SLICE)
    default = _DMMA_SPLIT_TILES[1]
    return {k: v for k, v in params.items() if default.get(k) != v or k == "split_k"}


def _wgmma_pick(M: int, N: int, K: int, sms: int, skinny: bool = False) -> "tuple[str, dict[str, int]] | None":
    """wgmma's pick by waves of its tiles, else wgmma_split_k for K >= WG_SPLIT_MIN_K (and, unless
    `skinny`, min(M, N) > 8), else None."""
    if cdiv(M, 128) * cdiv(N, 128) >= sms:
        rows = max(_WG_ROWS, key=lambda bm: _WG_ROWS[bm][0] * _wave_fill(M, N, bm, 128, sms))
        return "wgmma", dict(_WG_ROWS[rows][1])
    # 1024^3 makes 128 such tiles; unless 64 x 64 tiles (2 per SM) fill their waves better
    # (3114x291x3243: 147 tiles of 64 x 128, 1.1 waves, 0.50x cuBLAS FP32; 245 of 64 x 64 in one
    # wave, 0.88x: scripts/variants_s14/probe_mid32.py, H100)
    if (N > 64 and cdiv(M, 64) * cdiv(N, 128) >= 3 * sms // 4
            and _wave_fill(M, N, 64, 128, sms) >= _wave_fill(M, N, 64, 64, 2 * sms)):
        return "wgmma", dict(_WG_MID)
    if cdiv(M, 64) * cdiv(N, 64) >= sms:
        return "wgmma", dict(_WG_NARROW)
    if K >= WG_SPLIT_MIN_K and (skinny or min(M, N) > 8):
        return "wgmma_split_k", _wgmma_split(M, N, K, sms, skinny)
    return None


#: wgmma_tma_tf32's params per mode, and the tile whose count must reach one wave of SMs for it
_TMA_TF32 = {"tf32x3": ({}, (128, 128)), "tf32": (dict(bm=256, stages=4, passes=1), (256, 128))}
#: whether `auto` (the default request, tf32x3 from K = TF32X3_MIN_K) runs wgmma_tma_tf32 too, or
#: only requests that name "tf32x3" or "tf32". On: H100, 4096^3 tf32x3 98.3 TF/s against wgmma's
#: 66.6 (1.48x), 8192^3 100.1; 3001x2999x3007 72.3 (scripts/bench_tf32tma.py, 2026-11-22). Its
#: accumulation is wgmma's (a fresh partial per 32-deep K step, added by FADD), so where auto
#: gives it a shape (from one wave of 128 x 128 tiles) the error is the one auto had there; long
#: K on small outputs stays with wgmma_split_k, which the wave rule leaves those shapes to.
TMA_TF32_AUTO = True
#: the fraction of a wave of 128 x 128 tiles from which `auto` (tf32x3) runs wgmma_tma_tf32: below
#: one wave it still beat wgmma's 64 x 128 and 64 x 64 tiles and split-K (H100,
#: scripts/variants_s14/probe_mid32.py, x cuBLAS FP32): 1715x831x3649 (98 tiles) 1.20 against at
#: most 1.08, 2110x663x3825 (102) 1.38 against 1.07, 3000x500x2000 (96) 1.67 against 1.25,
#: 4124x291x485 (99) 0.90 against 0.92 for wgmma 128 x 128; at 75 tiles (3114x291x3243) 0.78
#: against 0.88 for 64 x 64 tiles
TMA_TF32_MIN_WAVE = 0.7


#: longest K that `auto` (tf32x3) lets one tile sum in a single chain of 32-deep partials. On the
#: H100 (scripts/probe_chain_k.py, 1536^2 outputs, the smallest auto gives the TMA rung; two seeds
#: of uniform[-1,1], uniform[0,1], cancellation), one chain's per-element error over cuBLAS FP32's
#: was 0.87-1.15x at K = 8192, 0.76-1.13x at 16384, and 2.0-4.4x at 32768, where cuBLAS sums
#: shorter pieces (its own error halves) while the chain's rounding keeps growing; at 65536,
#: 2.4-4.2x. wgmma_split_k sums slices of at most this depth and reduces them in a fixed order
#: (its workspace cap can leave a very large output unsplit).
AUTO_CHAIN_K = 16384


def _tma_tf32_pick(M: int, N: int, K: int, sms: int, mode: str) -> "tuple[str, dict[str, int]] | None":
    """wgmma_tma_tf32 (TMA, warp-specialised, persistent) for a float32 product in `mode` whose
    output fills at least one wave of the mode's tiles (tf32x3: TMA_TF32_MIN_WAVE of one, for a K
    of at most AUTO_CHAIN_K and M and N over two tiles: the narrow outputs keep their own rules),
    else None.

    >>> _tma_tf32_pick(3000, 500, 2000, 132, "tf32x3")   # 96 tiles of 128 x 128
    ('wgmma_tma_tf32', {})
    >>> _tma_tf32_pick(3114, 291, 3243, 132, "tf32x3") is None   # 75
    True
    """
    from . import registry  # the registry imports the strategies, which import the config bases

    if mode not in _TMA_TF32 or "wgmma_tma_tf32" not in registry.STRATEGIES:
        return None
    params, (bm, bn) = _TMA_TF32[mode]
    tiles = cdiv(M, bm) * cdiv(N, bn)
    if tiles >= sms or (mode == "tf32x3" and K <= AUTO_CHAIN_K and min(M, N) > 2 * bn
                        and tiles >= TMA_TF32_MIN_WAVE * sms):
        return "wgmma_tma_tf32", dict(params)
    return None


def _tensor_cores_only(M: int, N: int, K: int, sms: int, wgmma: bool) -> tuple[str, dict[str, int]]:
    """The tensor-core pick for any shape, skinny and short-K ones included (tf32x3 or tf32 asked
    for by name): wgmma's rules, else its narrowest tile (tensor_core's off Hopper)."""
    if not wgmma:
        return ("tensor_core", {}) if cdiv(M, 128) * cdiv(N, 128) >= sms else ("tensor_core", dict(_TC_SMALL))
    return _wgmma_pick(M, N, K, sms, skinny=True) or ("wgmma", dict(_WG_NARROW))


#: the cp.async rung `auto` runs for float16 and bfloat16 wherever wgmma_tma cannot (rows that
#: are not 16-byte multiples, batches, fused epilogues, other layouts, float32 output)
HALF_STRATEGIES = ("mma_half",)
#: every rung half_pick returns: HALF_STRATEGIES, the TMA rung, the split and the GEMV rungs
HALF_PICKS = (*HALF_STRATEGIES, "wgmma_tma", "wgmma_tma_split_k", "mma_half_split_k", "gemv_xb_half", "gemv_ax_half",
              "gemv_ax_mma")
#: mma_half's tile below one wave of 128 x 128 tiles: 64 x 64, 3 blocks per SM
_HALF_SMALL = dict(bm=64, bn=64, wm=32, wn=32, stages=4, min_blocks=3)
#: mma_half_split_k's tiles, the bigger first (:func:`_split_tile`)
_HALF_SPLIT_TILES = (dict(bm=128, bn=128, wm=64, wn=32, min_blocks=2), dict(bm=64, bn=64))
#: mma_half's 32 x 32 tile (4 warps of 16 x 16, 4 blocks per SM), for small outputs with a short K:
#: on the H100 (scripts/variants_s15/probe_half_small.py, float16, x cuBLAS) against the 64 x 64
#: tile, unsplit: 1265x51x137 0.79 against 0.51, 16049x85x7 0.72 against 0.63, 4447x127x15 0.82
#: against 0.71, 27x3988x55 0.88 against 0.72; split 8 ways: 41x59x834 0.93 against 0.66,
#: 631x15x573 0.91 against 0.68, 504x205x1632 0.97 against 0.77
_HALF_TINY = dict(bm=32, bn=32, wm=16, wn=16, stages=4, min_blocks=4)
#: ... unsplit, only under this many 64 x 64 tiles per SM: with C's unaligned rows stored through
#: shared memory (sixteenth session, scripts/variants_s16/probe_half_unaligned.py, float16, us, 32 x 32
#: against 64 x 64) the 64 x 64 tile wins from about two per SM: 2000x1001x200 (512 tiles) 28.9
#: against 17.8, 8000x250x8 (504) 9.3 against 8.3, 16049x85x7 (502) 9.1 against 8.7; the 32 x 32
#: tile below: 16068x50x8 (252) 6.5 against 7.3, 12399x18x89 (194) 8.5 against 11.6, 4447x127x15
#: (140) 6.3 against 7.7; and where the 64 x 64 tiles would be mostly padding (under SMALL32_FILL of
#: their area is C, as for float32's 32 x 32 tile): 65x9309x57 (292 tiles, half of them a row deep)
#: 8.6 against 9.9. Left: 1824x588x6 (290 tiles, 90% C) 7.0 against 7.8 (scripts/gpu_s16j.sh)
HALF_TINY_MAX_TILES_PER_SM = 2
#: a K up to which mma_half_split_k also weighs the 32 x 32 tile and cuts slices from
#: HALF_SPLIT_SHORT_SLICE deep (two of its 32-deep steps): with slices of at least
#: HALF_SPLIT_MIN_SLICE, 41x59x834 ran 4 slices of one 64 x 64 tile at 0.49 (8 slices of 4 32 x 32
#: tiles: 0.93), 3178x33x915 4 slices at 0.71 (8: 0.92)
HALF_SPLIT_SHORT_K = 2048
HALF_SPLIT_SHORT_SLICE = 64
#: ... and it splits from K = HALF_TMA_MIN_K for fewer 64 x 64 tiles than this (wgmma_tma's 128 x 128
#: tile ran 239x82x258 at 0.49-0.55x cuBLAS, 4 slices of 32 x 32 tiles 0.73-0.82; 300x300x256 0.63-0.67
#: against 0.72-0.77); not for more (1000x200x400, 64 tiles: 0.78 against 0.63-0.67)
HALF_SPLIT_FEW_TILES = 32
#: a plain 16-bit product with fewer 64 x 64 tiles than SMs splits K from this K on
#: (mma_half_split_k): one 64 x 64 block per tile walked K alone, a step (32 deep) after another,
#: 0.02-0.1x cuBLAS at 1x4x12791, 92x281x16065, 261x473x14735 (benchmarks/random_shapes.py, H100)
HALF_SPLIT_MIN_K = 512
#: ... in slices of at least this many elements of K (4 of its 32-deep steps)
HALF_SPLIT_MIN_SLICE = 128
#: wgmma_tma's 128 x 128 tile, for a plain 16-bit product under half a wave of its 128 x 256 tiles:
#: against mma_half (H100, scripts/variants_s14/probe_small.py, float16) 2110x663x3825 108 us
#: against 279 (cuBLAS 123), 4124x291x485 34 against 42, 512x512x384 8.2 against 9.3,
#: 300x300x256 11.9 against 16.1
_HALF_TMA_NARROW = dict(bm=128, bn=128, stages=5)
#: ... but not where C's rows are not 16-byte aligned (N not a multiple of 8: no TMA stores; A and B
#: are copied into padded rows) and K is shorter than this: the copies and the stores were the time
#: there (12399x18x89 20.1-20.8 us on either wgmma_tma tile against mma_half's 10.2, 1265x51x137
#: 15.0 against 13.6; measured when C went out from the accumulators, before the row copy of the
#: thirty-first session)
HALF_TMA_MIN_K = 256
#: ... unless K is at least HALF_TMA_PAD_MIN_K and C holds at least HALF_TMA_PAD_FILL waves of 128 x
#: 256 tiles' area (elements, not tiles: 12399 x 18 spans 194 tiles with 7% of their area): wgmma_tma
#: copies only A and B (C's unaligned rows go out through its shared-memory C tile), and mma_half's
#: loop runs at half wgmma_tma's (on padded operands, copies untimed: 16328x1673x187 78 against 32
#: us, scripts/gpu_s31b.sh). With the copies and the row-by-row stores, on the H100 (float16, x
#: cuBLAS, gpu_s31d.sh, seed 3107 and 12 earlier draws) wgmma_tma beat mma_half's default from K
#: 128 on 5 of 6 (16328x1673x187 0.87 -> 1.35, 6836x6530x187 0.84 -> 1.33; 820x4308x163 0.85 ->
#: 0.78) and lost on all 14 below (the copies' launches and the stores: 1187x5447x4 0.84 -> 0.50).
#: Held out on 20 fresh draws with K 128-255 (gpu_s31e.sh, seeds 3109/3110): float16 0.809 -> 0.937,
#: bfloat16 0.836 -> 1.074, 17 faster (14349x4261x238 0.84 -> 1.54), 6561x625x189 0.82 -> 0.59 and
#: 3281x1117x158 0.84 -> 0.80 slower: B's narrow rows leave 128 x 256 tiles part empty
HALF_TMA_PAD_MIN_K = 128
HALF_TMA_PAD_FILL = 0.5
#: ... on wgmma_tma's 128 x 64 tile (:data:`_HALF_TMA_SMALL`) where N is at most this: a narrow B
#: leaves 128 x 256 tiles part empty. On the H100 (x cuBLAS, medians of 3 rounds): 12 float16
#: draws with N 300-1500 (gpu_s31g.sh) 0.879 -> 1.017; held out (gpu_s32a.sh, seeds 3201/3202),
#: the 7 fresh draws with N <= 1536 faster on 6 (8513x367x138 0.53 -> 0.70, 4093x1341x200 1.29 ->
#: 1.49; 5086x1485x204 1.14 -> 1.12), while the 13 wider ones were even (4 ahead, 8 behind by
#: 1-9%: 838x3620x226 0.69 -> 0.63, 10970x6806x198 1.02 -> 0.94), so they keep 128 x 256
HALF_TMA_PAD_NARROW_N = 1536
#: wgmma_tma_split_k (its 128 x 128 tile) instead of mma_half_split_k where TMA reads the operands
#: (rows padded by a copy where needed) and :func:`_tma_split_count` cuts at least 2 slices: as
#: many as keep tiles x slices within one CTA per SM, each at least TMA_SPLIT_MIN_SLICE deep, up to
#: TMA_SPLIT_MAX. On the H100 (scripts/variants_s18/probe_tma_split.py, float16, us, the old pick
#: -> this rule; cuBLAS): 128x4096x4096 46.8 -> 27.4 (23.0), 64x8192x8192 81.1 -> 65.0 (58.0),
#: 32x4096x4096 32.1 -> 25.0 (20.8), 256x256x131072 129.9 -> 65.7 (63.5), 8192x32x8192 92.8 ->
#: 63.1 (59.7), 1024x32x32768 52.4 -> 39.7 (38.2), 245x80x7522 23.9 -> 17.2 (15.3); more slices
#: cost their workspace (128x4096x4096 in 64 slices: 124 us). For K <= HALF_SPLIT_SHORT_K the
#: 128 x 64 tile below beat it (512^3: 7.3 against 10.6)
TMA_SPLIT_MIN_SLICE = 256
TMA_SPLIT_MAX = 64
#: ... and for M >= TMA_SPLIT_MIN_M (from 16 it won: 16x4096x4096 0.77 -> 0.88x cuBLAS). Under it,
#: where most of the 128-row A box is zeros, neither rung won on every shape (scripts/gpu_s18i.sh,
#: float16, the TMA split against mma_half_split_k): 9x179x9579 0.77 against 0.88, 9x3000x40000 0.88 against 0.94,
#: 12x5000x6000 0.83 both, 8x8192x8192 0.86 against 0.84, 15x2000x20000 0.92 against 0.85 (geometric
#: mean 0.851 against 0.867): mma_half_split_k stays there
TMA_SPLIT_MIN_M = 16
#: wgmma_tma's 128 x 256 tile in 2-CTA clusters (each B box loaded once for both by TMA multicast)
#: instead of the default single CTAs, where B's rows (N padded to 16 bytes) are not a multiple of
#: 128 bytes, so that every 128-byte row of a B box straddles two lines, and K >= TMA_CLUSTER_MIN_K.
#: On the H100 (scripts/variants_s18/probe_c2.py, float16, us, default -> clusters; cuBLAS):
#: 5000x3000x1000 83.3 -> 62.3 (57.4), 3000x5000x1000 84.6 -> 63.3 (57.7), 10000x1000x1000 63.8 ->
#: 47.3 (39.6), 5000x3000x4000 255.9 -> 192.3 (176.3), 2500x2500x1000 58.7 -> 53.4, 6000x4000x1000
#: 93.2 -> 87.2; with 128-byte rows the default stays ahead (5120x3072x1024 52.3 against 55.7,
#: 4096x2048x1000 31.2 against 33.4), and at shorter K too (4000x6000x512 47.1 against 51.1,
#: 7000x2000x800 46.6 against 47.5)
_HALF_TMA_CLUSTER = dict(bm=128, bn=256, stages=3, cluster_m=2)
TMA_CLUSTER_MIN_K = 1000
#: wgmma_tma's 128 x 64 tile (8 stages of 24 KB), for a plain 16-bit product with K up to
#: HALF_SPLIT_SHORT_K whose 128 x 64 tiles fit one wave, from TMA_SMALL_MIN_TILES of them: twice the
#: CTAs of the 128 x 128 tile. On the H100 (scripts/variants_s18/probe_s18e.py mid, float16, us;
#: cuBLAS): 1024^3 9.9 against the 128 x 128 tile's 11.6 (9.3), 768^3 8.6 against 10.2 (7.8), 512^3
#: 7.3 against 8.4 and the TMA split's 10.6 (6.9); past a wave it loses (2048x2048x1024: 21.8
#: against the default tile's 18.5). Under TMA_SMALL_MIN_TILES (256^3: 8) mma_half_split_k's
#: 32 x 32 tile stays, and a longer K splits instead (32x4096x4096: 32.8 against the split's 24.8)
_HALF_TMA_SMALL = dict(bm=128, bn=64, stages=8)
TMA_SMALL_MIN_TILES = 32
#: A product of at least half a wave of 128 x 256 tiles whose C is at most this narrow runs on the
#: 128 x 64 tile (N <= HALF_NARROW_C / 2) or the 128 x 128 one, not the 128 x 256 tile (in clusters
#: or not), half or more of which would be padding. On the H100 (scripts/variants_s38/
#: probe_narrow_n.py, x cuBLAS, float16; bfloat16 within 0.01), 21 shapes M = 10186-65536, N = 16-128,
#: K = 300-16384: the 128 x 256 pick 0.836 (geometric mean, lowest 0.68), the rule 1.004 (lowest 0.78):
#: 10186x50x4008 0.92 -> 1.19, 10186x16x1024 0.68 -> 0.88, 32768x128x4008 0.92 -> 1.03,
#: 65536x100x2048 1.00 -> 1.09; with N > 64 the 128 x 64 tile reads A twice (32768x128x4008
#: 0.69), and at N = 200 the 128 x 256 cluster tile stays ahead (17000x200x4096 0.64 against 0.57)
HALF_NARROW_C = 128


#: A batch of 16-bit products that does not fold into one 2-D product runs on wgmma_tma's batched
#: launch wherever TMA takes it (:func:`half_batch_pick`), on its 128 x 256 tile or its 128 x 64
#: one, whichever needs less tile work: waves x tile width, the narrow tile's width weighted by
#: this factor, which grows with K from BATCH_NARROW_COST[0] (K up to BATCH_NARROW_K[0]: both
#: tiles' fixed parts are the time) to BATCH_NARROW_COST[1] (from K = BATCH_NARROW_K[1]: the narrow
#: tile's loop reads twice the bytes per multiply-add and runs at about half the rate). Fitted
#: on 32 random draws (scripts/variants_s36/batched_routes.py, seeds 3501/3502, H100, us): of the
#: 27 it takes, the rule picks the faster tile on 20, is within 3% on 4 and 7-13% slower on 3
#: (64x217x832x96 20.4 against 18.9, 5x304x570x1871 34.5 against 32.1, 33x2699x105x1821 480
#: against 425); its clusters were timed on the stacked picks only (even there). Held out on 14
#: fresh draws (gpu_s36c.sh, seed 3503): 1.28x cuBLAS's batched GEMM (geometric mean, float16 and
#: bfloat16 alike; lowest 0.55, 11x161x49x109). It replaced mma_half, which `auto` ran where the
#: stacked 2-D pick was not wgmma_tma or its 128-row tiles would pad each matrix by more than a
#: quarter: 7x103x229x658 56.0 -> 17.5 (cuBLAS 15.7), 13x92x3200x2110 923 -> 211 (170),
#: 12x273x909x3821 492 -> 182 (422), 2x53x1319x1215 130 -> 20.4 (37.1)
BATCH_NARROW_COST = (1.15, 2.0)
BATCH_NARROW_K = (512, 1024)

#: gemv_xb_half's params by M rounded up to a power of two (its K-group configs), and the rows of A
#: it takes at most: on the H100 (scripts/variants_s14/probe_half_gemv.py, x cuBLAS, float16 and
#: bfloat16) 1x8192x8192 0.98-0.99, 2x8192x8192 0.96, 1x4096x16384 1.02-1.05, 4x4096x4096
#: 0.91-0.92, against mma_half_split_k's 0.89 / 0.86-0.88 / 0.92-0.93 / 0.75-0.77; at M = 8 it ran
#: 0.73-0.77 against the split's 0.82-0.86
_XB_HALF = {1: dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), 2: dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32),
            4: dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16)}
HALF_GEMV_MAX = 4
#: ... and with one K group where a group's run would be short (K < GEMV_KG_MIN_RUN * kg)
_XB_HALF_ONE_GROUP = {1: dict(mt=1, unroll=8), 2: dict(mt=2, unroll=8), 4: {}}
#: gemv_xb_half's params where B's rows are not 16-byte aligned (its element path), for M <= 2: an LM
#: head over 50257 columns, 1x50257x4096 float16, ran 1.06-1.07x cuBLAS on them (0.88-0.90 with
#: mt=1), 2x50257x4096 0.84, 1x4097x4096 0.72 against the split's 0.53, where auto had padded B by a
#: copy for wgmma_tma (0.18-0.23x); at M = 4 both GEMV tiles ran 0.50 against the split's 0.63
#: (scripts/variants_s14/probe_lm_head.py, H100)
_XB_HALF_ELEM = dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32)
HALF_GEMV_ELEM_MAX = 2
#: gemv_ax_half's params by N, for the columns it takes (N < HALF_AX_MMA_MIN: gemv_ax's _AX at the
#: same bytes per load; up to N = 4, on its default config, before gemv_ax_mma): on the H100 (scripts/variants_s14/probe_half_gemv.py, x
#: cuBLAS, float16 and bfloat16) 8192x1x8192 1.06-1.07, 8192x2x8192 1.14, 4096x4x4096 0.97,
#: 9296x1x5592 1.01-1.02, 100000x1x1000 1.18, against mma_half_split_k's 0.59 / 0.70 / 0.75-0.76 /
#: 0.48-0.49 / 0.72; with rows of A not 16-byte aligned (the element path) 9298x1x5590 1.13-1.19 and
#: 29x1x1810 1.04-1.11 against wgmma_tma's (A padded by a copy) 0.21 and the split's 0.47, and
#: 8192x3x4099 0.92-0.94 against 0.67 (scripts/variants_s14/probe_half_edges.py, float16); at N = 8,
#: 8192x8x8192, its tiles ran 0.36-0.50 against the split's 0.66-0.68, at N = 6 0.32-0.60 against 0.69
_AX_HALF = {1: dict(nt=1, rows=4, unroll=2), 2: dict(nt=2)}
#: gemv_ax_mma (the tensor-core A·x) from this many columns of B to GEMV_MAX, where gemv_ax_half's
#: FFMAs (NT per value of A) lose: on the H100 (scripts/variants_s15/probe_ax_cols.py, x cuBLAS,
#: float16; bfloat16 alike) 8192x3x8192 1.24 against gemv_ax_half's 1.02, 8192x4x8192 0.99 against
#: 0.80, 4096x4x4096 1.21 against 1.01, 100000x4x1000 1.29 against 0.96; at N = 1, 2 gemv_ax_half
#: stays ahead (8192x1x8192 1.07 against 0.92, 8192x2x8192 1.18 against 1.10). Over the split,
#: which took N = 5..8 before: 8192x8x8192 0.99-1.00 against 0.66-0.68, 8192x5x8192 1.5-2.0 against
#: 0.91-1.21, 9298x6x5590 (rows of A not 16-byte aligned) 1.03 against 0.38
HALF_AX_MMA_MIN = 3
#: ... its default tile (32 rows, 8 warps along K, 2 blocks per SM), or 16 rows in 8 warps at 3
#: blocks per SM where K is short (100000x8x1000 1.10 against 0.91, 12399x6x890 0.95 against 0.85)
#: or the default's blocks would share the SMs unevenly (9298x6x5590's 291 blocks are 2.2 per SM:
#: 1.03 against 0.89), which SkinnyConfig.split_plan prices for both tiles (waves, rounds, a
#: split's reduce): the narrow tile where its plan is the cheaper
_AX_MMA_NARROW = dict(rt=1, min_blocks=3)
AX_MMA_SHORT_K = 2048
#: gemv_ax_mma (4 warps along K, 4 blocks per SM) also for a small A·x of GEMV_MAX + 1 to
#: AX_MMA_WIDE_MAX columns (fewer than A's rows) whose A holds at most AX_MMA_WIDE_MAX_BYTES: on
#: the H100 (scripts/variants_s18/probe_s18e.py ax, float16, us; cuBLAS) 94x50x6180 12.0 against
#: the TMA split's 17.5 (11.9), 30x11x242 6.9 against mma_half's 12.3 (7.5), 3519x29x204 8.2 against
#: 11.6 (8.0), 1265x51x137 8.2 against 8.9 (7.2), 1000x12x1000 9.2 against 10.4 (10.4). With a
#: larger A the tile rungs stream it better: 4096x32x4096 30.9 against 24.4, 100000x16x1000 118
#: against 99 (gemv_ax_mma reads A once per 8 columns). Checked against the old picks
#: (scripts/variants_s18/probe_s18f.py, float16 and bfloat16): 16x12x12791 19.0 -> 10.0 us, 2000x20x500
#: 15.7 -> 11.6; at 64 columns it lost (150x64x3000 10.6 -> 11.0), so it stops at 56; and from
#: K = GEMV_MIN_K only (16068x50x8 ran 18.2 us against cuBLAS's 6.6: it streams along K)
_AX_MMA_WIDE = dict(kg=4, min_blocks=4)
AX_MMA_WIDE_MAX = 56
AX_MMA_WIDE_MAX_BYTES = 2 * 2**20


def _ax_mma_params(M: int, N: int, K: int, sms: int) -> dict[str, int]:
    """gemv_ax_mma's params for a 16-bit A·x of 3 to 8 columns (:data:`_AX_MMA_NARROW` or its
    default: see there), as the differences from its default config.

    >>> _ax_mma_params(8192, 8, 8192, 132)     # 256 blocks: 1.94 per SM
    {}
    >>> _ax_mma_params(9298, 6, 5590, 132)     # 291 blocks: 2.2 per SM
    {'rt': 1, 'min_blocks': 3}
    >>> _ax_mma_params(100000, 8, 1000, 132)   # a short K
    {'rt': 1, 'min_blocks': 3}
    """
    from .strategies.gemv_ax_mma import GemvAxMmaConfig

    if K <= AX_MMA_SHORT_K:
        return dict(_AX_MMA_NARROW)
    narrow = GemvAxMmaConfig(**_AX_MMA_NARROW).split_plan(M, N, K, sms, "float16")[1]
    return dict(_AX_MMA_NARROW) if narrow < GemvAxMmaConfig().split_plan(M, N, K, sms, "float16")[1] else {}


def _half_gemv(M: int, N: int, K: int, sms: int) -> "tuple[str, dict[str, int]] | None":
    """gemv_xb_half's pick for a plain 16-bit x·B (M <= HALF_GEMV_MAX, N > GEMV_MAX, B of at least
    GEMV_MIN_STREAM elements or K >= GEMV_MIN_K; where B's rows are not 16-byte aligned, its element
    path, for M <= HALF_GEMV_ELEM_MAX only: 5x257x40000 on the 8-row tile ran 8x slower than the
    split);
    gemv_ax_half's for a plain A·x (N < HALF_AX_MMA_MIN, A of at least GEMV_MIN_STREAM elements or
    K >= GEMV_SHORT_K; rows of A aligned or not), gemv_ax_mma's from N = HALF_AX_MMA_MIN to GEMV_MAX
    (the same size rule; :func:`_ax_mma_params` for a GPU of `sms` SMs), and for a small A·x of up to
    AX_MMA_WIDE_MAX columns (fewer than A's rows; A of at most AX_MMA_WIDE_MAX_BYTES; K >= GEMV_MIN_K);
    else None.

    >>> _half_gemv(1, 8192, 8192, 132)
    ('gemv_xb_half', {'threads': 512, 'mt': 1, 'unroll': 8, 'min_blocks': 1, 'kg': 32})
    >>> _half_gemv(8192, 1, 8192, 132)
    ('gemv_ax_half', {'nt': 1, 'rows': 4, 'unroll': 2})
    >>> _half_gemv(8192, 8, 8192, 132)
    ('gemv_ax_mma', {})
    >>> _half_gemv(9298, 6, 5590, 132)   # rows of A not 16-byte aligned: the same rung, its element paths
    ('gemv_ax_mma', {'rt': 1, 'min_blocks': 3})
    >>> _half_gemv(8192, 16, 8192, 132) is None   # N over GEMV_MAX, a large A
    True
    >>> _half_gemv(94, 50, 6180, 132)              # ... a small one
    ('gemv_ax_mma', {'kg': 4, 'min_blocks': 4})
    """
    if M <= HALF_GEMV_MAX and GEMV_MAX < N and (N * K >= GEMV_MIN_STREAM or K >= GEMV_MIN_K):
        if N % 8 == 0:
            return "gemv_xb_half", _xb_params(_XB_HALF, _XB_HALF_ONE_GROUP, M, N, K)
        if M <= HALF_GEMV_ELEM_MAX:
            return "gemv_xb_half", dict(_XB_HALF_ELEM)
    if N <= GEMV_MAX and (M * K >= GEMV_MIN_STREAM or K >= GEMV_SHORT_K):
        if N >= HALF_AX_MMA_MIN:
            return "gemv_ax_mma", _ax_mma_params(M, N, K, sms)
        return "gemv_ax_half", dict(_AX_HALF[N])
    if GEMV_MAX < N <= AX_MMA_WIDE_MAX and N < M and K >= GEMV_MIN_K and M * K * 2 <= AX_MMA_WIDE_MAX_BYTES:
        return "gemv_ax_mma", dict(_AX_MMA_WIDE)
    return None


def _half_split(M: int, N: int, K: int, sms: int) -> dict[str, int]:
    """mma_half_split_k's params for a small 16-bit C: :func:`_split_tile` over its 128 x 128 and
    64 x 64 tiles toward two blocks per SM (the GEMV-like shapes among them are memory-bound: more
    blocks, more loads in flight), slices >= HALF_SPLIT_MIN_SLICE deep, up to 64 of them; for
    K <= HALF_SPLIT_SHORT_K over its 32 x 32 tile too, slices >= HALF_SPLIT_SHORT_SLICE deep;
    written as the differences from its default config.

    >>> _half_split(1, 4, 12791, 132)
    {'split_k': 64}
    >>> _half_split(512, 512, 8192, 132)
    {'bm': 128, 'bn': 128, 'wm': 64, 'min_blocks': 2, 'split_k': 32}
    >>> _half_split(41, 59, 834, 132)
    {'bm': 32, 'bn': 32, 'wm': 16, 'wn': 16, 'min_blocks': 4, 'split_k': 8}
    """
    from .strategies.mma_half_split_k import MmaHalfSplitKConfig

    short = K <= HALF_SPLIT_SHORT_K
    tiles = (*_HALF_SPLIT_TILES, _HALF_TINY) if short else _HALF_SPLIT_TILES
    params = _split_tile(M, N, K, 2 * sms, tiles, HALF_SPLIT_SHORT_SLICE if short else HALF_SPLIT_MIN_SLICE, 64)
    default = MmaHalfSplitKConfig().params()
    return {k: v for k, v in params.items() if default[k] != v or k == "split_k"}


def _tma_split_count(M: int, N: int, K: int, sms: int) -> int:
    """Slices of K for wgmma_tma_split_k's 128 x 128 tile (see TMA_SPLIT_MIN_SLICE): :func:`_slices`
    with its cap, or 1 where not even 2 fit.

    >>> _tma_split_count(32, 4096, 4096, 132)      # 32 tiles
    4
    >>> _tma_split_count(64, 64, 65536, 132)       # one tile, TMA_SPLIT_MAX slices 1024 deep
    64
    >>> _tma_split_count(1000, 1000, 4096, 132)    # 64 tiles
    2
    >>> _tma_split_count(300, 300, 256, 132)       # one slice of TMA_SPLIT_MIN_SLICE
    1
    """
    tiles = cdiv(M, 128) * cdiv(N, 128)
    if 2 * tiles > sms or K < 2 * TMA_SPLIT_MIN_SLICE:
        return 1
    return _slices(tiles, K, sms, TMA_SPLIT_MAX, TMA_SPLIT_MIN_SLICE, cap=True)


def _unaligned_off_tma(rows: int, N: int, K: int, sms: int) -> bool:
    """Whether a 16-bit C of `rows` x N stays off TMA: its rows are not 16-byte aligned and K is
    under HALF_TMA_MIN_K, unless K is at least HALF_TMA_PAD_MIN_K and C holds HALF_TMA_PAD_FILL
    waves of 128 x 256 tiles' area (see there)."""
    return bool(N % 8 and K < HALF_TMA_MIN_K) and not (
        K >= HALF_TMA_PAD_MIN_K and rows * N >= HALF_TMA_PAD_FILL * sms * 128 * 256)


def _clusters_share_b(N: int, K: int, itemsize: int) -> bool:
    """Whether wgmma_tma's 128 x 256 tile runs in 2-CTA clusters (_HALF_TMA_CLUSTER): B's rows (N
    padded to 16 bytes) are not 128-byte multiples and K is at least TMA_CLUSTER_MIN_K."""
    return K >= TMA_CLUSTER_MIN_K and pad.padded(N, itemsize) * itemsize % 128 != 0


def _b_rows_in_place(M: int, N: int) -> bool:
    """Whether a cluster-free wgmma_tma config reads a contiguous 16-bit B that TMA cannot address
    in place (its b_rows sibling: WgmmaTmaConfig.rows_sibling): an even N % 8 != 0 under a C of one
    128-row tile row. There the clustered 128 x 256 tile, which copies B into padded rows first,
    ran at half the speed on an H100 (float16, forty-first session, probe_rows_route.py: 17 x 50258
    x 4096 470.8 us against 234.4 cluster-free, 32 x 50258 x 4096 473.0 / 237.7, 64 x 32002 x 4096
    315.7 / 136.2, 100 x 20002 x 8192 428.0 / 224.4)."""
    return M <= 128 and N % 8 != 0 and N % 2 == 0


def half_pick(M: int, N: int, K: int, dtype: Any, sms: int, tma: bool = True,
              wgmma: bool = True) -> tuple[str, dict[str, int]]:
    """(strategy, params) for a float16 or bfloat16 product. `wgmma` says whether the GPU runs
    sm_90a code (Hopper): without it neither wgmma_tma nor wgmma_tma_split_k is picked, and the
    mma.sync rungs (sm_80 code) take their shapes.

    wgmma_tma (TMA, warp-specialised, persistent: 1.00-1.03x cuBLAS at 4096^3-8192^3 on the H100)
    where `tma` allows it (a plain 2-D product; the caller knows) and the output fills at least
    half a wave of its 128 x 256 tiles (rows TMA cannot address are copied to padded rows first:
    WgmmaTmaConfig.launch; on its 128 x 64 or 128 x 128 tile where N <= HALF_NARROW_C, else in
    2-CTA clusters where B's rows are not 128-byte multiples and K >= TMA_CLUSTER_MIN_K, but not
    where a cluster-free config reads B in place, :func:`_b_rows_in_place`), unless
    C's rows are not 16-byte aligned and K < HALF_TMA_MIN_K (but from K = HALF_TMA_PAD_MIN_K on a
    C of HALF_TMA_PAD_FILL waves' area, on 128 x 64 tiles where N <= HALF_TMA_PAD_NARROW_N), and
    unless it is a
    plain x·B or A·x that the half GEMV rungs stream (:func:`_half_gemv`: first) or a skinny one
    (M or N <= GEMV_MAX, K >= HALF_TMA_MIN_K) whose streamed operand TMA would need padded by a copy
    (mma_half_split_k, next); else, for a plain
    product of fewer 64 x 64 tiles than SMs and K >= HALF_SPLIT_MIN_K, or of fewer than
    HALF_SPLIT_FEW_TILES and K >= HALF_TMA_MIN_K, where TMA can read it: for K up to
    HALF_SPLIT_SHORT_K wgmma_tma's 128 x 64 tile (:data:`_HALF_TMA_SMALL`) from TMA_SMALL_MIN_TILES
    of them, for a longer K and M >= TMA_SPLIT_MIN_M wgmma_tma_split_k where
    :func:`_tma_split_count` cuts two slices or more; else mma_half_split_k (:func:`_half_split`);
    else wgmma_tma on 128 x 64 tiles where they fit a wave with K up to HALF_SPLIT_SHORT_K, else
    128 x 128 (the same exception); else mma_half (:data:`HALF_STRATEGIES`), on
    128 x 128 tiles from one wave of them, else 64 x 64 tiles (more blocks for small outputs), or
    32 x 32 ones for a plain product there (C's rows to pad, a short K: :data:`_HALF_TINY`) of
    fewer than HALF_TINY_MAX_TILES_PER_SM 64 x 64 tiles per SM or mostly padded ones.

    >>> half_pick(4096, 4096, 4096, "float16", 132)
    ('wgmma_tma', {})
    >>> half_pick(5000, 3000, 1000, "float16", 132)   # B's rows 6000 bytes: clusters share its boxes
    ('wgmma_tma', {'bm': 128, 'bn': 256, 'stages': 3, 'cluster_m': 2})
    >>> half_pick(4096, 4096, 4096, "float16", 132, tma=False)
    ('mma_half', {})
    >>> half_pick(1000, 1000, 1000, "bfloat16", 132)   # 128 128 x 64 tiles: one wave
    ('wgmma_tma', {'bm': 128, 'bn': 64, 'stages': 8})
    >>> half_pick(1000, 1000, 4096, "bfloat16", 132)   # a longer K: 128 x 128 tiles
    ('wgmma_tma', {'bm': 128, 'bn': 128, 'stages': 5})
    >>> half_pick(1000, 1000, 1000, "bfloat16", 132, tma=False)
    ('mma_half', {'bm': 64, 'bn': 64, 'wm': 32, 'wn': 32, 'stages': 4, 'min_blocks': 3})
    >>> half_pick(12399, 18, 89, "float16", 132)   # rows to pad, a short K: the copies would cost more
    ('mma_half', {'bm': 32, 'bn': 32, 'wm': 16, 'wn': 16, 'stages': 4, 'min_blocks': 4})
    >>> half_pick(239, 82, 258, "float16", 132)    # 8 64 x 64 tiles: split, on 32 x 32 tiles
    ('mma_half_split_k', {'bm': 32, 'bn': 32, 'wm': 16, 'wn': 16, 'min_blocks': 4, 'split_k': 4})
    >>> half_pick(16, 4096, 4096, "float16", 132)
    ('wgmma_tma_split_k', {'split_k': 4})
    >>> half_pick(41, 59, 834, "float16", 132)     # one tile, a short K: 32 x 32 tiles, 64-deep slices
    ('mma_half_split_k', {'bm': 32, 'bn': 32, 'wm': 16, 'wn': 16, 'min_blocks': 4, 'split_k': 8})
    >>> half_pick(4, 4096, 4096, "float16", 132)
    ('gemv_xb_half', {'threads': 256, 'mt': 4, 'unroll': 8, 'min_blocks': 1, 'kg': 16})
    >>> half_pick(10186, 50, 4008, "float16", 132)    # a narrow C: not the 128 x 256 tile
    ('wgmma_tma', {'bm': 128, 'bn': 64, 'stages': 8})
    >>> half_pick(32768, 128, 4008, "float16", 132)
    ('wgmma_tma', {'bm': 128, 'bn': 128, 'stages': 5})
    >>> half_pick(4096, 4096, 4096, "float16", 132, wgmma=False)   # not Hopper: mma.sync
    ('mma_half', {})
    >>> half_pick(16, 4096, 4096, "float16", 132, wgmma=False)
    ('mma_half_split_k', {'split_k': 8})
    """
    from . import registry  # the registry imports the strategies, which import the config bases

    dt = as_dtype(dtype)
    tma_entry = registry.STRATEGIES.get("wgmma_tma")
    plain = tma  # the caller's word: a plain 2-D product (TMA rungs and the split rung take no extras)
    gemv = _half_gemv(M, N, K, sms) if plain else None
    if gemv is not None and gemv[0] in registry.STRATEGIES:
        return gemv
    split_entry = registry.STRATEGIES.get("mma_half_split_k")
    if (plain and split_entry is not None and split_entry.supports(dt) and K >= HALF_TMA_MIN_K
            and (M <= GEMV_MAX and N % 8 or N <= GEMV_MAX and K % 8)):
        # a skinny product whose streamed operand TMA would need padded by a copy as large as the
        # product's own traffic (4x50257x4096: wgmma_tma 0.18x cuBLAS, the split 0.63)
        return "mma_half_split_k", (_half_split(M, N, K, sms) if cdiv(M, 64) * cdiv(N, 64) < sms
                                    else {"split_k": 2})
    unaligned_short_k = N % 8 and K < HALF_TMA_MIN_K
    tma = (plain and wgmma and tma_entry is not None and tma_entry.supports(dt)
           and not _unaligned_off_tma(M, N, K, sms))
    if tma and 2 * cdiv(M, 128) * cdiv(N, 256) >= sms:
        if unaligned_short_k and N <= HALF_TMA_PAD_NARROW_N:
            return "wgmma_tma", dict(_HALF_TMA_SMALL)  # HALF_TMA_PAD_MIN_K's narrow products
        if N <= HALF_NARROW_C:
            return "wgmma_tma", dict(_HALF_TMA_SMALL if 2 * N <= HALF_NARROW_C else _HALF_TMA_NARROW)
        if _clusters_share_b(N, K, dt.itemsize) and not _b_rows_in_place(M, N):
            return "wgmma_tma", dict(_HALF_TMA_CLUSTER)
        return "wgmma_tma", {}
    tiles64 = cdiv(M, 64) * cdiv(N, 64)
    small_tiles = cdiv(M, 128) * cdiv(N, 64)  # wgmma_tma's 128 x 64 tiles
    if (plain and split_entry is not None and split_entry.supports(dt)
            and (K >= HALF_SPLIT_MIN_K and tiles64 < sms or K >= HALF_TMA_MIN_K and tiles64 < HALF_SPLIT_FEW_TILES)):
        if tma and K <= HALF_SPLIT_SHORT_K and TMA_SMALL_MIN_TILES <= small_tiles <= sms:
            return "wgmma_tma", dict(_HALF_TMA_SMALL)
        tma_split = registry.STRATEGIES.get("wgmma_tma_split_k")
        slices = _tma_split_count(M, N, K, sms)
        if (tma and tma_split is not None and tma_split.supports(dt) and slices >= 2
                and K > HALF_SPLIT_SHORT_K and M >= TMA_SPLIT_MIN_M):
            return "wgmma_tma_split_k", {"split_k": slices}
        return "mma_half_split_k", _half_split(M, N, K, sms)
    # a short K on few tiles, or on tiles mostly padding: mma_half's 32 x 32 tile (below), not
    # wgmma_tma, whose fixed part was the time there on the H100 (scripts/variants_s17/probe_sweep.py
    # halfsmall, probe_picks.py; float16, us): 16x664x4 8.6 against 5.2, 2x2408x6 9.1 against 5.3,
    # 3609x8x43 10.3 against 5.9; M = 9..128 x N = 664..8192 at K = 4..132 1.2-1.8x slower. With more
    # tiles it stays: 1000x2000x64 7.4 against 64 x 64 tiles' 10.0, 2048x1024x128 7.7 against 10.8
    tiny = plain and K < HALF_TMA_MIN_K and (tiles64 < HALF_TINY_MAX_TILES_PER_SM * sms
                                             or M * N < SMALL32_FILL * tiles64 * 64 * 64)
    if tma and not tiny:
        small = K <= HALF_SPLIT_SHORT_K and small_tiles <= sms
        return "wgmma_tma", dict(_HALF_TMA_SMALL if small else _HALF_TMA_NARROW)
    for name in HALF_STRATEGIES:
        entry = registry.STRATEGIES.get(name)
        if entry is not None and entry.supports(dt):
            break
    else:
        raise ValueError(f"no registered strategy computes {dt} (tried {', '.join(HALF_STRATEGIES)})")
    if name == "mma_half":
        if cdiv(M, 128) * cdiv(N, 128) >= sms:
            return name, {}
        # a plain product here has a short K, and C's rows to pad (TMA's copies would be the
        # time) or few tiles
        return name, dict(_HALF_TINY if tiny else _HALF_SMALL)
    return name, {}


def plain_pick(M: int, N: int, K: int, dtype: Any, sms: int, mode: str) -> tuple[str, dict[str, int]]:
    """(strategy, params) `auto` runs instead of a TMA rung (wgmma_tma, wgmma_tma_tf32: plain 2-D
    products only) for a call that needs batches, an epilogue, other layouts or a float32 C from
    16-bit inputs: the cp.async rungs' pick for the same dtype and precision mode.

    >>> plain_pick(4096, 4096, 4096, "float32", 132, "tf32")
    ('wgmma', {'passes': 1})
    >>> plain_pick(4096, 4096, 4096, "float16", 132, "ieee")
    ('mma_half', {})
    """
    if as_dtype(dtype).half:
        return half_pick(M, N, K, dtype, sms, tma=False)
    return recommend(M, N, K, dtype, sms, precision=mode, tma=False)


def half_batch_pick(M: int, N: int, K: int, count: int, dtype: Any, sms: int,
                    wgmma: bool = True) -> "tuple[str, dict[str, int]] | None":
    """(strategy, params) for `count` float16 or bfloat16 M x N x K products in one batched launch
    (a batch that does not fold into one 2-D product), or None where the batch stays with the 2-D
    pick for the stacked shape: on a GPU without sm_90a (`wgmma` False), where wgmma_tma is not
    registered, for skinny matrices (M or N at most GEMV_MAX: a 128-row or 64-column tile would be
    mostly padding), and where C's rows are not
    16-byte aligned with a short K on a small C (half_pick's HALF_TMA_MIN_K exception, the C area
    counted over the batch). Else wgmma_tma on the tile of :data:`BATCH_NARROW_COST`'s model, the
    128 x 256 one in 2-CTA clusters where half_pick takes them (B's rows not 128-byte multiples, K
    of at least TMA_CLUSTER_MIN_K) and each matrix has an even count of 128-row tiles.

    >>> half_batch_pick(103, 229, 658, 7, "float16", 132)      # 7 tiles of 128 x 256: narrow
    ('wgmma_tma', {'bm': 128, 'bn': 64, 'stages': 8})
    >>> half_batch_pick(273, 909, 3821, 12, "bfloat16", 132)   # a long K: the wide tile
    ('wgmma_tma', {})
    >>> half_batch_pick(1314, 1704, 311, 8, "float16", 132)    # 616 wide tiles, 5 waves
    ('wgmma_tma', {})
    >>> half_batch_pick(460, 455, 2131, 37, "float16", 132)    # 910-byte rows of B: clusters
    ('wgmma_tma', {'bm': 128, 'bn': 256, 'stages': 3, 'cluster_m': 2})
    >>> half_batch_pick(116, 1661, 66, 12, "float16", 132) is None   # C's rows to pad, K short
    True
    >>> half_batch_pick(4096, 1, 4096, 8, "float16", 132) is None    # matrix-vector products
    True
    >>> half_batch_pick(103, 229, 658, 7, "float16", 132, wgmma=False) is None   # not Hopper
    True
    """
    from . import registry  # the registry imports the strategies, which import the config bases

    dt = as_dtype(dtype)
    entry = registry.STRATEGIES.get("wgmma_tma")
    if not wgmma or entry is None or not entry.supports(dt) or M <= GEMV_MAX or N <= GEMV_MAX:
        return None
    if _unaligned_off_tma(count * M, N, K, sms):
        return None
    lo, hi = BATCH_NARROW_K
    narrow = BATCH_NARROW_COST[0] + (BATCH_NARROW_COST[1] - BATCH_NARROW_COST[0]) * min(max((K - lo) / (hi - lo), 0.0), 1.0)

    def work(bn: int) -> int:
        return cdiv(count * cdiv(M, 128) * cdiv(N, bn), sms) * bn

    if work(64) * narrow < work(256):
        return "wgmma_tma", dict(_HALF_TMA_SMALL)
    # a cluster's two CTAs take the 256 rows of a super-tile of one matrix: not where that pads
    # each matrix by another 128 rows
    if _clusters_share_b(N, K, dt.itemsize) and cdiv(M, 128) % 2 == 0:
        return "wgmma_tma", dict(_HALF_TMA_CLUSTER)
    return "wgmma_tma", {}


def recommend(M: int, N: int, K: int, dtype: Any = "float32", sms: "int | None" = None,
              precision: str = "auto", wgmma: bool = True, dmma: bool = True,
              tma: bool = True) -> tuple[str, dict[str, int]]:
    """(strategy name, params) for C[M, N] = A[M, K] @ B[K, N] without tuning data.

    `sms` is the GPU's SM count (the current device's, or the H100 stand-in's, when None);
    `wgmma` says whether the GPU runs sm_90a code (Hopper), `dmma` whether it has the sm_90 FP64
    MMA shapes (Hopper), `tma` whether the TMA rungs may run the call (a plain 2-D product:
    :func:`plain_pick` asks without them). `precision` is the request (:mod:`tiled_matmul.precision`): "auto" takes
    tf32x3 tensor-core kernels for float32 from K = TF32X3_MIN_K and FFMA kernels below, "ieee"
    FFMA kernels only, "tf32x3" and "tf32" tensor-core kernels only, for every shape (float64's
    kernels, dmma's FP64 tensor cores included, are all "ieee").

    >>> recommend(4096, 4096, 4096)
    ('wgmma_tma_tf32', {})
    >>> recommend(3001, 2999, 3007)
    ('wgmma_tma_tf32', {})
    >>> recommend(4096, 4096, 4096, tma=False)  # batches, epilogues, layouts: the cp.async rung
    ('wgmma', {})
    >>> recommend(4096, 4096, 4096, wgmma=False)
    ('tensor_core', {})
    >>> recommend(4096, 4096, 4096, precision="ieee")
    ('register_blocked', {})
    >>> recommend(4096, 4096, 4096, precision="tf32")  # named TF32 modes: TMA from a wave of tiles
    ('wgmma_tma_tf32', {'bm': 256, 'stages': 4, 'passes': 1})
    >>> recommend(4096, 4096, 4096, precision="tf32x3")
    ('wgmma_tma_tf32', {})
    >>> recommend(1024, 1024, 1024, precision="tf32")
    ('wgmma', {'bm': 64, 'bn': 128, 'stages': 6, 'passes': 1})
    >>> recommend(1, 8192, 8192, precision="tf32x3")  # tensor cores even where FFMA is as fast
    ('wgmma_split_k', {'bm': 64, 'bn': 128, 'stages': 6, 'min_blocks': 1, 'split_k': 4})
    >>> recommend(384, 384, 64)[0]  # K < 128: "auto" keeps to FFMA (per-element accuracy)
    'warp_tiled'
    >>> recommend(2048, 2048, 2048, "float64")
    ('dmma', {'bn': 64, 'wm': 64, 'wn': 32, 'min_blocks': 2})
    >>> recommend(8192, 8192, 8192, "float64", dmma=False)
    ('warp_tiled', {})
    >>> recommend(1024, 1024, 1024, "float64")  # below one wave of dmma tiles: K slices
    ('dmma_split_k', {'bm': 128, 'wm': 64, 'min_blocks': 2, 'split_k': 2})
    >>> recommend(1024, 1024, 128, "float64")[0]  # ... too short to slice: FFMA rules
    'warp_tiled'
    >>> recommend(256, 256, 65536)
    ('wgmma_split_k', {'bm': 128, 'bn': 128, 'stages': 3, 'min_blocks': 1, 'split_k': 32})
    >>> recommend(512, 512, 512)
    ('wgmma_split_k', {'bm': 128, 'bn': 128, 'stages': 3, 'min_blocks': 1, 'split_k': 8})
    >>> recommend(256, 256, 65536, wgmma=False)
    ('split_k', {'bm': 64, 'bn': 64, 'bk': 8, 'wm': 32, 'wn': 32, 'tm': 4, 'tn': 8, 'stages': 4, 'group_m': 8, 'min_blocks': 4, 'split_k': 16})
    >>> recommend(1, 8192, 8192)
    ('gemv_xb_tma', {'mt': 1, 'rk': 128, 'stages': 6})
    >>> recommend(1, 8192, 8192, tma=False)
    ('gemv_xb', {'threads': 512, 'mt': 1, 'unroll': 8, 'min_blocks': 1, 'kg': 32})
    >>> recommend(3, 4096, 14336, dtype="float64")
    ('gemv_xb', {'threads': 256, 'mt': 4, 'unroll': 8, 'min_blocks': 1, 'kg': 16})
    >>> recommend(8192, 1, 8192)
    ('gemv_ax', {'nt': 1, 'rows': 4, 'unroll': 4})
    >>> recommend(8192, 7, 8192, dtype="float64")
    ('gemv_ax', {'nt': 8, 'rows': 4, 'unroll': 1})
    >>> recommend(4096, 4096, 4096, "float16")  # 16-bit inputs: half_pick
    ('wgmma_tma', {})
    >>> recommend(1, 64, 40)  # 2560 elements of B, K under GEMV_SHORT_K: launch-bound, not a GEMV case
    ('warp_tiled', {'bm': 32, 'bn': 32, 'bk': 16, 'wm': 16, 'wn': 32, 'tm': 4, 'tn': 4, 'stages': 3, 'group_m': 8, 'min_blocks': 4})
    """
    modes = modes_for(check(precision, dtype), dtype, K)
    if as_dtype(dtype).half:
        return half_pick(M, N, K, dtype, sms or device_limits().sm_count, tma=tma, wgmma=wgmma)
    if "ieee" not in modes:  # a tensor-core mode asked for by name: tensor cores for every shape
        if wgmma and tma:
            pick = _tma_tf32_pick(M, N, K, sms or device_limits().sm_count, modes[0])
            if pick is not None:
                return pick
        name, params = _tensor_cores_only(M, N, K, sms or device_limits().sm_count, wgmma)
        return name, dict(params, passes=PASSES[modes[0]]) if modes[0] != "tf32x3" else params
    tensor_cores = "tf32x3" in modes
    if sms is None:
        sms = device_limits().sm_count
    f64 = as_dtype(dtype).itemsize == 8
    gemv = _gemv(M, N, K)
    if gemv is not None:
        if gemv[0] == "gemv_xb" and wgmma and tma and not f64:  # (the 16-bit types: half_pick above)
            return _xb_tma(M, N, K, sms) or gemv
        return gemv
    chunks = None if f64 else _skinny_chunks(M, N, K, sms, wgmma and tma)
    if chunks is not None:
        from . import registry  # the registry imports the strategies, which import the config bases

        if chunks[0] in registry.STRATEGIES:
            return chunks
    big_tiles = cdiv(M, 128) * cdiv(N, 128)
    if f64 and big_tiles >= sms:
        return ("dmma", dict(_DMMA)) if dmma else ("warp_tiled", {})
    if f64 and dmma and K >= DMMA_SPLIT_MIN_K and min(M, N) > GEMV_MAX:
        return "dmma_split_k", _dmma_split(M, N, K, sms)
    if tensor_cores and wgmma and not f64 and K > AUTO_CHAIN_K and big_tiles >= sms:
        # a whole output of 128 x 128 tiles, each summing K in one chain: slices instead
        split = 2
        while K > split * AUTO_CHAIN_K:
            split *= 2
        return "wgmma_split_k", dict(_WG_SPLIT_TILES[0], split_k=split)
    if tensor_cores and wgmma and not f64:
        pick = _tma_tf32_pick(M, N, K, sms, "tf32x3") if tma and TMA_TF32_AUTO else None
        pick = pick or _wgmma_pick(M, N, K, sms)
        if pick is not None:
            return pick
    if tensor_cores and big_tiles >= sms and not f64:
        return "tensor_core", {}
    if tensor_cores and cdiv(M, 64) * cdiv(N, 64) >= sms and K >= 64 and not f64:
        return "tensor_core", dict(_TC_SMALL)
    if big_tiles >= sms:
        return "register_blocked", {}
    if K >= 1024:
        target = 3 * sms // 2  # ~1.5-2 blocks per SM after rounding the split to a power of two
        split = _slices(big_tiles, K, target)
        if big_tiles * split >= target:
            return "split_k", dict(_SPLIT_BIG, split_k=split)
        small_tiles = cdiv(M, 64) * cdiv(N, 64)
        return "split_k", dict(_SPLIT_SMALL, split_k=_slices(small_tiles, K, target, MAX_SLICES))
    return "warp_tiled", (dict(_SMALL) if f64 else _small_tile(M, N, K, sms))
