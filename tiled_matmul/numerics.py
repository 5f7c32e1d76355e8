"""The numerics suite: data sets that probe float32 accuracy per element, and the measure.

Componentwise error of C against a float64 reference is ``max_ij |C - ref|_ij / (|A|·|B|)_ij``:
the error of each element relative to the size of the products it sums, the measure the
classical bound ``|C - AB| <= gamma_K |A||B|`` is stated in. Normwise error (‖C − ref‖/‖ref‖)
hides a large error on small elements; this does not.

:data:`DATASETS` lists the suite's data (the issue's public list); :data:`KS` its depths. The
benchmark ``benchmarks/numerics_suite.py`` and the GPU tests run every (mode, data, K) against
cuBLAS FP32 in the same process. :func:`bound` states each precision mode's componentwise bound,
:func:`half_bound` the bound of float16 and bfloat16 products (FP32 accumulation), and
:func:`cublas_matmul` is the cuBLAS product to compare with for every dtype.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

#: depths of the suite (M = N = 512, and 256 at K = 65536)
KS = (1, 2, 3, 8, 16, 100, 1024, 65536)

F32_U = 2.0 ** -24  # float32 unit roundoff
#: unit roundoff (half an ulp of 1, relative) of each result dtype
UNIT_ROUNDOFF = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8, "float32": F32_U, "float64": 2.0 ** -53}


def _uniform(rng, shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape)


def _spread(rng, shape):
    return rng.uniform(-1, 1, shape) * 2.0 ** rng.integers(-40, 41, shape)


def _cancel(rng, shape):
    M, K = shape
    x = rng.uniform(-1, 1, ((M + 1) // 2, K))
    a = np.empty((2 * x.shape[0], K))
    a[0::2], a[1::2] = x, -x
    return a[:M] + 1e-4 * rng.uniform(-1, 1, shape)


def _nonfinite(rng, shape):
    a = rng.uniform(-1, 1, shape)
    flat = a.reshape(-1)
    idx = rng.choice(flat.size, size=max(1, flat.size // 5000), replace=False)
    flat[idx[0::3]] = np.nan
    flat[idx[1::3]] = np.inf
    flat[idx[2::3]] = -np.inf
    return a


#: name -> (A maker, B maker), each (numpy Generator, shape) -> float64 array, cast to float32 after
DATASETS: dict[str, tuple[Callable, Callable]] = {
    "uniform[-1,1]": (_uniform, _uniform),
    "uniform[0,1]": (lambda r, s: _uniform(r, s, 0, 1), lambda r, s: _uniform(r, s, 0, 1)),
    "exponents 2^+-40": (_spread, _spread),
    "a~3e38, b~1e-3": (lambda r, s: 3e38 * _uniform(r, s), lambda r, s: 1e-3 * _uniform(r, s)),
    "a~1e-36, b~1e30": (lambda r, s: 1e-36 * _uniform(r, s), lambda r, s: 1e30 * _uniform(r, s)),
    "subnormal a~1e-40": (lambda r, s: 1e-40 * _uniform(r, s), _uniform),
    "cancellation": (_cancel, _uniform),
    "small integers": (lambda r, s: r.integers(-64, 65, s).astype(float), lambda r, s: r.integers(-64, 65, s).astype(float)),
    "NaN and Inf": (_nonfinite, _uniform),
}


def shape_for(K: int) -> tuple[int, int, int]:
    """(M, N, K) of the suite at depth K."""
    side = 256 if K >= 65536 else 512
    return side, side, K


def make(name: str, M: int, N: int, K: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """float32 host operands of data set `name`."""
    rng = np.random.default_rng(seed)
    fa, fb = DATASETS[name]
    with np.errstate(over="ignore"):
        return fa(rng, (M, K)).astype(np.float32), fb(rng, (K, N)).astype(np.float32)


def device_case(name: str, K: int, seed: int = 0) -> tuple[Any, Any, Any, Any]:
    """Data set `name` at depth K (:func:`shape_for`) on the current device: (a, b, ref, den),
    a and b float32, ref = a @ b and den = |a| @ |b| in float64 from the host values (so float32
    subnormals count; see :func:`exact64`)."""
    import cupy

    M, N, _ = shape_for(K)
    a_h, b_h = make(name, M, N, K, seed)
    a64, b64 = cupy.asarray(a_h.astype(np.float64)), cupy.asarray(b_h.astype(np.float64))
    return cupy.asarray(a_h), cupy.asarray(b_h), a64 @ b64, cupy.abs(a64) @ cupy.abs(b64)


def exact64(x: Any) -> Any:
    """`x` as a new float64 array with its subnormal float32 values kept. CuPy compiles its
    elementwise kernels (``astype`` included) with ``-ftz=true``, which flushes float32
    subnormals to zero; so a float32 device array is widened from its bit patterns with integer
    and float64 operations only (:data:`_WIDEN_F32`, which ``-ftz`` leaves alone), a float64 one
    is copied, and other dtypes go through the host."""
    if isinstance(x, np.ndarray):
        return x.astype(np.float64)
    import cupy

    if x.dtype == np.float64:
        return x.copy()
    if x.dtype == np.float32:
        return _widen_f32()(x.view(np.uint32))  # (bits: a strided copy would be integer, never flushed)
    return cupy.asarray(cupy.asnumpy(x).astype(np.float64))


#: float32 bits -> the float64 of the same value: sign, exponent rebased by 1023 - 127, mantissa
#: moved up 29 bits (Inf alike; a NaN keeps its payload and is quieted, as a conversion does);
#: subnormals (exponent 0) as mantissa * 2^-149, exact in float64
_WIDEN_F32 = r"""
const unsigned int e = (u >> 23) & 0xffu;
const unsigned long long s = (unsigned long long)(u >> 31) << 63,
    m = (u & 0x7fffffu) | (e == 0xffu && (u & 0x7fffffu) ? 0x400000u : 0u);
