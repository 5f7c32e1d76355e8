"""Rung 16: float32 (tf32 and tf32x3) on Hopper's wgmma, fed by TMA, warp-specialised and persistent."""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from ..configs import TF32Modes, cdiv
from ..device import H100_LIMITS, DeviceLimits, device_limits
from ..dtypes import FLOAT32, DType
from ..epilogue import ExLaunch
from ..strategy import Strategy
from .. import tma
from .wgmma_tma import (PackedLauncher, TmaWarpSpecialized, addressable_pitched, kept_launcher, persistent_count,
                         row_layout, zero_operands, zero_rows)


@dataclass(frozen=True)
class WgmmaTmaTf32Config(TF32Modes, TmaWarpSpecialized):
    """float32 products on Hopper's warpgroup tensor cores in TF32 (``passes=1``, "tf32") or
    3xTF32 (``passes=3``, "tf32x3"), fed by TMA; sm_90a only.

    The machinery of wgmma_tma (one CTA per SM walking bm x bn tiles in grouped order, a producer
    warpgroup issuing TMA copies into a `stages`-deep mbarrier ring, two consumer warpgroups),
    with the transposed product of wgmma: TF32 wgmma reads shared-memory operands only k-major, so
    each consumer computes its bn/2 columns of C for all bm rows as C^T = B^T A^T, B's values
    loaded into registers (rounded or split there) and A's tile read by descriptor, as TMA lands
    it. tf32 reads A's float32 bits (the tensor core truncates them to TF32, as cuBLAS's TF32
    GEMM does); tf32x3 splits the A tile in shared memory. Tiles with Inf, NaN or (tf32x3)
    operands outside the split's exact range are recomputed with FMAs (see the template).

    Operand layouts (:meth:`layouts`): B row-major or column-major (B stored N x K, k
    contiguous: ``a @ w.T``), each operand with its own leading dimension, read in place (the
    tensor maps carry the pitch; B column-major loads boxes of Bᵀ rows). A column-major
    (``a.T @ b``; stored K x M) is read in place by tf32x3 alone: its split pass, which every A
    stage takes anyway, writes the parts transposed, into buffers of their own where they fit
    (:attr:`xpose_bufs`) or else back into the stage (:attr:`A_COL_LAYOUTS`); tf32 reads A's tile
    as TMA lands it, which must then be k-major, so it runs a column-major A elsewhere.
    TMA needs 16-byte pitches and bases: :meth:`launch` copies an operand that has neither into
    rows padded to 16 bytes in the same layout first; :meth:`launch_strided` raises ValueError
    for them (:meth:`operand_problem`). Epilogues (alpha, beta, bias, activations, user
    expressions) are applied at the store, and by the exact path. Batches are not read
    (``EXTRAS``): `auto` runs the cp.async rungs for those.
    """

    STRATEGY: ClassVar[str] = "wgmma_tma_tf32"
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32",)
    #: the epilogue hooks (TmExtra last, after ldc); batches run on `auto`'s cp.async rung
    EXTRAS: ClassVar[frozenset[str]] = frozenset({"epilogue"})
    #: B column-major (template B_COL) and leading dimensions (the maps' pitches) read in place
    #: by both modes
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ((False, False), (False, True))
    #: and A column-major (template A_COL) with B row-major by tf32x3, whose split pass transposes
    #: A's tile (TF32 wgmma reads its shared-memory operand k-major only). Both column-major
    #: (a.T @ b.T) is not read: its addresses outgrow the consumers' registers (ptxas spills).
    A_COL_LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ((True, False),)
    #: one CTA per SM walks many tiles (the cost model counts tiles, not CTAs)
    PERSISTENT: ClassVar[bool] = True
    bm: int = 128
    bn: int = 128
    #: 4: as fast as 3 or 5 on a contiguous product (scripts/bench_tf32tma.py --sweep, fifth
    #: session, within the runs' 1-2% noise), and it leaves room for the buffers that let tf32x3
    #: read A column-major with no extra barrier (xpose_bufs: a.T @ b 1.03x a @ b, 1.10x at 5)
    stages: int = 4
    group_m: int = 8
    passes: int = 3  # TF32 MMAs per product: 3 (tf32x3) or 1 (tf32)

    #: K depth of a stage: 32 floats, one 128-byte swizzle line
    BK: ClassVar[int] = 32
    #: setmaxnreg targets: 128 x 24 + 256 x 240 = 64512 <= the SM's 65536 registers (the producer's
    #: code needs 5; tf32x3's two fragment sets take the consumers to R237 at 128 x 128)
    PRODUCER_REGS: ClassVar[int] = 24
    CONSUMER_REGS: ClassVar[int] = 240
    #: buffers of A's small parts (tf32x3): a step writes one while the wgmmas of the two before
    #: it may still read theirs (see the template's "Small-part buffers")
    SMALL_BUFS: ClassVar[int] = 3
    #: tf32 (passes=1) hands A's float32 bits to the tensor core, which truncates them to TF32:
    #: the error bound is numerics.bound("tf32", K, truncated=True)
    TF32_TRUNCATES: ClassVar[bool] = True
    #: accumulator floats a consumer thread may hold (acc, and part for tf32x3): what leaves room
    #: for two sets of fragments and the addresses within CONSUMER_REGS
    MAX_ACC_REGS: ClassVar[int] = 128

    @property
    def n_sub(self) -> int:
        """64-column chunks of C per consumer warpgroup."""
        return self.bn // 128

    @property
    def small_bufs(self) -> int:
        return self.SMALL_BUFS if self.passes == 3 else 0

    @property
    def acc_regs(self) -> int:
        """Accumulator floats per consumer thread: bm x (bn / 2) outputs over 128 threads, twice
        for tf32x3 (the step's partial tile beside the float32 sums)."""
        return self.bm * self.bn // 2 // 128 * (2 if self.passes == 3 else 1)

    def layouts(self) -> tuple[tuple[bool, bool], ...]:
        return self.LAYOUTS + (self.A_COL_LAYOUTS if self.passes == 3 else ())

    def tiles(self, M: int, N: int) -> int:
        return cdiv(M, self.bm) * cdiv(N, self.bn)

    def grid(self, M: int, N: int, sms: "int | None" = None) -> tuple[int, int, int]:
        """Persistent: at most one CTA per SM (`sms`; the current device's count when None), and
        the fewest CTAs that take as many waves of tiles as `sms` would."""
        if sms is None:
            sms = device_limits(None).sm_count
        return (persistent_count(self.tiles(M, N), sms), 1, 1)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        steps = cdiv(K, self.BK)
        tiles = self.tiles(M, N)
        return tiles * steps * self.bm * self.BK, tiles * steps * self.BK * self.bn

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        # the ring of stages, the small-part buffers (tf32x3), 1 KB for the 1024-byte round-up,
        # full and empty mbarriers (every operand layout alike)
        line = self.BK * 4
        return ((self.stages * (self.bm + self.bn) + self.small_bufs * self.bm) * line + 1024
                + 16 * self.stages)

    @property
    def xpose_bufs(self) -> int:
        """Buffers of A's transposed big parts in the A column-major kernel: as many as the
        small parts' where they fit beside the ring (then no barrier between the split's reads
        and writes), else 0 (the big parts go back into the stage after a consumer barrier)."""
        extra = self.small_bufs * self.bm * self.BK * 4
        return self.small_bufs if self.smem_bytes() + extra <= H100_LIMITS.smem_per_block_optin else 0

    def smem_bytes_for(self, dtype: Any = FLOAT32, ex: Any = None) -> int:
        # A column-major: the transposed big parts' buffers, where they fit (xpose_bufs)
        a_col = ex is not None and ex.a_col
        return self.smem_bytes(dtype) + (self.xpose_bufs * self.bm * self.BK * 4 if a_col else 0)

    def template_constants(self, dt: DType) -> dict[str, Any]:
        return {"BK": self.BK, "N_SUB": self.n_sub, "D_REGS": self.bm // 2, "B_BOXES": self.bn // 32,
                "SMALL_BUFS": self.small_bufs, "PRODUCER_REGS": self.PRODUCER_REGS,
                "CONSUMER_REGS": self.CONSUMER_REGS, "WGMMA_AB": "tf32", "XPOSE_BUFS": self.xpose_bufs}

    def rules(self, limits: DeviceLimits, dt: DType):
        yield (self.runs_on(limits),
               f"wgmma_tma_tf32 runs only on sm_90 (Hopper) GPUs; {limits.name} is sm_{limits.compute_capability}")
        yield self._passes_rule()
        yield (self.bm in (64, 128, 192, 256),
               f"bm ({self.bm}) must be 64, 128, 192 or 256 (the wgmma's n, one TMA box of A rows)")
        yield (self.bn in (128, 256),
               f"bn ({self.bn}) must be 128 or 256 (two consumer warpgroups of one or two 64-column chunks)")
        yield (self.acc_regs <= self.MAX_ACC_REGS,
               f"bm x bn = {self.bm} x {self.bn} with passes={self.passes} needs {self.acc_regs} accumulator "
               f"registers per consumer thread; at most {self.MAX_ACC_REGS} fit beside the fragments "
               "(tf32: 256 x 128 or 128 x 256; tf32x3: 128 x 128)")
        yield (self.passes == 1 or self.bn == 128,
               f"bn ({self.bn}) must be 128 with passes=3: the big and small fragments of two 64-column "
               "chunks do not fit in registers beside the accumulators (ptxas spills)")
        yield self._stages_rule(2, 8)
        yield (self.group_m <= 64, f"group_m ({self.group_m}) must be at most 64")
        yield self._regs_rule(limits)
        yield self._fits_sm_rule(limits, dt, 1)

    # -- operands and the launch ----------------------------------------------------------------
    def operand_problem(self, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                        b_col: bool = False, a_col: bool = False) -> "str | None":
        """Why TMA cannot read A (M x K, `lda` floats per row; with `a_col`, K x M rows of m,
        `lda` floats each) and B (K x N, `ldb` floats per row; with `b_col`, N x K rows of k,
        `ldb` floats each) at these addresses (None when it can); a pure function of the numbers."""
        a_rows, a_cols = (K, M) if a_col else (M, K)
        b_rows, b_cols = (N, K) if b_col else (K, N)
        return (tma.matrix_problem("a", a_ptr, a_rows, a_cols, lda, 4)
                or tma.matrix_problem("b", b_ptr, b_rows, b_cols, ldb, 4))

    def tensor_maps(self, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                    b_col: bool = False, a_col: bool = False) -> tuple[bytes, bytes]:
        """The encoded tensor maps of A (boxes of 32 k x bm rows; with `a_col`, Aᵀ's 32 k x 32
        m) and B (32 n x 32 k; with `b_col`, Bᵀ's 32 k x bn), cached in
        :data:`tiled_matmul.tma.MAPS`."""
        return tuple(tma.MAPS.get(*args[:-1], name=args[-1])  # type: ignore[return-value]
                     for args in self.map_args(M, N, K, a_ptr, lda, b_ptr, ldb, b_col, a_col))

    def map_args(self, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                 b_col: bool = False, a_col: bool = False) -> tuple[tuple, tuple]:
        """The :meth:`tiled_matmul.tma.MapCache.get` arguments (address, rows, cols, pitch,
        itemsize, dtype code, box rows, box cols, name) of A's and B's maps: what
        :meth:`tensor_maps` encodes (testable without a GPU)."""
        code = tma.DATA_TYPE["float32"]
        a = (a_ptr, K, M, lda, 4, code, self.BK, 32, "a") if a_col else (a_ptr, M, K, lda, 4, code, self.bm, self.BK, "a")
        b = (b_ptr, N, K, ldb, 4, code, self.bn, self.BK, "b") if b_col else (b_ptr, K, N, ldb, 4, code, self.BK, 32, "b")
        return a, b

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int, stream: Any) -> None:
        """C = A @ B (`flags` is ignored). `kernel` is the plain kernel for C-contiguous operands,
        or (the general path, :mod:`tiled_matmul.execute`) an :class:`~tiled_matmul.epilogue.ExLaunch`:
        a kernel rendered with an ExSpec (its TmExtra struct is passed last) of an epilogue and/or
        operand layouts: A row-major or (``a_col``, a layout pair of :meth:`layouts`) column-major
        with its `lda`, B row-major or (``b_col``) column-major with its `ldb`. An operand TMA
        cannot address (a pitch that is not a multiple of 16 bytes, a start off a 16-byte
        boundary) is first copied on `stream` into rows padded to 16 bytes, in its own layout."""
        if not isinstance(kernel, ExLaunch):
            # the hot path: contiguous operands whose launch plan (checks, tensor maps, grid) is kept
            launcher = kernel._companions.get("__tma_tf32__")
            if launcher is not None:
                a_ptr, b_ptr, c_ptr = A.data.ptr, B.data.ptr, C.data.ptr
                packed = launcher.ready.get((a_ptr, b_ptr, c_ptr, M, N, K))
                if packed is None:
                    plan = launcher.plans.get(_plan_key(a_ptr, K, b_ptr, N, M, N, K))
                    if plan is not None:
                        packed = launcher.pack_ready(plan, a_ptr, b_ptr, c_ptr, M, N, K)
                if packed is not None:
                    launcher.launch_packed(packed, stream.ptr)
                    return
        lda, ldb, a_col, b_col, extra = K, N, False, False, None
        if isinstance(kernel, ExLaunch):
            spec = kernel.spec
            if (kernel.batch != 1 or spec.batched or spec.out_ctype
                    or (spec.a_col and (True, spec.b_col) not in self.layouts())):
                raise ValueError(f"wgmma_tma_tf32 computes single 2-D products (operand layouts {self.layouts()}, "
                                 f"with an epilogue) only; this call asks for {spec.tag()}: use another strategy")
            if spec.ld:
                a_col, b_col = spec.a_col, spec.b_col
                lda, ldb = kernel.values.get("lda", M if a_col else K), kernel.values.get("ldb", K if b_col else N)
            extra = kernel.extra()
            kernel = kernel.compiled
        a, lda = addressable_pitched(A, K, M, lda, stream) if a_col else addressable_pitched(A, M, K, lda, stream)
        b, ldb = addressable_pitched(B, N, K, ldb, stream) if b_col else addressable_pitched(B, K, N, ldb, stream)
        self.launch_strided(kernel, a.data.ptr, lda, b.data.ptr, ldb, C.data.ptr, N, M, N, K, stream.ptr, extra, b_col,
                            a_col)

    def launch_strided(self, kernel: Any, a_ptr: int, lda: int, b_ptr: int, ldb: int, c_ptr: int, ldc: int,
                       M: int, N: int, K: int, stream_ptr: int, extra: Any = None, b_col: bool = False,
                       a_col: bool = False) -> None:
        """C = A @ B with row pitches lda, ldb, ldc (floats), on the stream at `stream_ptr`;
        `extra`: the TmExtra struct (a ctypes value) of a kernel rendered with an ExSpec; with
        `b_col`, B is column-major (N x K rows of k, `ldb` floats each) and `kernel` must be the
        B_COL kernel (ExSpec b_col); with `a_col`, A is column-major (K x M rows of m, `lda`
        floats each) and `kernel` the A_COL kernel (ExSpec a_col; tf32x3 only)."""
        if M == 0 or N == 0:
            return
        keep = None
        if K == 0:
            if extra is None:
                zero_rows(c_ptr, M, N, ldc, 4, stream_ptr)
                return
            # C = the epilogue of an empty sum: the kernel over one k of zeros (it needs K >= 1)
            a_ptr, lda, b_ptr, ldb, K, keep = zero_operands(M, N, 4, stream_ptr)
            if b_col or a_col:
                raise ValueError("wgmma_tma_tf32: K = 0 with an epilogue is run row-major only")
        key = _plan_key(a_ptr, lda, b_ptr, ldb, M, N, K, b_col, a_col)
        launcher = kernel._companions.get("__tma_tf32__")
        plan = launcher.plans.get(key) if launcher is not None else None
        if plan is None:  # checked, encoded and sized once per operand layout
            problem = self.operand_problem(M, N, K, a_ptr, lda, b_ptr, ldb, b_col, a_col)
            if problem:
                raise ValueError(f"wgmma_tma_tf32 cannot read these operands with TMA: {problem}; "
                                 "use another strategy (or copy them to 16-byte-aligned rows)")
            launcher = _launcher(kernel)
            amap, bmap = self.tensor_maps(M, N, K, a_ptr, lda, b_ptr, ldb, b_col, a_col)
            grid = self.grid(M, N, device_limits(kernel.device).sm_count)
            plan = launcher.remember(key, (grid[0], amap, bmap))
        launcher(plan[0], plan[1], plan[2], a_ptr, b_ptr, c_ptr, M, N, K, lda, ldb, ldc, stream_ptr, extra)
        del keep  # (the zero operands: CuPy's pool reuses them only for work queued after this launch)


