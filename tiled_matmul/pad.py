"""Copies of a row-major matrix into rows padded to 16 bytes, and back: for the TMA rungs, which
cannot address unaligned rows (wgmma_tma.addressable), and for a rung whose kernels read them
element by element (mma_half_split_k's 16-bit operands with an odd K or N: eight 2-byte loads
where an aligned row takes one 16-byte copy).

A padded copy holds zeros past the matrix (its columns to the padded width, its rows to the
padded height), so a product over the padded K sums the same terms: zero times zero past K, never
zero times a value of the matrix, so an Inf or NaN of A or B reaches C as it would unpadded.
Consecutive threads copy consecutive 16-byte vectors of the padded rows (reads of one element each,
coalesced), and the copy back one element per thread.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

#: bytes per padded row: a multiple of this
ALIGN = 16
#: threads per block of the copies
THREADS = 256

_SOURCE = r"""
typedef unsigned short E2;
typedef unsigned int E4;
typedef unsigned long long E8;
#define TM_PAD(NAME, E)                                                                              \
extern "C" __global__ void NAME(const E* __restrict__ src, E* __restrict__ dst, long long rows,        \
                                long long cols, long long sld, long long drows, long long dcols)       \
{                                                                                                     \
    constexpr int V = 16 / (int)sizeof(E);  /* elements per 16-byte vector of dst */                  \
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x, per_row = dcols / V;        \
    if (i >= drows * per_row) return;                                                                 \
    const long long r = i / per_row, c0 = (i % per_row) * V;                                          \
    E v[V];                                                                                           \
    for (int e = 0; e < V; ++e) v[e] = (r < rows && c0 + e < cols) ? src[r * sld + c0 + e] : (E)0;   \
    *reinterpret_cast<uint4*>(dst + r * dcols + c0) = *reinterpret_cast<const uint4*>(v);             \
}                                                                                                     \
extern "C" __global__ void NAME##_back(const E* __restrict__ src, E* __restrict__ dst, long long rows, \
                                       long long cols, long long sld)                                  \
{                                                                                                     \
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i < rows * cols) dst[i] = src[i / cols * sld + i % cols];                                     \
}
TM_PAD(tm_pad2, E2)
TM_PAD(tm_pad4, E4)
TM_PAD(tm_pad8, E8)
"""


def padded(n: int, itemsize: int) -> int:
    """`n` elements rounded up to whole 16-byte rows."""
    per = ALIGN // itemsize
    return -(-n // per) * per


@functools.lru_cache(maxsize=None)
def _module(device: int):
    import cupy

    with cupy.cuda.Device(device):
        return cupy.RawModule(code=_SOURCE, options=("--std=c++17",))


def _function(name: str):
    import cupy

    return _module(cupy.cuda.runtime.getDevice()).get_function(name)


def pad_into(src_ptr: int, dst_ptr: int, rows: int, cols: int, drows: int, dcols: int, itemsize: int,
             stream: Any, src_pitch: "int | None" = None) -> None:
    """dst (drows x dcols, dcols a whole number of 16-byte vectors) = the rows x cols row-major
    matrix at src (`src_pitch` elements per row; `cols` when None), zero past it, on `stream`."""
    sld = cols if src_pitch is None else src_pitch
    if dcols * itemsize % ALIGN or drows < rows or dcols < cols or sld < cols:
        raise ValueError(f"cannot pad a {rows} x {cols} matrix into {drows} x {dcols} of {itemsize}-byte elements")
    n = drows * dcols // (ALIGN // itemsize)
    if n == 0:
        return
    with stream:
        _function(f"tm_pad{itemsize}")(((n + THREADS - 1) // THREADS,), (THREADS,),
                                       (src_ptr, dst_ptr, np.int64(rows), np.int64(cols), np.int64(sld),
                                        np.int64(drows), np.int64(dcols)))


def unpad_into(src_ptr: int, dst_ptr: int, rows: int, cols: int, sld: int, itemsize: int, stream: Any) -> None:
    """dst (rows x cols, contiguous) = the first `cols` columns of the rows x sld matrix at src."""
    n = rows * cols
    if n == 0:
        return
    with stream:
        _function(f"tm_pad{itemsize}_back")(((n + THREADS - 1) // THREADS,), (THREADS,),
                                            (src_ptr, dst_ptr, np.int64(rows), np.int64(cols), np.int64(sld)))
