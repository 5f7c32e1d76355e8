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
from typing import Any, Callable

import numpy as np

from . import dispatch, execute, registry, semantics
from . import precision as _precision
from .compile import CompiledKernel, get_kernel
from .configs import Config, cdiv
from .device import device_limits, gpu_available
from .dtypes import FLOAT32, DType, as_dtype
from .epilogue import ExSpec
from .operands import Operand, check_operands, cupy_bindings, describe, fast_operands, launch_flags
from .render import render

#: The strategy `matmul` uses when none is named: the tuned or heuristic pick for the shape.
DEFAULT_STRATEGY = "auto"


def _resolve(strategy: str, params: dict[str, Any]) -> tuple[registry.Strategy, Config]:
    entry = registry.get(strategy)
    return entry, entry.make_config(**params)


def source(strategy: str, dtype: Any = None, **params: int) -> str:
    """The rendered CUDA C source of `strategy` with `params` (defaults for the rest), for `dtype`
    (float32, or the strategy's own dtype where it computes only float64). No GPU needed.

    >>> print(source("smem_tiled", tile=32))  # doctest: +SKIP
    """
    entry, cfg = _resolve(strategy, params)
    dt = entry.default_dtype if dtype is None else as_dtype(dtype)
    cfg.validate(dtype=dt)
    return render(entry, cfg, dt)


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

#: (M, N, K, dtype, device) -> the MatmulKernel that runs that call
Resolver = Callable[[int, int, int, DType, "int | None"], "MatmulKernel"]


