"""Check a result against cuBLAS (`cupy.matmul`) and a float64 reference."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .api import tolerance
from .numerics import UNDERFLOW_FLOOR, componentwise_error, cublas_matmul, exact64, half_bound, reference


@dataclass(frozen=True)
class CheckReport:
    """How far C is from a @ b. `passed` is False for any NaN/Inf mismatch or error over `tol`."""

    shape: tuple[int, int, int]  # (M, N, K)
    dtype: str
    max_abs_err: float  # max |C - ref64|
    rel_err: float  # ‖C - ref64‖ / ‖ref64‖ (Frobenius); max_abs_err when ‖ref64‖ == 0
    cublas_rel_err: float  # the same measure for cupy.matmul, for scale
    max_abs_diff_cublas: float  # max |C - cupy.matmul(a, b)|
    nonfinite: int  # elements of C that are NaN/Inf where the reference is finite
    tol: float
    passed: bool
    comp_err: float = 0.0  # componentwise: max |C - ref64| / (|a|·|b|)
    cublas_comp_err: float = 0.0  # the same measure for cupy.matmul
    #: which library computed the cuBLAS result ("cupy.matmul (cuBLAS)", or torch.matmul for a
    #: dtype CuPy cannot multiply)
    cublas: str = "cupy.matmul (cuBLAS)"
    #: for float16/bfloat16 inputs, the componentwise bound of :func:`~tiled_matmul.numerics.half_bound`
    #: (0 for float32/float64 inputs)
    comp_bound: float = 0.0

    def __bool__(self) -> bool:
        return self.passed

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def check(c: Any, a: Any, b: Any, tol: "float | None" = None) -> CheckReport:
    """Compare `c` with a @ b computed in float64 and with cupy.matmul: normwise error (what
    `passed` judges, against `tol`) and componentwise error (max |C - ref| / (|a|·|b|) per element;
    see :mod:`tiled_matmul.numerics`), each beside cuBLAS's.

    Accepts cupy or numpy arrays. The default tolerance scales with dtype and K (see
    :func:`tiled_matmul.tolerance`). float16 and bfloat16 inputs: the reference is the exact
    float64 product of the 16-bit values; the cuBLAS result is ``cupy.matmul``'s, or
    ``torch.matmul``'s where CuPy has no matmul for the dtype (the report's `cublas` names it);
    a float32 `c` (``out_dtype=float32``) is compared with cuBLAS SGEMM of the widened inputs;
    `comp_bound` is :func:`~tiled_matmul.numerics.half_bound`, which `comp_err` must not exceed.

    >>> report = check(matmul(a, b), a, b)  # doctest: +SKIP
    >>> assert report.passed, report
    """
    import cupy

    a, b, c = (cupy.asarray(x) for x in (a, b, c))
    M, K = a.shape
    N = b.shape[1]
    if c.shape != (M, N):
        raise ValueError(f"c has shape {c.shape}; a @ b has shape {(M, N)}")
    ref, den = reference(a, b)  # subnormals kept (CuPy's own astype flushes them)
    half = a.dtype.itemsize == 2
    out_dtype = np.float32 if half and c.dtype == np.float32 else None
    cub, cublas = cublas_matmul(a, b, out_dtype)
    c64 = exact64(c)
    tol = tolerance(a.dtype, K) if tol is None else float(tol)

    def errors(x):
        if x.size == 0:
            return 0.0, 0.0
        diff = x - ref
        # NaN where ref is NaN too counts as agreement (NaN propagates like cuBLAS).
        both_nan = cupy.isnan(x) & cupy.isnan(ref)
        same_inf = cupy.isinf(x) & (x == ref)
        diff = cupy.where(both_nan | same_inf, 0.0, diff)
        finite_ref = cupy.where(cupy.isfinite(ref), ref, 0.0)
        max_abs = float(cupy.abs(diff).max())
        ref_norm = float(cupy.linalg.norm(finite_ref))
        rel = float(cupy.linalg.norm(diff)) / ref_norm if ref_norm > 0 else max_abs
        return max_abs, rel

    max_abs, rel = errors(c64)
    cub64 = exact64(cub)
    _, cub_rel = errors(cub64)
    max_diff_cub = float(cupy.abs(c64 - cub64).max()) if c.size else 0.0
    nonfinite = int(cupy.count_nonzero(~cupy.isfinite(c64) & cupy.isfinite(ref))) if c.size else 0
    passed = bool(np.isfinite(rel) and rel <= tol and nonfinite == 0)
    floor = UNDERFLOW_FLOOR.get(str(c.dtype), 0.0) if half else 0.0  # float32/64: as before
    comp = componentwise_error(c, a, b, ref, den, floor) if c.size else 0.0
    cub_comp = componentwise_error(cub, a, b, ref, den, floor) if c.size else 0.0
    bound = half_bound(str(a.dtype), K, out_dtype) if half else 0.0
    if half:
        passed = passed and comp <= bound
    return CheckReport((M, N, K), str(a.dtype), max_abs, rel, cub_rel, max_diff_cub, nonfinite, tol, passed,
                       comp, cub_comp, cublas, bound)
