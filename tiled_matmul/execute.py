"""The general call path: batches, 1-D operands, mixed dtypes, strided `out`, and gemm epilogues.

Plain 2-D calls on C-contiguous cupy arrays never come here (``api._call`` launches them on the
fast path). Everything else is checked first, from metadata (:mod:`tiled_matmul.semantics`,
:func:`check_gemm`), and only then staged and launched:

1. stage each operand on the device in the result dtype: zero-copy where it already is one
   (device memory, right dtype, a layout the kernels read: :func:`~tiled_matmul.semantics.operand_layout`,
   row-major or column-major with a unit inner stride and any leading dimension, when the config
   reads layouts, ``Config.LAYOUTS``; plain row-major otherwise); host data, other dtypes and other
   strides are copied once (a broadcast operand is copied before it is broadcast, never per matrix);
2. collapse the batch dimensions: adjacent dimensions along which every operand's stride is
   linear merge, so the common cases are one batch of one stride per operand (0 for a broadcast
   operand); a batch that does not collapse runs one launch per index of its outer dimensions;
3. fold: a batch of row-major A matrices stacked contiguously against one shared B (a broadcast
   weight) is the single 2-D product of the stacked rows, launched as one (when no bias by rows
   and no user expression depends on the row index);
4. both operands column-major (``a.T @ b.T``, Fortran order): C = (Bᵀ Aᵀ)ᵀ, exact, with Bᵀ and Aᵀ
   read in place (row-major, each with its leading dimension); the fresh result is returned as the
   transpose of the row-major N x M product. One column-major operand, or a leading dimension
   other than the width, renders the kernel with the layout extras (ExSpec ``a_col``, ``b_col``,
   ``ld``: lda and ldb as run-time arguments);
5. launch: one launch per (collapsed) batch, the batch index on the grid axis the config names
   (``Config.BATCH_AXIS``; at most 65535 matrices per launch), with the extras of
   :class:`~tiled_matmul.epilogue.ExSpec`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .device import device_limits, gpu_available
from .dtypes import DType
from .epilogue import ACTIVATIONS, ARRAY_CTYPES, ExLaunch, ExSpec, UserArray, check_array_name, check_expression
from . import dispatch, heuristic, tunedb
from .operands import Operand, describe
from .precision import get_precision
from .registry import get as strategy_entry
from .semantics import Layout, Product, check_dtype, check_out, is_plain, layout_copies, operand_layout

#: matrices one launch takes along its batch axis (the grid's y and z limit)
MAX_BATCH_PER_LAUNCH = 65535

#: test hook: when set, called as hook(a_ptr, b_ptr, c_ptr, M, N, K, batch) before each launch of
#: this path, so tests can assert an operand was read in place (its caller's pointer) or folded
launch_hook: "Callable[..., None] | None" = None
#: test hook: when set, called as layout_hook(a_layout, b_layout, spec) before each launch, with
#: the Layout each operand is read with and the kernel's ExSpec (None: the plain kernel)
layout_hook: "Callable[..., None] | None" = None
#: operands copied to plain row-major because of their strides (not their dtype or side), by
#: reason: "strides" (no layout reads them) or "config" (the chosen config reads row-major only)
layout_copies_made: Counter = Counter()


@dataclass
class Gemm:
    """Checked gemm arguments (metadata only): what the epilogue reads, and how."""

    alpha: float = 1.0
    beta: float = 0.0
    c: "Operand | None" = None
    bias: "Operand | None" = None
    bias_axis: int = 1
    activation: "str | None" = None
    expression: "str | None" = None
    text: "str | None" = None
    arrays: dict = field(default_factory=dict)  # name -> Operand

    def spec(self, ctype: str, batched: bool, out_ctype: "str | None" = None) -> "ExSpec | None":
        """The ExSpec of these arguments (None: a plain kernel does)."""
        spec = ExSpec(
            ctype, batched=batched, alpha=self.alpha != 1.0, beta=self.beta != 0.0,
            bias=self.bias_axis if self.bias is not None else None, activation=self.activation,
            expression=self.expression, text=self.text,
            arrays=tuple(UserArray(n, ARRAY_CTYPES[op.dtype.name]) for n, op in self.arrays.items()),
            out_ctype=out_ctype,
        )
        return spec if spec.batched or spec.epilogue or out_ctype else None


def check_gemm(da: Operand, db: Operand, p: Product, *, alpha: Any, beta: Any, c: Any, bias: Any, bias_axis: Any,
               activation: Any, epilogue: Any, arrays: Mapping[str, Any]) -> Gemm:
    """Check gemm's own arguments against the product `p` (metadata only; raises TypeError or
    ValueError saying what was given and what is allowed)."""
    g = Gemm()
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name} must be a real number; got {type(value).__name__}")
        if not math.isfinite(float(value)):
            raise ValueError(f"{name} must be finite; got {value}")
    g.alpha, g.beta = float(alpha), float(beta)
    if c is not None:
        dc = describe(c, "c")
        check_dtype(dc.dtype, "c")
        _same_place(dc, da, "c")
        try:
            np.broadcast_shapes(dc.shape, p.out_shape)
            fits = np.broadcast_shapes(dc.shape, p.out_shape) == p.out_shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"c has shape {dc.shape}; it must broadcast to the result's shape {p.out_shape}")
        g.c = dc
    elif g.beta != 0.0:
        raise ValueError(f"beta = {g.beta} reads c, and no c was given; pass c, or beta=0")
    if bias is not None:
        if bias_axis not in (0, 1) or isinstance(bias_axis, bool):
            raise ValueError(f"bias_axis must be 0 (one value per row, length M) or 1 (one per column, length N); "
                             f"got {bias_axis!r}")
        db_ = describe(bias, "bias")
        check_dtype(db_.dtype, "bias")
        _same_place(db_, da, "bias")
        want = p.M if bias_axis == 0 else p.N
        if len(db_.shape) != 1 or db_.shape[0] != want:
            raise ValueError(f"bias has shape {db_.shape}; with bias_axis={bias_axis} it must be 1-D of length "
                             f"{'M' if bias_axis == 0 else 'N'} = {want}")
        g.bias, g.bias_axis = db_, int(bias_axis)
    if activation is not None and activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r} is not one of {', '.join(ACTIVATIONS)} (or None)")
    g.activation = activation
    if epilogue is None and arrays:
        raise TypeError(f"unexpected keyword argument(s) {', '.join(sorted(arrays))}: extra arrays are only "
                        "read by an epilogue= expression (or they are misspelt tile parameters)")
    if epilogue is not None:
        for name in arrays:
            check_array_name(name)
        g.expression, g.text = check_expression(epilogue, arrays), epilogue
        for name, obj in arrays.items():
            op = describe(obj, name)
            if op.dtype.name not in ARRAY_CTYPES:
                raise TypeError(f"{name} has dtype {op.dtype.name}; extra arrays may be "
                                f"{', '.join(ARRAY_CTYPES)}")
            _same_place(op, da, name)
            g.arrays[name] = op
    return g


def _same_place(op: Operand, da: Operand, name: str) -> None:
    if op.on_host != da.on_host:
        raise TypeError(f"{name} must be {'a host (numpy)' if da.on_host else 'a device'} array like a and b; "
                        f"got {op.kind}")
    if not op.on_host and op.device != da.device:
        raise ValueError(f"{name} is on device {op.device} but a and b are on device {da.device}")


def check_gemm_out(p: Product, dout: Operand, da: Operand, db: Operand, g: Gemm) -> None:
    """`out` for gemm: numpy's rules, and no overlap with any input but `c` itself."""
    inputs = [(da, "a"), (db, "b")] + [(op, n) for op, n in ((g.c, "c"), (g.bias, "bias")) if op is not None]
    inputs += [(op, n) for n, op in g.arrays.items()]
    check_out(p, dout, inputs, da.on_host, da.device, may_alias=g.c)