def _call(resolve: Resolver, a: Any, b: Any, out: Any, gemm: "dict[str, Any] | None" = None,
          out_dtype: Any = None):
    """The one path every call takes (:func:`matmul`, :func:`gemm`, a :class:`MatmulKernel`,
    ``kernel("auto")``): check the operands (from metadata only; the fast check for plain 2-D cupy
    arrays, else the full one, which raises for bad input), resolve the kernel for the call's
    shape, launch. `gemm` holds gemm's epilogue arguments (None for matmul); `out_dtype` is None
    or float32 (a float32 C from 16-bit inputs)."""
    odt = semantics.check_out_dtype(out_dtype)
    form = None
    if gemm is None and odt is None:
        fast = fast_operands(a, b, out)
        if fast is not None:
            M, N, K, device, dt = fast
            return resolve(M, N, K, dt, device)._launch_fast(a, b, out, M, N, K, device, dt)
        done = execute.replay(resolve, a, b, out)
        if done is not execute.MISS:
            return done
    elif odt is None:
        form = execute.gemm_form(gemm)
        if form is not None:
            done = execute.replay(resolve, a, b, out, gemm, form)
            if done is not execute.MISS:
                return done
    da, db = describe(a, "a"), describe(b, "b")
    p = semantics.resolve(da.shape, db.shape, da.dtype, db.dtype, odt)
    semantics.check_side(da, db)
    g = None if gemm is None else execute.check_gemm(da, db, p, **gemm)
    dout = None if out is None else describe(out, "out")
    if g is None:
        if dout is not None:
            semantics.check_out(p, dout, ((da, "a"), (db, "b")), da.on_host, da.device)
        if (p.plain and p.out_dtype is None and da.dtype == db.dtype and da.c_contiguous and db.c_contiguous
                and (dout is None or dout.c_contiguous)):
            # numpy.matmul's 2-D case: the checked launch of today (copies strided operands)
            return resolve(p.M, p.N, p.K, p.dtype, da.device)._run(da, db, dout, p.dtype)
    elif dout is not None:
        execute.check_gemm_out(p, dout, da, db, g)
    if not _gpu():  # bad input has raised above, without a GPU too
        raise RuntimeError("tiled_matmul needs a CUDA device and none is available "
                           "(cupy.is_available() is False); source() and explain() work without one")
    return execute.run(resolve, da, db, dout, p, g, form)


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
        #: (dtype, device) -> compiled kernel, so a repeated call skips get_kernel entirely
        self._plans: dict[tuple[DType, int], CompiledKernel] = {}
        self._resolve: Resolver = lambda M, N, K, dt, device: self
        self._resolve.fixed = True  # execute.run: this kernel, whatever the call needs (no substitute)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.config.params().items())
        return f"MatmulKernel({self.strategy.name!r}, {params})"

    def source(self, dtype: Any = None) -> str:
        """The rendered CUDA C source for `dtype` (the strategy's default dtype when None)."""
        return render(self.strategy, self.config, dtype)

    def compiled(self, dtype: Any = None, device: "int | None" = None, ex: "ExSpec | None" = None) -> CompiledKernel:
        """The compiled kernel (compiling on first use) for `dtype` (the strategy's default
        dtype when None) on `device`, with the batch and epilogue extras `ex` (none when None)."""
        return get_kernel(self.strategy, self.config, self.strategy.default_dtype if dtype is None else dtype, device,
                          ex)

    def launch_dims(self, M: int, N: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(grid, block) this kernel launches for an M x N output."""
        return self.config.grid(M, N), self.config.block()

    def __call__(self, a: Any, b: Any, out: Any = None, *, out_dtype: Any = None):
        """C = a @ b. Returns `out` itself if given, else a new array (see :func:`matmul`)."""
        return _call(self._resolve, a, b, out, out_dtype=out_dtype)

    def gemm(self, a: Any, b: Any, c: Any = None, *, out: Any = None, **kwargs: Any):
        """:func:`gemm` with this kernel's strategy and config."""
        return _gemm(self._resolve, a, b, c, out, **kwargs)

    def _launch_fast(self, a, b, out, M: int, N: int, K: int, device: int, dt: DType):
        """The hot path for operands :func:`~tiled_matmul.operands.fast_operands` has vetted: one
        dict lookup for the compiled kernel, then the config's launch."""
        compiled = self._plans.get((dt, device))
        if compiled is None:
            compiled = self._plans.setdefault((dt, device), self.compiled(dt, device))
        # (1-D grids, BATCH_AXIS 1, never use grid y for rows: no geometry to compute per call)
        if self.config.BATCH_AXIS != 1 and self.config.grid(M, N)[1] > compiled_grid_limit(device):
            return self._run(*check_operands(a, b, out), dt)  # let the general path raise
        cp = cupy_bindings()
        c = out if out is not None else cp.cupy.empty((M, N), dtype=a.dtype)
        flags = launch_flags(a.data.ptr, b.data.ptr, c.data.ptr, K, N, dt.itemsize)
        self.config.launch(compiled, a, b, c, M, N, K, flags, cp.current_stream())
        return c

    def _run(self, da: Operand, db: Operand, dout: "Operand | None", dt: DType):
        """Launch on validated operands, on the current CuPy stream of the inputs' device."""
        M, K = da.shape
        N = db.shape[1]
        if not self.strategy.supports(dt):  # a clear ValueError naming the strategies for dt, GPU or not
            self.config.validate(dtype=dt)
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
            c = _out_view(dout) if device_out else cupy.empty((M, N), dtype=dt.numpy)
            if M and N:
                A, B = _to_device(da), _to_device(db)
                flags = launch_flags(A.data.ptr, B.data.ptr, c.data.ptr, K, N, dt.itemsize)
                self.config.launch(compiled, A, B, c, M, N, K, flags, cupy.cuda.get_current_stream())
            if dout is not None:
                if not device_out:  # host out (numpy, or a host DLPack object's numpy view)
                    c.get(out=dout.array if dout.array is not None else dout.obj)
                return dout.obj  # the caller's own object (torch tensor, DLPack array, ...)
            return c.get() if da.on_host else c


class TransposedKernel:
    """What `auto` resolves a shape to where it computes plain 2-D calls as their transpose
    (:attr:`tiled_matmul.dispatch.Choice.transposed`, an A·x product with a few tens of columns):
    C^T = B^T A^T by `inner`, both operands read in place as column-major, into a scratch C^T that
    is then copied into C. Calls the general path takes (batches, epilogues, operands in other
    layouts, host arrays) run `plain`, the shape's own pick, whose `strategy` and `config` this
    object carries for that path."""

    def __init__(self, inner: MatmulKernel, plain: MatmulKernel):
        self.inner, self.plain = inner, plain
        self.strategy, self.config = plain.strategy, plain.config
        self._resolve: Resolver = lambda M, N, K, dt, device: self
        self._resolve.fixed = True

    def __repr__(self) -> str:
        return f"TransposedKernel(inner={self.inner!r}, plain={self.plain!r})"

    def __getattr__(self, name: str):
        # source(), compiled(), launch_dims(), gemm(): the general path's kernel, `plain` (never
        # for `plain` itself, which a half-built object, a copy or an unpickle, lacks)
        if name in ("plain", "inner") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.plain, name)

    def __call__(self, a: Any, b: Any, out: Any = None, *, out_dtype: Any = None):
        """C = a @ b, as `auto` runs this shape (see the class)."""
        return _call(self._resolve, a, b, out, out_dtype=out_dtype)

    def _launch_fast(self, a, b, out, M: int, N: int, K: int, device: int, dt: DType):
        """C = a @ b for 2-D C-contiguous cupy operands that fast_operands vetted (`out` None or
        one too): C^T computed by `inner`, then copied into C on the current stream."""
        cp = cupy_bindings().cupy
        ct = cp.empty((N, M), dtype=a.dtype)
        self.inner(b.T, a.T, out=ct)
        c = out if out is not None else cp.empty((M, N), dtype=a.dtype)
        cp.copyto(c, ct.T)
        return c

    def _run(self, da: Operand, db: Operand, dout: "Operand | None", dt: DType):
        """Launch on validated 2-D operands: device ones as :meth:`_launch_fast` (returning `out`'s
        own object where given, as MatmulKernel._run does); host ones through `plain`."""
        if da.on_host or (dout is not None and dout.on_host) or not _gpu():
            return self.plain._run(da, db, dout, dt)
        import cupy

        M, K = da.shape
        N = db.shape[1]
        with cupy.cuda.Device(da.device):
            out = None if dout is None else _out_view(dout)
            c = self._launch_fast(_to_device(da), _to_device(db), out, M, N, K, da.device, dt)
        return c if dout is None else dout.obj