def _plan_key(a_ptr: int, lda: int, b_ptr: int, ldb: int, M: int, N: int, K: int, b_col: bool = False,
              a_col: bool = False) -> tuple:
    """What a kept launch plan of the wgmma_tma_tf32 kernel is looked up by (Tf32TmaLauncher.plans):
    the operands' addresses, pitches and layouts and the shape (launch's hot path and
    launch_strided alike)."""
    return (a_ptr, lda, b_ptr, ldb, M, N, K, b_col, a_col)


class Tf32TmaLauncher(PackedLauncher):
    """The wgmma_tma_tf32 kernel's arguments (tmA, tmB, A, B, C, M, N, K, lda, ldb, ldc): two
    128-byte tensor maps by value, three pointers and six ints, then (a kernel rendered with an
    epilogue) the TmExtra struct. Its plans are keyed by A and B (C and the epilogue vary), so a
    launch packs them into this thread's buffer (:meth:`__call__`; the driver copies the values
    before cuLaunchKernel returns); contiguous products on the hot path also keep one argument
    list packed per C (:attr:`ready`)."""

    #: byte offsets of the 11 arguments in the buffer (the maps 64-byte aligned, as the struct is)
    OFFSETS = (0, 128, 256, 264, 272, 280, 284, 288, 292, 296, 300)
    SIZE = 320

    def __init__(self, raw: Any, block: tuple[int, int, int], smem: int):
        super().__init__(raw, block, smem)
        self._tls = threading.local()
        #: (a_ptr, b_ptr, c_ptr, M, N, K) of a contiguous product -> its packed arguments
        self.ready: dict = {}

    def _fill(self, base: int, amap: bytes, bmap: bytes, a_ptr: int, b_ptr: int, c_ptr: int, M: int, N: int,
              K: int, lda: int, ldb: int, ldc: int) -> None:
        ctypes.memmove(base, amap, 128)
        ctypes.memmove(base + 128, bmap, 128)
        ptrs = (ctypes.c_uint64 * 3).from_address(base + self.OFFSETS[2])
        ptrs[0], ptrs[1], ptrs[2] = a_ptr, b_ptr, c_ptr
        words = (ctypes.c_int32 * 6).from_address(base + self.OFFSETS[5])
        words[0], words[1], words[2], words[3], words[4], words[5] = M, N, K, lda, ldb, ldc

    def pack_ready(self, plan: tuple, a_ptr: int, b_ptr: int, c_ptr: int, M: int, N: int, K: int) -> tuple:
        """The packed arguments of the contiguous product C = A @ B under `plan`, kept in
        :attr:`ready`: (grid x, argument address array's address, buffers kept alive)."""
        raw, base, params, params_ptr = self.new_buffer()
        self._fill(base, plan[1], plan[2], a_ptr, b_ptr, c_ptr, M, N, K, K, N, N)
        return self.remember((a_ptr, b_ptr, c_ptr, M, N, K), (plan[0], params_ptr, (raw, params)), self.ready)

    def __call__(self, grid_x: int, amap: bytes, bmap: bytes, a_ptr: int, b_ptr: int, c_ptr: int, M: int, N: int,
                 K: int, lda: int, ldb: int, ldc: int, stream_ptr: int, extra: Any = None) -> None:
        bufs = getattr(self._tls, "bufs", None)
        if bufs is None:
            # one more argument slot: the TmExtra struct, where the kernel takes one (the driver
            # reads as many argument addresses as the kernel has parameters)
            bufs = self._tls.bufs = self.new_buffer(extra_slots=1)
        _, base, params, params_ptr = bufs
        params[len(self.OFFSETS)] = ctypes.addressof(extra) if extra is not None else None
        self._fill(base, amap, bmap, a_ptr, b_ptr, c_ptr, M, N, K, lda, ldb, ldc)
        self.launch_packed((grid_x, params_ptr), stream_ptr)


