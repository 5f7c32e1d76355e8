"""16-bit floating-point data as its uint16 bits on the device, for checking the half-precision
kernels without relying on CuPy's bfloat16 arithmetic: round float32 to float16 or bfloat16 bits
(round to nearest even), widen bits to float64 exactly, and the componentwise error bound those
kernels are held to.

>>> import cupy as cp                                                 # doctest: +SKIP
>>> bits = to_bits(cp.asarray([1.0, 1 / 3], cp.float32), "bfloat16")  # doctest: +SKIP
>>> to_f64(bits, "bfloat16")                                          # doctest: +SKIP
array([1.        , 0.33398438])
"""

from __future__ import annotations

from typing import Any

#: unit roundoff of each 16-bit type (half an ulp of 1): float16 11 significant bits, bfloat16 8
ROUNDING: dict[str, float] = {"float16": 2.0**-11, "bfloat16": 2.0**-8}
#: a quiet NaN's bits in each type (to poison outputs)
NAN_BITS: dict[str, int] = {"float16": 0x7E00, "bfloat16": 0x7FC0}
#: +Inf's bits
INF_BITS: dict[str, int] = {"float16": 0x7C00, "bfloat16": 0x7F80}


def to_bits(x32: Any, dtype: str) -> Any:
    """float32 cupy array -> uint16 bits of `dtype`, rounded to nearest even (finite inputs)."""
    import cupy as cp

    if dtype == "float16":
        return x32.astype(cp.float16).view(cp.uint16)
    u = x32.view(cp.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(cp.uint16)


def to_f64(bits: Any, dtype: str) -> Any:
    """uint16 bits of `dtype` (float16 or bfloat16) -> float64, exactly (NaN and Inf kept)."""
    import cupy as cp

    if dtype == "float16":
        return bits.view(cp.float16).astype(cp.float64)
    return (bits.astype(cp.uint32) << 16).view(cp.float32).astype(cp.float64)


def error_bound(dtype: str, K: int, out_bits: int = 16) -> float:
    """The bound on max |C - ref| / (|A||B|) for a 16-bit product with float32 accumulation:
    the output's rounding (none for float32 output: 2^-24), plus K * 2^-23 for K float32 additions
    that may each truncate (tensor cores need not round to nearest). Products of 16-bit values are
    exact in float32, so these are the only errors."""
    return (ROUNDING[dtype] if out_bits == 16 else 2.0**-24) + K * 2.0**-23


def componentwise_error(c64: Any, ref: Any, absprod: Any) -> float:
    """max |c - ref| / (|A||B|) over the entries where |A||B| > 0 (0.0 for an empty C)."""
    import cupy as cp

    if c64.size == 0:
        return 0.0
    err = cp.abs(c64 - ref)
    return float(cp.max(cp.where(absprod > 0, err / cp.where(absprod > 0, absprod, 1.0), err)))


__all__ = ["ROUNDING", "NAN_BITS", "INF_BITS", "to_bits", "to_f64", "error_bound", "componentwise_error"]