# ---------------------------------------------------------------------------------------------
# staging and launching (needs a GPU)
# ---------------------------------------------------------------------------------------------
def _device_array(op: Operand):
    """A cupy array over `op` (zero-copy on the device; host data copied to the current device)."""
    import cupy

    if op.on_host:
        return cupy.asarray(op.array if op.array is not None else op.obj)
    if 0 in op.shape:
        return cupy.empty(op.shape, dtype=op.dtype)
    return op.array if op.array is not None else cupy.asarray(op.obj)


def _layout(x) -> "Layout | None":
    """The Layout the kernels read every matrix of `x` (its last two axes) with, or None."""
    return operand_layout(x.shape, x.strides, x.itemsize)


def _stage(op: Operand, dt: DType):
    """`op` on the device in dtype `dt` (zero-copy when it already is one)."""
    x = _device_array(op)
    if x.dtype != dt.numpy:
        x = x.astype(dt.numpy)  # numpy's promotion: a copy, C-contiguous
    return x


def _vector_readable(x):
    """A 1-D operand with a unit stride (copied if it has another)."""
    import cupy

    if x.ndim == 1 and x.size > 1 and x.strides[0] != x.itemsize:
        layout_copies_made["strides"] += 1
        return cupy.ascontiguousarray(x)
    return x