class AutoKernel:
    """What ``kernel("auto")`` returns: picks the tuned kernel for each call's shape and precision
    request (`precision`; None: the process default, :func:`tiled_matmul.get_precision`, read at
    each call).

    The shape is only known at call time, so every call looks its shape up (a dict hit after
    the first call of a shape; see :mod:`tiled_matmul.dispatch`). :meth:`resolve` shows the
    choice for a shape without running anything.

    >>> k = kernel("auto")                      # doctest: +SKIP
    >>> c = k(a, b)                              # doctest: +SKIP
    >>> k.resolve(4096, 4096, 4096)              # doctest: +SKIP
    Choice(strategy='...', params={...}, source='shipped-db', bucket='float32/4096x4096x4096')
    """

    strategy = "auto"

    def __init__(self, precision: "str | None" = None):
        self.precision = None if precision is None else _precision.check(precision)

        def resolve(M: int, N: int, K: int, dt: DType, device: "int | None") -> MatmulKernel:
            return _auto_resolve(M, N, K, dt, device, _precision.resolve(self.precision, dt))

        self._resolve: Resolver = resolve

    def __repr__(self) -> str:
        return "AutoKernel('auto')" if self.precision is None else f"AutoKernel('auto', precision={self.precision!r})"

    def resolve(self, M: int, N: int, K: int, dtype: Any = FLOAT32, device: Any = None) -> dispatch.Choice:
        return dispatch.choose(M, N, K, dtype, device, _precision.resolve(self.precision, dtype))

    def kernel_for(self, M: int, N: int, K: int, dtype: Any = FLOAT32, device: "int | None" = None) -> MatmulKernel:
        """The concrete MatmulKernel used for this shape."""
        dt = as_dtype(dtype)
        return _auto_resolve(M, N, K, dt, device, _precision.resolve(self.precision, dt))

    def source(self, *args, **kwargs):
        raise TypeError("kernel('auto') has no single source: its kernel depends on the shape; "
                        "use kernel('auto').kernel_for(M, N, K).source()")

    def __call__(self, a: Any, b: Any, out: Any = None, *, out_dtype: Any = None):
        return _call(self._resolve, a, b, out, out_dtype=out_dtype)

    def gemm(self, a: Any, b: Any, c: Any = None, *, out: Any = None, **kwargs: Any):
        """:func:`gemm` with `auto`'s choice for the call's shape."""
        return _gemm(self._resolve, a, b, c, out, **kwargs)


def _kernel_of(choice: dispatch.Choice) -> "MatmulKernel | TransposedKernel":
    plain = kernel(choice.strategy, **choice.params)
    if choice.transposed is None:
        return plain
    return TransposedKernel(kernel(choice.transposed.strategy, **choice.transposed.params), plain)


