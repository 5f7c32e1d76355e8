"""TMA tensor maps: the arguments of ``cuTensorMapEncodeTiled`` (a pure function, testable without a
GPU), their encoding through the driver (ctypes on ``libcuda.so.1``), and a cache of encoded maps.

A tensor map describes a 2-D row-major matrix (or a batch of them, as a third dimension) in global
memory and the box one TMA copy moves into shared memory. The driver's rules (CUDA driver API, "Tensor Map Object Management") that matter
here, all checked by :func:`tiled_2d` before the driver sees them:

- the global address is 16-byte aligned; every row pitch and batch stride (``globalStrides``) is a
  multiple of 16 bytes (and < 2**40); every dimension is 1 .. 2**32;
- every box dimension is 1 .. 256, the inner one a multiple of 16 bytes; with a swizzle the inner
  box is at most the swizzle span (128 bytes for ``SWIZZLE_128B``);
- and, checked by no encoder but by the copy itself: a box's first element (the address plus the
  innermost coordinate times the item size) lies on a 16-byte boundary, else the copy raises an
  illegal instruction on Hopper (our kernels ask for multiples of 64 elements; a map of rows that
  start off a boundary, read at a shifted coordinate, faulted: scripts/variants_s39/).

Parts of a box past the matrix's edges are filled with zeros (``OOB_FILL_NONE``), so ragged tiles
need no special code in the kernel.

>>> args = tiled_2d(address=0x7f0000000000, rows=1000, cols=72, pitch=72, itemsize=2,
...                 dtype_code=DATA_TYPE["float16"], box_rows=128, box_cols=64)
>>> args.global_dim, args.global_strides, args.box_dim
((72, 1000), (144,), (64, 128))
"""

from __future__ import annotations

import ctypes
import threading
from collections import OrderedDict
from dataclasses import dataclass

from . import libcuda

#: CUtensorMapDataType values (cuda.h) for the element types the kernels copy
DATA_TYPE: dict[str, int] = {"float16": 6, "float32": 7, "float64": 8, "bfloat16": 9, "tfloat32": 11}
#: CUtensorMapSwizzle: bytes of the swizzle span -> enum value
SWIZZLE: dict[int, int] = {0: 0, 32: 1, 64: 2, 128: 3}
#: CUtensorMapL2promotion: bytes -> enum value
L2_PROMOTION: dict[int, int] = {0: 0, 64: 1, 128: 2, 256: 3}
INTERLEAVE_NONE = 0
OOB_FILL_ZERO = 0  # CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: out-of-bounds elements read as zeros
#: bytes of an encoded CUtensorMap
MAP_BYTES = 128
#: alignment TMA needs of the global address and of every row pitch, in bytes
ALIGN = 16


@dataclass(frozen=True)
class TiledArgs:
    """The arguments of one ``cuTensorMapEncodeTiled`` call (innermost dimension first)."""

    dtype_code: int
    address: int
    global_dim: tuple[int, ...]
    global_strides: tuple[int, ...]  # bytes, rank - 1 entries
    box_dim: tuple[int, ...]
    element_strides: tuple[int, ...]
    swizzle: int  # enum value
    l2_promotion: int  # enum value
    interleave: int = INTERLEAVE_NONE
    oob_fill: int = OOB_FILL_ZERO

    @property
    def rank(self) -> int:
        return len(self.global_dim)


def matrix_problem(name: str, address: int, rows: int, cols: int, pitch: int, itemsize: int) -> "str | None":
    """Why TMA cannot describe a rows x cols row-major matrix at `address` with `pitch` elements per
    row (None when it can): the base address and the row pitch must be multiples of 16 bytes, and
    the pitch must hold a row."""
    if address % ALIGN:
        return (f"{name} starts at address {address:#x}, not on a {ALIGN}-byte boundary (TMA needs a "
                f"{ALIGN}-byte-aligned base)")
    if pitch < cols:
        return f"{name} has row pitch {pitch} < its {cols} columns"
    if rows > 1 and (pitch * itemsize) % ALIGN:
        return (f"{name} has rows of {pitch} elements = {pitch * itemsize} bytes, not a multiple of {ALIGN} "
                f"(TMA needs {ALIGN}-byte row pitches: a multiple of {ALIGN // itemsize} elements)")
    if rows > 2**32 or cols > 2**32 or pitch * itemsize >= 2**40:
        return f"{name} ({rows} x {cols}, pitch {pitch}) is too large for a TMA tensor map"
    return None


