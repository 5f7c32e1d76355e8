"""A tuning-free pick of strategy and config for a shape: what `strategy="auto"` falls back to
when no tuning data covers (M, N, K).

A function of its arguments and the GPU's SM count (no I/O). The rules follow H100 measurements against
cuBLAS (FP32, TF32 off) of every config of the fast strategies and register_blocked's default
(benchmarks/fast_kernels.py; numbers in the comments are x cuBLAS):

* skinny products, float32 and float64 alike, go to the memory-bound GEMV rungs: M <= 8 < N to
  gemv_xb (x·B: B streamed once per chunk of mt rows, mt the power of two from M), N <= 8 to
  gemv_ax (A·x: A streamed once per chunk of nt columns), when the streamed operand holds at
  least 2^18 elements (smaller ones are set by the launch, not the bytes). Thresholds to tune on
  the H100 (they may move up to 16-64).
* float64 otherwise: warp_tiled's default (compiled and tested for doubles; 1 block/SM for them).
* float32 with tensor cores allowed (the default; ``tensor_cores=False`` or the environment
  variable ``TILED_MATMUL_TENSOR_CORES=0`` for `auto`) on an sm_90 GPU (``wgmma=True``): wgmma
  (3xTF32 on warpgroup tensor cores) from one wave of 128 x 128 tiles, with 128-, 112- or 96-row
  tiles, whichever leaves the least of the last wave idle (4096^3 1.41, 4097^3 1.33,
  3001x2999x3007 1.34 with 112 rows); 64 x 128 tiles from 3/4 of a wave of those (1024^3 1.43,
  128x8192x8192 1.13), 64 x 64 tiles for N <= 64 (16384x64x4096 1.24);
* on other GPUs with tensor cores allowed: tensor_core (mma.sync 3xTF32) on 128 x 128 tiles from
  one wave of them (4096^3 ~1.09), on 64 x 64 tiles from one wave of those (1024x1024x16384 ~0.96);
* otherwise, at least one wave of 128 x 128 tiles (M*N >= ~132 * 128^2): register_blocked's default
  (4096^3 0.79, 8192^3 0.81, 2048^3 0.82, 3001x2999x3007 0.75; warp_tiled's best 0.73-0.78);
* fewer tiles and K >= 1024: split_k with enough slices for ~2 blocks per SM, on 128 x 128
  tiles when that takes <= 16 slices (1024^3: 0.88, 512x512x16384: 0.76), else on 64 x 64
  tiles (256x256x65536: 0.54 -- instead of 0.03 without the split);
* otherwise (small, short K): warp_tiled on 64 x 64 tiles, 4 blocks per SM.
"""

from __future__ import annotations

from typing import Any

from .configs import cdiv
from .device import device_limits
from .dtypes import as_dtype

_SPLIT_BIG = dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2)
_SPLIT_SMALL = dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4)
_SMALL = dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, group_m=8, min_blocks=4)
_TC_SMALL = dict(bm=64, bn=64, bk=32, wm=32, wn=32, stages=4, min_blocks=2)
#: wgmma block heights for big shapes, their speed relative to 128 rows on whole waves (H100,
#: 4097^3: 1.33x, 1.27x, 1.20x cuBLAS), and the params that select them
_WG_ROWS = {128: (1.0, {}), 112: (0.96, dict(bm=112, stages=4)), 96: (0.93, dict(bm=96, stages=4))}
_WG_MID = dict(bm=64, bn=128, stages=6)
_WG_NARROW = dict(bm=64, bn=64, stages=4, min_blocks=2)


#: the GEMV rungs take products whose M (gemv_xb) or N (gemv_ax) is at most this
GEMV_MAX = 8
#: ... and whose streamed operand (B for gemv_xb, A for gemv_ax) has at least this many elements
GEMV_MIN_STREAM = 2**18
#: params by M rounded up to a power of two (gemv_xb), by N (gemv_ax): one chunk covers the rows
#: or columns, so the big operand is streamed once; mt=8 takes a shorter unroll to fit 2 blocks/SM
_XB = {1: dict(mt=1), 2: dict(mt=2), 4: {}, 8: dict(mt=8, unroll=4)}
_AX = {1: dict(nt=1, rows=4, unroll=4), 2: dict(nt=2), 4: {}, 8: dict(nt=8, rows=4, unroll=1)}


def _gemv(M: int, N: int, K: int) -> "tuple[str, dict[str, int]] | None":
    """The GEMV rung and params for a skinny shape, or None."""
    if M <= GEMV_MAX < N and N * K >= GEMV_MIN_STREAM:
        return "gemv_xb", dict(_XB[1 << (M - 1).bit_length()])
    if N <= GEMV_MAX and M * K >= GEMV_MIN_STREAM:
        return "gemv_ax", dict(_AX[1 << (N - 1).bit_length()])
    return None