if (e == 0u) {
    const double v = ldexp((double)m, -149);
    y = (u >> 31) ? -v : v;
} else {
    y = __longlong_as_double(s | ((unsigned long long)(e == 0xffu ? 0x7ffu : e + 896u) << 52) | (m << 29));
}
"""


def _widen_f32() -> Any:
    global _WIDEN_KERNEL
    if _WIDEN_KERNEL is None:
        import cupy

        _WIDEN_KERNEL = cupy.ElementwiseKernel("uint32 u", "float64 y", _WIDEN_F32, "tm_exact64_f32")
    return _WIDEN_KERNEL


_WIDEN_KERNEL: Any = None


#: half the spacing of each result dtype's subnormals: the absolute error of rounding a result
#: into the subnormal range, which no relative bound covers (a float16 result below 2^-14 keeps
#: fewer than 11 bits; cuBLAS's half GEMMs round there alike)
UNDERFLOW_FLOOR = {"float16": 2.0 ** -25, "bfloat16": 2.0 ** -134, "float32": 2.0 ** -150, "float64": 0.0}


def reference(a: Any, b: Any) -> tuple[Any, Any]:
    """(a @ b, |a| @ |b|) in float64 from the exact widening of a and b (:func:`exact64`; cupy or
    numpy arrays): the reference and the denominator of :func:`componentwise_error`."""
    xp = _xp(a)
    a64, b64 = exact64(a), exact64(b)
    return a64 @ b64, xp.abs(a64) @ xp.abs(b64)


def componentwise_error(c: Any, a: Any, b: Any, ref: Any = None, den: Any = None, floor: float = 0.0) -> float:
    """max |c - ref| / (|a|·|b|) over the elements whose reference and denominator are finite and
    nonzero (cupy or numpy arrays; computed in float64 with the arrays' own module). `floor`
    (:data:`UNDERFLOW_FLOOR` of the result dtype) is taken off each |c - ref| first: the error
    of a result rounded into the subnormal range."""
    xp = _xp(c)
    if ref is None or den is None:  # (given both, a and b are not read again)
        r, d = reference(a, b)
        ref = r if ref is None else ref
        den = d if den is None else den
    ok = xp.isfinite(ref) & xp.isfinite(den) & (den > 0)
    if not bool(ok.any()):
        return 0.0
    err = xp.abs(exact64(c) - ref)
    if floor:
        err = xp.maximum(err - floor, 0.0)
    err = xp.where(ok, err, 0.0) / xp.where(ok, den, 1.0)
    return float(xp.nan_to_num(err, nan=xp.inf).max())


def poison(c: Any) -> Any:
    """Fill `c` (cupy or numpy, any float dtype) with NaN, through its bits for the 16-bit types
    (quiet NaN 0x7E00 for float16, 0x7FC0 for bfloat16; no float arithmetic on them), so that
    an element a kernel does not write stays NaN. Returns `c`."""
    if c.dtype.itemsize == 2:
        c.view(np.uint16).fill(0x7FC0 if c.dtype.name == "bfloat16" else 0x7E00)
    else:
        c.fill(np.nan)
    return c


def nonfinite_mask(c: Any) -> Any:
    """Where c is NaN (1), +Inf (2) or -Inf (3), else 0: two results propagate Inf and NaN alike
    when their masks are equal."""
    xp = _xp(c)
    return xp.where(xp.isnan(c), 1, xp.where(c == xp.inf, 2, xp.where(c == -xp.inf, 3, 0)))


def bound(mode: str, K: int, truncated: bool = False) -> float:
    """The componentwise error bound of precision mode `mode` at depth K, for operands whose
    nonzero magnitudes lie in [2^-100, 2^100) and products that do not underflow (the kernels'
    range guard sends other data to the exact FMA path, whose bound is ieee's):

    * ieee: gamma_K = K u / (1 - K u), u = 2^-24 (every product and sum rounded once; any order);
    * tf32x3: each operand is big + small + r with |r| <= 2^-22 |x|, and the dropped small*small
      is at most 2^-22 |ab|: 3 * 2^-22 per product; the tensor core's truncating sums add at most
      an ulp (2^-23) of the partial per MMA, 3 K/8 + 1 of them chained per product's path over
      the K steps, and the FADDs of the steps gamma_(K/32); so 3*2^-22 + (3K/8 + K/32 + 2) 2^-23;
    * tf32: big alone, |a_big b_big - ab| <= (2 * 2^-11 + 2^-22)|ab|, plus the same sums with
      K/8 MMAs: 2^-10 + 2^-22 + (K/8 + K/32 + 2) 2^-23. With `truncated`, one operand reaches the
      tensor core as float32 bits that it truncates to TF32 (|error| < 2^-10 |a|, as cuBLAS's TF32
      GEMM; wgmma_tma_tf32's A): (2^-10 + 2^-11 + 2^-21)|ab| per product, so
      2^-10 + 2^-11 + 2^-21 + (K/8 + K/32 + 2) 2^-23.
    """
    K = max(int(K), 1)
    if mode == "ieee":
        return K * F32_U / (1 - K * F32_U)
    if mode == "tf32x3":
        return 3 * 2.0 ** -22 + (3 * K / 8 + K / 32 + 2) * 2.0 ** -23
    if mode == "tf32":
        product = 2.0 ** -10 + 2.0 ** -11 + 2.0 ** -21 if truncated else 2.0 ** -10 + 2.0 ** -22
        return product + (K / 8 + K / 32 + 2) * 2.0 ** -23
    raise ValueError(f"mode must be 'ieee', 'tf32x3' or 'tf32'; got {mode!r}")


def half_bound(dtype: Any, K: int, out_dtype: Any = None) -> float:
    """The componentwise error bound, ``max |C - AB| / (|A||B|)``, of a float16 or bfloat16
    product computed on tensor cores with FP32 accumulation (``mma_half``; cuBLAS's half GEMMs
    work the same way), against the exact float64 product of the 16-bit inputs:

    * the products of 16-bit operands are exact in float32 (11 or 8 significant bits each);
    * each of the K - 1 sums into the FP32 accumulator errs by at most one float32 ulp of the
      partial sum (the tensor core may truncate rather than round), <= 2^-23 |A||B| each:
      (K - 1) 2^-23 in all;
    * the epilogue rounds once to the result dtype (`out_dtype`, else `dtype`), to nearest:
      u_out |AB| <= u_out |A||B|, u_out = 2^-11 (float16), 2^-8 (bfloat16), 2^-24 (float32).

    So ``u_out + (K - 1) 2^-23`` (the product of the two first-order terms is below 2^-30 and is
    covered by using K rather than K - 1), for results in the output's normal range; a result
    rounded into its subnormal range errs by up to :data:`UNDERFLOW_FLOOR` absolutely (measure
    with ``componentwise_error(..., floor=UNDERFLOW_FLOOR[out])``). The final rounding dominates a 16-bit result until K
    reaches about 2^12 (float16) or 2^15 (bfloat16); a float32 result (``out_dtype=float32``)
    keeps the accumulation error alone. Results that overflow the result dtype become Inf, as in
    cuBLAS.

    >>> half_bound("float16", 1024) == 2.0 ** -11 + 1024 * 2.0 ** -23
    True
    """
    from .dtypes import as_dtype

    out = as_dtype(dtype if out_dtype is None else out_dtype)
    return UNIT_ROUNDOFF[out.name] + max(int(K), 1) * 2.0 ** -23


def cublas_matmul(a: Any, b: Any, out_dtype: Any = None) -> tuple[Any, str]:
    """(a @ b by cuBLAS, which library ran it) for cupy arrays of one dtype: ``cupy.matmul``, or,
    where CuPy has no matmul for the dtype (bfloat16 in some versions), ``torch.matmul`` through
    DLPack with its reduced-precision bfloat16 reductions off (FP32 accumulation, as ours).
    With ``out_dtype=float32`` the 16-bit inputs are widened exactly (through the host: CuPy's
    own casts flush float32 subnormals) and multiplied by cuBLAS SGEMM (TF32 off). Raises
    RuntimeError when neither library can multiply the dtype."""
    import cupy

    if out_dtype is not None and np.dtype(out_dtype) == np.float32 and a.dtype != np.float32:
        f32 = [cupy.asarray(cupy.asnumpy(x).astype(np.float32)) for x in (a, b)]
        return cupy.matmul(*f32), "cupy.matmul (cuBLAS SGEMM of the widened inputs)"
    try:
        return cupy.matmul(a, b), "cupy.matmul (cuBLAS)"
    except Exception as exc:  # CuPy without a matmul for this dtype
        cupy_error = f"{type(exc).__name__}: {exc}"
    try:
        import torch
    except ImportError:
        raise RuntimeError(f"cupy.matmul cannot multiply {a.dtype} ({cupy_error}) and torch is not "
                           "installed") from None
    flag = torch.backends.cuda.matmul
    saved = flag.allow_bf16_reduced_precision_reduction
    flag.allow_bf16_reduced_precision_reduction = False
    try:
        c = torch.matmul(torch.from_dlpack(a), torch.from_dlpack(b))
    finally:
        flag.allow_bf16_reduced_precision_reduction = saved
    return cupy.from_dlpack(c), f"torch.matmul (cuBLAS; cupy.matmul: {cupy_error})"


def _xp(x: Any):
    if isinstance(x, np.ndarray):
        return np
    import cupy

    return cupy


__all__ = ["KS", "DATASETS", "UNIT_ROUNDOFF", "shape_for", "make", "device_case", "exact64", "reference",
           "componentwise_error",
           "nonfinite_mask", "poison", "bound", "half_bound", "cublas_matmul"]