def batch_problem(name: str, count: int, stride: int, itemsize: int) -> "str | None":
    """Why TMA cannot step through `count` matrices `stride` elements apart (None when it can): the
    stride is a third dimension's pitch, so a multiple of 16 bytes; a stride of 0 (one matrix
    broadcast over the batch) is described as one matrix, whatever its value."""
    if count > 1 and stride and (stride * itemsize) % ALIGN:
        return (f"{name}'s matrices lie {stride} elements = {stride * itemsize} bytes apart, not a multiple of "
                f"{ALIGN} (TMA needs {ALIGN}-byte batch strides)")
    if count > 1 and (stride < 0 or stride * itemsize >= 2**40):
        return f"{name}'s batch stride {stride} is out of a TMA tensor map's range"
    return None


def tiled_2d(*, address: int, rows: int, cols: int, pitch: int, itemsize: int, dtype_code: int, box_rows: int,
             box_cols: int, swizzle: int = 128, l2_promotion: int = 256, name: str = "matrix",
             count: "int | None" = None, batch_stride: int = 0) -> TiledArgs:
    """The :class:`TiledArgs` for a rows x cols row-major matrix (`pitch` elements per row) copied in
    box_rows x box_cols boxes, swizzled by `swizzle` bytes. Raises ValueError naming the broken
    rule (see the module docstring); a matrix with a single row may have any pitch.

    With a `count` (a batched kernel's operand, 3-D copies; None: a 2-D map), `count` such matrices
    `batch_stride` elements apart, as a 3-D map {cols, rows, count} whose boxes are one matrix deep
    (box coordinate 2 picks the matrix). A stride of 0 (one matrix shared by the batch) gives a 3-D
    map of one matrix: the kernel reads it at coordinate 0.

    >>> a = tiled_2d(address=0x7f0000000000, rows=100, cols=64, pitch=64, itemsize=2, dtype_code=6,
    ...              box_rows=128, box_cols=64, count=3, batch_stride=6400)
    >>> a.global_dim, a.global_strides, a.box_dim
    ((64, 100, 3), (128, 12800), (64, 128, 1))
    """
    problem = matrix_problem(name, address, rows, cols, pitch, itemsize) or batch_problem(name, count or 1,
                                                                                          batch_stride, itemsize)
    if problem:
        raise ValueError(problem)
    if rows < 1 or cols < 1:
        raise ValueError(f"{name} is {rows} x {cols}; a tensor map needs at least one row and one column")
    if swizzle not in SWIZZLE or l2_promotion not in L2_PROMOTION:
        raise ValueError(f"swizzle must be one of {sorted(SWIZZLE)} and l2_promotion one of {sorted(L2_PROMOTION)} bytes")
    if not (1 <= box_rows <= 256 and 1 <= box_cols <= 256):
        raise ValueError(f"box {box_rows} x {box_cols}: each box dimension must be 1 .. 256")
    inner = box_cols * itemsize
    if inner % ALIGN:
        raise ValueError(f"box rows of {box_cols} elements = {inner} bytes: must be a multiple of {ALIGN}")
    if swizzle and inner > swizzle:
        raise ValueError(f"box rows of {inner} bytes exceed the {swizzle}-byte swizzle span")
    # A single-row matrix's pitch is never used; give the driver a legal one.
    stride = pitch * itemsize if rows > 1 else -(-max(cols, 1) * itemsize // ALIGN) * ALIGN
    if count is not None:
        if count < 1:
            raise ValueError(f"{name}: a batch of {count} matrices; a tensor map needs at least one")
        # a shared matrix (stride 0) is a batch of one; its unused stride a legal one
        many = batch_stride != 0 and count > 1
        step = batch_stride * itemsize if many else stride * rows
        return TiledArgs(dtype_code=dtype_code, address=address, global_dim=(cols, rows, count if many else 1),
                         global_strides=(stride, step), box_dim=(box_cols, box_rows, 1), element_strides=(1, 1, 1),
                         swizzle=SWIZZLE[swizzle], l2_promotion=L2_PROMOTION[l2_promotion])
    return TiledArgs(dtype_code=dtype_code, address=address, global_dim=(cols, rows), global_strides=(stride,),
                     box_dim=(box_cols, box_rows), element_strides=(1, 1), swizzle=SWIZZLE[swizzle],
                     l2_promotion=L2_PROMOTION[l2_promotion])


# ---------------------------------------------------------------------------------------------
# encoding (needs the CUDA driver)
# ---------------------------------------------------------------------------------------------
def _driver_encode():
    """``cuTensorMapEncodeTiled`` from libcuda.so.1, typed (loaded once)."""
    u32, u64p, u32p = ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32)
    return libcuda.function("cuTensorMapEncodeTiled",
                            [ctypes.c_void_p, ctypes.c_int, u32, ctypes.c_void_p, u64p, u64p, u32p, u32p,
                             ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int], purpose="TMA tensor maps")