def _column_major(x) -> bool:
    """Whether every matrix of `x` is column-major (any leading dimension; so its transpose is
    row-major, read in place) and not also row-major (a single row or column)."""
    if x.ndim < 2:
        return False
    lay = _layout(x)
    return lay is not None and lay.col and _layout(x.swapaxes(-1, -2)) is not None and not (
        x.shape[-2] <= 1 or x.shape[-1] <= 1)


def _aligned(ptr: int, ld: int, extent: int, batch_stride: int, n: int, isz: int) -> bool:
    """Whether 16-byte vectors may read an operand's rows (or columns, column-major): its start,
    its leading dimension, its extent along the contiguous direction and, over a batch, its batch
    stride are all multiples of 16 bytes (so a vector that starts in range ends in range)."""
    return (ptr % 16 == 0 and (ld * isz) % 16 == 0 and (extent * isz) % 16 == 0
            and (n == 1 or (batch_stride * isz) % 16 == 0))


def _collapse(batch: tuple[int, ...], strides: list[tuple[int, ...]]) -> list[tuple[int, list[int]]]:
    """Batch dims as (count, [stride per operand]) groups, outermost first: adjacent dims merge
    where every operand's stride is linear across them; length-1 dims drop out."""
    dims = [(n, [s[d] for s in strides]) for d, n in enumerate(batch) if n != 1]
    groups: list[tuple[int, list[int]]] = []
    for n, st in reversed(dims):
        if groups:
            inner_n, inner_st = groups[0]
            if all(s == t * inner_n for s, t in zip(st, inner_st)):
                groups[0] = (inner_n * n, inner_st)
                continue
        groups.insert(0, (n, st))
    return groups or [(1, [0] * len(strides))]


class _At:
    """The address of one matrix, shaped like what ``Config.launch`` reads of its arrays."""

    def __init__(self, ptr: int, dtype: Any):
        self.data = self
        self.ptr = ptr
        self.dtype = dtype
        self.itemsize = dtype.itemsize


#: call form (see :func:`_plan_key`) -> (plan, C's shape, the result's shape, C's dtype, byte
#: extents of a, b and gemm's c, bias and arrays): what :func:`replay` needs to launch a repeated call
_plans: dict[tuple, tuple] = {}
_MAX_PLANS = 1024


def _meta(x: Any) -> tuple:
    """What a replayed call's checks read of a cupy array: shape, strides, dtype, device."""
    return (x.shape, x.strides, x.dtype.char, x.data.device_id)


def _plan_key(resolve_kernel: Callable, a: Any, b: Any, out: Any, form: "tuple | None" = None
              ) -> "tuple | None":
    """The form of a matmul call on cupy arrays: everything its checks and its plan depend on but
    the pointers (shapes, strides, dtypes, the device, the precision default and the dispatch
    caches' epoch and the tuning database's generation; for gemm, `form`: :func:`gemm_form`). None for
    other operands."""
    import cupy

    nd = cupy.ndarray
    if type(a) is not nd or type(b) is not nd or (out is not None and type(out) is not nd):
        return None
    device = a.data.device_id
    o = None if out is None else _meta(out)
    return (resolve_kernel, a.shape, a.strides, a.dtype.char, b.shape, b.strides, b.dtype.char,
            b.data.device_id, device, o, get_precision(), dispatch.epoch, tunedb.generation, form)


def _scalar_form(v: Any) -> "tuple | None":
    """(type, value) of a finite real scalar (what check_gemm reads of alpha and beta), else None."""
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        return None
    try:
        f = float(v)
    except OverflowError:
        return None
    return (type(v), f) if math.isfinite(f) else None


def gemm_form(gemm: Mapping[str, Any]) -> "tuple | None":
    """The form of gemm's own arguments (:func:`check_gemm`'s keywords): the scalars by type and
    value, the activation and expression, and c, bias and the expression's arrays by shape,
    strides, dtype and device; None where any is of a kind a kept plan does not take (a host or
    non-cupy array, a non-finite or non-real scalar, ...: the full path checks those)."""
    import cupy

    alpha, beta = _scalar_form(gemm["alpha"]), _scalar_form(gemm["beta"])
    if alpha is None or beta is None:
        return None
    activation, text = gemm["activation"], gemm["epilogue"]
    if not (activation is None or type(activation) is str) or not (text is None or type(text) is str):
        return None
    forms = []
    for x in [gemm["c"], gemm["bias"], *gemm["arrays"].values()]:
        if x is not None and type(x) is not cupy.ndarray:
            return None
        forms.append(None if x is None else _meta(x))
    axis = gemm["bias_axis"]
    if gemm["bias"] is not None and type(axis) is not int:
        return None
    return (alpha, beta, activation, text, axis if gemm["bias"] is not None else None,
            tuple(gemm["arrays"]), tuple(forms))


