"""Rung 15: float16/bfloat16 on Hopper's wgmma, fed by TMA, warp-specialised and persistent."""

from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..configs import ALL_LAYOUTS, Config, cdiv
from ..device import DeviceLimits, device_limits, stream_at
from ..dtypes import FLOAT16, DType, as_dtype
from ..epilogue import ExLaunch
from ..strategy import Strategy
from .. import tma


@dataclass(frozen=True)
class TmaWarpSpecialized(Config):
    """What the two TMA rungs (wgmma_tma, wgmma_tma_tf32) share: sm_90a kernels of one producer
    warpgroup issuing TMA copies and two consumer warpgroups (THREADS), one CTA per SM walking
    bm x bn tiles of BK-deep stages (BATCH_AXIS 1: the grid's x is the persistent CTA count),
    dynamic shared memory, and the setmaxnreg targets that move registers from the producer to
    the consumers (PRODUCER_REGS / CONSUMER_REGS, set by each rung)."""

    DYNAMIC_SMEM: ClassVar[bool] = True
    NVRTC_ARCH: ClassVar["str | None"] = "sm_90a"
    BATCH_AXIS: ClassVar[int] = 1
    #: threads: one producer and two consumer warpgroups
    THREADS: ClassVar[int] = 384
    BK: ClassVar[int]
    PRODUCER_REGS: ClassVar[int]
    CONSUMER_REGS: ClassVar[int]

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.bm, self.bn)  # type: ignore[attr-defined]

    @property
    def tile_k(self) -> int:
        return self.BK

    def block(self) -> tuple[int, int, int]:
        return (self.THREADS, 1, 1)

    def padding_bytes(self, M: int, N: int, K: int, dtype: Any = None) -> int:
        """A and B where TMA cannot address them (:func:`addressable`'s rule, at aligned addresses:
        rows that are not 16-byte multiples, a single row excepted) are copied into padded rows
        first: each such operand read once and written padded."""
        isz = self._dtype(dtype).itemsize
        return addressable_copy_bytes(M, K, isz) + (0 if self._reads_b_rows(M, K, N, isz)
                                                    else addressable_copy_bytes(K, N, isz))

    def _reads_b_rows(self, M: int, K: int, N: int, itemsize: int) -> bool:
        """Whether a contiguous K x N B at an aligned address is read in place where TMA cannot
        address it (wgmma_tma's b_rows; no other TMA rung)."""
        return False

    def setmaxnreg(self) -> tuple[int, int]:
        """(producer, consumer) register targets of setmaxnreg: PRODUCER_REGS / CONSUMER_REGS."""
        return self.PRODUCER_REGS, self.CONSUMER_REGS

    def _regs_rule(self, limits: DeviceLimits):
        p, c = self.setmaxnreg()
        return (p * 128 + c * 256 <= limits.regs_per_sm,
                f"setmaxnreg targets {p}/{c} must fit {limits.regs_per_sm} registers")