def _wave_fill(M: int, N: int, bm: int, bn: int, sms: int) -> float:
    """Useful fraction of the block-slots the grid occupies: M*N over (waves * sms * bm * bn)."""
    tiles = cdiv(M, bm) * cdiv(N, bn)
    return M * N / (cdiv(tiles, sms) * sms * bm * bn)


def _slices(tiles: int, K: int, target: int) -> int:
    """Power-of-two slice count (2..16) reaching `target` blocks, slices >= 256 deep."""
    split = 2
    while split < 16 and tiles * split < target and K // (split * 2) >= 256:
        split *= 2
    return split


def recommend(M: int, N: int, K: int, dtype: Any = "float32", sms: "int | None" = None,
              tensor_cores: bool = True, wgmma: bool = True) -> tuple[str, dict[str, int]]:
    """(strategy name, params) for C[M, N] = A[M, K] @ B[K, N] without tuning data.

    `sms` is the GPU's SM count (the current device's, or the H100 stand-in's, when None);
    `wgmma` says whether the GPU runs sm_90a code (Hopper); `tensor_cores=False` keeps to FFMA.

    >>> recommend(4096, 4096, 4096)
    ('wgmma', {})
    >>> recommend(3001, 2999, 3007)
    ('wgmma', {'bm': 112, 'stages': 4})
    >>> recommend(4096, 4096, 4096, wgmma=False)
    ('tensor_core', {})
    >>> recommend(4096, 4096, 4096, tensor_cores=False)
    ('register_blocked', {})
    >>> recommend(256, 256, 65536)
    ('split_k', {'bm': 64, 'bn': 64, 'bk': 8, 'wm': 32, 'wn': 32, 'tm': 4, 'tn': 8, 'stages': 4, 'group_m': 8, 'min_blocks': 4, 'split_k': 16})
    >>> recommend(1, 8192, 8192)
    ('gemv_xb', {'mt': 1})
    >>> recommend(3, 4096, 14336, dtype="float64")
    ('gemv_xb', {})
    >>> recommend(8192, 1, 8192)
    ('gemv_ax', {'nt': 1, 'rows': 4, 'unroll': 4})
    >>> recommend(8192, 7, 8192, dtype="float64")
    ('gemv_ax', {'nt': 8, 'rows': 4, 'unroll': 1})
    >>> recommend(1, 64, 64)  # 4096 elements of B: launch-bound, not a GEMV case
    ('warp_tiled', {'bm': 64, 'bn': 64, 'bk': 16, 'wm': 32, 'wn': 32, 'tm': 4, 'tn': 8, 'stages': 3, 'group_m': 8, 'min_blocks': 4})
    """
    gemv = _gemv(M, N, K)
    if gemv is not None:
        return gemv
    if as_dtype(dtype).itemsize == 8:
        return "warp_tiled", {}
    if sms is None:
        sms = device_limits().sm_count
    big_tiles = cdiv(M, 128) * cdiv(N, 128)
    if tensor_cores and wgmma:
        if big_tiles >= sms:
            rows = max(_WG_ROWS, key=lambda bm: _WG_ROWS[bm][0] * _wave_fill(M, N, bm, 128, sms))
            return "wgmma", dict(_WG_ROWS[rows][1])
        if N > 64 and cdiv(M, 64) * cdiv(N, 128) >= 3 * sms // 4:  # 1024^3 makes 128 such tiles
            return "wgmma", dict(_WG_MID)
        if cdiv(M, 64) * cdiv(N, 64) >= sms:
            return "wgmma", dict(_WG_NARROW)
    if tensor_cores and big_tiles >= sms:
        return "tensor_core", {}
    if tensor_cores and cdiv(M, 64) * cdiv(N, 64) >= sms and K >= 64:
        return "tensor_core", dict(_TC_SMALL)
    if big_tiles >= sms:
        return "register_blocked", {}
    if K >= 1024:
        target = 3 * sms // 2  # ~1.5-2 blocks per SM after rounding the split to a power of two
        split = _slices(big_tiles, K, target)
        if big_tiles * split >= target:
            return "split_k", dict(_SPLIT_BIG, split_k=split)
        small_tiles = cdiv(M, 64) * cdiv(N, 64)
        return "split_k", dict(_SPLIT_SMALL, split_k=_slices(small_tiles, K, target))
    return "warp_tiled", dict(_SMALL)
