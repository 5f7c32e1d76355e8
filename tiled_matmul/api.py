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
from typing import Any

import numpy as np

from . import registry
from .compile import CompiledKernel, get_kernel
from .configs import Config, cdiv, dtype_name
from .operands import Operand, check_operands
from .render import render

#: The strategy `matmul` uses when none is named.
DEFAULT_STRATEGY = "register_blocked"


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
    """A C-contiguous cupy view (zero-copy where possible) of a validated operand."""
    import cupy

    arr = op.obj
    if op.kind == "numpy":
        return cupy.asarray(np.ascontiguousarray(arr))
    if op.kind == "cai":
        arr = cupy.asarray(arr)
    # RawKernel ignores strides: anything but C order must be copied first.
    return arr if arr.flags.c_contiguous else cupy.ascontiguousarray(arr)


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
        """C = a @ b. Returns `out` if given, else a new array of the inputs' kind."""
        da, db, dout = check_operands(a, b, out)
        return self._run(da, db, dout)

    def _run(self, da: Operand, db: Operand, dout: "Operand | None"):
        import cupy

        if not _gpu():
            raise RuntimeError("tiled_matmul needs a CUDA device and none is available "
                               "(cupy.is_available() is False); source() and explain() work without one")

        M, K = da.shape
        N = db.shape[1]
        dt = da.dtype.name
        device = da.device if da.device is not None else cupy.cuda.Device().id
        with cupy.cuda.Device(device):
            compiled = self.compiled(dt, device)
            grid = self.config.grid(M, N)
            limit = compiled_grid_limit(device)
            if grid[1] > limit:
                raise ValueError(
                    f"M={M} needs {grid[1]} blocks along grid y, over the device limit {limit}; "
                    f"use a strategy config with a taller tile"
                )
            if dout is not None and dout.kind != "numpy":
                c = dout.obj if dout.kind in ("cupy", "dlpack") else cupy.asarray(dout.obj)
            else:
                c = cupy.empty((M, N), dtype=dt)
            if M and N:
                A, B = _to_device(da), _to_device(db)
                flags = int(_aligned(A, K)) | (int(_aligned(B, N) and _aligned(c, N)) << 1)
                compiled.launch(grid, (A, B, c, np.int32(M), np.int32(N), np.int32(K), np.int32(flags)))
            if da.on_host:
                if dout is not None:
                    c.get(out=dout.obj)
                    return dout.obj
                return c.get()
            return dout.obj if dout is not None else c


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
    """
    try:
        return _kernel_cached(strategy, tuple(sorted(params.items())))
    except TypeError as exc:
        if "unhashable" in str(exc):
            raise TypeError(f"parameters must be ints; got {params}") from None
        raise


def matmul(a: Any, b: Any, strategy: str = DEFAULT_STRATEGY, out: Any = None, **params: int):
    """C = a @ b with a hand-written tiled kernel.

    `a` (M x K) and `b` (K x N) are float32 or float64 cupy arrays (the result is a cupy array,
    written into `out` when given), or numpy arrays (copied to the GPU; the result is numpy).
    Non-contiguous inputs are copied to C order first. `strategy` names a rung of the ladder
    (see ``tiled_matmul.STRATEGIES``); `params` set its tile sizes, defaults filling the rest.

    >>> c = matmul(a, b, strategy="smem_tiled", tile=16)  # doctest: +SKIP
    """
    da, db, dout = check_operands(a, b, out)
    k = kernel(strategy, **params)
    return k._run(da, db, dout)


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
