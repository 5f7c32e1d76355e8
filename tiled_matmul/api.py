"""The public entry points: :func:`matmul`, :func:`kernel` and :func:`source`.

A call goes through three named steps, in this order, and nothing is launched or written until
the first two have passed:

1. check the operands (types, shapes, dtypes, devices, `out`) from metadata alone;
2. resolve the strategy's config and its compiled kernel (validating the config once per key);
3. stage the inputs (numpy → device, non-contiguous → contiguous copy), launch on the current
   CuPy stream of the inputs' device, and hand back the result in the caller's kind of array.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np

from . import registry
from .compile import CompiledKernel, get_kernel
from .configs import Config, cdiv, dtype_name
from .operands import MAX_DIM, Operand, check_operands
from .render import render

#: The strategy `matmul` uses when none is named: the tuned or heuristic pick for the shape.
DEFAULT_STRATEGY = "auto"


def _resolve(strategy: str, params: dict[str, Any]) -> tuple[registry.Strategy, Config]:
    entry = registry.get(strategy)
    return entry, entry.make_config(**params)


def source(strategy: str, dtype="float32", **params: int) -> str:
    """The rendered CUDA C source of `strategy` with `params` (defaults for the rest). No GPU needed.

    >>> print(source("smem_tiled", tile=32))  # doctest: +SKIP
    """
    entry, cfg = _resolve(strategy, params)
    cfg.validate(dtype=dtype)
    return render(entry, cfg, dtype)


def _to_device(op: Operand):
    """A C-contiguous cupy array over a validated operand: the caller's memory itself (zero-copy)
    where it already is one; host data and strided views are copied, on the current stream."""
    import cupy

    if 0 in op.shape:  # nothing to read; some producers hand out a null pointer for empty arrays
        return cupy.empty(op.shape, dtype=op.dtype)
    if op.on_host:  # numpy arrays and host DLPack objects (op.array is their numpy view)
        return cupy.asarray(np.ascontiguousarray(op.array if op.array is not None else op.obj))
    arr = op.array if op.array is not None else cupy.asarray(op.obj)  # "cai": zero-copy view
    # RawKernel ignores strides: anything but C order must be copied first.
    return arr if arr.flags.c_contiguous else cupy.ascontiguousarray(arr)


def _out_view(dout: Operand):
    """A cupy array over the caller's device `out` (zero-copy): kernels write straight into it."""
    import cupy

    if dout.array is not None:
        return dout.array
    if 0 in dout.shape:  # nothing will be written
        return cupy.empty(dout.shape, dtype=dout.dtype)
    return cupy.asarray(dout.obj)


#: CUDA's grid-x limit (compute capability 3.0 and later); grid y comes from the device.
MAX_GRID_X = 2**31 - 1


def _aligned(arr, row_elems: int) -> bool:
    """True when every row of `arr` starts on a 16-byte boundary (so 128-bit accesses are legal)."""
    return arr.data.ptr % 16 == 0 and (row_elems * arr.itemsize) % 16 == 0


