"""``numpy.matmul`` semantics from metadata alone: shapes, dtypes and `out`, before anything runs.

:func:`resolve` turns two operand shapes and dtypes into a :class:`Product`: M, N, K, the
broadcast batch shape, which operands were 1-D (numpy promotes a 1-D `a` to a row, a 1-D `b` to a
column, and removes the added axis from the result), the result dtype (numpy's promotion among
float16, bfloat16, float32 and float64; float32 when ``out_dtype=float32`` asks for it) and the
result's shape. :func:`check_call` describes the caller's objects
(:func:`tiled_matmul.operands.describe`), resolves them and checks `out` as numpy does, raising
TypeError/ValueError that say what was given and what is allowed. Nothing here needs a GPU.

>>> p = resolve((2, 1, 3, 4), (5, 4, 6), np.dtype("float32"), np.dtype("float64"))
>>> p.batch, (p.M, p.N, p.K), p.dtype, p.out_shape
((2, 5), (3, 6, 4), DType('float64'), (2, 5, 3, 6))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from .dtypes import BY_CHAR, DType
from .operands import MAX_DIM, Operand, describe

#: input dtypes numpy's promotion may mix (the kernels compute all four; the 16-bit ones on
#: tensor cores with float32 accumulation)
INPUT_DTYPES = ("float32", "float64", "float16", "bfloat16")


@dataclass(frozen=True)
class Product:
    """One resolved ``matmul(a, b)``: each matrix product is M x K by K x N, over `batch`."""

    M: int
    N: int
    K: int
    batch: tuple[int, ...]
    a_vector: bool  # a was 1-D (K,): a row, its axis removed from the result
    b_vector: bool  # b was 1-D (K,): a column, its axis removed from the result
    dtype: DType
    #: C's dtype when the caller asked for one other than `dtype` (float32 from 16-bit inputs,
    #: ``out_dtype=float32``), else None
    out_dtype: "DType | None" = None

    @property
    def c_dtype(self) -> DType:
        """The result's dtype: `out_dtype` if set, else the product's own (numpy's promotion)."""
        return self.out_dtype or self.dtype

    @property
    def out_shape(self) -> tuple[int, ...]:
        """The result's shape, numpy's: batch, then M unless `a` was 1-D, then N unless `b` was."""
        return self.batch + (() if self.a_vector else (self.M,)) + (() if self.b_vector else (self.N,))

    @property
    def count(self) -> int:
        """Matrix products in the batch (1 unbatched, 0 for a zero-size batch)."""
        return int(np.prod(self.batch, dtype=np.int64))

    @property
    def plain(self) -> bool:
        """A 2-D product: no batch and no 1-D operand."""
        return not self.batch and not self.a_vector and not self.b_vector


def check_dtype(dtype: np.dtype, name: str) -> None:
    """TypeError unless `dtype` is one numpy's promotion may take here (float16, bfloat16,
    float32, float64)."""
    if np.dtype(dtype).name not in INPUT_DTYPES:
        raise TypeError(f"{name} has dtype {np.dtype(dtype).name}; supported dtypes are {', '.join(INPUT_DTYPES)}; "
                        "integer, bool and complex arrays are not supported: cast with "
                        f"{name}.astype(numpy.float32)")


def promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """numpy's promotion of two supported float dtypes (``numpy.result_type``), and float32 for
    bfloat16 with float16, which numpy cannot promote (ml_dtypes registers no common type;
    ``numpy.matmul`` of the two gives float32, the narrowest type holding both exactly)."""
    a, b = np.dtype(a), np.dtype(b)
    if {a.name, b.name} == {"bfloat16", "float16"}:
        return np.dtype(np.float32)
    return np.result_type(a, b)


def result_dtype(a: np.dtype, b: np.dtype) -> DType:
    """numpy's result dtype for a @ b among float16, bfloat16, float32 and float64 (see
    :func:`promote`), as a kernel dtype; TypeError for any other dtype.

    >>> result_dtype(np.dtype("float16"), np.dtype("float32"))
    DType('float32')
    """
    check_dtype(a, "a")
    check_dtype(b, "b")
    return BY_CHAR[promote(a, b).char]


def check_out_dtype(out_dtype: Any) -> "DType | None":
    """`out_dtype` checked: None (the result in numpy's result dtype) or float32 (float32 results
    from float16/bfloat16 inputs, accumulated and rounded once in float32). TypeError for what is
    not a dtype, ValueError for any other dtype."""
    if out_dtype is None:
        return None
    try:
        name = np.dtype(out_dtype).name
    except TypeError:
        name = "bfloat16" if str(out_dtype) in ("bfloat16", "torch.bfloat16") else None
    if name is None:
        raise TypeError(f"out_dtype must be None or float32 (a dtype); got {type(out_dtype).__name__} {out_dtype!r}")
    if name != "float32":
        raise ValueError(f"out_dtype must be None (the result in the inputs' dtype, numpy's promotion) or float32 "
                         f"(a float32 result from float16/bfloat16 inputs); got {name}")
    return BY_CHAR["f"]


def _out_dtype(dt: DType, out_dtype: "DType | None") -> "DType | None":
    """Product.out_dtype for a product of `dt` under the checked request `out_dtype`."""
    if out_dtype is None or out_dtype == dt:
        return None
    if dt.itemsize == 8:
        raise ValueError(f"out_dtype=float32 asks for a float32 result, but the inputs make a {dt} product "
                         "(numpy's promotion); cast the inputs to float32 or leave out_dtype unset")
    return out_dtype


def resolve(a_shape: tuple[int, ...], b_shape: tuple[int, ...], a_dtype: Any, b_dtype: Any,
            out_dtype: "DType | None" = None) -> Product:
    """The :class:`Product` of ``numpy.matmul`` for operands of these shapes and dtypes, its
    result in `out_dtype` (checked by :func:`check_out_dtype`) when that is given.

    Raises ValueError for 0-d operands, mismatched inner dimensions and batch shapes that do not
    broadcast (numpy's rules), and TypeError for dtypes (see :func:`result_dtype`); ValueError for
    ``out_dtype=float32`` on a float64 product.
    """
    dt = result_dtype(np.dtype(a_dtype), np.dtype(b_dtype))
    odt = _out_dtype(dt, out_dtype)
    for shape, name in ((a_shape, "a"), (b_shape, "b")):
        if len(shape) == 0:
            raise ValueError(f"{name} is 0-d (a scalar); matmul needs arrays of at least 1 dimension "
                             "(use * to scale)")
    a_vec, b_vec = len(a_shape) == 1, len(b_shape) == 1
    M, K = (1, a_shape[0]) if a_vec else a_shape[-2:]
    Kb, N = (b_shape[0], 1) if b_vec else b_shape[-2:]
    if K != Kb:
        what = "a.shape[-1]" if not a_vec else "a.shape[0]"
        wb = "b.shape[-2]" if not b_vec else "b.shape[0]"
        raise ValueError(f"inner dimensions differ: a is {tuple(a_shape)} and b is {tuple(b_shape)}; "
                         f"{what} ({K}) must equal {wb} ({Kb})")
    try:
        batch = tuple(int(n) for n in np.broadcast_shapes(tuple(a_shape[:-2]), tuple(b_shape[:-2])))
    except ValueError:
        raise ValueError(f"batch dimensions do not broadcast: a is {tuple(a_shape)} (batch {tuple(a_shape[:-2])}) "
                         f"and b is {tuple(b_shape)} (batch {tuple(b_shape[:-2])}); each pair of batch "
                         "dimensions, aligned from the right, must be equal or one of them 1") from None
    for dim, value in (("M", M), ("K", K), ("N", N)):
        if value > MAX_DIM:
            raise ValueError(f"{dim} = {value} is over {MAX_DIM} (2**31 - 1), the largest dimension the "
                             "kernels index; split the product into blocks")
    return Product(int(M), int(N), int(K), batch, a_vec, b_vec, dt, odt)


@dataclass(frozen=True)
class Layout:
    """How a kernel reads one matrix in place: `col` False for row-major (element (r, c) at
    r * ld + c), True for column-major (at c * ld + r), with leading dimension `ld` (elements)."""

    col: bool
    ld: int


def operand_layout(shape: tuple[int, ...], strides: "tuple[int, ...] | None", itemsize: int) -> "Layout | None":
    """How the kernels read every matrix (the last two axes) of an operand with these `shape` and
    byte `strides` (None: C-contiguous) in place, or None when no layout does and it is copied.

    Row-major with a unit inner stride and a row stride of at least its width (a plain array, a
    column slice ``x[:, a:b]``), or column-major with a unit row stride and a column stride of at
    least its height (``x.T``, Fortran order, ``x.T[:, a:b]``); a plain row-major matrix has
    ``ld`` = its width. Strides of length-1 axes do not matter. Negative, zero (broadcast within a
    matrix) and other non-unit strides give None, as does a leading dimension of 2^31 or more.

    >>> operand_layout((3, 4), (4, 12), 4)        # the transpose of a C-ordered 4 x 3
    Layout(col=True, ld=3)
    >>> operand_layout((3, 4), (40, 4), 4)        # x[:, :4] of a 3 x 10
    Layout(col=False, ld=10)
    >>> operand_layout((3, 4), (32, 8), 4) is None  # x[:, ::2]
    True
    """
    rows, cols = shape[-2:]
    if strides is None:
        return Layout(False, max(cols, 1))
    rs, cs = strides[-2:]
    if rs % itemsize or cs % itemsize:
        return None
    rs, cs = rs // itemsize, cs // itemsize
    lay = None
    if (cols <= 1 or cs == 1) and (rows <= 1 or rs >= cols):
        lay = Layout(False, max(cols, 1) if rows <= 1 else rs)
    elif (rows <= 1 or rs == 1) and (cols <= 1 or cs >= rows):
        lay = Layout(True, max(rows, 1) if cols <= 1 else cs)
    # the kernels take lda and ldb as 32-bit ints (offsets are 64-bit)
    return lay if lay is not None and lay.ld <= MAX_DIM else None


def is_plain(layout: Layout, width: int) -> bool:
    """Whether `layout` is a plain row-major matrix of `width` columns (what every kernel reads)."""
    return not layout.col and layout.ld == max(width, 1)


def layout_copies(a: Layout, b: Layout, K: int, N: int,
                  layouts: "tuple[tuple[bool, bool], ...]") -> tuple[bool, bool]:
    """Which operands (copy A, copy B) to copy to plain row-major before a config that reads the
    (A column-major, B column-major) pairs `layouts` (``Config.LAYOUTS``) can take A (M x K, in
    layout `a`) and B (K x N, in `b`): none when both are plain or their pair is read in place,
    else the fewest copies that leave a pair it reads (B first: both rungs that read some
    layouts only, the GEMV rungs, stream the operand they cannot read), both when it reads none.

    >>> layout_copies(Layout(True, 64), Layout(False, 32), 64, 32, ((False, False), (True, False)))
    (False, False)
    >>> layout_copies(Layout(True, 64), Layout(True, 64), 64, 32, ((False, False), (True, False)))
    (False, True)
    >>> layout_copies(Layout(False, 80), Layout(False, 32), 64, 32, ())
    (True, False)
    """
    pa, pb = is_plain(a, K), is_plain(b, N)
    if (pa and pb) or (a.col, b.col) in layouts:
        return (False, False)
    for ca, cb in ((False, True), (True, False)):
        if (a.col and not ca, b.col and not cb) in layouts:
            return (ca and not pa, cb and not pb)
    return (not pa, not pb)


def _overlaps(x: Operand, y: Operand) -> bool:
    rx, ry = x.byte_range(), y.byte_range()
    return rx is not None and ry is not None and rx[0] < ry[1] and ry[0] < rx[1]


def same_array(x: Operand, y: Operand) -> bool:
    """Whether two operands view exactly the same elements the same way (in-place accumulate)."""
    sx = x.strides if x.strides is not None else None
    sy = y.strides if y.strides is not None else None
    return (x.ptr == y.ptr and x.shape == y.shape and x.dtype == y.dtype and x.device == y.device
            and (sx == sy or x.c_contiguous and y.c_contiguous))


def check_out(p: Product, dout: Operand, inputs: Iterable[tuple[Operand, str]], host: bool,
              device: "int | None", may_alias: "Operand | None" = None) -> None:
    """numpy's rules for `out` (its exact result shape, the result dtype, writable), plus ours: on
    the inputs' side (host or device), and sharing no memory with any input except `may_alias`
    when it is the very same array (gemm's ``c``, for ``out=c``)."""
    if dout.on_host != host:
        kind = "a numpy array" if host else "a device array"
        raise TypeError(f"out must be {kind} like the inputs; got {dout.kind}")
    if dout.shape != p.out_shape:
        raise ValueError(f"out has shape {dout.shape}; a @ b needs shape {p.out_shape}")
    if dout.dtype != p.c_dtype.numpy:
        hint = (" (or out_dtype=float32 for a float32 out)" if p.dtype.half and p.out_dtype is None
                and dout.dtype.name == "float32" else "")
        why = "out_dtype" if p.out_dtype is not None else "numpy's promotion of the inputs' dtypes"
        raise TypeError(f"out has dtype {dout.dtype.name}; the result dtype is {p.c_dtype} ({why}): pass an out "
                        f"of that dtype{hint}")
    if not dout.writable:
        raise ValueError("out is read-only; pass a writable array")
    if not host and dout.device != device:
        raise ValueError(f"out is on device {dout.device} but the inputs are on device {device}")
    for op, name in inputs:
        if _overlaps(dout, op) and not (may_alias is op and same_array(dout, op)):
            raise ValueError(f"out overlaps input {name}; pass an out that shares no memory with the inputs"
                             + (" (c itself may be out, for an in-place accumulate)" if may_alias is not None else ""))


def check_call(a: Any, b: Any, out: Any = None, out_dtype: Any = None
               ) -> tuple[Operand, Operand, "Operand | None", Product]:
    """Describe and check ``matmul(a, b, out=out, out_dtype=out_dtype)`` from metadata: (a, b,
    out, product). Raises TypeError/ValueError; writes nothing."""
    odt = check_out_dtype(out_dtype)
    da, db = describe(a, "a"), describe(b, "b")
    p = resolve(da.shape, db.shape, da.dtype, db.dtype, odt)
    check_side(da, db)
    dout = None
    if out is not None:
        dout = describe(out, "out")
        check_out(p, dout, ((da, "a"), (db, "b")), da.on_host, da.device)
    return da, db, dout, p


def check_side(da: Operand, db: Operand) -> None:
    """Both operands on the host, or both on one device."""
    if da.on_host != db.on_host:
        raise TypeError("a and b must both be host (numpy) arrays or both device arrays; "
                        f"got {da.kind} and {db.kind}")
    if not da.on_host and da.device != db.device:
        raise ValueError(f"a is on device {da.device} and b on device {db.device}; move them to one device first")


__all__ = ["Product", "Layout", "operand_layout", "is_plain", "layout_copies", "INPUT_DTYPES", "resolve", "result_dtype",
           "promote", "check_dtype", "check_out_dtype", "check_out", "check_call",
           "check_side", "same_array"]