def _extents(*arrays: Any) -> tuple[tuple[int, int], ...]:
    """[lo, hi) bytes each array (or None: (0, 0)) may touch, relative to its data pointer."""
    out = []
    for x in arrays:
        if x is None:
            out.append((0, 0))
            continue
        lo = sum(min(0, s * (n - 1)) for n, s in zip(x.shape, x.strides))
        hi = sum(max(0, s * (n - 1)) for n, s in zip(x.shape, x.strides)) + x.itemsize
        out.append((lo, hi))
    return tuple(out)


def clear_plans() -> None:
    """Forget the kept plans (the dispatch caches' epoch does this too)."""
    _plans.clear()


#: what :func:`replay` returns for a call it has no plan for
MISS = object()


def replay(resolve_kernel: Callable, a: Any, b: Any, out: Any, gemm: "Mapping[str, Any] | None" = None,
           form: "tuple | None" = None) -> Any:
    """The result of a matmul call (or a gemm call: its keywords `gemm`, of :func:`gemm_form`
    `form`) whose form (:func:`_plan_key`) an earlier call checked and planned, launched from the
    kept plan with this call's pointers; `MISS` for any other call (never seen, other kinds of
    operands, or an `out` that overlaps an input other than gemm's ``c`` itself: the general path
    raises for that). The hot path of repeated calls: a dict lookup and the launches."""
    key = _plan_key(resolve_kernel, a, b, out, form)
    hit = None if key is None else _plans.get(key)
    if hit is None:
        return MISS
    plan, full, out_shape, c_dtype, extents = hit
    import cupy

    if key[8] != cupy.cuda.runtime.getDevice():
        return MISS
    c = None if gemm is None else gemm["c"]
    inputs = [a, b] if gemm is None else [a, b, c, gemm["bias"], *gemm["arrays"].values()]
    if out is not None:
        lo, hi = out.data.ptr, out.data.ptr + out.nbytes
        for x, (xlo, xhi) in zip(inputs, extents):
            if x is None or not (x.data.ptr + xlo < hi and lo < x.data.ptr + xhi):
                continue
            # c may be out itself (its form is out's then, by the key): an in-place accumulate
            if x is not c or c.data.ptr != out.data.ptr or _meta(c) != _meta(out):
                return MISS
        C = out
    else:
        C = cupy.empty(full, dtype=c_dtype)
    ops = [a, b]
    for i, counter in enumerate(plan.copies):
        if counter is not None:  # the row-major copy the first call made (same shape: same strides)
            layout_copies_made[counter] += 1
            ops[i] = cupy.ascontiguousarray(ops[i])
    bases = [ops[0].data.ptr, ops[1].data.ptr, C.data.ptr]
    values = None
    if gemm is not None:  # the epilogue's inputs staged as the first call staged them
        cin, pointers, keep = _stage_epilogue(c, gemm["bias"], gemm["arrays"], plan.e_dtype, C, out_shape,
                                              full, "beta" in plan.values)
        values = {**plan.values, **pointers}
        if cin is not None:
            bases.append(cin.data.ptr)
    plan.fire(bases, cupy.cuda.get_current_stream(), values)
    return out if out is not None else C.reshape(out_shape)


def _stage_epilogue(c: Any, bias: Any, arrays: Mapping[str, Any], edt: Any, C: Any, out_shape: tuple[int, ...],
                    full: tuple[int, ...], reads_c: bool) -> tuple[Any, dict[str, int], list]:
    """gemm's epilogue inputs (cupy arrays; c and bias may be None) as the kernels read them, in
    `edt` (the type the epilogue computes in): beta's C (None unless `reads_c`: c where it lies
    when it is the result `C` itself in that type, else a C-contiguous copy broadcast to the
    result's shape `out_shape`; shaped `full`), the pointers of the extras (``bias``,
    ``u_<name>``), and the staged arrays, to keep until the launches are queued (CuPy's pool hands
    their memory out again only to work ordered after them on the same stream)."""
    import cupy

    cin = None
    if reads_c:
        cin = c
        if cin.data.ptr != C.data.ptr or cin.dtype != C.dtype or cin.dtype != edt:
            cin = cupy.ascontiguousarray(cupy.broadcast_to(cin.astype(edt, copy=False), out_shape))
        cin = cin.reshape(full)
    pointers, keep = {}, []
    if bias is not None:
        keep.append(cupy.ascontiguousarray(bias.astype(edt, copy=False)))
        pointers["bias"] = keep[-1].data.ptr
    for name, x in arrays.items():
        keep.append(cupy.ascontiguousarray(x))
        pointers[f"u_{name}"] = keep[-1].data.ptr
    return cin, pointers, keep