@dataclass(frozen=True)
class WgmmaTmaConfig(TmaWarpSpecialized):
    """16-bit inputs on Hopper's warpgroup tensor cores, float32 accumulation, sm_90a only.

    One CTA per SM walks the bm x bn output tiles in grouped order (`group_m` tile rows at a
    time). A producer warpgroup issues TMA copies of 64-deep K steps into a `stages`-deep ring of
    shared-memory stages guarded by mbarriers; two consumer warpgroups each compute half of the
    tile's rows with ``wgmma.mma_async`` m64 x bn x k16 and write their accumulators straight to
    C (16-bit C through a shared-memory tile and TMA stores, where C's rows are 16-byte aligned).
    `out_bits` = 16 writes C in the input dtype, 32 in float32 (stored straight from registers). `cluster_m` = 2 pairs CTAs
    into clusters that compute 2 bm x bn super-tiles and share each B box by TMA multicast
    (half of B's copies per CTA).

    Epilogues (alpha, beta, bias, activations, user expressions: ``tm.gemm``) are applied in
    float32 as each consumer writes its part of C, before the one rounding. A batch (``a @ b`` on
    3-D operands) is one launch: the persistent CTAs walk every matrix's tiles, matrix by matrix,
    through 3-D tensor maps (an operand the batch shares is read as one matrix).

    Operand layouts (:attr:`LAYOUTS`): A and B each row-major or column-major (``a.T``, ``w.T``,
    Fortran order), each with its own leading dimension, read in place: 16-bit wgmma reads either
    operand K-major or MN-major from shared memory, so a column-major operand's boxes are copied
    as they lie and the instruction's transpose bits say which (the template's Layouts).

    TMA needs every operand's base address and row pitch on 16-byte boundaries (K and N multiples
    of 8 for contiguous operands): :meth:`operand_problem` says why a call's operands fail that,
    and :meth:`launch_strided` raises ValueError with it, so a caller can fall back to another
    rung; :meth:`launch` copies such an operand into padded rows first, except a row-major B whose
    base and pitch lie on 4 bytes under a C of one tile row, which it reads in place with this
    config's ``b_rows=1`` sibling where ``cluster_m`` is 1 (see `b_rows`, :meth:`rows_sibling`).

    `b_rows` = 1 (a switch, off by default) reads B with the producer warpgroup's ``cp.async``
    instead of TMA: 8 bytes a copy on rows that start on 8 bytes, 4 on the others, so B needs its
    base address and row pitch on 4 bytes only (N even for a contiguous B). For a B that TMA cannot
    address this skips the copy into padded rows (64 x 10186 x 4000 float16 on an H100: 67.5 µs in
    place, 108.6 with the copy, cuBLAS 58.7); B row-major, unbatched, ``cluster_m`` 1
    (:meth:`layouts`, :meth:`extras`, the rules).
    """

    STRATEGY: ClassVar[str] = "wgmma_tma"
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float16", "bfloat16")
    # TENSOR_CORES and PRECISIONS keep Config's defaults: they name float32 modes (TF32 splits),
    # and 16-bit products are exact in the float32 accumulator.
    #: the epilogue hooks (TmExtra last, after flags; applied as each consumer writes C), batches
    #: (3-D tensor maps, the batch count after flags: the template's BATCHED); "out_dtype" with
    #: out_bits=32 (:meth:`extras`)
    EXTRAS: ClassVar[frozenset[str]] = frozenset({"epilogue", "batch"})
    #: every (A column-major, B column-major) pair, read in place through the tensor maps (template
    #: A_COL / B_COL; the maps carry the leading dimensions)
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ALL_LAYOUTS
    bm: int = 128
    bn: int = 256
    stages: int = 3
    group_m: int = 8
    out_bits: int = 16
    cluster_m: int = 1
    b_rows: int = 0

    #: b_rows is a switch (Config.SWITCHES): off, every earlier config keeps its symbol and source
    SWITCHES: ClassVar[frozenset[str]] = frozenset({"b_rows"})
    #: whether :meth:`launch` reads a B that TMA cannot address with the b_rows sibling (else it
    #: copies B into padded rows)
    B_ROWS_SIBLING: ClassVar[bool] = True

    #: K depth of a stage: 64 16-bit elements, one 128-byte swizzle line
    BK: ClassVar[int] = 64
    #: setmaxnreg targets: 128 x 40 + 256 x 232 = 64512 <= the SM's 65536 registers
    PRODUCER_REGS: ClassVar[int] = 40
    CONSUMER_REGS: ClassVar[int] = 232
    #: with b_rows: 128 x 56 + 256 x 224 = 64512 (the producer's unrolled copies spilled 4-12 bytes
    #: under 40; no consumer spills at 224, nvcc 13.0)
    ROWS_REGS: ClassVar[tuple[int, int]] = (56, 224)

    @property
    def m_sub(self) -> int:
        """64-row wgmma subtiles per consumer warpgroup."""
        return self.bm // 128

    @property
    def acc_regs(self) -> int:
        """Accumulator floats per consumer thread: (bm / 2) x bn outputs over 128 threads."""
        return self.bm // 2 * self.bn // 128

    def tiles(self, M: int, N: int) -> int:
        """Tiles a cluster computes one at a time: (cluster_m bm) x bn super-tiles."""
        return cdiv(M, self.bm * self.cluster_m) * cdiv(N, self.bn)

    def grid(self, M: int, N: int, sms: "int | None" = None, clusters: "int | None" = None,
             count: int = 1) -> tuple[int, int, int]:
        """Persistent: at most one CTA per SM (`sms`; the current device's count when None) and as
        many clusters of cluster_m CTAs as run at once (`clusters`; sms // cluster_m when None),
        and no more than the tiles of `count` matrices need: the fewest clusters that take the same
        number of waves."""
        if sms is None:
            sms = device_limits(None).sm_count
        most = max(1, clusters if clusters is not None else sms // self.cluster_m)
        tiles = self.tiles(M, N) * count
        # as many waves of tiles as `most` clusters need, spread evenly: no cluster walks more
        # tiles than with `most`, and the SMs left idle cost nothing (4096^3 in 128 x 256
        # tiles: 512 tiles = 4 waves of 128, not 3.9 waves of 132)
        return (persistent_count(tiles, most) * self.cluster_m, 1, 1)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """A is read once per tile; B once per cluster super-tile (multicast to its CTAs)."""
        steps = cdiv(K, self.BK)
        per_cta = cdiv(M, self.bm) * cdiv(N, self.bn)
        return per_cta * steps * self.bm * self.BK, self.tiles(M, N) * steps * self.BK * self.bn

    def smem_bytes(self, dtype: Any = FLOAT16) -> int:
        # the ring of stages, the C tile of the TMA-store epilogue (16-bit C), 1 KB for the
        # 1024-byte round-up, full and empty mbarriers
        c_tile = self.bm * self.bn * 2 if self.out_bits == 16 else 0
        return self.stages * (self.bm + self.bn) * self.BK * 2 + c_tile + 1024 + 16 * self.stages

    def extras(self) -> frozenset[str]:
        """EXTRAS, and "out_dtype" for a float32 C (``out_bits=32``: ``out_dtype=float32`` calls);
        no batches with ``b_rows`` (its producer reads one B)."""
        out = self.EXTRAS | {"out_dtype"} if self.out_bits == 32 else self.EXTRAS
        return out - {"batch"} if self.b_rows else out

    def layouts(self) -> tuple[tuple[bool, bool], ...]:
        """Every layout pair, or with ``b_rows`` row-major A and B only: its copies walk B's rows, and
        with a column-major A's box loop beside them its producer spilled (12 bytes, nvcc 13.0,
        under the first version's 40-register cap; not tried under ROWS_REGS), so that layout is
        not offered."""
        return tuple(p for p in super().layouts() if p == (False, False) or not self.b_rows)

    @staticmethod
    def rows_problem(b_ptr: int, rows: int, cols: int, ldb: int, itemsize: int = 2) -> "str | None":
        """Why ``b_rows`` cannot read a row-major `rows` x `cols` B at `b_ptr` with `ldb` elements per
        row (None when it can): its 4- and 8-byte copies need 16-bit elements, the base address and
        (for more than one row) the row pitch on 4 bytes. A pure function of the numbers."""
        if itemsize != 2:
            return f"b has {itemsize}-byte elements; b_rows reads 16-bit ones"
        if rows == 0 or cols == 0:
            return None
        if b_ptr % 4:
            return f"b starts at an address off 4 bytes (address % 4 = {b_ptr % 4})"
        if rows > 1 and (ldb * itemsize) % 4:
            return f"b has rows {ldb} elements = {ldb * itemsize} bytes apart, not a multiple of 4"
        if ldb < cols and rows > 1:
            return f"b's row pitch {ldb} is shorter than its {cols} columns"
        return None

    def rows_sibling(self, M: int, b_ptr: int, K: int, N: int, ldb: int, itemsize: int, a_col: bool,
                     b_col: bool, batched: bool) -> "WgmmaTmaConfig | None":
        """The ``b_rows=1`` config :meth:`launch` reads B with in place of copying it into padded
        rows: where TMA cannot address this (row-major, unbatched) B but b_rows can, A is
        row-major (:meth:`layouts`), C is one tile row (M <= bm), and this config has no cluster
        (multicast B) and is not itself b_rows; else None.

        Why one tile row: there each CTA reads its columns of B once, so the copy into padded rows
        costs three passes over B against b_rows' one, and b_rows was measured ahead (M 9-128 on
        10186-wide B, 0.80-1.04x cuBLAS against 0.46-0.66x). With more tile rows every row re-reads
        B through the producer's copies while the padding copy is paid once: on an H100, float16,
        512 x 10186 x 4000 ran 231.5 us in place against 166.0 padded, 4096 x 4098 x 4096 558.8
        against 323.2 (256 rows: 118.0 / 121.7; forty-first session, probe_rows_route.py)."""
        if self.b_rows or self.cluster_m != 1 or a_col or b_col or batched or not self.B_ROWS_SIBLING:
            return None
        if M > self.bm:
            return None
        if tma.matrix_problem("b", b_ptr, K, N, ldb, itemsize) is None or self.rows_problem(b_ptr, K, N, ldb, itemsize):
            return None
        return self.replace(b_rows=1)

    def setmaxnreg(self) -> tuple[int, int]:
        """PRODUCER_REGS / CONSUMER_REGS, or with b_rows ROWS_REGS (its producer copies B)."""
        return self.ROWS_REGS if self.b_rows else (self.PRODUCER_REGS, self.CONSUMER_REGS)

    def _reads_b_rows(self, M: int, K: int, N: int, itemsize: int) -> bool:
        return (self.b_rows or self.rows_sibling(M, 0, K, N, N, itemsize, False, False, False) is not None
                ) and self.rows_problem(0, K, N, N, itemsize) is None

    def rows_arg(self, b_ptr: int, ldb: int) -> bytes:
        """B's TmRows (the template's B_ROWS), packed where B's tensor map would be: its address and
        row pitch in elements, then zeros to the map's 128 bytes."""
        return struct.pack("<Qq", b_ptr, ldb) + bytes(112)

    def for_out_dtype(self, out_dtype: Any) -> "WgmmaTmaConfig | None":
        """This config writing a float32 C (``out_bits=32``) for ``out_dtype=float32``."""
        if as_dtype(out_dtype).name != "float32" or self.out_bits == 32:
            return None
        return self.replace(out_bits=32)

    def out_dtype(self, dtype: Any) -> str:
        """The dtype of C for inputs of `dtype`."""
        return "float32" if self.out_bits == 32 else as_dtype(dtype).name

    def template_constants(self, dt: DType) -> dict[str, Any]:
        producer_regs, consumer_regs = self.setmaxnreg()
        return {"BK": self.BK, "M_SUB": self.m_sub, "D_REGS": self.bn // 2, "B_BOXES": self.bn // 64,
                "PRODUCER_REGS": producer_regs, "CONSUMER_REGS": consumer_regs,
                "IN_PTX": "bf16" if dt == "bfloat16" else "f16",
                "WGMMA_N": self.bn, "WGMMA_REGS": self.bn // 2, "WGMMA_AB": "bf16" if dt == "bfloat16" else "f16",
                "CLUSTER_M": self.cluster_m}

    def rules(self, limits: DeviceLimits, dt: DType):
        yield (self.runs_on(limits),
               f"wgmma_tma runs only on sm_90 (Hopper) GPUs; {limits.name} is sm_{limits.compute_capability}")
        yield (self.bm in (128, 256), f"bm ({self.bm}) must be 128 or 256 (two consumer warpgroups of 64-row wgmmas)")
        yield (self.bn % 64 == 0 and 64 <= self.bn <= 256,
               f"bn ({self.bn}) must be 64, 128, 192 or 256 (64-column TMA boxes; wgmma n <= 256)")
        yield (self.acc_regs <= 128,
               f"bm x bn = {self.bm} x {self.bn} needs {self.acc_regs} accumulator registers per consumer thread; "
               f"at most 128 fit the {self.setmaxnreg()[1]} a consumer gets (e.g. 128 x 256 or 256 x 128)")
        yield self._stages_rule(2, 8)
        yield (self.group_m <= 64, f"group_m ({self.group_m}) must be at most 64")
        yield (self.out_bits in (16, 32), f"out_bits ({self.out_bits}) must be 16 (C in the input dtype) or 32 (float32)")
        yield (self.cluster_m in (1, 2), f"cluster_m ({self.cluster_m}) must be 1 or 2 (CTAs per cluster sharing B)")
        yield (not self.b_rows or self.cluster_m == 1,
               f"b_rows=1 reads B with each CTA's own copies: cluster_m ({self.cluster_m}) must be 1")
        yield self._regs_rule(limits)
        yield self._fits_sm_rule(limits, dt, 1)

    # -- operands and the launch ----------------------------------------------------------------
    def operand_problem(self, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                        itemsize: int = 2, a_col: bool = False, b_col: bool = False) -> "str | None":
        """Why TMA cannot read A (M x K, `lda` elements per row; with `a_col`, K x M rows of m) and
        B (K x N, `ldb`; with `b_col`, N x K rows of k) at these addresses (None when it can); a
        pure function of the numbers."""
        a_rows, a_cols = (K, M) if a_col else (M, K)
        b_rows, b_cols = (N, K) if b_col else (K, N)
        if self.b_rows and (a_col or b_col):
            return f"b_rows=1 reads row-major operands only; {'a' if a_col else 'b'} is column-major"
        return (tma.matrix_problem("a", a_ptr, a_rows, a_cols, lda, itemsize)
                or (self.rows_problem(b_ptr, b_rows, b_cols, ldb, itemsize) if self.b_rows
                    else tma.matrix_problem("b", b_ptr, b_rows, b_cols, ldb, itemsize)))

    def supports_operands(self, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                          itemsize: int = 2) -> bool:
        """Whether :meth:`launch_strided` takes these row-major operands (see :meth:`operand_problem`)."""
        return self.operand_problem(M, N, K, a_ptr, lda, b_ptr, ldb, itemsize) is None

    def map_args(self, dt: Any, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                 a_col: bool = False, b_col: bool = False) -> tuple[tuple, tuple]:
        """The :meth:`tiled_matmul.tma.MapCache.get` arguments (address, rows, cols, pitch,
        itemsize, dtype code, box rows, box cols, name) of A's and B's maps, as the template's
        Layouts read them: A's box bm rows x 64 k (with `a_col`, Aᵀ's 64 k x 64 m), B's 64 k x 64 n
        (with `b_col`, Bᵀ's 64 n x 64 k). Testable without a GPU. (A batch's maps take the count
        and each operand's batch stride as well: :meth:`tensor_maps`.)"""
        dt = as_dtype(dt)
        isz, code = dt.itemsize, tma.DATA_TYPE[dt.name]
        a = (a_ptr, K, M, lda, isz, code, self.BK, 64, "a") if a_col else (a_ptr, M, K, lda, isz, code, self.bm, self.BK, "a")
        b = (b_ptr, N, K, ldb, isz, code, 64, self.BK, "b") if b_col else (b_ptr, K, N, ldb, isz, code, self.BK, 64, "b")
        return a, b

    def tensor_maps(self, dt: Any, M: int, N: int, K: int, a_ptr: int, lda: int, b_ptr: int, ldb: int,
                    a_col: bool = False, b_col: bool = False,
                    batch: "Batch | None" = None) -> tuple[bytes, bytes]:
        """The encoded tensor maps of A and B (:meth:`map_args`; cached in :data:`tiled_matmul.tma.MAPS`),
        3-D over `batch`'s matrices for a batched kernel."""
        strides = (batch.sa, batch.sb) if batch is not None else (0, 0)
        count = batch.count if batch is not None else None
        if self.b_rows:  # (the rules and launch_strided keep b_rows unbatched and B row-major)
            args = self.map_args(dt, M, N, K, a_ptr, lda, b_ptr, ldb, a_col, b_col)[0]
            return tma.MAPS.get(*args[:-1], name=args[-1]), self.rows_arg(b_ptr, ldb)
        return tuple(tma.MAPS.get(*args[:-1], name=args[-1], count=count, batch_stride=stride)  # type: ignore[return-value]
                     for args, stride in zip(self.map_args(dt, M, N, K, a_ptr, lda, b_ptr, ldb, a_col, b_col), strides))

    def c_map(self, dt: Any, M: int, N: int, c_ptr: int, ldc: int, batch: "Batch | None" = None) -> "bytes | None":
        """The tensor map the TMA-store epilogue writes C through (boxes of 64 columns x one
        consumer's bm/2 rows; 3-D over `batch`'s matrices), or None where it does not apply (then
        the kernel stores from registers): float32 C; C's base address, row pitch or batch stride
        off 16 bytes; or rows whose length is not a multiple of 16 bytes (N % 8 != 0), as TMA
        stores past the last column up to the next 16-byte boundary (measured on an H100: a padded
        C had those columns written)."""
        dt = as_dtype(dt)
        count, sc = (batch.count, batch.sc) if batch is not None else (None, 0)
        if (self.out_bits != 16 or (N * dt.itemsize) % tma.ALIGN
                or tma.matrix_problem("c", c_ptr, M, N, ldc, dt.itemsize)
                or (batch is not None and ((count > 1 and sc == 0) or tma.batch_problem("c", count, sc, dt.itemsize)))):
            return None
        return tma.MAPS.get(c_ptr, M, N, ldc, dt.itemsize, tma.DATA_TYPE[dt.name], self.bm // 2, 64, "c",
                            count=count, batch_stride=sc)

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int, stream: Any) -> None:
        """C = A @ B (`flags` is ignored: this kernel computes its own from C). `kernel` is the
        plain kernel for C-contiguous operands, or (the general path, :mod:`tiled_matmul.execute`)
        an :class:`~tiled_matmul.epilogue.ExLaunch` of a kernel rendered with an ExSpec (its
        TmExtra struct is passed last): an epilogue, operand layouts (A and/or B column-major, or
        with their own leading dimensions `lda`, `ldb`) and, with ``out_bits=32``, a float32 C
        (``out_dtype``); a batch or another C type is refused (ValueError: :meth:`extras`). An operand TMA cannot
        address (rows that are not a multiple of 16 bytes, a start off a 16-byte boundary: see
        :meth:`operand_problem`) is first copied on `stream` into rows padded to 16 bytes, in its
        own layout; TMA's box bounds keep the padding out of the product. At 3001 x 2999 x 3007
        the two copies move 72 MB, a few percent of the product's time, where the cp.async rung on
        the unpadded rows runs at 0.64x cuBLAS. ValueError when C's item size is not this config's
        output's."""
        lda, ldb, a_col, b_col, extra, batch = K, N, False, False, None, None
        if isinstance(kernel, ExLaunch):
            spec = kernel.spec
            if (kernel.batch != 1 and not spec.batched) or spec.out_ctype not in (None, "float" if self.out_bits == 32
                                                                                  else None):
                raise ValueError(f"wgmma_tma writes C in its out_bits' type; this call asks for {spec.tag()}: use "
                                 "another strategy (or out_bits=32 for a float32 C)")
            a_col, b_col = spec.a_col, spec.b_col
            lda, ldb = kernel.values.get("lda", M if a_col else K), kernel.values.get("ldb", K if b_col else N)
            if spec.batched:
                batch = Batch(kernel.batch, kernel.values["sa"], kernel.values["sb"], kernel.out_batch_stride)
            extra = kernel.extra()
            kernel = kernel.compiled
        else:
            # the hot path: contiguous operands whose launch plan (checks, tensor maps, grid) is kept
            launcher = getattr(kernel, "_companions", {}).get("__tma__")
            if launcher is not None:
                a_ptr, b_ptr, c_ptr = A.data.ptr, B.data.ptr, C.data.ptr
                plan = launcher.plans.get(_plan_key(a_ptr, K, b_ptr, N, c_ptr, N, M, N, K))
                if plan is not None and C.itemsize == (4 if self.out_bits == 32 else 2):
                    launcher.launch_packed(plan, stream.ptr)
                    return
        cfg = self
        if batch is not None:
            count = batch.count
            a, lda, sa = addressable_batch(A, *((K, M) if a_col else (M, K)), lda, count, batch.sa, stream)
            b, ldb, sb = addressable_batch(B, *((N, K) if b_col else (K, N)), ldb, count, batch.sb, stream)
            batch = Batch(count, sa, sb, batch.sc)
        else:
            a, lda = addressable_pitched(A, K, M, lda, stream) if a_col else addressable_pitched(A, M, K, lda, stream)
            cfg, kernel, b, ldb = self.read_b(kernel, B, M, K, N, ldb, a_col, b_col, stream)
        cfg.launch_strided(kernel, a.data.ptr, lda, b.data.ptr, ldb, C.data.ptr, N, M, N, K, stream.ptr,
                           c_itemsize=C.itemsize, a_col=a_col, b_col=b_col, extra=extra, batch=batch)

    def read_b(self, kernel: Any, B: Any, M: int, K: int, N: int, ldb: int, a_col: bool, b_col: bool,
               stream: Any) -> tuple["WgmmaTmaConfig", Any, Any, int]:
        """(config, compiled kernel, array, pitch) an unbatched launch of `kernel` (this config's)
        reads B with: the b_rows sibling (:meth:`rows_sibling`), compiled once and kept with
        `kernel` so that later calls skip the kernel cache's lookup, reading B in place; this
        config reading B in place (TMA can address it, or this config is b_rows and its copies
        can); else B copied on `stream` into padded rows (:func:`addressable_pitched`)."""
        rows = self.rows_sibling(M, B.data.ptr, K, N, ldb, B.itemsize, a_col, b_col, False)
        if rows is not None:
            return rows, kept_launcher(kernel, "__rows__", lambda: rows_kernel(kernel, rows)), B, ldb
        if self.b_rows and not (a_col or b_col) and self.rows_problem(B.data.ptr, K, N, ldb, B.itemsize) is None:
            return self, kernel, B, ldb
        b, ldb = addressable_pitched(B, N, K, ldb, stream) if b_col else addressable_pitched(B, K, N, ldb, stream)
        return self, kernel, b, ldb

    def launch_strided(self, kernel: Any, a_ptr: int, lda: int, b_ptr: int, ldb: int, c_ptr: int, ldc: int,
                       M: int, N: int, K: int, stream_ptr: int, c_itemsize: "int | None" = None,
                       a_col: bool = False, b_col: bool = False, extra: Any = None,
                       batch: "Batch | None" = None) -> None:
        """C = A @ B with row pitches lda, ldb, ldc (elements), on the stream at `stream_ptr`; with
        `a_col` A is column-major (K x M rows of m, `lda` elements each), with `b_col` B is (N x K
        rows of k, `ldb`), and `kernel` must then be rendered for that layout (ExSpec a_col, b_col);
        `extra`: the TmExtra struct (a ctypes value) of a kernel rendered with an ExSpec, passed
        last; `batch`: the count and batch strides of a kernel rendered batched (ExSpec batched),
        whose matrix i of A, B and C starts i * sa, i * sb, i * sc elements after the pointers."""
        dt = kernel.dtype
        osz = 4 if self.out_bits == 32 else 2
        if c_itemsize is not None and c_itemsize != osz:
            raise ValueError(f"wgmma_tma with out_bits={self.out_bits} writes {self.out_dtype(dt)}; C has "
                             f"{c_itemsize}-byte elements")
        count = batch.count if batch is not None else 1
        if M == 0 or N == 0 or count == 0:
            return
        keep = None
        if K == 0:
            if extra is None or not kernel.ex.epilogue:
                for i in range(count):
                    zero_rows(c_ptr + i * (batch.sc if batch is not None else 0) * osz, M, N, ldc, osz, stream_ptr)
                return
            # C = the epilogue of an empty sum: the kernel over one k of zeros (it needs K >= 1),
            # one pair of zero operands shared by the whole batch
            if a_col or b_col:
                raise ValueError("wgmma_tma: K = 0 with an epilogue is run row-major only")
            a_ptr, lda, b_ptr, ldb, K, keep = zero_operands(M, N, 2, stream_ptr)
            if batch is not None:
                batch = Batch(count, 0, 0, batch.sc)
        key = _plan_key(a_ptr, lda, b_ptr, ldb, c_ptr, ldc, M, N, K, a_col, b_col, batch)
        launcher = getattr(kernel, "_companions", {}).get("__tma__")
        plan = launcher.plans.get(key) if launcher is not None else None
        if plan is None:  # checked, encoded and sized once per operand layout
            if self.b_rows and batch is not None:
                raise ValueError("wgmma_tma with b_rows=1 reads one B: a batch needs b_rows=0")
            ex = getattr(kernel, "ex", None)
            if (batch is None) != (ex is None or not ex.batched):
                raise ValueError(f"wgmma_tma: a {'batch' if batch is not None else 'single product'} launched on a "
                                 f"kernel rendered {'unbatched' if batch is not None else 'for batches'}")
            problem = self.operand_problem(M, N, K, a_ptr, lda, b_ptr, ldb, dt.itemsize, a_col, b_col)
            if batch is not None:
                problem = (problem or tma.batch_problem("a", count, batch.sa, dt.itemsize)
                           or tma.batch_problem("b", count, batch.sb, dt.itemsize))
            if problem:
                raise ValueError(f"wgmma_tma{' (b_rows=1)' if self.b_rows else ''} cannot read these operands with "
                                 f"{'TMA and cp.async' if self.b_rows else 'TMA'}: {problem}; "
                                 "use another strategy (or copy them to 16-byte-aligned rows)")
            launcher = _launcher(kernel)
            amap, bmap = self.tensor_maps(dt, M, N, K, a_ptr, lda, b_ptr, ldb, a_col, b_col, batch)
            cmap = self.c_map(dt, M, N, c_ptr, ldc, batch)
            grid = self.grid(M, N, device_limits(kernel.device).sm_count, launcher.clusters, count)
            # flags: bit 0 paired stores (C keeps column pairs aligned; over a batch, every
            # matrix's), bit 1 TMA stores, bits 2 and 3 A's and B's matrices step with the batch
            # (clear: the batch shares one)
            paired = c_ptr % (2 * osz) == 0 and ldc % 2 == 0 and (batch is None or batch.sc % 2 == 0)
            flags = int(paired) | (2 if cmap is not None else 0)
            if batch is not None:
                flags |= (4 if batch.sa else 0) | (8 if batch.sb else 0)
            cmap = cmap if cmap is not None else amap  # (unread without flags bit 1)
            plan = launcher.remember(key, launcher.pack(grid[0], amap, bmap, cmap, c_ptr, M, N, K, ldc, flags)
                                     if batch is None else
                                     launcher.pack_count(grid[0], amap, bmap, cmap, c_ptr, M, N, K, ldc, flags, count))
        launcher.launch_packed(plan if extra is None else launcher.with_extra(plan, extra), stream_ptr)
        del keep  # (the zero operands: CuPy's pool reuses them only for work queued after this launch)


