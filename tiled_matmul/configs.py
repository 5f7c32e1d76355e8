"""The shared bases of every strategy's config: :class:`Config` and the warp-grid geometry.

A config is a frozen dataclass of int template parameters that owns every rule its template
relies on. :meth:`Config.validate` checks them all, once, and the template itself contains no
`static_assert` copy of them. The launch dims are functions of the config (`grid(M, N)`,
`block()`), never computed anywhere else, and so is the launch itself (:meth:`Config.launch`).

Each strategy's config class lives in its own module, ``tiled_matmul/strategies/<name>.py``;
the rules several strategies share (pipeline stages, blocks per SM, "fits on one SM", tiles
splitting evenly over the threads) are written once here.

Example::

    >>> from tiled_matmul.strategies.smem_tiled import SmemTiledConfig
    >>> cfg = SmemTiledConfig(tile=16).validate()
    >>> cfg.block(), cfg.grid(1000, 1300)
    ((16, 16, 1), (82, 63, 1))
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

import numpy as np

from .device import DeviceLimits, device_limits
from .dtypes import FLOAT32, DType, as_dtype
from .precision import PASSES

#: (holds, rule text) pairs that `rules` yields
Rule = tuple[bool, str]


def cdiv(a: int, b: int) -> int:
    """Ceiling division: how many tiles of size `b` cover `a` elements."""
    return -(-a // b)


def wave_factor(blocks: int, sms: int, per_sm: int) -> float:
    """Q >= ~1: the time of `blocks` equal blocks on `sms` SMs holding `per_sm` each, over the time
    the same work would take spread perfectly over every SM.

    The busiest SM runs cdiv(blocks, sms) blocks in rounds of `per_sm`; a round of r < per_sm
    blocks runs at sqrt(r / per_sm) of the SM's rate. 264 blocks of 2 per SM on 132 SMs: Q = 1;
    133 blocks of 1 per SM: Q = 1.98 (a second, almost empty wave); 16 blocks of 2: Q = 11.7.

    >>> wave_factor(264, 132, 2), round(wave_factor(133, 132, 1), 2), round(wave_factor(16, 132, 2), 1)
    (1.0, 1.98, 11.7)
    """
    if blocks < 1:
        return 1.0
    busiest = cdiv(blocks, sms)
    full, last = divmod(busiest, per_sm)
    slots = full * per_sm + (math.sqrt(last * per_sm) if last else 0.0)
    return slots * sms / blocks


#: every (A column-major, B column-major) pair: what a template that reads each operand in either
#: layout declares as its Config.LAYOUTS
ALL_LAYOUTS: tuple[tuple[bool, bool], ...] = ((False, False), (False, True), (True, False), (True, True))


#: every feature a Config.EXTRAS may name
EXTRA_FEATURES: frozenset[str] = frozenset({"epilogue", "batch", "layouts", "out_dtype"})


@dataclass(frozen=True)
class Config:
    """Base class: subclasses declare int fields (the template parameters) and their rules.

    The class defaults of a subclass's fields are its strategy's default config.
    """

    #: name of the strategy this config belongs to (set by each subclass)
    STRATEGY: ClassVar[str] = ""
    #: True when the template declares `extern __shared__` memory sized by `smem_bytes()`
    DYNAMIC_SMEM: ClassVar[bool] = False
    #: the dtypes the template computes (a subset of DTYPES): float32 and float64 unless a
    #: strategy says otherwise (the 16-bit types only where a template has tensor-core MMAs for them)
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32", "float64")
    #: the architecture NVRTC must target ("sm_90a" for wgmma), or None for the device's own
    NVRTC_ARCH: ClassVar["str | None"] = None
    #: True when the rendered source holds a second kernel, :meth:`elem_symbol`, for launches whose
    #: `flags` lack a 16-byte alignment bit (operand rows that are not 16-byte multiples: an odd K
    #: or N in float64). The launchers pick it by flags (compile.DirectLauncher.fptr_for), so the
    #: aligned kernel keeps its own register allocation and schedule (dmma)
    ELEM_KERNEL: ClassVar[bool] = False
    #: the 16-byte alignment bits of `flags` (bit 0: A's rows, bit 1: B's and C's) a launch needs
    #: for the main kernel; with any of them clear, an ELEM_KERNEL config runs its companion
    ELEM_FLAGS: ClassVar[int] = 3
    #: True when the rendered source also holds :meth:`edge_symbol`, a kernel for aligned launches
    #: (ELEM_FLAGS all set) whose M or N is not a multiple of the tile's: the launchers pick it by
    #: M and N (compile.DirectLauncher.fptr_for), so the main kernel keeps its own register
    #: assignment for products of whole tiles (dmma)
    EDGE_KERNEL: ClassVar[bool] = False
    #: True when the products run on TF32 tensor cores (tf32x3 or tf32; see
    #: :mod:`tiled_matmul.precision`), False for IEEE FMA products
    TENSOR_CORES: ClassVar[bool] = False
    #: the precision modes this strategy computes (:data:`tiled_matmul.precision.MODES`)
    PRECISIONS: ClassVar[tuple[str, ...]] = ("ieee",)
    #: what the template does beyond a plain 2-D product of row-major operands of the inputs'
    #: type, of :data:`EXTRA_FEATURES`: "epilogue" (alpha, beta, bias, activations and user
    #: expressions through kernels/_epilogue.cuh.j2's hooks: the TmExtra struct its kernel takes
    #: last), "batch" (a grid axis of matrices at batch strides), "layouts" (operands read with
    #: their own leading dimensions or column-major: LAYOUTS), "out_dtype" (a C of another type
    #: than the inputs'). A call that needs a feature its picked rung lacks runs `auto`'s cp.async
    #: rung instead (execute.py); every rung but the TMA ones has them all.
    EXTRAS: ClassVar[frozenset[str]] = EXTRA_FEATURES
    #: the grid axis (0 x, 1 y, 2 z) a batched launch puts the batch index on: one the config's
    #: own grid leaves at 1 (z for the 2-D grids; the 1-D grids of the warp-tiled and skinny
    #: rungs use y, as their z holds K slices)
    BATCH_AXIS: ClassVar[int] = 2
    #: the operand layouts the template reads in place, as (A column-major, B column-major)
    #: pairs, each operand with its own leading dimension (kernels/*: A_COL, B_COL, A_AT, B_AT;
    #: see :func:`tiled_matmul.semantics.operand_layout`): `.T`, Fortran-order operands and
    #: slices with a unit inner stride in these layouts are never copied. Empty: the template
    #: reads plain row-major operands only, and the general path copies any other first.
    LAYOUTS: ClassVar[tuple[tuple[bool, bool], ...]] = ()

    def extras(self) -> frozenset[str]:
        """The EXTRA_FEATURES this config's kernels take: its class's EXTRAS (a config whose
        registers leave no room for some of them drops those: DmmaConfig's pairs layout)."""
        return self.EXTRAS

    def for_out_dtype(self, out_dtype: Any) -> "Config | None":
        """The config of this strategy that writes C in `out_dtype` where this one does not take
        the "out_dtype" extra but a sibling does (wgmma_tma's ``out_bits=32``), else None: `auto`
        keeps a call that asks for another C type on that sibling instead of leaving the rung."""
        return None

    def layouts(self) -> tuple[tuple[bool, bool], ...]:
        """The layout pairs this config reads in place: its class's LAYOUTS, or none where its
        tiles do not split over its threads the way the layout loads walk them (a config outside
        the search spaces; its operands are then copied first)."""
        return self.LAYOUTS if self._layout_tiles_split() else ()

    def _layout_tiles_split(self) -> bool:
        return True

    def _rows_split(self, tile_r: int, tile_c: int, vec: int) -> bool:
        """Whether kernels/_macros.j2's copy_rows splits a tile_r x tile_c row-major tile (one
        column group of `vec` per thread) over this config's threads: its static_assert's rules."""
        rv = tile_c // vec
        return tile_c % vec == 0 and rv > 0 and self.threads % rv == 0 and tile_r % (self.threads // rv) == 0

    def _transposed_split(self, tile_c: int, tile_o: int, lc: int) -> bool:
        """Whether kernels/_macros.j2's copy_transposed splits a tile_c x tile_o tile (blocks of
        lc x 32/lc elements per warp) over this config's warps: the rules its static_assert checks."""
        lo, nw = 32 // lc, self.threads // 32
        if tile_c % lc or tile_o % lo or nw < 1:
            return False
        ch, oh = tile_c // lc, tile_o // lo
        nw_o = min(nw, oh)
        return (oh % nw if nw < oh else nw % oh) == 0 and ch % (nw // nw_o) == 0

    #: every config class with a STRATEGY, by strategy name (filled by __init_subclass__), so a
    #: rule's message can name the strategies that compute a dtype without importing the registry
    _CLASSES: ClassVar[dict[str, type["Config"]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("STRATEGY"):
            Config._CLASSES[cls.STRATEGY] = cls

    # -- parameters ---------------------------------------------------------------------------
    def params(self) -> dict[str, int]:
        """The template parameters, in declaration order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    #: 0/1 parameters (off/on) a strategy gained after its first configs: 0 or 1 (every other
    #: parameter must be >= 1; validate() checks both), and a switch at 0 is left out of :meth:`named_params` (so of tag()
    #: and the source's header), so that every earlier config keeps its kernel symbol, rendered
    #: source and tuning-database keys
    SWITCHES: ClassVar[frozenset[str]] = frozenset()

    def named_params(self) -> dict[str, int]:
        """:meth:`params` without the SWITCHES that are off (0)."""
        return {k: v for k, v in self.params().items() if k not in self.SWITCHES or v}

    def tag(self) -> str:
        """A short, deterministic string naming this config (used in kernel symbols)."""
        return "_".join(f"{k}{v}" for k, v in self.named_params().items())

    def replace(self, **changes: int) -> "Config":
        return dataclasses.replace(self, **changes)

    @property
    def precision(self) -> str:
        """The precision mode this config computes in (see :mod:`tiled_matmul.precision`)."""
        return self.PRECISIONS[0]

    def with_precision(self, mode: str) -> "Config":
        """This config computing in `mode`: itself, or a copy with the field that selects it;
        ValueError naming this strategy's modes when it has no such mode."""
        if mode == self.precision:
            return self
        raise ValueError(f"strategy {self.STRATEGY!r} computes precision "
                         f"{' or '.join(map(repr, self.PRECISIONS))} only; got {mode!r}")

    # -- derived values and launch geometry (subclasses override) --------------------------------
    @property
    def threads(self) -> int:
        x, y, z = self.block()
        return x * y * z

    @classmethod
    def runs_on(cls, limits: DeviceLimits) -> bool:
        """Whether the GPU of `limits` runs this config's code: always, unless NVRTC_ARCH names
        an architecture-specific target (sm_90a runs on compute capability 9.0 only)."""
        return cls.NVRTC_ARCH is None or cls.NVRTC_ARCH.removeprefix("sm_").rstrip("a") == str(limits.compute_capability)

    @classmethod
    def supports(cls, dtype: Any) -> bool:
        """Whether this strategy computes `dtype` (TypeError for a dtype no strategy takes)."""
        return as_dtype(dtype) in cls.SUPPORTED_DTYPES

    @classmethod
    def default_dtype(cls) -> DType:
        """The dtype meant where none is named: float32 where this strategy computes it, else its
        first supported dtype (float64 for the float64-only rungs)."""
        return FLOAT32 if FLOAT32 in cls.SUPPORTED_DTYPES else as_dtype(cls.SUPPORTED_DTYPES[0])

    @classmethod
    def _dtype(cls, dtype: Any) -> DType:
        """`dtype` as a DType, or the default dtype for None."""
        return cls.default_dtype() if dtype is None else as_dtype(dtype)

    @property
    def tile_mn(self) -> tuple[int, int]:
        """(rows, cols) of C computed by one block."""
        raise NotImplementedError

    def block(self) -> tuple[int, int, int]:
        raise NotImplementedError

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """Blocks along N (x) and M (y): one block per output tile, ragged edges included."""
        bm, bn = self.tile_mn
        return (cdiv(N, bn), cdiv(M, bm), 1)

    def smem_bytes(self, dtype: Any = FLOAT32) -> int:
        """Shared memory one block uses, in bytes, for elements of `dtype`."""
        return 0

    def smem_bytes_for(self, dtype: Any = FLOAT32, ex: Any = None) -> int:
        """Shared memory of the kernel rendered with extras `ex` (an epilogue.ExSpec; None: the
        plain kernel): :meth:`smem_bytes`, unless the operand layouts stage differently."""
        return self.smem_bytes(dtype)

    @property
    def tile_k(self) -> int:
        """K depth of one shared-memory stage (0 for strategies that stage nothing)."""
        return 0

    def padding_bytes(self, M: int, N: int, K: int, dtype: Any = None) -> int:
        """Bytes a launch's row-padding copies move (reads and writes) for plain row-major operands
        at 16-byte-aligned addresses, beside the kernel's own traffic: 0 for configs that copy
        nothing (the TMA rungs and mma_half_split_k override it)."""
        return 0

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """Elements of A and of B this config reads from global memory for an M x N x K product.

        The traffic model of the seed documents, generalised: a staged block reads a
        (bm x tile_k) tile of A and a (tile_k x bn) tile of B per K step, for every block of
        the (padded) grid. Strategies that stage nothing override this.
        """
        bm, bn = self.tile_mn
        gx, gy, _ = self.grid(M, N)
        steps = cdiv(K, self.tile_k)
        return gx * gy * steps * bm * self.tile_k, gx * gy * steps * self.tile_k * bn

    def rules(self, limits: DeviceLimits, dt: DType) -> Iterator[Rule]:
        """Yield (holds, rule text) for each constraint the template relies on beyond the ones
        :meth:`validate` checks for every config (ints >= 1, threads and shared memory per
        block). Subclasses override this; a rule text says what must hold, with the values."""
        return iter(())

    def rule_texts(self, limits: "DeviceLimits | None" = None, dtype: Any = None) -> list[str]:
        """The texts of this strategy's own rules (for listings; validate() checks them), for
        `dtype` (the default dtype when None)."""
        return [text for _, text in self.rules(device_limits(limits), self._dtype(dtype))]

    def template_constants(self, dt: DType) -> dict[str, int]:
        """Extra compile-time constants the template needs, computed here rather than in C."""
        return {}

    @staticmethod
    def elem_symbol(kernel_name: str) -> str:
        """The misaligned-operand kernel's symbol (:data:`ELEM_KERNEL`): "elem_" + the main kernel's
        name without its "tm_" prefix, so that no symbol contains the main kernel's name."""
        return "elem_" + kernel_name.removeprefix("tm_")

    @staticmethod
    def edge_symbol(kernel_name: str) -> str:
        """The partial-tile kernel's symbol (:data:`EDGE_KERNEL`): "edge_" + the main kernel's name
        without its "tm_" prefix."""
        return "edge_" + kernel_name.removeprefix("tm_")

    def template_vars(self, dtype: Any = None) -> dict[str, object]:
        """Everything the template renders with: params in upper case plus derived values."""
        out: dict[str, object] = {k.upper(): v for k, v in self.params().items()}
        out["THREADS"] = self.threads
        out.update(self.template_constants(self._dtype(dtype)))
        return out

    # -- the launch ------------------------------------------------------------------------------
    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int,
               stream: Any) -> None:
        """C = A @ B on `stream`: one launch of `kernel` (a CompiledKernel) on ``grid(M, N)``.

        A, B, C are C-contiguous device arrays; `flags` comes from
        :func:`tiled_matmul.operands.launch_flags`. Strategies that need more than one launch
        (split-K: a workspace and a reduction) override this.
        """
        kernel.launcher(self.grid(M, N), A.data.ptr, B.data.ptr, C.data.ptr, M, N, K, flags, stream.ptr)

    # -- shared rules ------------------------------------------------------------------------------
    def _stages_rule(self, lo: int = 2, hi: int = 8, why: str = "") -> Rule:
        stages = self.stages  # type: ignore[attr-defined]
        return (lo <= stages <= hi, f"stages ({stages}) must be between {lo} and {hi}{why}")

    def _min_blocks_rule(self, hi: int = 4) -> Rule:
        mb = self.min_blocks  # type: ignore[attr-defined]
        return (1 <= mb <= hi, f"min_blocks ({mb}) must be between 1 and {hi}")

    def _fits_sm_rule(self, limits: DeviceLimits, dt: DType, blocks: int) -> Rule:
        """`blocks` blocks of this config's shared memory fit one SM (reserve included): what
        ``__launch_bounds__(threads, blocks)`` promises."""
        smem = self.smem_bytes(dt)
        return (
            limits.blocks_by_smem(smem) >= blocks,
            f"min_blocks ({blocks}) blocks of {smem} B shared memory "
            f"(+{limits.smem_reserved_per_block} B each reserved) must fit the SM's {limits.smem_per_sm} B",
        )

    @staticmethod
    def _splits_rule(what: str, items: int, threads: int) -> Rule:
        """A tile of `items` copies (elements or vectors, as `what` says) splits evenly over the
        block's threads, so every thread issues the same number of copies per stage."""
        return (threads > 0 and items % threads == 0, f"the {what} must split evenly over {threads} threads")

    # -- validation ----------------------------------------------------------------------------
    def validate(self, device: "int | DeviceLimits | None" = None, dtype: Any = None) -> "Config":
        """Check every constraint the template relies on; return self, or raise.

        Raises TypeError when a parameter is not an int, and ValueError naming each broken rule
        and a valid alternative otherwise. `device` is a device id or DeviceLimits (the current
        device, or the H100 stand-in without a GPU, when None); `dtype` defaults to
        :meth:`default_dtype`.
        """
        for name, value in self.params().items():
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(
                    f"{self.STRATEGY}: parameter {name}={value!r} must be an int "
                    f"(got {type(value).__name__})"
                )
        bad_sign = [f"{k}={v}" for k, v in self.params().items() if (v not in (0, 1) if k in self.SWITCHES else v < 1)]
        if bad_sign:
            raise ValueError(
                f"{self.STRATEGY}: parameters must be >= 1"
                + "".join(f" ({k}: 0 or 1)" for k in sorted(self.SWITCHES))
                + f", got {', '.join(bad_sign)}; "
                f"a valid config is {self.default_hint()}"
            )
        dt = self._dtype(dtype)
        if dt not in self.SUPPORTED_DTYPES:
            others = [n for n, c in Config._CLASSES.items() if dt in c.SUPPORTED_DTYPES]
            raise ValueError(
                f"{self.STRATEGY} computes {', '.join(self.SUPPORTED_DTYPES)} only, got {dt}; "
                f"strategies for {dt}: {', '.join(others)}"
            )
        limits = device_limits(device)
        rules = list(self.rules(limits, dt))
        rules.append(
            (
                self.threads <= limits.max_threads_per_block,
                f"threads per block = {self.threads} must be <= {limits.max_threads_per_block}",
            )
        )
        smem_limit = limits.smem_per_block_optin if self.DYNAMIC_SMEM else limits.smem_per_block
        rules.append(
            (
                self.smem_bytes(dt) <= smem_limit,
                f"shared memory = {self.smem_bytes(dt)} B for {dt} must be <= {smem_limit} B on {limits.name}",
            )
        )
        broken = [rule for ok, rule in rules if not ok]
        if broken:
            raise ValueError(
                f"{self.STRATEGY} config {self.params()} is invalid: "
                + "; ".join(broken)
                + f". A valid config is {self.default_hint()}"
            )
        return self

    def is_valid(self, device: "int | DeviceLimits | None" = None, dtype: Any = None) -> bool:
        try:
            self.validate(device, dtype)
        except (TypeError, ValueError):
            return False
        return True

    def default_hint(self) -> str:
        """The strategy's default config (the class defaults) as `name=value` text."""
        return ", ".join(f"{k}={v}" for k, v in type(self)().params().items())


@dataclass(frozen=True)
class WarpGridConfig(Config):
    """Launch geometry shared by the warp-tiled kernels (warp_tiled, split_k, tensor_core, wgmma):
    a bm x bn block tile of warps, bk deep per stage, on a 1-D grid of tiles that the kernel maps
    to (row, column) in grouped order. Subclasses declare bm, bn, bk (or a BK constant), and
    either wm, wn (a grid of warp tiles) or their own block()."""

    BATCH_AXIS: ClassVar[int] = 1

    #: slices of K (blockIdx.z); the split_k strategy overrides this with a parameter
    @property
    def splits(self) -> int:
        return 1

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.bm, self.bn)  # type: ignore[attr-defined]

    @property
    def tile_k(self) -> int:
        return self.bk  # type: ignore[attr-defined]

    def block(self) -> tuple[int, int, int]:
        return ((self.bm // self.wm) * (self.bn // self.wn) * 32, 1, 1)  # type: ignore[attr-defined]

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """1-D: one block per output tile (the kernel maps ids to tiles in grouped order)."""
        bm, bn = self.tile_mn
        return (cdiv(M, bm) * cdiv(N, bn), 1, self.splits)

    def _warp_grid_rules(self) -> Iterator[Rule]:
        """The block tile is a whole grid of warp tiles."""
        yield (self.bm % self.wm == 0, f"bm ({self.bm}) must be a multiple of wm ({self.wm})")  # type: ignore[attr-defined]
        yield (self.bn % self.wn == 0, f"bn ({self.bn}) must be a multiple of wn ({self.wn})")  # type: ignore[attr-defined]

    def _pipeline_rules(self, limits: DeviceLimits, dt: DType) -> Iterator[Rule]:
        """A `stages`-deep pipeline of bm x bk (A) and bk x bn (B) tiles, both copied in 16-byte
        vectors spread evenly over the threads, `min_blocks` blocks of it on one SM."""
        yield self._stages_rule()
        yield self._min_blocks_rule()
        threads, vec = self.threads, dt.vec  # params are >= 1 here (validate checks that first)
        a_vecs, b_vecs = self.bm * self.bk // vec, self.bk * self.bn // vec  # type: ignore[attr-defined]
        yield self._splits_rule(f"A tile ({a_vecs} vectors of {vec})", a_vecs, threads)
        yield self._splits_rule(f"B tile ({b_vecs} vectors of {vec})", b_vecs, threads)
        yield self._fits_sm_rule(limits, dt, self.min_blocks)  # type: ignore[attr-defined]


class TF32Modes:
    """For the float32 tensor-core configs (tensor_core, wgmma, wgmma_split_k): their `passes`
    field picks the precision mode, 3 TF32 MMAs per product (tf32x3: big + small split) or 1
    (tf32). Listed before the config base it extends, so that its methods come first."""

    TENSOR_CORES: ClassVar[bool] = True
    PRECISIONS: ClassVar[tuple[str, ...]] = ("tf32x3", "tf32")

    @property
    def precision(self) -> str:
        return "tf32" if self.passes == 1 else "tf32x3"  # type: ignore[attr-defined]

    def with_precision(self, mode: str) -> "Config":
        if mode not in PASSES:
            raise ValueError(f"strategy {self.STRATEGY!r} computes precision 'tf32x3' or 'tf32' "  # type: ignore[attr-defined]
                             f"(TF32 tensor cores) only; got {mode!r}")
        return self.replace(passes=PASSES[mode])  # type: ignore[attr-defined]

    def _passes_rule(self) -> Rule:
        passes = self.passes  # type: ignore[attr-defined]
        return (passes in (1, 3), f"passes ({passes}) must be 3 (tf32x3: big + small TF32 split) or 1 (tf32)")


class SplitReduce:
    """For configs whose kernel can write K slices to a [S, M, N] workspace: the slice depth, the
    launch of the slices, and the reduce kernel of ``kernels/_reduce.cuh.j2`` (a companion symbol
    of the same rendered source), which sums the slices in a fixed order (:meth:`reduce_lanes`),
    so the result is bit-identical from run to run; it is launched as the slices' dependent
    (:func:`tiled_matmul.launch.launch_dependent`). Listed before the config base it extends, so
    that its methods come first."""

    #: threads per block of the reduce kernel
    REDUCE_THREADS: ClassVar[int] = 256
    #: reduce blocks per SM at most: enough to hide latency, few enough that each block walks
    #: several vectors (grid-stride loop)
    REDUCE_BLOCKS_PER_SM: ClassVar[int] = 16
    #: blocks per SM below which the reduce kernel shares each output among more lanes
    #: (:meth:`reduce_lanes`): a split GEMV's 2048 outputs filled 8 blocks, each thread adding 32
    #: slices one after another (11 us alone at 1 x 8192 x 8192, H100)
    REDUCE_LANE_BLOCKS: ClassVar[int] = 4
    #: the reduce kernel takes the slice count as its argument after flags (``, int splits``);
    #: False where it is a template constant (07 split_k: SPLIT_K)
    REDUCE_SLICES_ARG: ClassVar[bool] = True

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "REDUCE_THREADS": self.REDUCE_THREADS}  # type: ignore[misc]

    def work_itemsize(self, dt: DType) -> int:
        """Bytes of one workspace element for products of `dt`: its accumulation type's (the
        slices' partial products are the kernel's sums: float32 for float32 and the 16-bit types,
        float64 for float64)."""
        return dt.acc.itemsize

    def _work_isz(self, kernel: Any, C: Any) -> int:
        """work_itemsize for the kernel's dtype (C's element size for a kernel without one)."""
        dt = getattr(kernel, "dtype", None)
        return self.work_itemsize(as_dtype(dt)) if dt is not None else C.itemsize

    def k_slice(self, K: int, slices: int) -> int:
        """K depth of each of `slices` slices: a whole multiple of tile_k, as the kernel computes
        it from gridDim.z (the last slices may be shorter or empty)."""
        step = self.tile_k  # type: ignore[attr-defined]
        return cdiv(cdiv(K, slices), step) * step

    @staticmethod
    def reduce_symbol(kernel_name: str) -> str:
        """The reduce kernel's symbol: "reduce_" + the main kernel's name without its "tm_"
        prefix, so that no symbol contains the main kernel's name."""
        return "reduce_" + kernel_name.removeprefix("tm_")

    @classmethod
    def reduce_lanes(cls, items: int, slices: int, sms: int) -> int:
        """Threads that share one output of the reduce kernel (each adds every lanes-th slice;
        lane 0 adds their sums in lane order): 1, doubled while the reduce grid stays under
        REDUCE_LANE_BLOCKS per SM, up to 16 and to the slice count. A pure function of the
        shape and the device, so a shape always sums in the same order.

        >>> SplitReduce.reduce_lanes(2048, 32, 132)    # 1 x 8192 float32 vectors, 32 slices
        16
        >>> SplitReduce.reduce_lanes(32768, 4, 132)    # 256 x 256 float64 vectors, 4 slices
        4
        >>> SplitReduce.reduce_lanes(2**22, 2, 132)    # a large C fills the GPU alone
        1
        """
        lanes = 1
        while (lanes < 16 and 2 * lanes <= slices
               and cdiv(items * lanes, cls.REDUCE_THREADS) < sms * cls.REDUCE_LANE_BLOCKS):
            lanes *= 2
        return lanes

    def launch_reduce(self, kernel: Any, work_ptr: int, C: Any, M: int, N: int, flags: int, stream: Any,
                      slices: int) -> None:
        """C = the sum of the `slices` slices of the workspace at `work_ptr` ([S, M, N]), on
        `stream`. The slice count is also the reduce kernel's argument after flags where it takes
        one (REDUCE_SLICES_ARG); the lane count (:meth:`reduce_lanes`) goes in flags' bits 8-11."""
        items = cdiv(M * N, 16 // self._work_isz(kernel, C)) if flags & 2 else M * N
        sms = device_limits(kernel.device).sm_count
        lanes = self.reduce_lanes(items, slices, sms)
        blocks = max(1, min(cdiv(items * lanes, self.REDUCE_THREADS), sms * self.REDUCE_BLOCKS_PER_SM))
        reduce = kernel.reduce_launcher(self.reduce_symbol(kernel.name))
        reduce((blocks, 1, 1), work_ptr, C.data.ptr, M, N, flags | (lanes.bit_length() - 1) << 8, stream.ptr,
               *((slices,) if self.REDUCE_SLICES_ARG else ()))

    def launch_slices(self, kernel: Any, grid: tuple[int, int, int], A: Any, B: Any, C: Any, M: int,
                      N: int, K: int, flags: int, stream: Any) -> None:
        """The main kernel on `grid`, whose z is the slice count: straight into C for one slice;
        else into a fresh [S, M, N] workspace, then the fixed-order reduction into C, both on
        `stream`."""
        slices = grid[2]
        if slices == 1:
            kernel.launcher(grid, A.data.ptr, B.data.ptr, C.data.ptr, M, N, K, flags, stream.ptr)
            return
        self.launch_split(kernel, slices, lambda out: kernel.launcher(grid, A.data.ptr, B.data.ptr, out, M, N, K,
                                                                      flags, stream.ptr), C, M, N, flags, stream)

    def launch_split(self, kernel: Any, slices: int, main: Any, C: Any, M: int, N: int, flags: int,
                     stream: Any) -> None:
        """`main(address)` (the main kernel's launch, writing its `slices` slices there) into a fresh
        [S, M, N] workspace, then the fixed-order reduction into C, both on `stream`."""
        import cupy

        # [batch][slices][M][N]: a batched launch (epilogue.ExLaunch) keeps each matrix's slices
        # together. Held until both launches are queued: freed memory goes back to the pool in
        # stream order only from then on.
        work = cupy.cuda.alloc(getattr(kernel, "batch", 1) * slices * M * N * self._work_isz(kernel, C))
        main(work.ptr)
        self.launch_reduce(kernel, work.ptr, C, M, N, flags, stream, slices)


def split_k_rule(split_k: int, most: int) -> Rule:
    """The rule on a `split_k` field, the most slices a config may ask for: 2 to `most`
    (SplitKField's, and dmma_tail's, whose split_k caps its tail's slices)."""
    return (2 <= split_k <= most, f"split_k ({split_k}) must be between 2 and {most}")


class SplitKField(SplitReduce):
    """For configs with a `split_k` field (split_k, wgmma_split_k, dmma_split_k): the slice count
    it sets (`splits`) and its rule, 2..MAX_SPLIT."""

    #: most slices a config may ask for
    MAX_SPLIT: ClassVar[int] = 64

    @property
    def splits(self) -> int:
        return self.split_k  # type: ignore[attr-defined]

    def k_slice(self, K: int, slices: "int | None" = None) -> int:
        """K depth of each slice, for `slices` slices (split_k when None)."""
        return super().k_slice(K, self.splits if slices is None else slices)

    def rules(self, limits: DeviceLimits, dt: DType) -> Iterator[Rule]:
        yield from super().rules(limits, dt)  # type: ignore[misc]
        yield split_k_rule(self.split_k, self.MAX_SPLIT)  # type: ignore[attr-defined]


class CappedSplitK(SplitKField):
    """For split-K configs over a tensor-core kernel (wgmma_split_k, dmma_split_k): the tiles along
    grid x, the slices the launch uses along z, each slice's partial product written to a
    [slices, M, N] workspace of the config's own dtype (its only one), then summed by
    :class:`SplitReduce`.

    The workspace is capped at WORKSPACE_CAP bytes: where split_k slices of M x N would pass it,
    the launch uses as many slices as fit (:meth:`slices`, a function of M and N alone, so the
    same shape always sums in the same order), and where not even 2 fit, one slice, which writes C
    itself with no workspace and no reduce (the unsplit kernel's result).
    """

    #: bytes of workspace one launch may allocate, at most
    WORKSPACE_CAP: ClassVar[int] = 256 * 1024 * 1024

    def slices(self, M: int, N: int, dtype: Any = None) -> int:
        """Slices a launch for an M x N output uses: split_k, or fewer to keep the workspace
        within WORKSPACE_CAP; 1 (no workspace) when not even 2 fit. `dtype`: the config's own
        (its default dtype) when None."""
        isz = self.work_itemsize(self._dtype(dtype))  # type: ignore[attr-defined]
        fit = self.WORKSPACE_CAP // max(1, M * N * isz)
        n = min(self.split_k, fit)  # type: ignore[attr-defined]
        return n if n >= 2 else 1

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """One block per (tile, slice): tiles along x, the slices the launch uses along z."""
        return _capped_grid(self, M, N, self.WORKSPACE_CAP)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        """Each slice's blocks read their slice's tile_k-deep steps; the slices end on tile_k
        boundaries, so the steps add up to the unsplit kernel's cdiv(K, tile_k) per tile."""
        tiles, _, slices = self.grid(M, N)
        per, step = self.k_slice(K, slices), self.tile_k  # type: ignore[attr-defined]
        bm, bn = self.tile_mn  # type: ignore[attr-defined]
        steps = sum(cdiv(min(K, (z + 1) * per) - min(K, z * per), step) for z in range(slices))
        return tiles * steps * bm * step, tiles * steps * step * bn

    def workspace_bytes(self, M: int, N: int, dtype: Any = None, K: "int | None" = None,
                        device: Any = None) -> int:
        """Bytes of the [slices, M, N] workspace one launch allocates (0 when it runs unsplit;
        K and device do not change it)."""
        slices = self.slices(M, N, dtype)
        return slices * M * N * self.work_itemsize(self._dtype(dtype)) if slices > 1 else 0  # type: ignore[attr-defined]

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int,
               stream: Any) -> None:
        """Partial products into a fresh workspace, then the fixed-order reduction into C; or,
        where the workspace cap leaves one slice, the main kernel straight into C."""
        grid = self.grid(M, N)
        self.launch_slices(kernel, grid, A, B, C, M, N, K, flags, stream)


@functools.lru_cache(maxsize=4096)
def _capped_grid(cfg: CappedSplitK, M: int, N: int, cap: int) -> tuple[int, int, int]:
    """CappedSplitK.grid, computed once per (config, M, N, cap): a split product's launch asks
    for it on every call, and the slice rule reads the dtype and the cap each time."""
    bm, bn = cfg.tile_mn  # type: ignore[attr-defined]
    return (cdiv(M, bm) * cdiv(N, bn), 1, cfg.slices(M, N))


@functools.lru_cache(maxsize=4096)
def _split_plan(cfg: "SkinnyConfig", M: int, N: int, K: int, sms: int, dt: DType) -> tuple[int, float]:
    """SkinnyConfig.split_plan, computed once per (config, shape, SMs, dtype): the launch asks on
    every call."""
    outputs = M * N
    blocks = cfg.output_blocks(M, N)
    elements = cfg.streamed(M, N, K)
    cap = min(
        cfg.MAX_SPLITS,
        cfg.MAX_WORKSPACE_BYTES // (outputs * cfg.work_itemsize(dt)),
        elements // (cfg.WORKSPACE_SHARE * 2 * outputs),
        cdiv(K, cfg.tile_k),
    )
    per_sm = cfg.occupancy(dt)
    us_per_byte = 1 / (cfg.STREAM_GBS * 1e3)
    streamed = elements * dt.itemsize

    def cost(splits: int) -> float:
        grid = blocks * splits
        rounds = cdiv(cdiv(grid, sms), per_sm)  # the busiest SM's rounds of resident blocks
        steps = cdiv(cfg.k_slice(K, splits) if splits > 1 else K, cfg.tile_k)  # one block's, in order
        body = max(streamed * us_per_byte * wave_factor(grid, sms, per_sm), rounds * steps * cfg.STEP_US)
        if splits == 1:
            return body + rounds * cfg.SPLIT_ROUND_US
        workspace = 2 * splits * outputs * cfg.work_itemsize(dt)  # written, then read by the reduce
        return body + rounds * cfg.SPLIT_ROUND_US + workspace * us_per_byte + cfg.SPLIT_FIXED_US

    best, best_cost = 1, cost(1)
    for want in range(2, cap + 1):
        splits = cdiv(K, cfg.k_slice(K, want))  # the slices the kernel runs for `want`
        c = cost(splits)
        if c < best_cost * (1 - 1e-9):
            best, best_cost = splits, c
    return best, best_cost


@dataclass(frozen=True)
class SkinnyConfig(SplitReduce, Config):
    """Shared by the memory-bound rungs for skinny products (gemv_xb, gemv_ax): one operand is
    large and streamed once per chunk of the other's rows or columns; the other is small.

    When the output alone gives too few blocks to keep every SM streaming, K is cut into S slices
    (blockIdx.z) chosen at launch by :meth:`k_splits` from the shape and the device's SM count;
    the slices' partial products go to a [S, M, N] workspace and :class:`SplitReduce` sums them.
    The grid is 1-D along x (the kernel maps a block id to its rows and columns), so neither M
    nor N is bound by the grid-y limit. Subclasses declare `threads` and `min_blocks`, and define
    :meth:`output_blocks`, :meth:`streamed` and ``tile_k`` (the K depth of one step).
    """

    BATCH_AXIS: ClassVar[int] = 1
    #: the most K slices one launch uses
    MAX_SPLITS: ClassVar[int] = 64
    #: the largest workspace ([S, M, N] partial products) one launch allocates: 64 MiB
    MAX_WORKSPACE_BYTES: ClassVar[int] = 64 * 2**20
    #: the workspace's write and read back stay within 1/WORKSPACE_SHARE of the streamed bytes
    WORKSPACE_SHARE: ClassVar[int] = 8
    #: split_plan prices a slice count S, in microseconds on an H100: the streamed bytes at
    #: STREAM_GBS (what these kernels stream at) times the grid's wave factor (wave_factor above:
    #: the busiest SM's rounds of blocks over a perfect spread), or, where longer, the busiest SM's
    #: rounds times a block's steps along its slice at STEP_US each (a step waits for its loads: a
    #: few blocks walking a long K are latency-bound); plus SPLIT_ROUND_US for each round (a block's
    #: ramp and epilogue), and for a split its workspace's bytes (written, read back) and
    #: SPLIT_FIXED_US for its reduce kernel. Fitted on 236 H100 shapes (scripts/variants_s19/:
    #: probe_gemv_splits.py, 19 shapes whose grids overshot a whole round, every count timed;
    #: probe_split_rule.py, 217 shapes that earlier versions of this rule moved, two counts): its
    #: counts run within 0.5% of the fastest measured one (geometric mean; 13% at most, 13 shapes
    #: over 3%), where the rule before (the count nearest one wave, none from 2/3 of one) ran
    #: within 7.3% (75% at most, 111 shapes over 3%: 4 x 6000 x 20000 float16 in 3 slices 328 us,
    #: in 11 187). On 116 shapes of neither set (probe_split_rule.py --third) whose count it moves:
    #: 1.099 -> 1.185x cuBLAS (geometric mean), 77 faster by 3% or more, 8 slower
    STREAM_GBS: ClassVar[float] = 2800.0
    STEP_US: ClassVar[float] = 1.5
    SPLIT_ROUND_US: ClassVar[float] = 3.0
    SPLIT_FIXED_US: ClassVar[float] = 4.0

    def block(self) -> tuple[int, int, int]:
        return (self.threads, 1, 1)

    def output_blocks(self, M: int, N: int) -> int:
        """Blocks that cover C once (one K slice)."""
        raise NotImplementedError

    def streamed(self, M: int, N: int, K: int) -> int:
        """Elements of the streamed operand read from global memory (once per chunk)."""
        raise NotImplementedError

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """1-D, one K slice: what the launch uses when it does not split K."""
        return (self.output_blocks(M, N), 1, 1)

    def occupancy(self, dt: DType) -> int:
        """Blocks per SM promised to ptxas (``__launch_bounds__``): min_blocks where the kernel
        computes in float (float32, and the 16-bit types, widened as loaded); for float64, whose
        values take twice the registers, half of it (at least 1)."""
        mb = self.min_blocks  # type: ignore[attr-defined]
        return mb if dt.acc.itemsize == 4 else max(1, mb // 2)

    def k_splits(self, M: int, N: int, K: int, sms: int, dtype: Any = FLOAT32) -> int:
        """How many slices of K one launch uses, for a GPU of `sms` SMs (a pure function, cached):
        :meth:`split_plan`'s count."""
        return self.split_plan(M, N, K, sms, dtype)[0]

    def split_plan(self, M: int, N: int, K: int, sms: int, dtype: Any = FLOAT32) -> tuple[int, float]:
        """(slices of K, the launch's predicted microseconds) for a GPU of `sms` SMs.

        Each slice count S up to the caps is priced (see STREAM_GBS): the streaming time times the
        wave factor of output_blocks * S blocks at ``occupancy`` per SM
        (:func:`wave_factor`), or the busiest SM's blocks' steps where those
        take longer, plus a fixed cost per round of blocks and, for a split, its workspace's
        traffic and its reduce kernel; the cheapest wins, the fewer slices on a tie. S is capped at
        :data:`MAX_SPLITS`, at a workspace of :data:`MAX_WORKSPACE_BYTES`, at a workspace traffic
        (written once, read once) of 1/:data:`WORKSPACE_SHARE` of the streamed bytes, and at one
        step (tile_k) per slice; each S is taken as the kernel runs it, lowered so that no slice is
        empty. The time compares configs of one rung at one shape (heuristic._ax_mma_params), not
        rungs.
        """
        return _split_plan(self, int(M), int(N), int(K), int(sms), as_dtype(dtype))

    def workspace_bytes(self, M: int, N: int, dtype: Any = FLOAT32, K: "int | None" = None,
                        device: "int | DeviceLimits | None" = None) -> int:
        """Bytes of the [S, M, N] workspace one launch allocates for K (0 when it does not split K),
        on `device` (the current one, or the H100 stand-in, when None). Without K: the most any K
        could need."""
        dt = as_dtype(dtype)
        if K is None:
            splits = min(self.MAX_SPLITS, self.MAX_WORKSPACE_BYTES // max(1, M * N * self.work_itemsize(dt)))
        else:
            splits = self.k_splits(M, N, K, device_limits(device).sm_count, dt)
        return splits * M * N * self.work_itemsize(dt) if splits > 1 else 0

    def launch(self, kernel: Any, A: Any, B: Any, C: Any, M: int, N: int, K: int, flags: int,
               stream: Any) -> None:
        """One launch into C, or, when :meth:`k_splits` says so, the slices into a fresh workspace
        and then the fixed-order reduction into C, both on `stream`."""
        # a batch fills the GPU with its matrices: each gets its share of the SMs to split K for
        sms = device_limits(kernel.device).sm_count // getattr(kernel, "batch", 1)
        splits = self.k_splits(M, N, K, sms, kernel.dtype)
        grid = (self.output_blocks(M, N), 1, splits)
        self.launch_slices(kernel, grid, A, B, C, M, N, K, flags, stream)

    def template_constants(self, dt: DType) -> dict[str, int]:
        return {**super().template_constants(dt), "VEC": dt.vec, "OCCUPANCY": self.occupancy(dt)}

    def registers(self, dt: DType) -> int:
        """About how many registers a thread of this config needs for `dt` (subclasses)."""
        raise NotImplementedError

    def _skinny_rules(self, limits: DeviceLimits, dt: DType) -> Iterator[Rule]:
        threads = self.threads  # type: ignore[attr-defined]
        yield (threads % 32 == 0 and threads >= 64,
               f"threads ({threads}) must be a multiple of 32 (whole warps), at least 64")
        yield self._min_blocks_rule(hi=8)
        yield self._registers_rule(limits, dt)

    def _registers_rule(self, limits: DeviceLimits, dt: DType) -> Rule:
        """:meth:`registers` fit the share of the SM's registers that ``occupancy`` blocks leave a
        thread."""
        threads = self.threads  # type: ignore[attr-defined]
        occ = self.occupancy(dt)
        budget = min(255, limits.regs_per_sm // max(1, threads * occ))
        need = self.registers(dt)
        return (need <= budget,
                f"{occ} blocks of {threads} threads per SM leave {budget} registers per thread, and this "
                f"config needs about {need} for {dt}; lower min_blocks, threads or the per-thread work")


__all__ = ["Config", "EXTRA_FEATURES", "WarpGridConfig", "SkinnyConfig", "SplitReduce", "SplitKField", "CappedSplitK",
           "Rule", "cdiv"]