def _launcher(kernel: Any) -> Tf32TmaLauncher:
    """The Tf32TmaLauncher of a CompiledKernel (built on first use, kept with the kernel)."""
    return kept_launcher(kernel, "__tma_tf32__",
                         lambda: Tf32TmaLauncher(kernel.raw, kernel.config.block(), kernel.smem_bytes))


def tma_tf32_matmul(a: Any, b: Any, c: Any = None, *, config: "WgmmaTmaTf32Config | None" = None) -> Any:
    """C = a @ b with the wgmma_tma_tf32 kernel on the current CuPy stream, for 2-D float32 cupy
    arrays whose rows are contiguous and whose row pitches may be padded (views such as
    ``x[:, :71]`` of a 72-column array), b also column-major (``w.T``, read in place) and, with
    tf32x3, a too (``x.T``), without the public API's checks. `c` (written in place and
    returned) or a new float32 array. ValueError when TMA cannot read a or b, or for a
    column-major a with tf32.

    >>> c = tma_tf32_matmul(a, b, config=WgmmaTmaTf32Config(bm=256, passes=1))  # doctest: +SKIP
    >>> y = tma_tf32_matmul(x, w.T)                                                # doctest: +SKIP
    >>> g = tma_tf32_matmul(x.T, y)                                                # doctest: +SKIP
    """
    import cupy

    from ..compile import get_kernel
    from ..epilogue import ExSpec

    cfg = config if config is not None else STRATEGY.default
    a_col, b_col = (x.ndim == 2 and x.size > 0 and x.shape[0] > 1 and x.strides[0] == x.itemsize
                    and x.strides[1] != x.itemsize for x in (a, b))
    if a_col:
        if (True, b_col) not in cfg.layouts():
            raise ValueError(f"a is column-major (strides {a.strides}); wgmma_tma_tf32 reads a column-major a "
                             f"only with passes=3 (tf32x3) and a row-major b; got passes={cfg.passes} and b "
                             f"{'column' if b_col else 'row'}-major: copy a to row-major first")
        K, M, lda = row_layout(a.T, "a")
    else:
        M, K, lda = row_layout(a, "a")
    if b_col:
        N, Kb, ldb = row_layout(b.T, "b")
    else:
        Kb, N, ldb = row_layout(b, "b")
    if Kb != K:
        raise ValueError(f"inner dimensions differ: a is {a.shape} and b is {b.shape}")
    if a.dtype != cupy.float32 or b.dtype != cupy.float32:
        raise ValueError(f"a and b must be float32; got {a.dtype} and {b.dtype}")
    if c is None:
        c = cupy.empty((M, N), dtype=cupy.float32)
    Mc, Nc, ldc = row_layout(c, "c")
    if (Mc, Nc) != (M, N) or c.dtype != cupy.float32:
        raise ValueError(f"c has shape {c.shape} and dtype {c.dtype}; expected {(M, N)} float32")
    ex = ExSpec("float", a_col=a_col, b_col=b_col, ld=True) if a_col or b_col else None
    kernel = get_kernel(STRATEGY, cfg, "float32", cupy.cuda.Device().id, ex=ex)
    # a kernel rendered with an ExSpec takes its TmExtra struct last (here: no epilogue)
    extra = None if ex is None else ExLaunch(kernel, ex, {"lda": lda, "ldb": ldb}, c.data.ptr, 1, M * N, 1).extra()
    cfg.launch_strided(kernel, a.data.ptr, lda, b.data.ptr, ldb, c.data.ptr, ldc, M, N, K,
                       cupy.cuda.get_current_stream().ptr, extra, b_col=b_col, a_col=a_col)
    return c


STRATEGY = Strategy.of(
    WgmmaTmaTf32Config,
    "16_wgmma_tma_tf32.cu.j2",
    "float32 (tf32x3 or tf32) on wgmma fed by TMA: B^T A^T with B's fragments rounded/split in registers, "
    "persistent, warp-specialised",
    [
        dict(bm=128, bn=128, stages=3),
        dict(bm=64, bn=128, stages=8),  # twice the tiles of 128 x 128 (fuller last waves)
        # tf32 (one pass): wider tiles, the accumulators alone in registers
        dict(bm=256, bn=128, stages=4, passes=1),
        dict(bm=128, bn=256, stages=4, passes=1),
        dict(bm=128, bn=128, stages=6, passes=1),
    ],
)
