"""One frozen dataclass per tiling strategy: its parameters, derived values and launch geometry.

A config owns every rule its template relies on. :meth:`Config.validate` checks them all, once,
and the template itself contains no `static_assert` copy of them. The launch dims are functions
of the config (`grid(M, N)`, `block()`), never computed anywhere else.

Example::

    >>> from tiled_matmul.configs import SmemTiledConfig
    >>> cfg = SmemTiledConfig(tile=16).validate()
    >>> cfg.block(), cfg.grid(1000, 1300)
    ((16, 16, 1), (82, 63, 1))
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, Iterator

import numpy as np

from .device import DeviceLimits, device_limits

#: dtypes every strategy supports, and the short names used in kernel symbols.
DTYPES: dict[str, str] = {"float32": "f32", "float64": "f64"}


def cdiv(a: int, b: int) -> int:
    """Ceiling division: how many tiles of size `b` cover `a` elements."""
    return -(-a // b)


def dtype_name(dtype) -> str:
    """Normalise a dtype-like (np.float32, 'float32', cupy dtype) to 'float32' / 'float64'.

    Raises TypeError for anything else, naming what is allowed.
    """
    try:
        name = np.dtype(dtype).name
    except TypeError as exc:
        raise TypeError(f"dtype {dtype!r} is not a dtype; allowed: {', '.join(DTYPES)}") from exc
    if name not in DTYPES:
        raise TypeError(f"dtype {name} is not supported; allowed: {', '.join(DTYPES)}")
    return name


def itemsize(dtype) -> int:
    return np.dtype(dtype_name(dtype)).itemsize


@dataclass(frozen=True)
class Config:
    """Base class: subclasses declare int fields (the template parameters) and their rules."""

    #: name of the strategy this config belongs to (set by each subclass)
    STRATEGY: ClassVar[str] = ""
    #: True when the template declares `extern __shared__` memory sized by `smem_bytes()`
    DYNAMIC_SMEM: ClassVar[bool] = False
    #: the dtypes the template computes (a subset of DTYPES)
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = tuple(DTYPES)
    #: the architecture NVRTC must target ("sm_90a" for wgmma), or None for the device's own
    NVRTC_ARCH: ClassVar["str | None"] = None
    #: True when the products run on TF32 tensor cores (3xTF32): `auto` skips these strategies
    #: when TILED_MATMUL_TENSOR_CORES=0
    TENSOR_CORES: ClassVar[bool] = False

    # -- parameters ---------------------------------------------------------------------------
    def params(self) -> dict[str, int]:
        """The template parameters, in declaration order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def tag(self) -> str:
        """A short, deterministic string naming this config (used in kernel symbols)."""
        return "_".join(f"{k}{v}" for k, v in self.params().items())

    def replace(self, **changes: int) -> "Config":
        return dataclasses.replace(self, **changes)

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
    def supports(cls, dtype) -> bool:
        """Whether this strategy computes `dtype` (TypeError for a dtype no strategy takes)."""
        return dtype_name(dtype) in cls.SUPPORTED_DTYPES

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

    def smem_bytes(self, dtype="float32") -> int:
        """Shared memory one block uses, in bytes, for elements of `dtype`."""
        return 0

    @property
    def tile_k(self) -> int:
        """K depth of one shared-memory stage (0 for strategies that stage nothing)."""
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

    def _rules(self, limits: DeviceLimits, isz: int) -> Iterator[tuple[bool, str]]:
        """Yield (holds, rule) for each strategy-specific constraint."""
        return iter(())

    def _derived(self, isz: int) -> dict[str, int]:
        """Extra compile-time constants the template needs, computed here rather than in C."""
        return {}

    def template_vars(self, dtype="float32") -> dict[str, object]:
        """Everything the template renders with: params in upper case plus derived values."""
        isz = itemsize(dtype)
        out: dict[str, object] = {k.upper(): v for k, v in self.params().items()}
        out["THREADS"] = self.threads
        out.update(self._derived(isz))
        return out

    # -- validation ----------------------------------------------------------------------------
    def validate(self, device: "int | DeviceLimits | None" = None, dtype="float32") -> "Config":
        """Check every constraint the template relies on; return self, or raise.

        Raises TypeError when a parameter is not an int, and ValueError naming each broken rule
        and a valid alternative otherwise. `device` is a device id or DeviceLimits (the current
        device, or the H100 stand-in without a GPU, when None).
        """
        for name, value in self.params().items():
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(
                    f"{self.STRATEGY}: parameter {name}={value!r} must be an int "
                    f"(got {type(value).__name__})"
                )
        bad_sign = [f"{k}={v}" for k, v in self.params().items() if v < 1]
        if bad_sign:
            raise ValueError(
                f"{self.STRATEGY}: parameters must be >= 1, got {', '.join(bad_sign)}; "
                f"a valid config is {default_hint(self)}"
            )
        if dtype_name(dtype) not in self.SUPPORTED_DTYPES:
            raise ValueError(
                f"{self.STRATEGY} computes {', '.join(self.SUPPORTED_DTYPES)} only, got {dtype_name(dtype)}; "
                f"strategies for {dtype_name(dtype)}: {', '.join(strategies_for(dtype))}"
            )
        limits = device_limits(device)
        isz = itemsize(dtype)
        rules = list(self._rules(limits, isz))
        rules.append(
            (
                self.threads <= limits.max_threads_per_block,
                f"threads per block = {self.threads} must be <= {limits.max_threads_per_block}",
            )
        )
        smem_limit = limits.smem_per_block_optin if self.DYNAMIC_SMEM else limits.smem_per_block
        rules.append(
            (
                self.smem_bytes(dtype) <= smem_limit,
                f"shared memory = {self.smem_bytes(dtype)} B for {dtype_name(dtype)} must be "
                f"<= {smem_limit} B on {limits.name}",
            )
        )
        broken = [rule for ok, rule in rules if not ok]
        if broken:
            raise ValueError(
                f"{self.STRATEGY} config {self.params()} is invalid: "
                + "; ".join(broken)
                + f". A valid config is {default_hint(self)}"
            )
        return self

    def is_valid(self, device: "int | DeviceLimits | None" = None, dtype="float32") -> bool:
        try:
            self.validate(device, dtype)
        except (TypeError, ValueError):
            return False
        return True