def _auto_resolve(M: int, N: int, K: int, dt: DType, device: "int | None", request: str) -> MatmulKernel:
    if device is None:
        device = _current_device()
    return dispatch.for_shape(M, N, K, dt, device, _kernel_of, request)


def _current_device() -> int:
    cp = cupy_bindings()
    return cp.get_device() if cp is not None else 0


AUTO = AutoKernel()
#: precision request -> its AutoKernel
_AUTOS = {None: AUTO, **{p: AutoKernel(p) for p in _precision.REQUESTS}}


@functools.lru_cache(maxsize=1)
def _gpu() -> bool:
    return gpu_available()


@functools.lru_cache(maxsize=None)
def compiled_grid_limit(device: "int | None") -> int:
    return device_limits(device).max_grid_y


@functools.lru_cache(maxsize=1024)
def _kernel_cached(strategy: str, items: tuple) -> MatmulKernel:
    entry, cfg = _resolve(strategy, dict(items))
    cfg.validate()
    return MatmulKernel(entry.name, cfg)


def kernel(strategy: str = DEFAULT_STRATEGY, *, precision: "str | None" = None,
           **params: int) -> "MatmulKernel | AutoKernel":
    """A reusable :class:`MatmulKernel` for `strategy` with `params` (defaults for the rest).

    Raises ValueError for an unknown strategy or a config that breaks a rule, TypeError for an
    unknown or non-int parameter.

    >>> k = kernel("smem_tiled", tile=16)  # doctest: +SKIP

    `precision` ("ieee", "tf32x3", "tf32"; see :mod:`tiled_matmul.precision`) names the mode a
    named strategy computes in: the tensor-core rungs take "tf32x3" (their default) or "tf32"
    (``kernel("wgmma", precision="tf32")`` is ``kernel("wgmma", passes=1)``), the FFMA rungs
    "ieee"; any other is a ValueError naming the strategy's modes. None or "auto" keeps the
    strategy's own.

    ``kernel("auto")`` returns an :class:`AutoKernel` instead: the shape is only known at call
    time, so it picks the tuned kernel for each call's shape (see :func:`matmul`) under the
    precision request (None: the process default at each call); it takes no params.
    """
    if strategy == "auto":
        if params:
            raise TypeError(f"strategy='auto' picks its own parameters; got {sorted(params)}")
        hit = _AUTOS.get(precision) if precision is None or isinstance(precision, str) else None
        return hit if hit is not None else AutoKernel(precision)  # AutoKernel raises for bad input
    if precision is not None:
        try:
            key = (strategy, precision, tuple(sorted(params.items())))
            hit = _PRECISION_KERNELS.get(key)
        except TypeError:  # unhashable parameters: the checks below say what is wrong
            key, hit = None, None
        if hit is not None:  # a named strategy in a named mode: one dict lookup after the first call
            return hit
        if _precision.check(precision) != "auto":
            base = kernel(strategy, **params)
            cfg = base.config.with_precision(precision)
            k = base if cfg is base.config else kernel(strategy, **cfg.params())
            if key is not None:
                _PRECISION_KERNELS[key] = k
            return k
    if not params:  # a named strategy's default config: one dict lookup after the first call
        k = _DEFAULT_KERNELS.get(strategy)
        if k is None:
            k = _DEFAULT_KERNELS.setdefault(strategy, _kernel_cached(registry.get(strategy).name, ()))
        return k
    try:
        return _kernel_cached(strategy, tuple(sorted(params.items())))
    except TypeError as exc:
        if "unhashable" in str(exc):
            raise TypeError(f"parameters must be ints; got {params}") from None
        raise


#: strategy name -> its default-config MatmulKernel
_DEFAULT_KERNELS: dict[str, MatmulKernel] = {}
#: (strategy, precision, sorted params) -> the MatmulKernel of that strategy in that mode
_PRECISION_KERNELS: dict[tuple, MatmulKernel] = {}


def _forget_strategy(name: str) -> None:
    """Drop the kernel objects of strategy `name` (it was re-registered or removed)."""
    _DEFAULT_KERNELS.pop(name, None)
    for key in [k for k in _PRECISION_KERNELS if k[0] == name]:
        _PRECISION_KERNELS.pop(key, None)
    _kernel_cached.cache_clear()


registry.on_change(_forget_strategy)