def _plan_key(a_ptr: int, lda: int, b_ptr: int, ldb: int, c_ptr: int, ldc: int, M: int, N: int,
              K: int, a_col: bool = False, b_col: bool = False, batch: "Batch | None" = None) -> tuple:
    """What a kept launch plan of the wgmma_tma kernel is looked up by (TmaLauncher.plans): the
    operands' addresses, pitches and layouts, the shape and the batch (launch's hot path and
    launch_strided alike), which with C's address fix every argument of the launch. (Each
    layout's kernel keeps its own plans; the layouts are in the key for a caller that launches
    one kernel both ways.)"""
    if batch is None:
        return (a_ptr, lda, b_ptr, ldb, c_ptr, ldc, M, N, K, a_col, b_col)
    return (a_ptr, lda, b_ptr, ldb, c_ptr, ldc, M, N, K, a_col, b_col, *batch)


class Batch(NamedTuple):
    """A batched launch: `count` matrices, the i-th of A, B and C `i * sa`, `i * sb`, `i * sc`
    elements after the first (a stride of 0: one matrix the batch shares)."""

    count: int
    sa: int
    sb: int
    sc: int


def persistent_count(tiles: int, most: int) -> int:
    """How many persistent CTAs (or clusters) walk `tiles` tiles when at most `most` run at once:
    the fewest that take as many waves of tiles as `most` would (1 for an empty output, whose
    geometry is still asked for)."""
    if tiles == 0:
        return 1
    waves = -(-tiles // max(1, most))
    return max(1, -(-tiles // waves))


def addressable_copy_bytes(rows: int, cols: int, itemsize: int) -> int:
    """Bytes :func:`addressable` moves for a C-contiguous rows x cols matrix at an aligned address:
    0 where TMA reads it as it is, else the matrix read once and written in padded rows."""
    from .. import pad

    if rows == 0 or cols == 0 or tma.matrix_problem("x", 0, rows, cols, cols, itemsize) is None:
        return 0
    return rows * (cols + pad.padded(cols, itemsize)) * itemsize


def addressable(X: Any, rows: int, cols: int, stream: Any) -> tuple[Any, int]:
    """(array, row pitch in elements) of the C-contiguous `rows` x `cols` matrix X as TMA can
    read it: X itself, or a copy on `stream` whose rows are padded to a multiple of 16 bytes
    (:func:`addressable_pitched` with the pitch `cols`)."""
    return addressable_pitched(X, rows, cols, cols, stream)


def zero_operands(M: int, N: int, itemsize: int, stream_ptr: int) -> tuple[int, int, int, int, int, Any]:
    """(a_ptr, lda, b_ptr, ldb, K, arrays): an M x 1 A and a 1 x N B of zero bits (+0 in every
    float type) of `itemsize` bytes per element, row pitches of 16 bytes (what TMA needs),
    allocated and zeroed on the stream at `stream_ptr`: the operands of K = 0 with an epilogue."""
    import cupy

    per = 16 // itemsize  # elements in 16 bytes
    with stream_at(stream_ptr):
        a = cupy.zeros((M, per), dtype=f"u{itemsize}")
        b = cupy.zeros((1, -(-N // per) * per), dtype=f"u{itemsize}")
    return a.data.ptr, per, b.data.ptr, b.shape[1], 1, (a, b)


def addressable_batch(X: Any, rows: int, cols: int, pitch: int, count: int, stride: int,
                      stream: Any) -> tuple[Any, int, int]:
    """(array, pitch, batch stride, in elements) of `count` `rows` x `cols` matrices `stride`
    elements apart from X (`pitch` elements per row; 0: one matrix the batch shares) as TMA can
    read them: X itself, or a copy on `stream` of every matrix into rows padded to 16 bytes, one
    after the other (:func:`addressable_pitched`'s copy, matrix by matrix, or in one pass where the
    matrices are stacked rows of one pitch)."""
    if stride == 0 or count <= 1:
        buf, pitch = addressable_pitched(X, rows, cols, pitch, stream)
        return buf, pitch, stride
    if rows <= 1:
        pitch = cols  # one row: its pitch is never read
    isz = X.itemsize
    if rows == 0 or cols == 0 or not (tma.matrix_problem("x", X.data.ptr, rows, cols, pitch, isz)
                                      or tma.batch_problem("x", count, stride, isz)):
        return X, pitch, stride
    import cupy

    from .. import pad

    padded = pad.padded(cols, isz)
    with stream:
        buf = cupy.empty((count, rows, padded), dtype=X.dtype)
    if rows == 1 or stride == rows * pitch:  # the batch is count * rows rows of one pitch
        pad.pad_into(X.data.ptr, buf.data.ptr, count * rows, cols, count * rows, padded, isz, stream,
                     src_pitch=stride if rows == 1 else pitch)
    else:
        for i in range(count):
            pad.pad_into(X.data.ptr + i * stride * isz, buf.data.ptr + i * rows * padded * isz, rows, cols, rows,
                         padded, isz, stream, src_pitch=pitch)
    return buf, padded, rows * padded


def addressable_pitched(X: Any, rows: int, cols: int, pitch: int, stream: Any) -> tuple[Any, int]:
    """(array, pitch in elements) of the `rows` x `cols` matrix at X (`pitch` elements per row;
    for a column-major operand, its transpose's rows; X needs only ``.data.ptr``, ``.dtype`` and
    ``.itemsize``) as TMA can read it: X itself, or a copy on `stream` whose rows are padded to a
    multiple of 16 bytes (copied as raw words of the item size, whatever the type). The caller
    keeps the array alive until the launch is queued; CuPy's pool reuses it only after work
    queued later on the stream."""
    if rows <= 1:
        pitch = cols  # one row: its pitch is never read
    if rows == 0 or cols == 0 or tma.matrix_problem("x", X.data.ptr, rows, cols, pitch, X.itemsize) is None:
        return X, pitch
    import cupy

    from .. import pad

    padded = pad.padded(cols, X.itemsize)
    with stream:
        buf = cupy.empty((rows, padded), dtype=X.dtype)
    # 16-byte stores of the padded rows (zeros past the matrix, which TMA's box bounds keep out of
    # the product): 10788x370x3430 float16 ran 294 us with a CuPy slice assignment here (its 74 MB
    # A copied at about 700 GB/s), where cuBLAS takes 134 (scripts/variants_s16/probe_tma_pad.py)
    pad.pad_into(X.data.ptr, buf.data.ptr, rows, cols, rows, padded, X.itemsize, stream, src_pitch=pitch)
    return buf, padded


def zero_rows(c_ptr: int, M: int, N: int, ldc: int, osz: int, stream_ptr: int) -> None:
    """C = 0 for K = 0 (an empty sum), on the given stream."""
    from cupy.cuda import runtime

    if ldc == N:
        runtime.memsetAsync(c_ptr, 0, M * N * osz, stream_ptr)
    else:
        for i in range(M):
            runtime.memsetAsync(c_ptr + i * ldc * osz, 0, N * osz, stream_ptr)


class PackedLauncher:
    """``cuLaunchKernel`` of a TMA rung's kernel through argument buffers packed by hand: the
    argument values at byte offsets OFFSETS of a 64-byte-aligned buffer of SIZE bytes (the tensor
    maps are 64-byte-aligned structs passed by value), and an array of their addresses. A buffer
    packed for one launch plan (every argument fixed by the plan's key) is read-only after: any
    thread launches from it, and a repeated call costs one dict lookup and the launch."""

    OFFSETS: ClassVar[tuple[int, ...]] = ()
    SIZE: ClassVar[int] = 0
    #: launch plans (and packed argument lists) kept per kernel
    PLANS: ClassVar[int] = 1024

    def __init__(self, raw: Any, block: tuple[int, int, int], smem: int):
        from cupy.cuda import driver

        self._launch = driver.launchKernel
        self.fptr = raw.kernel.ptr
        self.block = block
        self.smem = smem
        self.plans: dict = {}

    def remember(self, key: tuple, plan: tuple, into: "dict | None" = None) -> tuple:
        """Keep `plan` for `key` in `into` (default: :attr:`plans`), the oldest half dropped past
        PLANS entries; returns it."""
        kept = self.plans if into is None else into
        if len(kept) >= self.PLANS:
            for old in list(kept)[: self.PLANS // 2]:
                kept.pop(old, None)
        kept[key] = plan
        return plan

    @classmethod
    def new_buffer(cls, extra_slots: int = 0) -> tuple:
        """(buffer, its 64-byte-aligned address, the argument address array with `extra_slots`
        more slots (None), that array's address): an empty argument list."""
        raw = ctypes.create_string_buffer(cls.SIZE + 64)
        base = (ctypes.addressof(raw) + 63) & ~63
        params = (ctypes.c_void_p * (len(cls.OFFSETS) + extra_slots))(*(base + off for off in cls.OFFSETS),
                                                                        *([None] * extra_slots))
        return raw, base, params, ctypes.addressof(params)

    def launch_packed(self, packed: tuple, stream_ptr: int) -> None:
        """Launch from `packed` = (grid x, argument address array's address, buffers kept alive)."""
        bx, by, bz = self.block
        self._launch(self.fptr, packed[0], 1, 1, bx, by, bz, self.smem, stream_ptr, packed[1], 0)


class TmaLauncher(PackedLauncher):
    """The wgmma_tma kernel's arguments (tmA, tmB, tmC, C, M, N, K, ldc, flags): three 128-byte
    tensor maps by value, then the usual words. Its plans are keyed by every one of them, so each
    plan is its packed argument list (:meth:`pack`)."""

    #: byte offsets of the 9 arguments in the buffer (the maps 64-byte aligned, as the struct is)
    OFFSETS = (0, 128, 256, 384, 392, 396, 400, 404, 408)
    SIZE = 448

    def __init__(self, raw: Any, block: tuple[int, int, int], smem: int, cluster: int = 1):
        super().__init__(raw, block, smem)
        #: clusters of `cluster` CTAs that run at once (None: one per SM; a 2-CTA cluster needs
        #: two free SMs of one GPC, so the driver is asked)
        self.clusters = _max_active_clusters(self.fptr, block, smem, cluster) if cluster > 1 else None

    def with_extra(self, packed: tuple, extra: Any) -> tuple:
        """`packed` (a plan of :meth:`pack`) with the TmExtra struct `extra` appended, in a new
        buffer (the plan stays as it is: another call's extras differ)."""
        raw, base, params, params_ptr = self.new_buffer(extra_slots=1)
        ctypes.memmove(base, packed[2][1][0], self.SIZE)  # the plan's argument bytes, from its first
        params[len(self.OFFSETS)] = ctypes.addressof(extra)
        return packed[0], params_ptr, (raw, params, extra)

    def pack(self, grid_x: int, amap: bytes, bmap: bytes, cmap: bytes, c_ptr: int, M: int, N: int, K: int,
             ldc: int, flags: int) -> tuple:
        """The plan's launch: (grid x, argument address array's address, buffers kept alive)."""
        raw, base, params, params_ptr = self.new_buffer()
        ctypes.memmove(base, amap, 128)
        ctypes.memmove(base + 128, bmap, 128)
        ctypes.memmove(base + 256, cmap, 128)
        ctypes.c_uint64.from_address(base + self.OFFSETS[3]).value = c_ptr
        words = (ctypes.c_int32 * 5).from_address(base + self.OFFSETS[4])
        words[0], words[1], words[2], words[3], words[4] = M, N, K, ldc, flags
        return grid_x, params_ptr, (raw, params)


class CountTmaLauncher(TmaLauncher):
    """wgmma_tma's arguments and one int after `flags`: the batch count of a batched kernel (the
    template's BATCHED), or wgmma_tma_split_k's slice count."""

    OFFSETS = (*TmaLauncher.OFFSETS, 412)

    def pack_count(self, grid_x: int, amap: bytes, bmap: bytes, cmap: bytes, c_ptr: int, M: int, N: int, K: int,
                   ldc: int, flags: int, count: int) -> tuple:
        """:meth:`pack` with the count."""
        grid_x, params_ptr, keep = self.pack(grid_x, amap, bmap, cmap, c_ptr, M, N, K, ldc, flags)
        ctypes.c_int32.from_address(keep[1][len(self.OFFSETS) - 1]).value = count
        return grid_x, params_ptr, keep


def kept_launcher(kernel: Any, key: str, make: Any) -> Any:
    """The launcher `make()` builds for a CompiledKernel, built on first use and kept with the
    kernel under `key` (its companions)."""
    companions = kernel._companions
    fast = companions.get(key)
    if fast is None:
        fast = companions.setdefault(key, make())
    return fast


def rows_kernel(kernel: Any, rows: "WgmmaTmaConfig") -> Any:
    """The compiled b_rows sibling `rows` of a CompiledKernel, with the kernel's extras."""
    from ..compile import get_kernel

    return get_kernel(kernel.strategy, rows, kernel.dtype, kernel.device, kernel.ex)


def _launcher(kernel: Any) -> TmaLauncher:
    """The TmaLauncher of a CompiledKernel (a CountTmaLauncher for a kernel rendered batched; built
    on first use, kept with the kernel)."""
    ex = getattr(kernel, "ex", None)
    cls = CountTmaLauncher if ex is not None and ex.batched else TmaLauncher
    return kept_launcher(kernel, "__tma__", lambda: cls(kernel.raw, kernel.config.block(), kernel.smem_bytes,
                                                        kernel.config.cluster_m))


class _LaunchConfig(ctypes.Structure):
    """The driver's CUlaunchConfig (cuda.h), for cuOccupancyMaxActiveClusters."""

    _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3), ("smem", ctypes.c_uint),
                ("stream", ctypes.c_void_p), ("attrs", ctypes.c_void_p), ("num_attrs", ctypes.c_uint)]


def _max_active_clusters(fptr: int, block: tuple[int, int, int], smem: int, cluster: int) -> "int | None":
    """How many clusters of the kernel (its cluster size compiled in) the device runs at once,
    from ``cuOccupancyMaxActiveClusters``; None where the driver does not say."""
    try:
        fn = ctypes.CDLL("libcuda.so.1").cuOccupancyMaxActiveClusters
    except (OSError, AttributeError):
        return None
    cfg = _LaunchConfig((ctypes.c_uint * 3)(cluster, 1, 1), (ctypes.c_uint * 3)(*block), smem, None, None, 0)
    out = ctypes.c_int(0)
    rc = fn(ctypes.byref(out), ctypes.c_void_p(fptr), ctypes.byref(cfg))
    return out.value if rc == 0 and out.value > 0 else None


def row_layout(x: Any, name: str) -> tuple[int, int, int]:
    """(rows, cols, pitch in elements) of a 2-D device array whose rows are contiguous."""
    if x.ndim != 2:
        raise ValueError(f"{name} must be 2-D; got shape {x.shape}")
    rows, cols = x.shape
    isz = x.itemsize
    if x.size == 0:  # nothing is read (CuPy gives empty arrays zero strides)
        return rows, cols, cols
    if cols > 1 and x.strides[1] != isz:
        raise ValueError(f"{name} must have contiguous rows (inner stride {isz} bytes); got strides {x.strides}")
    if x.strides[0] % isz or x.strides[0] < 0:
        raise ValueError(f"{name} has row stride {x.strides[0]} bytes, not a non-negative multiple of {isz}")
    return rows, cols, (x.strides[0] // isz if rows > 1 else cols)


def tma_matmul(a: Any, b: Any, c: Any = None, *, dtype: Any = None, config: "WgmmaTmaConfig | None" = None) -> Any:
    """C = a @ b with the wgmma_tma kernel on the current CuPy stream, for 2-D cupy arrays whose
    rows are contiguous and whose row pitches may be padded (views such as ``x[:, :71]`` of a
    72-column array), without the public API's checks. `dtype` names the input type ("float16" or
    "bfloat16"; default: a's dtype, so bfloat16 data may come as an ml_dtypes array or as its
    uint16 bits with dtype="bfloat16"). `c` (written in place and returned) or a new array of
    the config's output dtype. ValueError when TMA cannot read a or b.

    >>> c = tma_matmul(a16, b16)                                         # doctest: +SKIP
    >>> c = tma_matmul(a_bits, b_bits, dtype="bfloat16", config=WgmmaTmaConfig(bm=256, bn=128))  # doctest: +SKIP
    """
    import cupy

    from ..compile import get_kernel

    cfg = config if config is not None else STRATEGY.default
    dt = as_dtype(dtype if dtype is not None else a.dtype)
    M, K, lda = row_layout(a, "a")
    Kb, N, ldb = row_layout(b, "b")
    if Kb != K:
        raise ValueError(f"inner dimensions differ: a is {a.shape} and b is {b.shape}")
    if a.itemsize != 2 or b.itemsize != 2:
        raise ValueError(f"a and b must hold 16-bit elements; got itemsizes {a.itemsize} and {b.itemsize}")
    if c is None:
        c = cupy.empty((M, N), dtype=cupy.float32 if cfg.out_bits == 32 else a.dtype)
    Mc, Nc, ldc = row_layout(c, "c")
    if (Mc, Nc) != (M, N):
        raise ValueError(f"c has shape {c.shape}; expected {(M, N)}")
    kernel = get_kernel(STRATEGY, cfg, dt, cupy.cuda.Device().id)
    cfg.launch_strided(kernel, a.data.ptr, lda, b.data.ptr, ldb, c.data.ptr, ldc, M, N, K,
                       cupy.cuda.get_current_stream().ptr, c_itemsize=c.itemsize)
    return c


STRATEGY = Strategy.of(
    WgmmaTmaConfig,
    "15_wgmma_tma.cu.j2",
    "float16/bfloat16 on wgmma fed by TMA: mbarrier ring, producer + 2 consumer warpgroups, persistent grouped tiles",
    [
        dict(bm=128, bn=192, stages=4),
        dict(bm=128, bn=128, stages=5),
        dict(bm=256, bn=128, stages=3),
        # 128 x 64, 8 stages: twice the CTAs of 128 x 128 for small outputs (heuristic._HALF_TMA_SMALL)
        dict(bm=128, bn=64, stages=8),
        # clusters of 2 CTAs sharing B by TMA multicast: a third less L2 -> SM traffic per tile
        # (faster with register stores; with TMA stores the single CTAs measured faster)
        dict(bm=128, bn=256, stages=3, cluster_m=2),
        dict(bm=128, bn=192, stages=4, cluster_m=2),
    ],
)