def encode(args: TiledArgs) -> bytes:
    """The 128 bytes of the CUtensorMap that `args` describe (RuntimeError with the driver's code
    if it refuses them)."""
    fn = _driver_encode()
    out = (ctypes.c_uint64 * 16)()
    rank = args.rank
    dims = (ctypes.c_uint64 * rank)(*args.global_dim)
    strides = (ctypes.c_uint64 * max(1, rank - 1))(*args.global_strides)
    box = (ctypes.c_uint32 * rank)(*args.box_dim)
    estr = (ctypes.c_uint32 * rank)(*args.element_strides)
    rc = fn(ctypes.addressof(out), args.dtype_code, rank, ctypes.c_void_p(args.address), dims, strides, box, estr,
            args.interleave, args.swizzle, args.l2_promotion, args.oob_fill)
    if rc != 0:
        raise RuntimeError(f"cuTensorMapEncodeTiled failed with CUresult {rc} for {args}")
    return bytes(out)


class MapCache:
    """Encoded tensor maps by (address, shape, pitch, box, dtype, swizzle), the oldest dropped past `size`
    entries. Encoding depends on nothing else, so a hit is exact; a freed and reused address with
    the same shape maps the same bytes."""

    def __init__(self, size: int = 512):
        self.size = size
        self._maps: "OrderedDict[tuple, bytes]" = OrderedDict()
        self._lock = threading.Lock()
        self.encoded = 0  #: maps encoded so far (tests check that repeats hit)

    def get(self, address: int, rows: int, cols: int, pitch: int, itemsize: int, dtype_code: int, box_rows: int,
            box_cols: int, name: str = "matrix", swizzle: int = 128, count: "int | None" = None,
            batch_stride: int = 0) -> bytes:
        key = (address, rows, cols, pitch, itemsize, dtype_code, box_rows, box_cols, swizzle, count, batch_stride)
        hit = self._maps.get(key)
        if hit is not None:
            return hit
        data = encode(tiled_2d(address=address, rows=rows, cols=cols, pitch=pitch, itemsize=itemsize,
                               dtype_code=dtype_code, box_rows=box_rows, box_cols=box_cols, name=name,
                               swizzle=swizzle, count=count, batch_stride=batch_stride))
        with self._lock:
            self._maps[key] = data
            self.encoded += 1
            while len(self._maps) > self.size:
                self._maps.popitem(last=False)
        return data


#: the process-wide cache the kernels' launches use
MAPS = MapCache()

__all__ = ["TiledArgs", "DATA_TYPE", "SWIZZLE", "L2_PROMOTION", "MAP_BYTES", "ALIGN", "matrix_problem", "batch_problem",
           "tiled_2d",
           "encode", "MapCache", "MAPS"]