def _untransposed(kern):
    """The kernel a general-path call runs: an api.TransposedKernel's `plain` kernel (the
    transpose is taken for plain 2-D calls only), else `kern`."""
    return getattr(kern, "plain", kern)


def run(resolve_kernel: Callable, da: Operand, db: Operand, dout: "Operand | None", p: Product,
        g: "Gemm | None" = None, form: "tuple | None" = None):
    """Compute a checked call (see the module docstring) and return what matmul and gemm return:
    `out` itself when given, else a new array (numpy for host inputs, cupy otherwise) of numpy's
    result shape. `resolve_kernel(M, N, K, dtype, device)` names the MatmulKernel to run; `form`
    is gemm's :func:`gemm_form` (a gemm call keeps a plan only with one)."""
    if not gpu_available():
        raise RuntimeError("tiled_matmul needs a CUDA device and none is available "
                           "(cupy.is_available() is False); source() and explain() work without one")
    import cupy

    dt = p.dtype
    device = cupy.cuda.Device().id if da.on_host else da.device
    with cupy.cuda.Device(device):
        full = p.batch + (p.M, p.N)
        A, B = _stage(da, dt), _stage(db, dt)
        # Both operands column-major (a.T @ b.T of row-major arrays, Fortran order): C = (B^T A^T)^T
        # exactly, B^T and A^T read in place; the result is the transpose of a row-major N x M
        # product (an F-ordered array). Only for a fresh result whose epilogue swaps cleanly.
        if (dout is None and not p.a_vector and not p.b_vector and _column_major(A) and _column_major(B)
                and (g is None or (g.beta == 0.0 and not g.expression))):
            swapped = Product(p.N, p.M, p.K, p.batch, False, False, dt, p.out_dtype)
            CT = cupy.empty(p.batch + (p.N, p.M), dtype=p.c_dtype.numpy)
            if p.count and p.M and p.N:
                gt = None if g is None else dataclasses.replace(g, bias_axis=1 - g.bias_axis)
                _compute(resolve_kernel, B.swapaxes(-1, -2), A.swapaxes(-1, -2), CT, swapped, gt, device)
            result = CT.swapaxes(-1, -2)
            return result.get() if da.on_host else result
        direct = (dout is not None and not dout.on_host and dout.c_contiguous and 0 not in dout.shape)
        C = _device_array(dout).reshape(full) if direct else cupy.empty(full, dtype=p.c_dtype.numpy)
        if p.count and p.M and p.N:
            copies = sum(layout_copies_made.values())
            plan = _compute(resolve_kernel, _vector_readable(A), _vector_readable(B), C, p, g, device)
            key = _plan_key(resolve_kernel, da.obj, db.obj, None if dout is None else dout.obj, form)
            # Kept for the next call of the same form when nothing was staged or cast, so that only
            # the pointers change between calls: the operands read where they lie, or an operand
            # of two or more dimensions copied whole into row-major order (the plan's `copies`,
            # which replay makes again; such a call spent ~300 us of host time in this path), and
            # gemm's c, bias and arrays staged again as the first call staged them.
            made = sum(layout_copies_made.values()) - copies
            if (key is not None and (g is None) == (form is None) and p.out_dtype is None and (dout is None or direct)
                    and made == sum(c is not None for c in plan.copies)
                    and (not made or not (p.a_vector or p.b_vector))
                    and A.data.ptr == da.obj.data.ptr and B.data.ptr == db.obj.data.ptr):
                if len(_plans) >= _MAX_PLANS:
                    _plans.clear()
                inputs = [da.obj, db.obj] + ([] if g is None else [
                    None if g.c is None else g.c.obj, None if g.bias is None else g.bias.obj,
                    *(op.obj for op in g.arrays.values())])
                _plans[key] = (plan, full, p.out_shape, p.c_dtype.numpy, _extents(*inputs))
        if dout is not None:
            if not direct:
                if dout.on_host:  # numpy's copyto takes any strides (cupy's get(out=) does not)
                    np.copyto(dout.array if dout.array is not None else dout.obj, C.reshape(p.out_shape).get())
                elif 0 not in dout.shape:
                    _device_array(dout)[...] = C.reshape(p.out_shape)
            return dout.obj
        result = C.reshape(p.out_shape)
        return result.get() if da.on_host else result


