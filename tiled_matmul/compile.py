"""Compile rendered kernels with NVRTC (CuPy's binding, no -ftz), once per key, thread-safely.

The in-process cache is keyed by (strategy, config, dtype, device). Eight threads that ask for the
same key at once compile it once: the first takes the key's lock and compiles, the others wait on
that lock and then find the kernel in the cache. Across processes, the cubin cache
(:func:`cubin_cache_dir`, keyed by source, options and NVRTC version) makes a fresh process skip
NVRTC, which is why rendering is deterministic.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .configs import Config
from .dtypes import FLOAT32, DType, as_dtype
from .epilogue import ExSpec
from .device import device_limits
from .launch import dependent_launch_supported, function_ptr, launch_dependent
from . import registry
from .registry import Strategy, get
from .render import kernel_name, render

#: NVRTC options shared by every kernel (plus -arch, from target_arch). No -ftz: subnormals stay.
NVRTC_OPTIONS: tuple[str, ...] = ("-std=c++17",)
#: Blocks may use this much shared memory without raising their dynamic limit.
DEFAULT_SMEM_LIMIT = 48 * 1024


def allow_dynamic_smem(fn: Any, config: Config, smem: int) -> None:
    """Let kernel `fn` (a compiled config's, or a companion of the same block) launch with `smem`
    bytes of dynamic shared memory, where the config declares it and it passes the default 48 KB."""
    if config.DYNAMIC_SMEM and smem > DEFAULT_SMEM_LIMIT:
        fn.max_dynamic_shared_size_bytes = smem


class KernelCompileError(RuntimeError):
    """NVRTC rejected a rendered template. The message names the strategy and config and holds
    the compiler log followed by the numbered source."""

    def __init__(self, strategy: str, config: Config, dtype: str, log: str, source: str):
        numbered = "\n".join(f"{i:4d}  {line}" for i, line in enumerate(source.splitlines(), 1))
        super().__init__(
            f"compiling strategy {strategy!r} with config {config.params()} for {dtype} failed:\n"
            f"{log.strip()}\n--- rendered source ---\n{numbered}"
        )
        self.strategy, self.config, self.dtype, self.log, self.source = strategy, config, dtype, log, source


@dataclass
class CompiledKernel:
    """A compiled kernel plus everything needed to launch it."""

    strategy: str
    config: Config
    dtype: DType
    device: int
    name: str
    source: str
    raw: Any  # cupy.RawKernel
    smem_bytes: int
    compile_seconds: float
    attributes: dict = field(default_factory=dict)
    _companions: dict = field(default_factory=dict, repr=False)
    #: the batch and epilogue extras it was rendered with (None: the plain kernel)
    ex: "ExSpec | None" = None

    #: matrices one launch of this kernel computes (a plain kernel: one; see epilogue.ExLaunch)
    batch = 1

    @property
    def launcher(self) -> "DirectLauncher":
        """A :class:`DirectLauncher` for this kernel (built on first use)."""
        fast = self._companions.get("__direct__")
        if fast is None:
            import cupy

            smem = self.smem_bytes if self.config.DYNAMIC_SMEM else 0

            def sibling(symbol: str):
                """Another kernel of this source launched in the main one's place (the same block:
                the main kernel's shared memory)."""
                fn = self.companion(symbol)
                with cupy.cuda.Device(self.device):
                    allow_dynamic_smem(fn, self.config, self.smem_bytes)
                return fn

            elem = sibling(self.config.elem_symbol(self.name)) if self.config.ELEM_KERNEL else None
            edge = sibling(self.config.edge_symbol(self.name)) if self.config.EDGE_KERNEL else None
            fast = self._companions.setdefault("__direct__", DirectLauncher(
                self.raw, self.config.block(), smem, elem, self.config.ELEM_FLAGS, edge, self.config.tile_mn))
        return fast

    @property
    def num_regs(self) -> int:
        return int(self.attributes.get("num_regs", 0))

    def launch(self, grid, args, stream=None) -> None:
        """Launch the main kernel on `stream` (the current CuPy stream when None), with `args` as
        its signature takes them. A config with companion kernels (ELEM_KERNEL, EDGE_KERNEL) is
        launched through :attr:`launcher` (``Config.launch``) instead, which picks among them; its
        main kernel alone takes aligned operands in whole tiles only (dmma's pairs layout traps
        otherwise, kernels/12_dmma.cu.j2's WHOLE_TILES)."""
        self.raw(grid, self.config.block(), args, shared_mem=self.smem_bytes if self.config.DYNAMIC_SMEM else 0,
                 stream=stream)

    def reduce_launcher(self, symbol: str) -> "ReduceLauncher":
        """A :class:`ReduceLauncher` for the companion kernel `symbol` (a split-K reduce, with the
        config's REDUCE_THREADS per block), built on first use."""
        key = "__reduce__" + symbol
        fast = self._companions.get(key)
        if fast is None:
            dependent = dependent_launch_supported(device_limits(self.device).compute_capability)
            fast = self._companions.setdefault(key, ReduceLauncher(self.companion(symbol),
                                                                   (self.config.REDUCE_THREADS, 1, 1), dependent))
        return fast

    def companion(self, symbol: str):
        """Another `extern "C"` kernel of the same rendered source, by symbol, loaded once per
        CompiledKernel from the main kernel's cached cubin."""
        import cupy

        fn = self._companions.get(symbol)
        if fn is None:
            with cupy.cuda.Device(self.device):
                fn = _arch_kernel(self.source, self.name, target_arch(self.config, self.device), self.strategy,
                                  self.config, self.dtype, symbol=symbol)
            fn = self._companions.setdefault(symbol, fn)
        return fn


class DirectLauncher:
    """Launch one compiled kernel straight through ``cuLaunchKernel`` (CuPy's driver binding).

    Every strategy's kernel takes ``(const T* A, const T* B, T* C, int M, int N, int K, int
    flags)``: 3 pointers then 4 ints, 40 bytes. CuPy's generic launch converts each Python
    argument on every call; here each thread keeps one 5-word buffer laid out like those
    arguments (M and N share word 3, K and flags word 4, little-endian) plus the 7 argument
    addresses the driver reads, so a call writes 5 words and launches. ``cuLaunchKernel`` copies
    the argument values before it returns, so reusing the buffer on the next call is safe, and
    per-thread buffers keep concurrent callers apart.
    """

    #: byte offsets of the 7 kernel arguments within the 40-byte buffer
    OFFSETS = (0, 8, 16, 24, 28, 32, 36)
    #: 8-byte words of the buffer
    WORDS = 5

    def __init__(self, raw: Any, block: tuple[int, int, int], smem: int, elem: Any = None, elem_flags: int = 3,
                 edge: Any = None, tile: tuple[int, int] = (1, 1)):
        from cupy.cuda import driver

        self._launch = driver.launchKernel
        self.fptr = raw.kernel.ptr  # CUfunction of the loaded module (compiles if needed)
        # the same source's kernel for operands whose rows are not 16-byte aligned
        # (Config.ELEM_KERNEL), else the main kernel for every launch
        self.elem_fptr = self.fptr if elem is None else function_ptr(elem)
        self.elem_flags = elem_flags  # the alignment bits a launch needs for the main kernel
        # the same source's kernel for aligned launches with a partial tile (Config.EDGE_KERNEL);
        # an output smaller than a tile goes to the elem kernel, so there must be one
        if edge is not None and elem is None:
            raise ValueError("an edge kernel needs an elem kernel beside it (for outputs under one tile)")
        self.edge_fptr = self.fptr if edge is None else function_ptr(edge)
        self.tile = tile  # (rows, columns) of C per block: M or N not a multiple is a partial tile
        self.block = block
        self.smem = smem
        self._tls = threading.local()

    def fptr_for(self, flags: int, M: int, N: int) -> int:
        """The kernel a launch with these `flags` (:func:`~tiled_matmul.operands.launch_flags`)
        of an M x N output runs: the ELEM_KERNEL companion where any of the config's ELEM_FLAGS
        bits is clear; else, where M or N leaves a partial tile, the EDGE_KERNEL companion if the
        output holds one whole tile (so that every shifted tile lies inside it), and the
        ELEM_KERNEL one (which copies aligned operands in 16-byte pairs too) if not; else the
        main one. So the main kernel only ever runs whole tiles of aligned operands, and the
        edge kernel only tiles that fit inside M and N once shifted (kernels/12_dmma.cu.j2's
        pairs layout compiles them with the interior copies alone)."""
        if flags & self.elem_flags != self.elem_flags:
            return self.elem_fptr
        bm, bn = self.tile
        if M % bm or N % bn:
            return self.edge_fptr if M >= bm and N >= bn else self.elem_fptr
        return self.fptr

    def _buffers(self):
        vals = (ctypes.c_uint64 * self.WORDS)()
        base = ctypes.addressof(vals)
        params = (ctypes.c_void_p * len(self.OFFSETS))(*(base + off for off in self.OFFSETS))
        self._tls.bufs = bufs = (vals, ctypes.addressof(params), params)
        return bufs

    def __call__(self, grid, a_ptr: int, b_ptr: int, c_ptr: int, M: int, N: int, K: int, flags: int,
                 stream_ptr: int) -> None:
        try:
            vals, params_ptr, _ = self._tls.bufs
        except AttributeError:
            vals, params_ptr, _ = self._buffers()
        vals[0] = a_ptr
        vals[1] = b_ptr
        vals[2] = c_ptr
        vals[3] = M | (N << 32)
        vals[4] = K | (flags << 32)
        bx, by, bz = self.block
        # fptr_for's choice, written out: a method call here cost ~0.6 us of host time per launch
        if flags & self.elem_flags != self.elem_flags:
            fptr = self.elem_fptr
        elif M % self.tile[0] or N % self.tile[1]:
            fptr = self.edge_fptr if M >= self.tile[0] and N >= self.tile[1] else self.elem_fptr
        else:
            fptr = self.fptr
        self._launch(fptr, grid[0], grid[1], grid[2], bx, by, bz,
                     self.smem, stream_ptr, params_ptr, 0)


class ReduceLauncher(DirectLauncher):
    """Launch a split-K reduce kernel (``kernels/_reduce.cuh.j2``: ``(const T* W, T* C, int M,
    int N, int flags[, int splits])``) as :class:`DirectLauncher` does the main kernel: a
    per-thread 4-word buffer (W, C, M | N << 32, flags | splits << 32) and the 6 argument
    addresses (a kernel without `splits` reads 5). The reduce launch of a split product costs what
    the main launch does, not a CuPy RawKernel call's argument conversion. With `dependent` (the
    GPU supports it: :func:`tiled_matmul.launch.dependent_launch_supported`) it goes through
    :func:`tiled_matmul.launch.launch_dependent` and starts while the slices finish."""

    OFFSETS = (0, 8, 16, 20, 24, 28)
    WORDS = 4

    def __init__(self, raw: Any, block: tuple[int, int, int], dependent: bool = True):
        super().__init__(raw, block, 0)
        if dependent:  # start while the slices finish (Hopper on: launch.dependent_launch_supported)
            self._launch = launch_dependent

    def __call__(self, grid, w_ptr: int, c_ptr: int, M: int, N: int, flags: int, stream_ptr: int,  # type: ignore[override]
                 *splits: int) -> None:
        try:
            vals, params_ptr, _ = self._tls.bufs
        except AttributeError:
            vals, params_ptr, _ = self._buffers()
        vals[0] = w_ptr
        vals[1] = c_ptr
        vals[2] = M | (N << 32)
        vals[3] = flags | ((int(splits[0]) if splits else 0) << 32)
        bx, by, bz = self.block
        self._launch(self.fptr, grid[0], grid[1], grid[2], bx, by, bz, 0, stream_ptr, params_ptr, 0)


def cubin_cache_dir() -> Path:
    """Where kernels compiled for a named architecture keep their cubins: ``tiled_matmul/`` in
    CuPy's kernel cache (``$CUPY_CACHE_DIR``, default ``~/.cupy/kernel_cache``)."""
    root = os.environ.get("CUPY_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cupy", "kernel_cache")
    return Path(root) / "tiled_matmul"


def target_arch(config: Config, device: int) -> str:
    """The NVRTC target for `config` on `device`: the config's own (``sm_90a`` for the wgmma
    rungs) or the device's plain ``sm_XY``."""
    if config.NVRTC_ARCH:
        return config.NVRTC_ARCH
    import cupy

    return f"sm_{cupy.cuda.Device(device).compute_capability}"


def _arch_kernel(source: str, name: str, arch: str, strategy: str, config: Config, dtype: str,
                 symbol: "str | None" = None):
    """A cupy.RawKernel for `source` compiled by NVRTC for `arch` (e.g. "sm_90a"): the kernel
    `name`, or another kernel of the same source by `symbol` (from the same cached cubin).

    Every strategy compiles here, not through ``cupy.RawKernel(source, ...)``, for two reasons:
    CuPy appends ``-arch`` for the device's plain target (sm_90, which has no wgmma), and it
    appends ``-ftz=true`` (cupy/cuda/compiler.py), which flushes float32 subnormal operands and
    results to zero, so an "ieee" kernel would not be IEEE on tiny data. NVRTC's defaults keep
    subnormals. The cubin is cached on disk by a hash of (source, options, NVRTC version), and
    CuPy loads it as a RawModule.
    """
    import cupy

    path = cached_cubin(source, name, arch, strategy, config, dtype)
    return cupy.RawModule(path=str(path)).get_function(symbol or name)


def cached_cubin(source: str, name: str, arch: str, strategy: str, config: Config, dtype: str) -> Path:
    """The cubin of `source` for `arch` in :func:`cubin_cache_dir`, compiled by NVRTC first where
    it is not there yet (keyed by a hash of source, options and NVRTC version). Needs NVRTC, not a
    GPU. Raises KernelCompileError with NVRTC's log when the source does not compile."""
    from cupy.cuda import nvrtc

    options = (*NVRTC_OPTIONS, f"-arch={arch}")
    digest = hashlib.sha256(repr((source, options, nvrtc.getVersion())).encode()).hexdigest()[:32]
    path = cubin_cache_dir() / f"{name}-{digest}.cubin"
    if not path.exists():
        prog = nvrtc.createProgram(source, f"{name}.cu", (), ())
        try:
            try:
                nvrtc.compileProgram(prog, list(options))
            except nvrtc.NVRTCError:
                raise KernelCompileError(strategy, config, dtype, nvrtc.getProgramLog(prog), source) from None
            cubin = nvrtc.getCUBIN(prog)
        finally:
            nvrtc.destroyProgram(prog)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Atomic: concurrent processes write their own temp file, and the rename wins whole.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(cubin)
        os.replace(tmp, path)
    return path


def _with_expression(exc: KernelCompileError, ex: "ExSpec | None") -> KernelCompileError:
    """`exc`, its message led by the user's epilogue expression and the line of the rendered
    source that holds it, when the kernel has one (NVRTC's log names that line)."""
    if ex is None or not ex.expression:
        return exc
    line = next((n for n, text in enumerate(exc.source.splitlines(), 1) if "TM_USER_EXPRESSION" in text), 0)
    out = KernelCompileError(exc.strategy, exc.config, exc.dtype, exc.log, exc.source)
    out.args = (f"the epilogue expression {ex.text or ex.expression!r} (line {line} of the rendered source) did not "
                f"compile:\n{exc.log.strip()}\n\n{exc.args[0]}",)
    return out


_cache: dict[tuple, CompiledKernel] = {}
_key_locks: dict[tuple, threading.Lock] = {}
_locks_guard = threading.Lock()
#: How many times each key was compiled in this process (tests assert it stays at 1).
compile_counts: Counter = Counter()


def cache_key(strategy: str, config: Config, dtype: Any, device: int, ex: "ExSpec | None" = None) -> tuple:
    """The in-process cache key; a plain kernel's key is what it always was (no extras entry)."""
    key = (strategy, config, as_dtype(dtype), int(device))
    return key if ex is None else key + (ex,)


def clear_cache() -> None:
    """Forget every compiled kernel of this process (CuPy's disk cache is untouched)."""
    with _locks_guard:
        _cache.clear()
        _key_locks.clear()
        compile_counts.clear()


def _forget_strategy(name: str) -> None:
    """Drop the compiled kernels of strategy `name` (it was re-registered or removed)."""
    with _locks_guard:
        for key in [k for k in _cache if k[0] == name]:
            _cache.pop(key, None)
            _key_locks.pop(key, None)


registry.on_change(_forget_strategy)


def get_kernel(strategy: "str | Strategy", config: Config, dtype: Any = FLOAT32, device: "int | None" = None,
               ex: "ExSpec | None" = None) -> CompiledKernel:
    """The compiled kernel for (strategy, config, dtype, device), rendered with the batch and
    epilogue extras `ex` (:class:`~tiled_matmul.epilogue.ExSpec`; None for the plain kernel),
    compiling it on first use.

    Validates the config for that device and dtype first (ValueError/TypeError), and raises
    :class:`KernelCompileError` with the log and numbered source if NVRTC fails (for a user
    epilogue expression, the message starts with the expression).
    """
    import cupy

    entry = get(strategy) if isinstance(strategy, str) else strategy
    dev = cupy.cuda.Device().id if device is None else int(device)
    key = cache_key(entry.name, config, dtype, dev, ex)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    with _locks_guard:
        lock = _key_locks.setdefault(key, threading.Lock())
    with lock:
        hit = _cache.get(key)
        if hit is not None:
            return hit
        dt = as_dtype(dtype)
        config.validate(dev, dt)
        source = render(entry, config, dt, ex)
        name = kernel_name(entry.name, config, dt)
        smem = config.smem_bytes_for(dt, ex)
        t0 = time.perf_counter()
        with cupy.cuda.Device(dev):
            try:
                raw = _arch_kernel(source, name, target_arch(config, dev), entry.name, config, dt)
            except KernelCompileError as exc:
                raise _with_expression(exc, ex) from None
            allow_dynamic_smem(raw, config, smem)
            attributes = dict(raw.attributes)
        compiled = CompiledKernel(
            strategy=entry.name, config=config, dtype=dt, device=dev, name=name, source=source,
            raw=raw, smem_bytes=smem, compile_seconds=time.perf_counter() - t0, attributes=attributes, ex=ex,
        )
        compile_counts[key] += 1
        _cache[key] = compiled
        return compiled