class MatmulKernel:
    """A strategy with a fixed config: call it like a function, `k(a, b, out=None)`.

    Compiled kernels are cached per (strategy, config, dtype, device), so a MatmulKernel is cheap
    to keep and reuse.

    >>> k = kernel("rect_tiled", tile_m=32, tile_n=64, tile_k=16)  # doctest: +SKIP
    >>> c = k(a, b)                                                 # doctest: +SKIP
    """

    def __init__(self, strategy: str, config: Config):
        self.strategy = registry.get(strategy)
        self.config = config
        #: (dtype char, device) -> launch plan, so a repeated call skips get_kernel entirely
        self._plans: dict[tuple[str, int], tuple] = {}

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.config.params().items())
        return f"MatmulKernel({self.strategy.name!r}, {params})"

    def source(self, dtype="float32") -> str:
        """The rendered CUDA C source for `dtype`."""
        return render(self.strategy, self.config, dtype)

    def compiled(self, dtype="float32", device: "int | None" = None) -> CompiledKernel:
        """The compiled kernel (compiling on first use) for `dtype` on `device`."""
        return get_kernel(self.strategy, self.config, dtype, device)

    def launch_dims(self, M: int, N: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(grid, block) this kernel launches for an M x N output."""
        return self.config.grid(M, N), self.config.block()

    def __call__(self, a: Any, b: Any, out: Any = None):
        """C = a @ b. Returns `out` itself if given, else a new array (see :func:`matmul`)."""
        fast = _fast_operands(a, b, out)
        if fast is not None:
            return self._launch_fast(a, b, out, *fast)
        da, db, dout = check_operands(a, b, out)
        return self._run(da, db, dout)

    def _launch_fast(self, a, b, out, M: int, N: int, K: int, device: int):
        """The hot path for operands :func:`_fast_operands` has already vetted: one dict lookup
        for the launch plan, then the launch. Anything unusual goes through :meth:`_run`."""
        plan = self._plans.get((a.dtype.char, device))
        if plan is None:
            compiled = self.compiled(a.dtype.name, device)
            custom = getattr(self.config, "run", None) is not None
            launcher = None if custom else compiled.launcher  # split-K launches through config.run
            plan = self._plans.setdefault((a.dtype.char, device), (compiled, launcher, custom))
        compiled, launch, custom = plan
        grid = self.config.grid(M, N)
        if grid[1] > compiled_grid_limit(device):  # let the general path raise its error
            return self._run(*check_operands(a, b, out))
        c = out if out is not None else _CUPY.empty((M, N), dtype=a.dtype)
        pa, pb, pc = a.data.ptr, b.data.ptr, c.data.ptr
        isz = a.itemsize
        # 16-byte accesses are legal only when every row starts on a 16-byte boundary.
        flags = int(pa % 16 == 0 and (K * isz) % 16 == 0) | (
            int(pb % 16 == 0 and pc % 16 == 0 and (N * isz) % 16 == 0) << 1)
        if custom:
            compiled.run(a, b, c, M, N, K, flags)
        else:
            launch(grid, pa, pb, pc, M, N, K, flags, _CURRENT_STREAM().ptr)
        return c

    def _run(self, da: Operand, db: Operand, dout: "Operand | None"):
        """Launch on validated operands, on the current CuPy stream of the inputs' device."""
        M, K = da.shape
        N = db.shape[1]
        dt = da.dtype.name
        gpu = _gpu()
        if gpu and da.device is None:  # host inputs run on the current device
            import cupy

            device = cupy.cuda.Device().id
        else:
            device = da.device  # without a GPU: None/fake ids read the H100 stand-in limits
        # Launch geometry is checked before anything compiles (and, like bad input, without a GPU).
        grid = self.config.grid(M, N)
        limit = compiled_grid_limit(device)
        if grid[1] > limit:
            raise ValueError(
                f"M={M} needs {grid[1]} blocks along grid y, over the device limit {limit}; "
                f"use a strategy config with a taller tile"
            )
        if grid[0] > MAX_GRID_X:
            raise ValueError(f"N={N} needs {grid[0]} blocks along grid x, over the limit {MAX_GRID_X}")
        if not gpu:
            raise RuntimeError("tiled_matmul needs a CUDA device and none is available "
                               "(cupy.is_available() is False); source() and explain() work without one")

        import cupy

        with cupy.cuda.Device(device):
            compiled = self.compiled(dt, device)
            device_out = dout is not None and not dout.on_host
            c = _out_view(dout) if device_out else cupy.empty((M, N), dtype=dt)
            if M and N:
                A, B = _to_device(da), _to_device(db)
                flags = int(_aligned(A, K)) | (int(_aligned(B, N) and _aligned(c, N)) << 1)
                compiled.run(A, B, c, M, N, K, flags)  # config hook: split-K launches twice
            if dout is not None:
                if not device_out:  # host out (numpy, or a host DLPack object's numpy view)
                    c.get(out=dout.array if dout.array is not None else dout.obj)
                return dout.obj  # the caller's own object (torch tensor, DLPack array, ...)
            return c.get() if da.on_host else c


_CUPY = None
_DTYPE_BY_CHAR = {"f": "float32", "d": "float64"}


def _cupy():
    """The cupy module, imported on first use (import tiled_matmul must work without it)."""
    global _CUPY, _GET_DEVICE, _CURRENT_STREAM, _C_CONTIGUOUS
    if _CUPY is None:
        import cupy

        # Bound once: the hot path calls these on every launch.
        _GET_DEVICE = cupy.cuda.runtime.getDevice
        _CURRENT_STREAM = cupy.cuda.get_current_stream
        # ndarray._c_contiguous is a plain attribute; .flags builds a Flags object per access.
        _C_CONTIGUOUS = (operator.attrgetter("_c_contiguous") if hasattr(cupy.ndarray, "_c_contiguous")
                         else (lambda x: x.flags.c_contiguous))
        _CUPY = cupy
    return _CUPY


_GET_DEVICE = _CURRENT_STREAM = _C_CONTIGUOUS = None
#: strategy name -> its default-config MatmulKernel, for `matmul(a, b, "name")` without params
_DEFAULT_KERNELS: dict[str, "MatmulKernel"] = {}


def _fast_operands(a: Any, b: Any, out: Any) -> "tuple[int, int, int, int] | None":
    """(M, N, K, device) when a, b (and out) are plain C-contiguous cupy arrays that pass every
    rule of :func:`check_operands` on the current device, with nothing to copy; else None.

    This is the common case and it must cost a few microseconds: it reads only shapes, dtypes,
    flags and pointers. Returning None sends the call through the general path, which raises
    the proper error for bad input, so every rule still lives in operands.py.
    """
    if _CUPY is None:
        if not _gpu():
            return None
        _cupy()
    nd = _CUPY.ndarray
    if type(a) is not nd or type(b) is not nd or (out is not None and type(out) is not nd):
        return None
    sa, sb = a.shape, b.shape
    if len(sa) != 2 or len(sb) != 2 or sa[1] != sb[0] or a.dtype != b.dtype or a.dtype.char not in "fd":
        return None
    M, K = sa
    N = sb[1]
    if not (M and N and K) or M > MAX_DIM or N > MAX_DIM or K > MAX_DIM or not (_C_CONTIGUOUS(a) and _C_CONTIGUOUS(b)):
        return None
    device = a.data.device_id
    if b.data.device_id != device or device != _GET_DEVICE():
        return None
    if out is not None:
        if out.shape != (M, N) or out.dtype != a.dtype or not _C_CONTIGUOUS(out) or out.data.device_id != device:
            return None
        lo, hi = out.data.ptr, out.data.ptr + out.nbytes
        for x in (a, b):
            if x.data.ptr < hi and lo < x.data.ptr + x.nbytes:
                return None  # overlap: the general path raises
    return M, N, K, device


@functools.lru_cache(maxsize=1)
def _gpu() -> bool:
    from .device import gpu_available

    return gpu_available()


@functools.lru_cache(maxsize=None)
def compiled_grid_limit(device: int) -> int:
    from .device import device_limits

    return device_limits(device).max_grid_y


@functools.lru_cache(maxsize=1024)
def _kernel_cached(strategy: str, items: tuple) -> MatmulKernel:
    entry, cfg = _resolve(strategy, dict(items))
    cfg.validate()
    return MatmulKernel(entry.name, cfg)


def kernel(strategy: str = DEFAULT_STRATEGY, **params: int) -> MatmulKernel:
    """A reusable :class:`MatmulKernel` for `strategy` with `params` (defaults for the rest).

    Raises ValueError for an unknown strategy or a config that breaks a rule, TypeError for an
    unknown or non-int parameter.

    >>> k = kernel("smem_tiled", tile=16)  # doctest: +SKIP

    ``kernel("auto")`` returns a :class:`tiled_matmul.tunedb.AutoKernel` instead: the shape is
    only known at call time, so it picks the tuned kernel for each call's shape bucket (see
    :func:`matmul`); it takes no params.
    """
    if strategy == "auto":
        if params:
            raise TypeError(f"strategy='auto' picks its own parameters; got {sorted(params)}")
        from .tunedb import AUTO

        return AUTO
    try:
        return _kernel_cached(strategy, tuple(sorted(params.items())))
    except TypeError as exc:
        if "unhashable" in str(exc):
            raise TypeError(f"parameters must be ints; got {params}") from None
        raise


def matmul(a: Any, b: Any, strategy: str = DEFAULT_STRATEGY, out: Any = None, **params: int):
    """C = a @ b with a hand-written tiled kernel.

    `a` (M x K) and `b` (K x N) are 2-D float32 or float64 arrays of one dtype. `strategy` names a
    rung of the ladder (see ``tiled_matmul.STRATEGIES``); `params` set its tile sizes, defaults
    filling the rest. Device inputs are used in place (zero-copy); non-contiguous ones are copied
    to C order first. What comes back depends on what goes in:

    * ``cupy.ndarray`` inputs give a new ``cupy.ndarray``;
    * ``numpy.ndarray`` inputs (or host DLPack objects such as CPU torch tensors) give a new
      ``numpy.ndarray``;
    * other device arrays, objects exposing ``__cuda_array_interface__`` (torch CUDA tensors,
      numba device arrays) or CUDA DLPack objects (JAX arrays), alone or mixed with cupy arrays,
      give a new ``cupy.ndarray``, which wraps zero-copy: ``torch.as_tensor(c, device="cuda")``.

    With ``out=`` (any accepted kind matching the inputs' side, host or device: C-contiguous,
    writable, the right shape and dtype, sharing no memory with `a` or `b`) the result is written
    into it and `out` itself is returned (the same torch tensor, numpy array, ...).

    Device results are computed on the inputs' device, on its current CuPy stream (``with
    cupy.cuda.Stream():``, or a torch stream ``s`` through ``with cupy.cuda.Stream.from_external(s):``,
    ``cupy.cuda.ExternalStream(s.cuda_stream)`` before CuPy 14), and the call returns without
    synchronising. Host inputs are copied to the current device and
    the call returns once the result is back on the host. NaN and Inf propagate as in
    ``cupy.matmul``. Bad input raises TypeError/ValueError before anything is launched or written.

    ``strategy="auto"`` (no params) runs the tuned choice for the shape's bucket: the user's tuning
    database, then the one shipped for this GPU, else ``tiled_matmul.heuristic.recommend``; cached
    in-process, so repeated shapes cost one dict lookup (see :mod:`tiled_matmul.tunedb`).

    >>> c = matmul(a, b, strategy="smem_tiled", tile=16)  # doctest: +SKIP
    """
    fast = _fast_operands(a, b, out)
    if fast is None:
        da, db, dout = check_operands(a, b, out)
        M, N, K, device = da.shape[0], db.shape[1], da.shape[1], da.device
        dt = da.dtype.name
    else:
        M, N, K, device = fast
        dt = _DTYPE_BY_CHAR[a.dtype.char]  # numpy's dtype.name is a slow Python property
    if strategy == "auto":
        if params:
            raise TypeError(f"strategy='auto' picks its own parameters; got {sorted(params)}")
        from .tunedb import auto_kernel

        k = auto_kernel(M, N, K, dt, device)
    elif params:
        k = kernel(strategy, **params)
    else:  # a named strategy's default config: one dict lookup after the first call
        k = _DEFAULT_KERNELS.get(strategy)
        if k is None:
            k = _DEFAULT_KERNELS.setdefault(strategy, kernel(strategy))
    return k._launch_fast(a, b, out, *fast) if fast is not None else k._run(da, db, dout)


def tolerance(dtype, K: int) -> float:
    """Allowed ‖C − ref‖/‖ref‖ for `dtype` and reduction length K.

    Rounding errors of a K-term dot product grow like sqrt(K)·eps for random data; the factor 8
    leaves room for the summation orders tiling and split-K choose, and the floor covers tiny K.
    """
    eps = float(np.finfo(dtype_name(dtype)).eps)
    return eps * (8.0 * max(K, 1) ** 0.5 + 16.0)


def launch_grid(strategy: str, M: int, N: int, **params: int) -> tuple[int, int, int]:
    """The grid `strategy` launches for an M x N output (no GPU needed)."""
    _, cfg = _resolve(strategy, params)
    return cfg.grid(M, N)


__all__ = ["matmul", "kernel", "source", "MatmulKernel", "tolerance", "launch_grid", "cdiv"]