def strategies_for(dtype) -> list[str]:
    """The registered strategies that compute `dtype`."""
    from .registry import STRATEGIES  # late import: the registry imports this module

    return [n for n, e in STRATEGIES.items() if e.config_cls.supports(dtype)]


def default_hint(cfg: Config) -> str:
    """The strategy's default config as `name=value` text, for error messages."""
    from .registry import STRATEGIES  # late import: the registry imports this module

    entry = STRATEGIES.get(cfg.STRATEGY)
    if entry is None:
        return "(see tiled-matmul list)"
    return ", ".join(f"{k}={v}" for k, v in entry.default.params().items())


# ---------------------------------------------------------------------------------------------
# 1. naive
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NaiveConfig(Config):
    """One thread per output element; a block of block_x (along N) × block_y (along M) threads."""

    STRATEGY: ClassVar[str] = "naive"
    block_x: int = 16
    block_y: int = 16

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.block_y, self.block_x)

    def block(self) -> tuple[int, int, int]:
        return (self.block_x, self.block_y, 1)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        # Every output reads its whole row of A and column of B (the seed's M*N*2K).
        return M * N * K, M * N * K


# ---------------------------------------------------------------------------------------------
# 2. thread_tile
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ThreadTileConfig(Config):
    """Each thread computes tm × tn outputs straight from global memory (no shared memory).

    A thread's outputs are strided by the block dims so neighbouring threads touch neighbouring
    columns: every load and store of a warp stays coalesced.
    """

    STRATEGY: ClassVar[str] = "thread_tile"
    block_x: int = 16
    block_y: int = 16
    tm: int = 4
    tn: int = 4

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.block_y * self.tm, self.block_x * self.tn)

    def block(self) -> tuple[int, int, int]:
        return (self.block_x, self.block_y, 1)

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        # Each launched thread reads tm rows of A and tn columns of B, K long (edge threads clamp).
        gx, gy, _ = self.grid(M, N)
        threads = gx * gy * self.threads
        return threads * self.tm * K, threads * self.tn * K

    def _rules(self, limits, isz):
        yield (self.tm * self.tn <= 64, f"tm*tn = {self.tm * self.tn} accumulators must be <= 64 (registers)")