def matmul(a: Any, b: Any, strategy: str = DEFAULT_STRATEGY, out: Any = None, *,
           precision: "str | None" = None, out_dtype: Any = None, **params: int):
    """C = a @ b with a hand-written tiled kernel.

    `a` (M x K) and `b` (K x N) are float16, bfloat16, float32 or float64 arrays, mixed dtypes
    promoted as numpy does (bfloat16 with float16 gives float32). float16 and bfloat16 products
    run on tensor cores (``wgmma_tma``, ``mma_half`` and their splits and GEMV rungs, as `auto`
    picks) with float32 accumulation, the result rounded once to the
    result dtype; ``out_dtype=numpy.float32`` asks for a float32 result instead (None, the
    default, keeps numpy's result dtype; any other value is a ValueError). `strategy` names a
    rung of the ladder (see ``tiled_matmul.STRATEGIES``); `params` set its tile sizes, defaults
    filling the rest. Device inputs are used in place (zero-copy), transposed (`.T`, Fortran
    order) and sliced ones with a unit inner stride too, by every tunable rung (the GEMV rungs
    copy the one operand they do not stream: ``Config.LAYOUTS``); other strides are copied to C
    order first. What comes back depends on what goes in:

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
    in-process, so repeated shapes cost one dict lookup (see :mod:`tiled_matmul.dispatch`).

    `precision` says how float32 products are computed (:mod:`tiled_matmul.precision`):
    ``"auto"`` (the process default unless :func:`set_precision` or ``TILED_MATMUL_PRECISION``
    says otherwise) keeps every element's error within 2x of cuBLAS FP32's; ``"ieee"`` FFMA only;
    ``"tf32x3"`` the big + small TF32 split; ``"tf32"`` one TF32 pass. float64 takes "auto" or
    "ieee". With a named strategy it selects that strategy's mode (see :func:`kernel`).

    >>> c = matmul(a, b, strategy="smem_tiled", tile=16)  # doctest: +SKIP
    >>> c32 = matmul(a16, b16, out_dtype=numpy.float32)     # doctest: +SKIP
    """
    return kernel(strategy, precision=precision, **params)(a, b, out, out_dtype=out_dtype)


def _swap(x: Any, name: str):
    """x with its last two axes swapped, as a view (numpy and cupy arrays; other device objects
    through a zero-copy cupy view)."""
    op = describe(x, name)
    if len(op.shape) < 2:
        return x  # a 1-D operand is its own transpose, as in numpy
    arr = op.array
    if arr is None:
        import cupy

        arr = cupy.asarray(op.obj)
    return arr.swapaxes(-1, -2)


def _gemm(resolve: Resolver, a: Any, b: Any, c: Any, out: Any, *, alpha: float = 1.0, beta: float = 0.0,
          trans_a: bool = False, trans_b: bool = False, bias: Any = None, bias_axis: int = 1,
          activation: "str | None" = None, epilogue: "str | None" = None, out_dtype: Any = None, **arrays: Any):
    semantics.check_out_dtype(out_dtype)  # before the views below are taken
    if trans_a:
        a = _swap(a, "a")
    if trans_b:
        b = _swap(b, "b")
    return _call(resolve, a, b, out, dict(alpha=alpha, beta=beta, c=c, bias=bias, bias_axis=bias_axis,
                                          activation=activation, epilogue=epilogue, arrays=arrays), out_dtype)


