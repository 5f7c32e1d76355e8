"""Precision modes: how float32 products are computed, and what `auto` may use.

A kernel computes in one of three modes:

* ``"ieee"``: every product and sum an IEEE float32 (or float64) operation, FFMA or DFMA (and
  dmma's FP64 tensor cores, whose products and sums are IEEE float64), like cuBLAS with TF32 off;
* ``"tf32x3"``: the big + small TF32 split on tensor cores (three MMAs per product), about
  float32's accuracy at about twice cuBLAS FP32's speed on Hopper;
* ``"tf32"``: one TF32 MMA per product (10-bit mantissa), like cuBLAS with ``CUPY_TF32=1``.

A caller asks for one of those or for ``"auto"`` (the default): the fastest kernel whose error
per element stays within 2x of cuBLAS FP32's. That is tf32x3 for K >= :data:`TF32X3_MIN_K`
and ieee below, where tf32x3's 22-bit operands show against FFMA's 24 (at K = 1 a product's
error is ~2^-21 against ~2^-24; as K grows FFMA's summation error grows and tf32x3's
representation error averages out: on the H100 tf32x3 is within 1.4x of cuBLAS from K = 8 on
uniform data, and within 2x from K = 16, 1.32x at K = 100, where one product dominates each sum).
float64 has one mode, ieee ("auto" means it), and so do float16 and bfloat16: their products are
exact in float32 and sum in the tensor cores' FP32 accumulators, with no TF32 step to choose.

The process default is ``"auto"``, or the ``TILED_MATMUL_PRECISION`` environment variable (read
once, at import), or what :func:`set_precision` set last. ``TILED_MATMUL_TENSOR_CORES=0``, the
older opt-out, still selects ``"ieee"``, with a DeprecationWarning.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from .dtypes import FLOAT32, FLOAT64, DType, as_dtype

#: the modes a kernel computes in
MODES = ("ieee", "tf32x3", "tf32")
#: what a caller may ask for
REQUESTS = ("auto", *MODES)
#: the modes of float64 requests
FLOAT64_REQUESTS = ("auto", "ieee")
#: TF32 tensor-core passes per product of each tensor-core mode (the `passes` config field)
PASSES = {"tf32x3": 3, "tf32": 1}

#: environment variable holding the process default
ENV = "TILED_MATMUL_PRECISION"
#: the older opt-out: "0" means "ieee" (deprecated)
TENSOR_CORES_ENV = "TILED_MATMUL_TENSOR_CORES"

#: shortest K for which `auto` runs tf32x3 on float32 (ieee below). Measured on the H100 (the
#: numerics suite, benchmarks/numerics_suite.py): tf32x3's componentwise error over cuBLAS FP32's
#: is 7.9x at K = 1, 1.4-2.4x at K = 8, at most 1.92x at K = 16 and 1.32x at K = 100 (operands whose
#: exponents spread over 2^+-40, where one product dominates each sum; <= 1.0x on the other data)
#: and 1.03x at K = 1024. From 128 the 2x promise holds with room to spare. Filled in on the same
#: data (scripts/gpu_s30d.sh, 3 seeds, 512^2 and 2048^2): worst 2.53 at K = 16, 2.35 at 24, 1.98
#: at 32, 1.96 at 64, 1.85 at 96, 1.53 at 127; and below 128 the tf32x3 picks ran slower than the
#: FFMA ones (0.73-0.78x cuBLAS FP32 against 0.90-0.93 on 32 short-K shapes)
TF32X3_MIN_K = 128


def check(precision: Any, dtype: Any = None) -> str:
    """`precision` if it is a request `dtype` accepts (any request when `dtype` is None), else
    ValueError naming what is allowed; TypeError for a non-string."""
    if not isinstance(precision, str):
        raise TypeError(f"precision must be a string, one of {', '.join(map(repr, REQUESTS))}; "
                        f"got {type(precision).__name__} {precision!r}")
    if precision not in REQUESTS:
        raise ValueError(f"precision must be one of {', '.join(map(repr, REQUESTS))}; got {precision!r}")
    if dtype is not None and as_dtype(dtype) == FLOAT64 and precision not in FLOAT64_REQUESTS:
        raise ValueError(f"float64 products take precision 'auto' or 'ieee' (FP64 FMAs and FP64 tensor "
                         f"cores are IEEE float64); got {precision!r}")
    if dtype is not None and as_dtype(dtype).half and precision not in FLOAT64_REQUESTS:
        raise ValueError(f"{as_dtype(dtype)} products take precision 'auto' or 'ieee' (16-bit operands multiply "
                         f"exactly on the tensor cores, into FP32 sums; TF32 modes are for float32); got {precision!r}")
    return precision


def _from_env() -> str:
    value = os.environ.get(ENV, "").strip().lower()
    if value:
        try:
            return check(value)
        except ValueError as exc:
            raise ValueError(f"{ENV}={os.environ[ENV]!r}: {exc}") from None
    if os.environ.get(TENSOR_CORES_ENV, "1").strip().lower() in ("0", "false", "no", "off"):
        warnings.warn(f"{TENSOR_CORES_ENV}=0 is deprecated: use {ENV}=ieee or tm.set_precision('ieee')",
                      DeprecationWarning, stacklevel=3)
        return "ieee"
    return "auto"


_default: "str | None" = None


def get_precision() -> str:
    """The process default: the last :func:`set_precision`, else the environment's, else "auto"."""
    global _default
    if _default is None:
        _default = _from_env()
    return _default


def set_precision(precision: "str | None") -> str:
    """Set the process default precision (None: back to the environment's); returns the previous
    default. It applies to `auto` wherever no ``precision=`` is given."""
    global _default
    previous = get_precision()
    _default = None if precision is None else check(precision)
    return previous


def resolve(precision: "str | None", dtype: Any) -> str:
    """The request a call makes: `precision` checked against `dtype`, or when None the process
    default, which governs float32 ("tf32" as the default leaves float64 and 16-bit calls on
    "auto")."""
    if precision is None:
        default = get_precision()
        return default if as_dtype(dtype) == FLOAT32 or default in FLOAT64_REQUESTS else "auto"
    return check(precision, dtype)


def modes_for(request: str, dtype: Any, K: int) -> tuple[str, ...]:
    """The modes `request` allows for a float `dtype` product of depth K, in order of preference."""
    dt: DType = as_dtype(dtype)
    if dt != FLOAT32:  # float64, float16, bfloat16: one mode
        return ("ieee",)
    if request == "auto":
        return ("tf32x3", "ieee") if K >= TF32X3_MIN_K else ("ieee",)
    return (request,)


__all__ = ["MODES", "REQUESTS", "ENV", "TENSOR_CORES_ENV", "TF32X3_MIN_K", "PASSES", "check",
           "get_precision", "set_precision", "resolve", "modes_for"]