# ---------------------------------------------------------------------------------------------
# 3. smem_tiled
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SmemTiledConfig(Config):
    """Square tile × tile shared-memory tiles of A and B; one thread per output of the tile."""

    STRATEGY: ClassVar[str] = "smem_tiled"
    tile: int = 32

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.tile, self.tile)

    def block(self) -> tuple[int, int, int]:
        return (self.tile, self.tile, 1)

    @property
    def tile_k(self) -> int:
        return self.tile

    def smem_bytes(self, dtype="float32") -> int:
        return 2 * self.tile * self.tile * itemsize(dtype)


# ---------------------------------------------------------------------------------------------
# 4. rect_tiled
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RectTiledConfig(Config):
    """Rectangular tiles: tile_m × tile_k of A and tile_k × tile_n of B in shared memory.

    A block has (tile_n / coarsen) × tile_m threads; each accumulates `coarsen` outputs of one
    row, strided by tile_n / coarsen columns so a warp's shared-memory reads hit distinct banks.
    """

    STRATEGY: ClassVar[str] = "rect_tiled"
    tile_m: int = 32
    tile_n: int = 64
    tile_k: int = 16
    coarsen: int = 4

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.tile_m, self.tile_n)

    def block(self) -> tuple[int, int, int]:
        return (max(self.tile_n // self.coarsen, 1), self.tile_m, 1)

    def smem_bytes(self, dtype="float32") -> int:
        return (self.tile_m * self.tile_k + self.tile_k * self.tile_n) * itemsize(dtype)

    def _rules(self, limits, isz):
        yield (
            self.tile_n % self.coarsen == 0,
            f"tile_n ({self.tile_n}) must be a multiple of coarsen ({self.coarsen})",
        )


# ---------------------------------------------------------------------------------------------
# 5. register_blocked
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RegisterBlockedConfig(Config):
    """A bm × bn block tile staged through shared memory bk at a time, double-buffered.

    Each of the (bm/tm)·(bn/tn) threads accumulates tm × tn outputs in registers as outer
    products of a column of A (stored transposed in shared memory) and a row of B.
    """

    STRATEGY: ClassVar[str] = "register_blocked"
    DYNAMIC_SMEM: ClassVar[bool] = True
    #: 16-byte vectors hold 4 floats or 2 doubles; tm, tn and bk are multiples of 4 so both fit.
    VEC_MULTIPLE: ClassVar[int] = 4
    bm: int = 128
    bn: int = 128
    bk: int = 8
    tm: int = 8
    tn: int = 8

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.bm, self.bn)

    def block(self) -> tuple[int, int, int]:
        return ((self.bn // self.tn) * (self.bm // self.tm), 1, 1)

    @staticmethod
    def pad(isz: int) -> int:
        """Row padding (elements) of the shared tiles: one 16-byte vector, which keeps rows
        16-byte aligned and moves the transposed stores of A onto distinct banks."""
        return 16 // isz

    @property
    def tile_k(self) -> int:
        return self.bk

    def _derived(self, isz: int) -> dict[str, int]:
        return {"PAD": self.pad(isz), "VEC": 16 // isz}

    def smem_bytes(self, dtype="float32") -> int:
        isz = itemsize(dtype)
        p = self.pad(isz)
        return 2 * self.bk * ((self.bm + p) + (self.bn + p)) * isz

    def _rules(self, limits, isz):
        v = self.VEC_MULTIPLE
        yield (self.bm % self.tm == 0, f"bm ({self.bm}) must be a multiple of tm ({self.tm})")
        yield (self.bn % self.tn == 0, f"bn ({self.bn}) must be a multiple of tn ({self.tn})")
        for name in ("tm", "tn", "bk"):
            val = getattr(self, name)
            yield (val % v == 0, f"{name} ({val}) must be a multiple of {v} (16-byte vectors)")
        yield (self.tm * self.tn <= 128, f"tm*tn = {self.tm * self.tn} accumulators must be <= 128 (registers)")
        threads = (self.bm // max(self.tm, 1)) * (self.bn // max(self.tn, 1))
        vec = 16 // isz
        for tile, rows in (("A", self.bm), ("B", self.bn)):
            n_vec = rows * self.bk // vec
            yield (
                threads > 0 and n_vec % threads == 0,
                f"the {tile} tile ({rows}x{self.bk} = {n_vec} vectors of {vec}) must split evenly "
                f"over {threads} threads",
            )


# ---------------------------------------------------------------------------------------------
# 6. warp_tiled
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WarpGridConfig(Config):
    """Launch geometry shared by the warp-tiled kernels (warp_tiled, split_k, tensor_core): a
    bm x bn block tile of (bm/wm)*(bn/wn) warps, bk deep per stage, on a 1-D grid of tiles that
    the kernel maps to (row, column) in grouped order. Subclasses declare bm, bn, bk, wm, wn."""

    #: slices of K (blockIdx.z); the split_k strategy overrides this with a parameter
    @property
    def splits(self) -> int:
        return 1

    @property
    def tile_mn(self) -> tuple[int, int]:
        return (self.bm, self.bn)

    @property
    def tile_k(self) -> int:
        return self.bk

    def block(self) -> tuple[int, int, int]:
        return ((self.bm // self.wm) * (self.bn // self.wn) * 32, 1, 1)

    def grid(self, M: int, N: int) -> tuple[int, int, int]:
        """1-D: one block per output tile (the kernel maps ids to tiles in grouped order)."""
        return (cdiv(M, self.bm) * cdiv(N, self.bn), 1, self.splits)

    def _rules(self, limits, isz):
        yield (self.bm % self.wm == 0, f"bm ({self.bm}) must be a multiple of wm ({self.wm})")
        yield (self.bn % self.wn == 0, f"bn ({self.bn}) must be a multiple of wn ({self.wn})")

    def _fits_min_blocks(self, limits: DeviceLimits) -> Iterator[tuple[bool, str]]:
        """`min_blocks` blocks of this config's (float32) shared memory fit one SM, with the 1 KB
        per block the hardware reserves: what `__launch_bounds__(threads, min_blocks)` promises."""
        yield (
            self.min_blocks * (self.smem_bytes("float32") + 1024) <= limits.smem_per_sm,
            f"min_blocks ({self.min_blocks}) blocks of {self.smem_bytes('float32')} B shared memory "
            f"(+1 KB each reserved) must fit the SM's {limits.smem_per_sm} B",
        )


@dataclass(frozen=True)
class WarpTiledConfig(WarpGridConfig):
    """A bm × bn block tile split into wm × wn warp tiles of 32 threads, each thread tm × tn.

    Global → shared memory goes through a `stages`-deep cp.async pipeline (dynamic shared
    memory, zero-filled ragged edges); A stays row-major in shared memory, padded so that 16-byte
    reads of 8 different rows hit 8 different bank groups. Tiles are ordered in groups of
    `group_m` tile rows so that blocks running together share A rows and B columns in L2.
    The grid is 1-D (one block per tile), so M is not bound by the grid-y limit.
    """

    STRATEGY: ClassVar[str] = "warp_tiled"
    DYNAMIC_SMEM: ClassVar[bool] = True
    bm: int = 128
    bn: int = 128
    bk: int = 8
    wm: int = 32
    wn: int = 64
    tm: int = 8
    tn: int = 8
    stages: int = 3
    group_m: int = 8
    min_blocks: int = 2

    @staticmethod
    def _vec(isz: int) -> int:
        return 16 // isz

    @staticmethod
    def pad(isz: int) -> int:
        """Row padding (elements) of the transposed A tile: one 16-byte vector, which keeps rows
        16-byte aligned and spreads the element-wise transposing copies over more banks."""
        return 16 // isz

    def smem_bytes(self, dtype="float32") -> int:
        isz = itemsize(dtype)
        return self.stages * self.bk * ((self.bm + self.pad(isz)) + self.bn) * isz

    def occupancy(self, isz: int) -> int:
        """Blocks per SM promised to ptxas (__launch_bounds__): min_blocks for float32; 1 for
        float64, whose accumulators need twice the registers."""
        return self.min_blocks if isz == 4 else 1

    def _derived(self, isz: int) -> dict[str, int]:
        return {"VEC": self._vec(isz), "PAD": self.pad(isz), "SPLIT_K": self.splits,
                "OCCUPANCY": self.occupancy(isz)}

    def _rules(self, limits, isz):
        vec = self._vec(isz)
        yield from super()._rules(limits, isz)
        yield (self.wm % self.tm == 0, f"wm ({self.wm}) must be a multiple of tm ({self.tm})")
        yield (self.wn % self.tn == 0, f"wn ({self.wn}) must be a multiple of tn ({self.tn})")
        per_warp = (self.wm // max(self.tm, 1)) * (self.wn // max(self.tn, 1))
        yield (per_warp == 32, f"a warp tile holds (wm/tm)*(wn/tn) = {per_warp} threads; it must be 32")
        for name in ("tm", "tn", "bk"):
            val = getattr(self, name)
            yield (val % 4 == 0, f"{name} ({val}) must be a multiple of 4 (16-byte vectors)")
        yield (self.tm * self.tn <= 128, f"tm*tn = {self.tm * self.tn} accumulators must be <= 128 (registers)")
        yield (2 <= self.stages <= 8, f"stages ({self.stages}) must be between 2 and 8")
        yield (self.min_blocks <= 4, f"min_blocks ({self.min_blocks}) must be <= 4")
        threads = (self.bm // max(self.wm, 1)) * (self.bn // max(self.wn, 1)) * 32
        yield (
            self.bm * self.bk % threads == 0,
            f"the A tile ({self.bm}x{self.bk} elements) must split evenly over {threads} threads",
        )
        yield (
            self.bk * self.bn // vec % threads == 0,
            f"the B tile ({self.bk * self.bn // vec} vectors of {vec}) must split evenly over {threads} threads",
        )
        occ = self.occupancy(isz)
        yield (
            occ * self.smem_bytes("float32" if isz == 4 else "float64") <= limits.smem_per_sm,
            f"min_blocks ({occ}) blocks of {self.smem_bytes('float32' if isz == 4 else 'float64')} B "
            f"shared memory must fit the SM's {limits.smem_per_sm} B",
        )


# ---------------------------------------------------------------------------------------------
# 7. split_k
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SplitKConfig(WarpTiledConfig):
    """warp_tiled with K cut into `split_k` slices (blockIdx.z), for small M·N with long K.

    Each slice writes its partial product to a [split_k, M, N] workspace with plain stores; a
    second kernel adds the slices in the fixed order 0..split_k-1, so the result is bit-identical
    from run to run (no atomics). :meth:`run` does both launches.
    """

    STRATEGY: ClassVar[str] = "split_k"
    bm: int = 64
    bn: int = 64
    bk: int = 8
    wm: int = 32
    wn: int = 32
    tm: int = 4
    tn: int = 8
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 4
    split_k: int = 8

    #: threads per block of the reduce kernel
    REDUCE_THREADS: ClassVar[int] = 256

    @property
    def splits(self) -> int:
        return self.split_k

    def _derived(self, isz: int) -> dict[str, int]:
        return {**super()._derived(isz), "REDUCE_THREADS": self.REDUCE_THREADS}

    def k_slice(self, K: int) -> int:
        """K elements per slice (whole multiples of bk; the last slice may be shorter or empty)."""
        return cdiv(cdiv(K, self.split_k), self.bk) * self.bk

    def global_reads(self, M: int, N: int, K: int) -> tuple[int, int]:
        tiles = cdiv(M, self.bm) * cdiv(N, self.bn)
        steps = self.split_k * cdiv(self.k_slice(K), self.bk) if K else 0
        return tiles * steps * self.bm * self.bk, tiles * steps * self.bk * self.bn

    @staticmethod
    def reduce_symbol(kernel_name: str) -> str:
        """The reduce kernel's symbol, as 07_split_k.cu.j2 spells it."""
        return "reduce_" + kernel_name.removeprefix("tm_")

    def workspace_bytes(self, M: int, N: int, dtype="float32") -> int:
        return self.split_k * M * N * itemsize(dtype)

    def _rules(self, limits, isz):
        yield from super()._rules(limits, isz)
        yield (2 <= self.split_k <= 64, f"split_k ({self.split_k}) must be between 2 and 64")

    def run(self, compiled, A, B, C, M: int, N: int, K: int, flags: int, stream=None) -> None:
        """Partial products into a fresh workspace, then the fixed-order reduction into C."""
        import cupy

        i32 = np.int32
        work = cupy.empty((self.split_k, M, N), dtype=C.dtype)
        compiled.launch(self.grid(M, N), (A, B, work, i32(M), i32(N), i32(K), i32(flags)), stream=stream)
        vec = 16 // C.dtype.itemsize
        items = cdiv(M * N, vec) if flags & 2 else M * N
        blocks = max(1, min(cdiv(items, self.REDUCE_THREADS), 132 * 16))
        reduce = compiled.companion(self.reduce_symbol(compiled.name))
        reduce((blocks,), (self.REDUCE_THREADS,), (work, C, i32(M), i32(N), i32(flags)), stream=stream)


# ---------------------------------------------------------------------------------------------
# 8. tensor_core
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TensorCoreConfig(WarpGridConfig):
    """float32 on tensor cores: mma.sync m16n8k8 TF32 with each operand split into big + small
    TF32 parts and three MMAs per product (3xTF32), which keeps float32 accuracy.

    The MMAs of one bk-deep K step chain into a partial tile that FADD then adds to the float32
    accumulators (the tensor core rounds toward zero; chaining over all of K would let that bias
    grow with K). A block whose result holds an Inf or NaN recomputes its tile with plain FMAs,
    so Inf and NaN propagate as in FP32.

    A bm x bn block tile of (bm/wm)*(bn/wn) warps, each a wm x wn warp tile of 16x8 MMA tiles; a
    `stages`-deep cp.async pipeline of bk-deep stages, grouped block order (`group_m`), and
    ``__launch_bounds__(threads, min_blocks)``. float32 only: float64 has no TF32 split.
    """

    STRATEGY: ClassVar[str] = "tensor_core"
    DYNAMIC_SMEM: ClassVar[bool] = True
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32",)
    TENSOR_CORES: ClassVar[bool] = True
    bm: int = 128
    bn: int = 128
    bk: int = 32
    wm: int = 64
    wn: int = 32
    stages: int = 4
    group_m: int = 8
    min_blocks: int = 1

    #: row padding (floats) of As[m][k] and Bs[k][n]: see the template's Layout notes
    A_PAD: ClassVar[int] = 4
    B_PAD: ClassVar[int] = 8

    def smem_bytes(self, dtype="float32") -> int:
        isz = itemsize(dtype)
        return self.stages * (self.bm * (self.bk + self.A_PAD) + self.bk * (self.bn + self.B_PAD)) * isz

    def _derived(self, isz: int) -> dict[str, int]:
        return {"A_PAD": self.A_PAD, "B_PAD": self.B_PAD}

    def _rules(self, limits, isz):
        yield from super()._rules(limits, isz)
        yield (self.wm % 16 == 0, f"wm ({self.wm}) must be a multiple of 16 (the MMA tile's rows)")
        yield (self.wn % 8 == 0, f"wn ({self.wn}) must be a multiple of 8 (the MMA tile's columns)")
        yield (self.bk % 8 == 0, f"bk ({self.bk}) must be a multiple of 8 (the MMA tile's depth)")
        acc = self.wm * self.wn // 32
        yield (acc <= 128, f"a warp tile of wm*wn = {self.wm * self.wn} gives {acc} accumulators per thread; at most 128 fit in registers")
        yield (2 <= self.stages <= 8, f"stages ({self.stages}) must be between 2 and 8")
        yield (1 <= self.min_blocks <= 4, f"min_blocks ({self.min_blocks}) must be between 1 and 4")
        threads = self.threads  # params are >= 1 here (validate checks that first)
        yield (
            self.bm * self.bk // 4 % threads == 0,
            f"the A tile ({self.bm * self.bk // 4} vectors of 4) must split evenly over {threads} threads",
        )
        yield (
            self.bk * self.bn // 4 % threads == 0,
            f"the B tile ({self.bk * self.bn // 4} vectors of 4) must split evenly over {threads} threads",
        )
        yield from self._fits_min_blocks(limits)


# ---------------------------------------------------------------------------------------------
# 9. wgmma
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WgmmaConfig(WarpGridConfig):
    """float32 on Hopper's warpgroup tensor cores: ``wgmma.mma_async`` TF32 with the 3xTF32 split
    of tensor_core, sm_90a only.

    A bm x bn block tile of bn/64 warpgroups (128 threads each). Every warpgroup computes its 64
    columns of C for all bm rows as one wgmma of shape m64 x n{bm} x k8 per product term (C^T =
    B^T A^T, since TF32 wgmma needs its shared-memory operand k-contiguous, as A is and B is not).
    A `stages`-deep cp.async pipeline of 32-deep K steps (one 128-byte swizzled row of A per m),
    grouped block order (`group_m`) and ``__launch_bounds__(threads, min_blocks)``.
    """

    STRATEGY: ClassVar[str] = "wgmma"
    DYNAMIC_SMEM: ClassVar[bool] = True
    SUPPORTED_DTYPES: ClassVar[tuple[str, ...]] = ("float32",)
    TENSOR_CORES: ClassVar[bool] = True
    #: NVRTC target: wgmma exists only in the architecture-specific sm_90a instruction set
    NVRTC_ARCH: ClassVar["str | None"] = "sm_90a"
    bm: int = 128
    bn: int = 128
    stages: int = 3  # 4 costs ptxas 36 bytes of spills at bm = 128
    group_m: int = 8
    min_blocks: int = 1

    #: K depth of a stage: 32 floats, one 128-byte swizzle row
    BK: ClassVar[int] = 32
    #: row padding (floats) of Bs[k][n]: see the template's Layout notes
    B_PAD: ClassVar[int] = 8
    #: the A tile's shared-memory layout: 128 (128-byte swizzle) or 0 (plain core matrices)
    SWIZZLE: ClassVar[int] = 128

    @property
    def bk(self) -> int:
        return self.BK

    @property
    def warpgroups(self) -> int:
        return max(self.bn // 64, 1)

    def block(self) -> tuple[int, int, int]:
        return (128 * self.warpgroups, 1, 1)

    def smem_bytes(self, dtype="float32") -> int:
        isz = itemsize(dtype)
        # STAGES A stages + two stages of A's small parts + STAGES B stages, + 1 KB to align to 1 KB
        floats = (self.stages + 2) * self.bm * self.BK + self.stages * self.BK * (self.bn + self.B_PAD)
        return floats * isz + 1024

    def _derived(self, isz: int) -> dict[str, int]:
        return {"BK": self.BK, "B_PAD": self.B_PAD, "SWIZZLE": self.SWIZZLE, "D_REGS": self.bm // 2}

    def _rules(self, limits, isz):
        yield (
            self.runs_on(limits),
            f"wgmma runs only on sm_90 (Hopper) GPUs; {limits.name} is sm_{limits.compute_capability}",
        )
        yield (self.bn % 64 == 0 and self.bn <= 256, f"bn ({self.bn}) must be 64, 128, 192 or 256 (64 columns per warpgroup)")
        yield (
            self.bm % 8 == 0 and self.bm <= 128,
            f"bm ({self.bm}) must be a multiple of 8 up to 128 (the wgmma n size; "
            f"the accumulators and the per-step tile take bm registers per thread)",
        )
        rows = self.threads // self.BK
        yield (
            self.bm % rows == 0,
            f"bm ({self.bm}) must be a multiple of threads/32 = {rows} (rows per pass of the element-wise copies)",
        )
        yield (
            3 <= self.stages <= 8,
            f"stages ({self.stages}) must be between 3 and 8 (copies run stages-2 steps ahead)",
        )
        yield (1 <= self.min_blocks <= 4, f"min_blocks ({self.min_blocks}) must be between 1 and 4")
        yield from self._fits_min_blocks(limits)