def extras_needed(count: int, gemm: bool, out_dtype: bool, plain: bool) -> frozenset[str]:
    """The Config.EXTRAS features (configs.EXTRA_FEATURES) a launch needs: "batch" for `count` > 1
    matrices, "epilogue" for a `gemm` call (alpha, beta, bias, activation, expression), "out_dtype"
    for an `out_dtype` other than the inputs', "layouts" unless both operands are `plain` row-major.
    A rung that lacks one is replaced by `auto`'s cp.async rung (unless named).

    >>> sorted(extras_needed(1, True, False, True))
    ['epilogue']
    """
    return frozenset(name for name, on in (("batch", count > 1), ("epilogue", gemm), ("out_dtype", out_dtype),
                                           ("layouts", not plain)) if on)


def _compute(resolve_kernel: Callable, A, B, C, p: Product, g: "Gemm | None", device: int) -> "_Plan":
    """C (a fresh or the caller's C-contiguous array of shape batch + (M, N)) = the product of
    the staged operands A and B (still 1-D where the call's were; any strides: what no layout
    reads is copied here, once, before it is broadcast). Returns the launches' plan."""
    import cupy

    dt, M, N, K = p.dtype, p.M, p.N, p.K
    if p.a_vector:
        A = A[None, :]
    if p.b_vector:
        B = B[:, None]
    la, lb = _layout(A), _layout(B)
    # the counter each operand's one row-major copy was made under (a strided view no kernel reads;
    # a layout the picked config does not read): a kept plan makes the same copy on replay
    copied: list["str | None"] = [None, None]
    if la is None:
        layout_copies_made["strides"] += 1
        A, copied[0] = cupy.ascontiguousarray(A), "strides"
    if lb is None:
        layout_copies_made["strides"] += 1
        B, copied[1] = cupy.ascontiguousarray(B), "strides"
    A0, B0 = A, B  # before broadcasting: what a copy below copies
    A = cupy.broadcast_to(A, p.batch + A.shape[-2:])
    B = cupy.broadcast_to(B, p.batch + B.shape[-2:])
    isz = dt.itemsize
    # the epilogue computes in dt.acc (float32 for 16-bit inputs): c and bias are read in it
    edt = dt.acc.numpy
    values: dict[str, Any] = {}
    cin = None
    if g is not None:
        cin, pointers, keep = _stage_epilogue(
            _device_array(g.c) if g.beta != 0.0 else None, None if g.bias is None else _device_array(g.bias),
            {name: _device_array(op) for name, op in g.arrays.items()}, edt, C, p.out_shape, p.batch + (M, N),
            g.beta != 0.0)
        values.update(pointers)
        if cin is not None:
            values.update(cin=cin.data.ptr, beta=g.beta)
        if g.alpha != 1.0:
            values["alpha"] = g.alpha

    def plan(A, B):
        """(M, count, inner, outer, la, lb): the batch as launches, the operands' layouts."""
        la, lb = _layout(A), _layout(B)
        if K == 0:  # nothing is read
            la, lb = Layout(False, 1), Layout(False, max(N, 1))
        ops = [A, B, C] + ([cin] if cin is not None else [])
        # strides in elements of each operand's own type (C and cin are float32 where 16-bit
        # inputs give a float32 result)
        groups = _collapse(p.batch, [tuple(s // x.itemsize for s in x.strides[:-2]) for x in ops])
        count, inner = groups[-1]
        # a shared B against row-major A matrices stacked at one row stride: one 2-D product of the rows
        stacked = [M * la.ld, 0, M * N] + ([M * N] if cin is not None else [])
        m = M
        if (count > 1 and not la.col and inner == stacked
                and not (g is not None and (g.expression or (g.bias is not None and g.bias_axis == 0)))):
            m, count = M * count, 1
        return m, count, inner, groups[:-1], la, lb

    Mr, count, inner, outer, la, lb = plan(A, B)

    def pick(m, count, la, lb):
        # `auto` picks for the batch as for its matrices stacked (the tiles of every matrix fill
        # the GPU together, so a K split that one small matrix would want is not needed) ...
        shape_m = m * count
        kern = _untransposed(resolve_kernel(shape_m, N, K, dt, device))
        # ... except that a batch's matrices are tiled one by one: a tile much taller than one
        # matrix computes padding rows in every matrix (4096 x 64^3 ran 128-row tiles, 3/4 of them
        # padding, at 0.41x cuBLAS). Then the pick is made for one matrix instead.
        bm = getattr(kern.config, "bm", 0)
        fixed = getattr(resolve_kernel, "fixed", False)
        # A 16-bit batch runs wgmma_tma's batched launch wherever TMA takes it (heuristic.half_batch_pick,
        # on the tile its model picks): its 128-row tiles beat mma_half's small ones even on small
        # matrices (7 x 103x229x658: 17.5 us against 56.0). The stacked pick stays where it is
        # wgmma_tma already and pads each matrix by at most a quarter (its clusters, measured even);
        # a database entry for the stacked 2-D shape was tuned for one matrix's tiling, not this one.
        tall = bool(bm) and -(-m // bm) * bm > 1.25 * m
        limits = device_limits(device)
        batch = (heuristic.half_batch_pick(m, N, K, count, dt, limits.sm_count, wgmma=limits.hopper)
                 if count > 1 and dt.half and not fixed else None)
        if batch is not None and (tall or kern.strategy.name != batch[0]):
            kern = type(kern)(batch[0], strategy_entry(batch[0]).make_config(**batch[1]))
        elif count > 1 and tall:
            shape_m = m
            kern = _untransposed(resolve_kernel(shape_m, N, K, dt, device))
        elif (count > 1 and bm and getattr(kern.config, "split_k", 1) > 1
              and -(-m // bm) * count > -(-shape_m // bm)):
            # ... and a split-K pick's slices are planned for the stack's tiles: where each matrix
            # ends in a partial tile the batch has more (704 x 742 x 4019 twice: 12 tiles of 128
            # rows, not 11; in 2 slices 144 blocks on 132 SMs, 0.69x cuBLAS). Then the pick is made
            # for the matrices padded to whole tiles, stacked.
            shape_m = -(-m // bm) * bm * count
            kern = _untransposed(resolve_kernel(shape_m, N, K, dt, device))
        # A rung without the batch, epilogue, layout or out_dtype hooks this call needs (Config.EXTRAS:
        # wgmma_tma_tf32 takes the epilogue, not batches) picked for it: `auto`'s cp.async rung for the
        # dtype and mode instead (dispatch.plain_choice). Layouts a rung declares (Config.LAYOUTS) it
        # reads through its own arguments. An explicitly named strategy (a fixed resolver) is kept,
        # and raises below, naming what its template lacks.
        plain = is_plain(la, K) and is_plain(lb, N) or (la.col, lb.col) in kern.config.layouts()
        # So does a config that would copy an operand its strategy reads in place (dmma's pairs
        # layout reads row-major operands only: DmmaConfig.layouts).
        copies_own = not plain and (la.col, lb.col) in type(kern.config).LAYOUTS
        needed = extras_needed(count, g is not None, p.out_dtype is not None, plain)
        if not fixed and "out_dtype" in needed - kern.config.extras():
            # a sibling config of the same rung that writes this C type (wgmma_tma's out_bits=32)
            sibling = kern.config.for_out_dtype(p.out_dtype)
            if sibling is not None:
                kern = type(kern)(kern.strategy.name, sibling)
        if not fixed and (copies_own or needed - kern.config.extras()):
            name, params = dispatch.plain_choice(shape_m, N, K, dt, device, kern.config.precision, needed)
            kern = type(kern)(name, strategy_entry(name).make_config(**params))
        return kern

    kern = pick(Mr, count, la, lb)
    cfg = kern.config
    copy_a, copy_b = layout_copies(la, lb, K, N, cfg.layouts())
    while copy_a or copy_b:
        # this config does not read these layouts: copy (once, unbroadcast) what it cannot read;
        # the copy may let a batch fold, so the kernel for the new shape is checked again
        if copy_a:
            layout_copies_made["config"] += 1
            A, copied[0] = cupy.broadcast_to(cupy.ascontiguousarray(A0), A.shape), "config"
        if copy_b:
            layout_copies_made["config"] += 1
            B, copied[1] = cupy.broadcast_to(cupy.ascontiguousarray(B0), B.shape), "config"
        Mr, count, inner, outer, la, lb = plan(A, B)
        kern = pick(Mr, count, la, lb)
        cfg = kern.config
        copy_a, copy_b = layout_copies(la, lb, K, N, cfg.layouts())
    M = Mr
    ops = [A, B, C] + ([cin] if cin is not None else [])
    sizes = [x.itemsize for x in ops]  # C and cin may be float32 beside 16-bit A and B
    out_ctype = p.out_dtype.ctype if p.out_dtype is not None else None
    spec = (g.spec(dt.acc.ctype, count > 1, out_ctype) if g is not None
            else ExSpec(dt.acc.ctype, batched=True, out_ctype=out_ctype) if count > 1
            else ExSpec(dt.acc.ctype, out_ctype=out_ctype) if out_ctype else None)
    if not (is_plain(la, K) and is_plain(lb, N)):
        spec = dataclasses.replace(spec or ExSpec(dt.acc.ctype, out_ctype=out_ctype), a_col=la.col, b_col=lb.col,
                                   ld=True)
    compiled = kern.compiled(dt, device, ex=spec)
    limit = device_limits(device).max_grid_y
    if cfg.grid(M, N)[1] > limit:
        raise ValueError(f"M={M} needs {cfg.grid(M, N)[1]} blocks along grid y, over the device limit {limit}; "
                         f"use a strategy config with a taller tile")
    launches = []
    for index in itertools.product(*(range(n) for n, _ in outer)):
        offs = [sum(i * st[k] for i, (_, st) in zip(index, outer)) for k in range(len(ops))]
        for first in range(0, count, MAX_BATCH_PER_LAUNCH):
            launches.append((tuple((off + first * st) * sz for off, st, sz in zip(offs, inner, sizes)),
                             min(MAX_BATCH_PER_LAUNCH, count - first)))
    plan = _Plan(kern, compiled, spec, values, la, lb, M, N, K, tuple(inner), isz, dt.numpy, C.dtype,
                 tuple(launches), tuple(copied), edt)
    plan.fire([x.data.ptr for x in ops], cupy.cuda.get_current_stream())
    return plan


@dataclass(frozen=True)
class _Plan:
    """Everything a call's launches need that does not depend on where its operands lie: the
    kernel, its extras, the layouts, and per launch the byte offset of each operand (A, B, C and
    beta's C) from its base pointer with the batch count. :meth:`fire` adds the pointers."""

    kern: Any
    compiled: Any
    spec: "ExSpec | None"
    values: Mapping[str, Any]
    la: Layout
    lb: Layout
    M: int
    N: int
    K: int
    inner: tuple[int, ...]
    isz: int
    a_dtype: Any
    c_dtype: Any
    launches: tuple[tuple[tuple[int, ...], int], ...]
    #: per operand (A, B): the layout_copies_made counter of the row-major copy the launches read
    #: instead of the operand itself, or None where they read it in place
    copies: "tuple[str | None, str | None]" = (None, None)
    #: the type gemm's epilogue computes in (and reads c and bias in)
    e_dtype: Any = None

    def fire(self, bases: "list[int]", stream: Any, values: "Mapping[str, Any] | None" = None) -> None:
        """Launch at `bases` (A, B, C and beta's C), with `values` (a replayed gemm's pointers)
        in place of the first call's extras."""
        cfg, la, lb, spec, M, N, K, isz = self.kern.config, self.la, self.lb, self.spec, self.M, self.N, self.K, self.isz
        sa, sb, sc = self.inner[0], self.inner[1], self.inner[2]
        csz = self.c_dtype.itemsize
        for offsets, n in self.launches:
            ptrs = [base + off for base, off in zip(bases, offsets)]
            a_ptr, b_ptr, c_ptr = ptrs[:3]
            # 16-byte vector paths need every matrix of the batch aligned: a misaligned batch
            # stride clears the flag as a misaligned pointer would
            flags = int(_aligned(a_ptr, la.ld, M if la.col else K, sa, n, isz)) | (int(
                _aligned(b_ptr, lb.ld, K if lb.col else N, sb, n, isz)
                and _aligned(c_ptr, N, N, sc, n, csz)) << 1)
            if launch_hook is not None:
                launch_hook(a_ptr, b_ptr, c_ptr, M, N, K, n)
            if layout_hook is not None:
                layout_hook(la, lb, spec)
            if spec is None:
                cfg.launch(self.compiled, _At(a_ptr, self.a_dtype), _At(b_ptr, self.a_dtype),
                           _At(c_ptr, self.c_dtype), M, N, K, flags, stream)
                continue
            vals = dict(self.values if values is None else values)
            if spec.ld:
                vals.update(lda=la.ld, ldb=lb.ld)
            if spec.batched:
                vals.update(sa=sa, sb=sb)
            if len(ptrs) > 3:
                vals.update(cin=ptrs[3], scin=self.inner[3])
            bound = ExLaunch(self.compiled, spec, vals, c_ptr, n, sc, cfg.BATCH_AXIS)
            cfg.launch(bound, _At(a_ptr, self.a_dtype), _At(b_ptr, self.a_dtype), _At(c_ptr, self.c_dtype), M, N, K,
                       flags, stream)


__all__ = ["Gemm", "check_gemm", "check_gemm_out", "run", "replay", "gemm_form", "clear_plans", "extras_needed",
           "MAX_BATCH_PER_LAUNCH"]