def gemm(a: Any, b: Any, c: Any = None, *, alpha: float = 1.0, beta: float = 0.0, trans_a: bool = False,
         trans_b: bool = False, bias: Any = None, bias_axis: int = 1, activation: "str | None" = None,
         epilogue: "str | None" = None, out: Any = None, strategy: str = DEFAULT_STRATEGY,
         precision: "str | None" = None, out_dtype: Any = None, **kwargs: Any):
    """``act(user(alpha * op(a) @ op(b) + beta * c + bias))`` in one kernel: the epilogue runs at
    the kernel's store (for split-K rungs, in the kernel that sums the slices).

    * `a`, `b`: as for :func:`matmul` (numpy.matmul semantics: batches, 1-D operands, dtype
      promotion); ``op(x)`` is ``x`` with its last two axes swapped when `trans_a` / `trans_b`
      (a view, read in place by every rung that declares the layout: ``Config.LAYOUTS``);
    * `alpha`, `beta`: real scalars (run-time values: one compiled kernel serves them all; beta
      = 0 does not read `c`, so NaN in `c` does not propagate, as in BLAS);
    * `c`: any float dtype, broadcasting to the result's shape; it may be `out` itself (in-place
      accumulate, ``gemm(a, b, c, beta=1.0, out=c)``); every other overlap with `out` is refused;
    * `bias`: a 1-D vector of any float dtype, length N (one value per column, `bias_axis=1`) or
      M (one per row, `bias_axis=0`), shared by every matrix of a batch;
    * `activation`: ``"relu"``, ``"gelu"`` (erf), ``"gelu_tanh"``, ``"silu"``, ``"sigmoid"``;
    * `epilogue`: a CUDA C expression over ``acc`` (the value so far, in the result dtype), ``i``,
      ``j`` (the output's row and column in its matrix), ``M``, ``N``, and device arrays passed
      as keyword arguments by name (float32/64, int32/64; indexed as flat C arrays, e.g.
      ``epilogue="acc * scale[j] + shift[j]", scale=s, shift=t``). It runs after bias and before
      the activation. Only numbers, those names, math functions (exp, tanh, erf, fmax, ...,
      and the activations by name) and arithmetic, comparison, logic, ``?:`` and ``[]`` are
      accepted; indices are not bounds-checked.
    * `strategy` and the remaining keyword arguments that name its parameters choose the kernel,
      and `precision` how float32 products are computed, as in :func:`matmul`; the other keyword
      arguments are the epilogue's arrays;
    * `out_dtype`: None, or float32 for a float32 result from float16/bfloat16 inputs (as in
      :func:`matmul`). For 16-bit products the epilogue computes in float32 (`c` and `bias` are
      read as float32) and rounds once into the result.

    Returns `out` itself if given, else a new array, as :func:`matmul`. Each distinct epilogue
    (which parts, activation, expression, array dtypes) compiles once per strategy config.

    >>> y = gemm(x, w, bias=b, activation="gelu")                    # doctest: +SKIP
    >>> gemm(a, b, c, beta=1.0, out=c)                               # doctest: +SKIP
    >>> gemm(a, b, epilogue="acc * scale[j]", scale=s)               # doctest: +SKIP
    """
    if strategy == "auto":
        resolve: Resolver = kernel("auto", precision=precision)._resolve
        arrays = kwargs
    else:
        names = registry.get(strategy).default.params()
        tile = {k: v for k, v in kwargs.items() if k in names}
        arrays = {k: v for k, v in kwargs.items() if k not in names}
        resolve = kernel(strategy, precision=precision, **tile)._resolve  # type: ignore[union-attr]
    return _gemm(resolve, a, b, c, out, alpha=alpha, beta=beta, trans_a=trans_a, trans_b=trans_b, bias=bias,
                 bias_axis=bias_axis, activation=activation, epilogue=epilogue, out_dtype=out_dtype, **arrays)


def tolerance(dtype: Any, K: int) -> float:
    """Allowed ‖C − ref‖/‖ref‖ for `dtype` and reduction length K.

    Rounding errors of a K-term dot product grow like sqrt(K)·eps for random data; the factor 8
    leaves room for the summation orders tiling and split-K choose, and the floor covers tiny K.
    float16 and bfloat16 sum in float32 and round each element once to the 16-bit result
    (relative error <= u, so <= u normwise too): 2u plus float32's tolerance for the sums, four
    times over (the tensor cores' FP32 sums may truncate).

    >>> tolerance("float16", 1) == 2 * 2.0 ** -11 + 4 * tolerance("float32", 1)
    True
    """
    dt = as_dtype(dtype)
    if dt.half:
        from .numerics import UNIT_ROUNDOFF

        return 2 * UNIT_ROUNDOFF[dt.name] + 4 * tolerance(FLOAT32, K)
    eps = float(np.finfo(dt.numpy).eps)
    return eps * (8.0 * max(K, 1) ** 0.5 + 16.0)


def launch_grid(strategy: str, M: int, N: int, **params: int) -> tuple[int, int, int]:
    """The grid `strategy` launches for an M x N output (no GPU needed)."""
    _, cfg = _resolve(strategy, params)
    return cfg.grid(M, N)


__all__ = ["matmul", "gemm", "kernel", "source", "MatmulKernel", "AutoKernel", "tolerance", "launch_grid", "cdiv"]
