"""The cost model: a predicted time for every candidate kernel of a shape, and the fastest.

For an M x N x K product of a dtype under a precision request, :func:`rank` lists every
candidate (the tunable strategies' default configs and search spaces in each mode the request
allows, split-K variants of the split-K rungs, and the hand heuristic's own pick) with a
:class:`Prediction`, fastest first. A candidate's time is

    launches + reduction + rounds + Q * max(compute / compute efficiency, memory / memory efficiency)

* ``compute``: the FLOPs of its padded tiles at the peak of its rung (:data:`PEAKS`: SIMT FP32
  or FP64, FP64 or TF32 tensor cores; a tf32x3 product is three TF32 MMAs; the GEMV rungs at
  :data:`COMPUTE_SHARE` of SIMT).
* ``memory``: the larger of ``dram``, the bytes it must move to and from device memory (A and B
  once, C or the split-K workspace; a tile row narrower than a 32-byte sector moves the whole
  sector) at the device bandwidth, and ``l2``, the tiled reads of the traffic model
  (:func:`tiled_matmul.tiling.traffic`) at the L2 bandwidth; over sqrt(the useful share of the
  padded tiles), as idle rows issue no loads.
* ``Q`` is **wave quantisation** (:func:`wave_factor`): blocks are spread over the SMs, each SM
  holds ``blocks_per_sm`` at a time (:func:`blocks_per_sm`: threads, shared memory and registers,
  through :func:`tiled_matmul.tiling.occupancy`), and the busiest SM sets the time. An SM
  running r of the b blocks it could hold runs at sqrt(r/b) of its rate (fewer resident warps
  hide less latency).
* the **efficiencies**: the fraction of each peak a rung reaches, measured by the tuner per
  (term, strategy, config, dtype, precision) and stored in the tuning database
  (:func:`tiled_matmul.tunedb.efficiency_for`); otherwise :data:`DEFAULT_EFFICIENCY` and
  :data:`MEMORY_EFFICIENCY`, calibrated on the H100 timings of ``benchmarks/RESULTS.md``.
* **launches**: :data:`LAUNCH_US` each; a split-K config adds a second launch and the
  reduction's traffic (reading the workspace, writing C).
* **rounds**: :data:`ROUND_US` for each round of blocks the busiest SM runs (cdiv(blocks on it,
  blocks it holds)): what a block spends besides its K loop (its first loads' trip from memory,
  its pipeline filling, its tile's store draining), which no efficiency covers where K is short.

A new strategy plugs in by declaring, on its Config class, ``COST_UNIT`` (a key of
:data:`PEAKS`; default: TF32 tensor cores for TENSOR_CORES configs, else SIMT of the dtype),
``COST_EFFICIENCY`` (default 0.5) and optionally ``COST_MEMORY_EFFICIENCY`` and
``COST_COMPUTE_SHARE``, or by adding a row to :data:`UNITS` / :data:`DEFAULT_EFFICIENCY`.

Pure arithmetic, no GPU and no compiler needed: registers are estimated from the config's
``__launch_bounds__`` promise (``min_blocks``) or its per-thread outputs, not compiled.

>>> rank(4096, 4096, 4096)[0].strategy
'wgmma_tma_tf32'
>>> rank(1, 8192, 8192)[0].strategy  # (the TMA ring's x.B, twentieth session)
'gemv_xb_tma'
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from . import precision as _precision
from . import registry
from .configs import Config, cdiv, wave_factor
from .device import DeviceLimits, device_limits
from .dtypes import DType, as_dtype
from .tiling import occupancy, traffic

# ---------------------------------------------------------------------------------------------
# hardware constants: the H100 SXM5, scaled to other GPUs by SM count x clock
# ---------------------------------------------------------------------------------------------
#: peak rates in TFLOP/s of the H100 SXM5, dense (NVIDIA H100 Tensor Core GPU datasheet, SXM5
#: column: FP64 34, FP64 Tensor Core 67, FP32 67, TF32 Tensor Core 494.7 (989 with sparsity),
#: FP16/BF16 Tensor Core 989.4 (1979 with sparsity); FP16 SIMT 133.8 from the H100 whitepaper,
#: table 3). A tf32x3 product runs three TF32 MMAs, so its rate is the TF32 peak / 3.
PEAKS: dict[str, float] = {
    "fp32": 67.0,
    "fp64": 34.0,
    "fp64_tc": 67.0,
    "tf32_tc": 494.7,
    "fp16": 133.8,
    "fp16_tc": 989.4,
}
#: the device these peaks are for: SMs and the boost clock (kHz) at which FP32 = SMs x 256 x clock
REF_SMS = 132
REF_CLOCK_KHZ = 1_980_000
#: device-memory bandwidth of the H100 SXM5 in GB/s (datasheet: 3.35 TB/s HBM3). A device-to-device
#: copy reaches ~3000 GB/s on it (issue 11; benchmarks/RESULTS.md "% of copy" columns), so a
#: streaming kernel's efficiency is at most ~0.9 of this.
DRAM_GBS = 3350.0
#: L2 bandwidth in GB/s, the bound on the tiled re-reads of A and B (which hit L2 in grouped block
#: order). Chips and Cheese measured ~5.5 TB/s on the H100 PCIe ("Nvidia's H100: Funny L2, and Tons
#: of Bandwidth", 2023); the SXM5's higher clock is taken into account by the scaling below.
L2_GBS = 5500.0
#: cost of one kernel launch as CUDA events see it back to back, in microseconds: the smallest
#: kernels of benchmarks/results/h100/bench.md (256^3: split_k 9.9 us for two launches, smem_tiled
#: 15.6 us) and the ~10 us of a cached call in RESULTS.md "Host overhead" put it at a few us
LAUNCH_US = 3.0
#: fixed cost of one round of resident blocks, in microseconds (:func:`predict`'s ``rounds_ms``).
#: Fitted on the H100 (scripts/variants_s17/probe_sweep.py shortk, 49 float64 shapes at K = 1..256
#: on every dmma config and two SIMT tiles): without it the model sent K <= 32 to dmma's 32 x 32
#: tile, three rounds deep, where 64 x 64 tiles in one round ran 1.3-1.4x faster (4447x127x15:
#: 10.8 against 7.7 us); its first pick came within 10% of the fastest on 33 of the 49 shapes,
#: with it on 43 (0.5 us: 41; 1.0-3.0 us: 43-44); the split sweeps' picks did not move
ROUND_US = 1.5
#: bytes of one DRAM/L2 sector: a tile row narrower than this still moves a whole sector
SECTOR_BYTES = 32
#: share of the SIMT peak a rung's inner loop can reach where it issues about one load per FMA or
#: two (the GEMV rungs: the load/store units, a quarter of the FP32 lanes' rate, bound them when
#: their tiles are padded far beyond the output); 1 where not listed
COMPUTE_SHARE: dict[str, float] = {
    "gemv_xb": 0.25,
    "gemv_xb_tma": 0.25,
    "gemv_ax": 0.25,
}

#: which peak of :data:`PEAKS` a strategy computes at, where the generic rule (TF32 tensor cores
#: for TENSOR_CORES configs, else SIMT of the dtype) does not say; a Config's ``COST_UNIT``
#: class attribute overrides this
UNITS: dict[str, str] = {
    "dmma": "fp64_tc",
    "dmma_split_k": "fp64_tc",
    "dmma_tail": "fp64_tc",
    "wgmma_tma": "fp16_tc",
    "wgmma_tma_split_k": "fp16_tc",
    "mma_half": "fp16_tc",
    "mma_half_split_k": "fp16_tc",
    # the half GEMV rungs widen 16-bit values and multiply them with FP32 FMAs
    "gemv_xb_half": "fp32",
    "gemv_ax_half": "fp32",
    # the tensor-core A·x takes its products on the 16-bit tensor cores
    "gemv_ax_mma": "fp16_tc",
}

#: compute efficiency: the fraction of its peak rate a rung's main loop reaches, by (strategy,
#: precision mode), then by strategy; used where the tuning database has no measured efficiency.
#: Calibrated on the H100 timings of benchmarks/RESULTS.md and its result files (collected in
#: tests/data/h100_timings.json; `PYTHONPATH=. python3 scripts/calibrate_cost_model.py` prints the
#: efficiency every timing shows, ideal / (measured - launches - reduction), per rung and source):
#: each value is about the median there, and the comment names the headline measurement.
DEFAULT_EFFICIENCY: dict = {
    # wgmma tf32x3: 65.3 TF/s at 4096^3, 67.4 at 4096x4096x16384 with the range guard (shape_suite.md,
    # 2026-11-22) of 494.7 / 3 = 165; medians 0.43 (bench), 0.45 (suite), 0.46 (tuner, before the guard)
    ("wgmma", "tf32x3"): 0.43,
    # wgmma tf32: 101.4 TF/s at 4096^3, 105.4 at 8192^3 (RESULTS.md "Precision modes") of 494.7
    ("wgmma", "tf32"): 0.21,
    # wgmma_split_k runs wgmma's main loop: 67.2 TF/s at 8192^3 (split 16), medians 0.41 compute-bound
    ("wgmma_split_k", "tf32x3"): 0.43,
    ("wgmma_split_k", "tf32"): 0.21,
    # tensor_core: 59.9 TF/s at 4096^3 before the guard (bench.md); medians 0.36-0.38
    ("tensor_core", "tf32x3"): 0.35,
    ("tensor_core", "tf32"): 0.17,
    # wgmma_tma_tf32 (scripts/bench_tf32tma.py, 2026-11-22, L2 flushed medians): tf32x3 98.3 TF/s
    # at 4096^3 (128 x 128, 4 stages), 100.1 at 8192^3, of 494.7 / 3 = 165; tf32 354.8 at 4096^3
    # (256 x 128), 378.1 at 8192^3, of 494.7. Both before the epilogue and fragment changes after
    # that run; the 4096^3 figures (whole waves, launch included) are the values
    ("wgmma_tma_tf32", "tf32x3"): 0.59,
    ("wgmma_tma_tf32", "tf32"): 0.71,
    # dmma: 44-46 TF/s at 2048^3-8192^3 (shape_suite.md float64) of 67 FP64-tensor TF/s; median
    # 0.86 over its 15 suite rows (most of them smaller tiles, min_blocks 2-3)
    "dmma": 0.75,
    # dmma_split_k runs dmma's main loop (its 64 x 64 and 128 x 64 tiles); not yet timed on a GPU
    "dmma_split_k": 0.75,
    # dmma_tail runs dmma's main loop with a slice's bounds: ncu at 4096^3 on 128 x 128 tiles (no
    # tail, so dmma's grid) 3.10 ms against dmma's 2.93, the DMMA pipe 85% against 90%: ptxas
    # schedules the loop differently (long-scoreboard stalls 3 -> 6%; scripts/gpu_s13f.sh)
    "dmma_tail": 0.71,
    # wgmma_tma (float16/bfloat16): 756-816 TF/s at 4096^3-8192^3 of 989.4 (RESULTS.md, wgmma_tma probe)
    "wgmma_tma": 0.78,
    # wgmma_tma_split_k runs wgmma_tma's main loop over slices of K
    "wgmma_tma_split_k": 0.78,
    # mma_half (float16/bfloat16 mma.sync): not yet timed on a GPU; the fallback efficiency until the
    # tuner measures it (auto runs it only where wgmma_tma cannot: see heuristic.half_pick)
    "mma_half": 0.5,
    # mma_half_split_k runs mma_half's main loop over slices of K (its 64 x 64 and 128 x 128 tiles)
    "mma_half_split_k": 0.5,
    # FFMA rungs of 67 FP32 TF/s: register_blocked 40.8 TF/s at 4096^3 (bench.md; medians 0.64-0.70),
    # warp_tiled 38.8 (0.61-0.71), split_k 32.6 (0.49-0.52); float64 (of 34 TF/s) alike (0.49 split_k)
    "register_blocked": 0.65,
    "warp_tiled": 0.62,
    "split_k": 0.50,
    # the GEMV rungs are memory-bound (MEMORY_EFFICIENCY); their compute term is the padded tiles
    # at COMPUTE_SHARE of the SIMT peak
    "gemv_xb": 0.8,
    "gemv_xb_tma": 0.8,
    "gemv_ax": 0.8,
    "gemv_xb_half": 0.8,
    "gemv_ax_half": 0.8,
    "gemv_ax_mma": 0.8,
}
#: memory efficiency: the fraction of the DRAM and L2 bandwidths a rung's traffic reaches, by
#: strategy. The GEMV rungs stream 2400-2780 GB/s (shape_suite.md, both dtypes) of 3350: medians
#: 0.82-0.87; tiled rungs on memory-bound shapes (wgmma 64x64 at 16384x64x4096, 0.147 ms) ~0.7
MEMORY_EFFICIENCY: dict[str, float] = {
    "gemv_xb": 0.80,
    # gemv_xb_tma: 2.65-2.67 TB/s on four x·B products of 268 MB (scripts/variants_s20/
    # probe_bulk_gemv.py, H100), 1.5-4% faster than gemv_xb's picks in the same run: gemv_xb's value
    # scaled by that
    "gemv_xb_tma": 0.82,
    "gemv_ax": 0.82,
    "gemv_xb_half": 0.80,
    "gemv_ax_half": 0.82,
    # gemv_ax_mma: 2130-2240 GB/s at 8192x{5,8}x8192 (scripts/variants_s15/probe_ax_mma.py) of 3350
    "gemv_ax_mma": 0.66,
    # C-store-bound tiny-K shapes (8192x8192x1: 0.087 ms, 3100 GB/s written; medians 0.94)
    "register_blocked": 0.90,
    # float64 tiles, whose A and B reads the model finds bound by L2 (medians 0.86 over 15 rows)
    "dmma": 0.85,
    "dmma_split_k": 0.85,
    "dmma_tail": 0.85,
}
#: memory efficiency of a tiled rung that is not listed: the medians of wgmma (0.49-0.55),
#: wgmma_split_k (0.61), split_k (0.49-0.51) and tensor_core (0.36-0.51) on the shapes the model
#: finds memory- or L2-bound
DEFAULT_MEMORY_EFFICIENCY = 0.55
#: compute efficiency of a strategy that declares none and has no measurement
FALLBACK_EFFICIENCY = 0.5
#: a measured efficiency is kept within these bounds (a timing dominated by noise says little)
EFFICIENCY_RANGE = (0.01, 1.5)
#: a tuner measurement counts toward efficiency only if it is this many launches long: below, the
#: launch model's error dominates the ratio
MIN_LAUNCHES_FOR_EFFICIENCY = 3.0
#: bound label "waves" when wave quantisation costs this much or more (Q >= WAVES_BOUND)
WAVES_BOUND = 1.5
#: the two terms an efficiency applies to
TERMS = ("compute", "memory")


def scale(limits: DeviceLimits) -> float:
    """How this GPU's rates compare to the H100 SXM5's: SMs x clock over 132 x 1.98 GHz (SMs alone
    when the clock is unknown)."""
    clock = limits.clock_khz or REF_CLOCK_KHZ
    return limits.sm_count * clock / (REF_SMS * REF_CLOCK_KHZ)


def unit(cfg: Config, dt: DType) -> str:
    """The key of :data:`PEAKS` that `cfg` computes `dt` at."""
    own = getattr(type(cfg), "COST_UNIT", None)
    if own:
        return own
    if cfg.STRATEGY in UNITS:
        return UNITS[cfg.STRATEGY]
    if cfg.TENSOR_CORES:
        return "tf32_tc"
    return {8: "fp64", 2: "fp16"}.get(dt.itemsize, "fp32")


def peak_tflops(cfg: Config, dt: DType, limits: DeviceLimits) -> float:
    """The rate `cfg` multiplies at on this GPU at its peak: the unit's, over the TF32 passes."""
    rate = PEAKS[unit(cfg, dt)] * scale(limits) * getattr(type(cfg), "COST_COMPUTE_SHARE", COMPUTE_SHARE.get(cfg.STRATEGY, 1.0))
    if cfg.TENSOR_CORES and cfg.precision in _precision.PASSES:
        rate /= _precision.PASSES[cfg.precision]
    return rate


def default_efficiency(cfg: Config, term: str = "compute") -> float:
    """The `term` ("compute" or "memory") efficiency assumed without a measurement: the config
    class's ``COST_EFFICIENCY`` / ``COST_MEMORY_EFFICIENCY``, else :data:`DEFAULT_EFFICIENCY` by
    (strategy, mode) then strategy / :data:`MEMORY_EFFICIENCY`, else the fallback."""
    if term == "memory":
        own = getattr(type(cfg), "COST_MEMORY_EFFICIENCY", None)
        return float(own) if own else MEMORY_EFFICIENCY.get(cfg.STRATEGY, DEFAULT_MEMORY_EFFICIENCY)
    own = getattr(type(cfg), "COST_EFFICIENCY", None)
    if own:
        return float(own)
    return DEFAULT_EFFICIENCY.get((cfg.STRATEGY, cfg.precision),
                                  DEFAULT_EFFICIENCY.get(cfg.STRATEGY, FALLBACK_EFFICIENCY))


def efficiency_keys(cfg: Config, dt: Any, term: str = "compute") -> tuple[str, str]:
    """(config key, family key) under which the tuning database stores `cfg`'s measured `term`
    efficiency: ``term:strategy|dtype|precision|config tag`` and ``term:strategy|dtype|precision``.

    >>> from tiled_matmul.strategies.wgmma import WgmmaConfig
    >>> efficiency_keys(WgmmaConfig(bm=64), "float32")[1]
    'compute:wgmma|float32|tf32x3'
    """
    family = f"{term}:{cfg.STRATEGY}|{as_dtype(dt)}|{cfg.precision}"
    return f"{family}|{cfg.tag()}", family


def efficiency(cfg: Config, dt: Any, term: str, measured: "Mapping[str, float] | None" = None) -> tuple[float, str]:
    """(`term` efficiency of `cfg`, where it comes from): the measured one of this config, else of
    its strategy (family), else the default."""
    if not measured:
        return default_efficiency(cfg, term), "default"
    key, family = efficiency_keys(cfg, dt, term)
    if key in measured:
        return float(measured[key]), "measured (config)"
    if family in measured:
        return float(measured[family]), "measured (strategy)"
    return default_efficiency(cfg, term), "default"


# ---------------------------------------------------------------------------------------------
# occupancy and waves
# ---------------------------------------------------------------------------------------------
def estimated_registers(cfg: Config, dt: DType, limits: DeviceLimits) -> int:
    """Registers per thread, without compiling: the budget the config's ``__launch_bounds__``
    promise leaves (ptxas fills it on these kernels: wgmma 128 x 128 uses 253 of 255), or, without
    one, 32 + the thread's outputs in 32-bit words + 16."""
    occ = getattr(cfg, "occupancy", None)
    promised = occ(dt) if callable(occ) else getattr(cfg, "min_blocks", None)
    if promised:
        per = limits.regs_per_sm // max(1, cfg.threads * int(promised))
        return max(16, min(255, per // 8 * 8))
    bm, bn = cfg.tile_mn
    outputs = bm * bn / cfg.threads
    return int(min(255, 32 + outputs * dt.itemsize / 4 + 16))


@functools.lru_cache(maxsize=4096)
def blocks_per_sm(cfg: Config, dt: DType, limits: DeviceLimits, registers: "int | None" = None) -> int:
    """Resident blocks per SM (threads, shared memory, registers: estimated unless given); cached."""
    regs = estimated_registers(cfg, dt, limits) if registers is None else registers
    return max(1, occupancy(cfg.threads, cfg.smem_bytes(dt), regs, limits)["blocks_per_sm"])


# ---------------------------------------------------------------------------------------------
# one candidate
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Prediction:
    """The model's account of one candidate at one shape (times in ms)."""

    strategy: str
    params: dict = field(hash=False)
    precision: str
    #: predicted: launches + reduction + rounds + Q * max(compute / compute efficiency, memory / memory efficiency)
    ms: float
    #: the same at efficiency 1 (every term at its peak)
    ideal_ms: float
    #: Q * max(compute, dram, l2): the kernel body at efficiency 1
    body_ms: float
    launch_ms: float
    reduce_ms: float
    compute_ms: float
    dram_ms: float
    l2_ms: float
    #: max(dram, l2) over sqrt(the useful share of the padded tiles)
    memory_ms: float
    wave_factor: float
    blocks: int
    blocks_per_sm: int
    launches: int
    compute_efficiency: float
    memory_efficiency: float
    efficiency_source: str
    #: what the predicted time is mostly made of: "launch", "waves", "compute" or "memory"
    bound: str
    #: the term the efficiency applies to (the larger of compute and memory after efficiencies)
    term: str
    flops: int
    #: the rounds of resident blocks on the busiest SM at ROUND_US each
    rounds_ms: float = 0.0

    @property
    def tflops(self) -> float:
        """Useful TFLOP/s at the predicted time (2·M·N·K / ms)."""
        return self.flops / (self.ms * 1e-3) / 1e12 if self.ms > 0 else float("inf")

    @property
    def efficiency(self) -> float:
        """The efficiency of the bounding term."""
        return self.compute_efficiency if self.term == "compute" else self.memory_efficiency

    def as_dict(self) -> dict:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["params"] = dict(self.params)
        d["tflops"] = self.tflops
        d["efficiency"] = self.efficiency
        return d

    def efficiency_of(self, measured_ms: float) -> "tuple[str, float] | None":
        """(term, efficiency) a measurement of this candidate shows: the bounding term's ideal
        time (Q x compute, or Q x memory) over the measured time less the launches, the
        reduction and the rounds. None when the measurement is too short to say (under
        MIN_LAUNCHES_FOR_EFFICIENCY launches, or not longer than the fixed part).

        >>> from tiled_matmul.strategies.wgmma import WgmmaConfig
        >>> p = predict(WgmmaConfig(), 4096, 4096, 4096)
        >>> term, e = p.efficiency_of(2.106)   # results/h100/shape_suite.md, 2026-11-22
        >>> term, round(e, 2)
        ('compute', 0.41)
        """
        fixed = self.launch_ms + self.reduce_ms + self.rounds_ms
        if measured_ms < MIN_LAUNCHES_FOR_EFFICIENCY * LAUNCH_US * 1e-3 or measured_ms <= fixed:
            return None
        ideal = self.compute_ms if self.term == "compute" else self.memory_ms
        lo, hi = EFFICIENCY_RANGE
        return self.term, min(hi, max(lo, self.wave_factor * ideal / (measured_ms - fixed)))


def launch_grid(cfg: Config, M: int, N: int, K: int, dt: DType, limits: DeviceLimits) -> tuple[int, int, int]:
    """The grid the launch uses: ``grid(M, N)``, or for configs that choose their K slices at
    launch (the GEMV rungs' ``k_splits``) with those slices on z."""
    k_splits = getattr(cfg, "k_splits", None)
    if callable(k_splits) and callable(getattr(cfg, "output_blocks", None)):
        return (cfg.output_blocks(M, N), 1, k_splits(M, N, K, limits.sm_count, dt))
    grid_for_k = getattr(cfg, "grid_for_k", None)  # a grid planned from K and the GPU (dmma_tail)
    if callable(grid_for_k):
        return grid_for_k(M, N, K, limits)
    return cfg.grid(M, N)


def predict(cfg: Config, M: int, N: int, K: int, dtype: Any = "float32",
            device: "int | DeviceLimits | None" = None, efficiencies: "Mapping[str, float] | None" = None,
            registers: "int | None" = None, efficiency: "float | None" = None) -> Prediction:
    """The predicted time of `cfg` for an M x N x K product (see the module docstring).

    `efficiencies` maps :func:`efficiency_keys` keys to measured efficiencies (the tuning
    database's); `efficiency` forces both terms' (1.0: the ideal). `registers` per thread
    overrides the estimate.

    >>> from tiled_matmul.strategies.wgmma import WgmmaConfig
    >>> p = predict(WgmmaConfig(), 4096, 4096, 4096)
    >>> p.bound, round(p.tflops)
    ('compute', 68)
    """
    dt = as_dtype(dtype)
    limits = device_limits(device)
    if efficiency is not None:
        ec = em = float(efficiency)
        source = "given"
    else:
        ec, src_c = _efficiency_for(cfg, dt, "compute", efficiencies)
        em, src_m = _efficiency_for(cfg, dt, "memory", efficiencies)
        source = src_c if src_c == src_m else f"compute {src_c}, memory {src_m}"
    t = traffic(cfg, M, N, K, dt, limits)
    gx, gy, gz = launch_grid(cfg, M, N, K, dt, limits)
    blocks = gx * gy * gz
    bm, bn = cfg.tile_mn
    tiles = blocks // max(gz, 1)
    # a launch that plans its own waves (dmma_tail: whole tiles, then slices of the last wave's)
    cost_waves = getattr(cfg, "cost_waves", None)
    if callable(cost_waves):
        tiles = cdiv(M, bm) * cdiv(N, bn)
    if getattr(type(cfg), "PERSISTENT", False):
        # at most one CTA per SM, each walking many tiles: the work and its waves are the tiles'
        tiles = blocks = cdiv(M, bm) * cdiv(N, bn)
    depth = cdiv(K, cfg.tile_k) * cfg.tile_k if cfg.tile_k else K
    padded_flops = 2 * tiles * bm * bn * depth
    f = scale(limits)
    per_sm = blocks_per_sm(cfg, dt, limits, registers)
    q = (cost_waves(M, N, K, limits.sm_count, per_sm) if callable(cost_waves)
         else wave_factor(blocks, limits.sm_count, per_sm))

    isz = dt.itemsize
    workspace = t["workspace_bytes"]
    # a tile reads rows of A tile_k wide and rows of B bn wide: narrower than a sector, it moves
    # the whole sector (gemv_ax's nt columns of B)
    a_waste = SECTOR_BYTES / min(SECTOR_BYTES, max(1, (cfg.tile_k or K) * isz))
    b_waste = SECTOR_BYTES / min(SECTOR_BYTES, max(1, bn * isz))
    # the padding copies (rows not 16-byte multiples) go through DRAM before the kernel reads
    reads = M * K * isz * a_waste + K * N * isz * b_waste + t["padding_bytes"]
    writes = workspace if workspace else t["output_bytes"]
    compute = padded_flops / (peak_tflops(cfg, dt, limits) * 1e12) * 1e3
    dram = (reads + writes) / (DRAM_GBS * f * 1e9) * 1e3
    l2 = (t["a_read_bytes"] * a_waste + t["b_read_bytes"] * b_waste) / (L2_GBS * f * 1e9) * 1e3
    # the idle rows and columns of a padded tile issue no loads: fewer loads in flight per SM
    # (gemv_ax's 8-row blocks at M = 1 stream with one warp in eight)
    fill = M * N / (tiles * bm * bn) if tiles else 1.0
    memory = max(dram, l2) / math.sqrt(min(1.0, fill))
    term = "compute" if compute / ec >= memory / em else "memory"
    body = q * max(compute, memory)
    body_real = q * max(compute / ec, memory / em)
    launches = 2 if workspace else 1
    # the reduce reads the workspace and writes C, or only the part of C it sums (dmma_tail's tail)
    reduced = getattr(cfg, "reduced_bytes", None)
    out_bytes = reduced(M, N, K, limits, dt) if callable(reduced) else t["output_bytes"]
    reduce = (workspace + out_bytes) / (DRAM_GBS * f * 1e9) * 1e3 if workspace else 0.0
    launch = launches * LAUNCH_US * 1e-3
    # the busiest SM's rounds of resident blocks, each paying a block's fixed part once
    rounds = cdiv(cdiv(blocks, limits.sm_count), per_sm) * ROUND_US * 1e-3 if blocks else 0.0
    if launch + reduce + rounds >= body_real:
        bound = "launch"
    elif q >= WAVES_BOUND:
        bound = "waves"
    else:
        bound = term
    fixed = launch + reduce + rounds
    return Prediction(cfg.STRATEGY, cfg.params(), cfg.precision, fixed + body_real, fixed + body,
                      body, launch, reduce, compute, dram, l2, memory, q, blocks, per_sm, launches, ec, em, source, bound,
                      term, 2 * M * N * K, rounds)


def _efficiency_for(cfg: Config, dt: DType, term: str, measured: "Mapping[str, float] | None") -> tuple[float, str]:
    return efficiency(cfg, dt, term, measured)


# ---------------------------------------------------------------------------------------------
# candidates and ranking
# ---------------------------------------------------------------------------------------------
#: split counts tried for configs with a split_k field (unless their class sets
#: COST_SPLIT_VARIANTS False: dmma_tail's split_k caps its plan), beside the search space's own
SPLITS = (2, 4, 8, 16, 32, 64)
#: the GEMV rungs are weighed only for skinny products, as they are built for (a small operand
#: kept on chip, the big one streamed once per chunk): the short side (M for x·B, N for A·x) at
#: most SKINNY_MAX, in at most SKINNY_MAX_CHUNKS chunks. Beyond that the model's terms miss what
#: makes them slow (the tuner never picked them there: 256^3, 8x8192x8192 went to wgmma, gemv_xb)
SKINNY_MAX = 64
SKINNY_MAX_CHUNKS = 8
#: the short side of C each GEMV rung is built for ("M": x·B, "N": A·x); a Config's
#: ``COST_SKINNY_SIDE`` overrides it, and a streaming config not listed faces its tile's short side
SKINNY_SIDE: dict[str, str] = {"gemv_xb": "M", "gemv_xb_tma": "M", "gemv_ax": "N"}


def skinny_fits(cfg: Config, M: int, N: int) -> bool:
    """Whether a streaming (GEMV) config is built for this M x N: the side of C it is built for
    (:data:`SKINNY_SIDE`) is at most SKINNY_MAX, in at most SKINNY_MAX_CHUNKS chunks of its tile;
    True for other configs.

    >>> from tiled_matmul.strategies.gemv_xb import GemvXbConfig
    >>> skinny_fits(GemvXbConfig(mt=8), 32, 4096), skinny_fits(GemvXbConfig(mt=8), 256, 256)
    (True, False)
    """
    if not callable(getattr(cfg, "streamed", None)):
        return True
    bm, bn = cfg.tile_mn
    face = getattr(type(cfg), "COST_SKINNY_SIDE", None) or SKINNY_SIDE.get(cfg.STRATEGY) or ("M" if bm <= bn else "N")
    side, tile = (M, bm) if face == "M" else (N, bn)
    return side <= SKINNY_MAX and cdiv(side, tile) <= SKINNY_MAX_CHUNKS


def rows_fit(cfg: Config, N: int, K: int) -> bool:
    """Whether a config built for 16-byte aligned rows is weighed for this N and K: dmma's pairs
    layout (DmmaConfig.pairs) only where A's rows (K) and B's and C's (N) hold an even count of
    doubles. Elsewhere its misaligned-operand kernel runs, whose K loop reads each sub-step's
    fragments just before its DMMAs: 6-7% slower than the 128 x 128 tile without the layout at
    4096 x 4096 x 4095 and 2047^3 (scripts/gpu_s22b.sh, H100), while its measured efficiency,
    taken on aligned shapes, would rank it first. True for other configs.

    >>> from tiled_matmul.strategies.dmma import DmmaConfig
    >>> rows_fit(DmmaConfig(wm=32, wn=64, pairs=1), 4096, 4095), rows_fit(DmmaConfig(), 4096, 4095)
    (False, True)
    """
    return not getattr(cfg, "pairs", 0) or (N % 2 == 0 and K % 2 == 0)


def groups_fit(cfg: Config, M: int, N: int, K: int, limits: DeviceLimits, dt: DType) -> bool:
    """Whether a config that splits K among thread groups of one block (gemv_xb's and
    gemv_xb_half's ``kg``) is weighed for this shape: each group's run of K is at least
    heuristic.GEMV_KG_MIN_RUN rows, or its output blocks alone stay under one wave. A short run is
    mostly its pipeline's ramp, which the model does not price; where the groups' blocks come in
    waves, every one pays it, and the one-group config, which splits K across blocks instead, ran
    faster (H100, float32: 6x54074x1474 174 against 158 us, 5x55143x1795 211 against 189:
    scripts/gpu_s28b.sh). Under a wave the groups replace that split and ran faster on short runs
    too (6x3745x831 1.51 against 1.48x cuBLAS, 5x1963x693 1.16 against 1.01: scripts/gpu_s28a.sh).
    True for other configs.

    >>> from tiled_matmul.strategies.gemv_xb import GemvXbConfig
    >>> from tiled_matmul.device import H100_LIMITS as H100
    >>> from tiled_matmul.dtypes import FLOAT32
    >>> g = GemvXbConfig(threads=256, mt=8, unroll=8, min_blocks=1, kg=16)
    >>> [groups_fit(g, 6, n, 1474, H100, FLOAT32) for n in (3745, 54074)], groups_fit(g, 6, 54074, 8192, H100, FLOAT32)
    ([True, False], True)
    """
    from .heuristic import GEMV_KG_MIN_RUN

    kg = getattr(cfg, "kg", 1)
    if kg <= 1 or K >= GEMV_KG_MIN_RUN * kg:
        return True
    return cfg.output_blocks(M, N) < limits.sm_count * blocks_per_sm(cfg, dt, limits)


def _in_modes(configs: Iterable[Config], modes: tuple[str, ...], limits: DeviceLimits, dt: DType) -> list[Config]:
    """Each config in each of `modes` it computes, valid for the device and dtype, without repeats."""
    out: dict[Config, None] = {}
    for cfg in configs:
        for mode in modes:
            if mode in type(cfg).PRECISIONS:
                c = cfg.with_precision(mode)
                if c not in out and c.is_valid(limits, dt):
                    out[c] = None
    return list(out)


@functools.lru_cache(maxsize=256)
def _searched(names: tuple[str, ...], dt: DType, modes: tuple[str, ...], limits: DeviceLimits) -> tuple[Config, ...]:
    """The shape-free part of the candidates: every search-space config of `names` (and split-K
    variants) in `modes`, valid on the device (validated once per dtype, modes and device)."""
    out: list[Config] = []
    for name in names:
        entry = registry.get(name)
        if not entry.supports(dt) or not entry.runs_on(limits):
            continue
        configs = list(entry.configs)
        if "split_k" in entry.default.params() and getattr(entry.config_cls, "COST_SPLIT_VARIANTS", True):
            configs += [c.replace(split_k=s) for c in list(configs) for s in SPLITS]
        out += _in_modes(configs, modes, limits, dt)
    return tuple(out)


def candidate_configs(M: int, N: int, K: int, dtype: Any = "float32", precision: str = "auto",
                      device: "int | DeviceLimits | None" = None,
                      strategies: "Iterable[str] | None" = None) -> list[Config]:
    """Every config the model weighs for the shape: for each tunable strategy (or those named)
    that computes `dtype` and runs on the GPU, its default and search space in each mode the
    request allows for K, split-K variants (:data:`SPLITS`) of its tiles, and the hand heuristic's
    pick; valid for the device and dtype, GEMV rungs only for skinny shapes (:func:`skinny_fits`),
    K groups only on runs long enough or under a wave (:func:`groups_fit`),
    dmma's pairs layout only for aligned rows (:func:`rows_fit`), without repeats."""
    from .heuristic import recommend

    dt = as_dtype(dtype)
    limits = device_limits(device)
    modes = _precision.modes_for(_precision.check(precision, dt), dt, K)
    if strategies is None:
        names = tuple(n for n, s in registry.STRATEGIES.items() if s.tunable)
    else:
        names = tuple(registry.get(s).name for s in strategies)
    pick, pick_params = recommend(M, N, K, dt, sms=limits.sm_count, precision=precision, wgmma=limits.hopper,
                                  dmma=limits.hopper)
    out = dict.fromkeys(_searched(names, dt, modes, limits))
    if pick in names and registry.get(pick).supports(dt) and registry.get(pick).runs_on(limits):
        out.update(dict.fromkeys(_in_modes([registry.get(pick).make_config(**pick_params)], modes, limits, dt)))
    return [c for c in out if skinny_fits(c, M, N) and rows_fit(c, N, K) and groups_fit(c, M, N, K, limits, dt)]


def rank(M: int, N: int, K: int, dtype: Any = "float32", precision: str = "auto",
         device: "int | DeviceLimits | None" = None, efficiencies: "Mapping[str, float] | None" = None,
         strategies: "Iterable[str] | None" = None) -> list[Prediction]:
    """Every candidate's :class:`Prediction`, fastest first (ties: the order of the registry).
    `efficiencies` maps :func:`efficiency_keys` keys to measured efficiencies (the tuning
    database's, through :func:`tiled_matmul.dispatch.measured_efficiencies`); a config's own key
    wins over its family's, and either over the default."""
    dt = as_dtype(dtype)
    preds = [predict(cfg, M, N, K, dt, device, efficiencies)
             for cfg in candidate_configs(M, N, K, dt, precision, device, strategies)]
    order = sorted(range(len(preds)), key=lambda i: (preds[i].ms, i))
    return [preds[i] for i in order]


@functools.lru_cache(maxsize=4096)
def _best_cached(M: int, N: int, K: int, dt: str, precision: str, limits: DeviceLimits,
                 eff_items: tuple, strategies: "tuple[str, ...] | None" = None) -> Prediction:
    return rank(M, N, K, dt, precision, limits, dict(eff_items), strategies)[0]


def clear_cache() -> None:
    """Forget the cached candidates and fastest picks (after the efficiencies or the registry change)."""
    _best_cached.cache_clear()
    _searched.cache_clear()
    blocks_per_sm.cache_clear()


registry.on_change(lambda name: clear_cache())


def best(M: int, N: int, K: int, dtype: Any = "float32", precision: str = "auto",
         device: "int | DeviceLimits | None" = None,
         efficiencies: "Mapping[str, float] | None" = None,
         strategies: "Iterable[str] | None" = None) -> Prediction:
    """The fastest candidate (of the named strategies' only, when given), cached per (shape, dtype,
    request, device, efficiencies, strategies)."""
    items = tuple(sorted((efficiencies or {}).items()))
    names = tuple(strategies) if strategies is not None else None
    return _best_cached(int(M), int(N), int(K), as_dtype(dtype), precision, device_limits(device), items, names)


__all__ = ["clear_cache", "PEAKS", "DRAM_GBS", "L2_GBS", "LAUNCH_US", "ROUND_US", "UNITS", "DEFAULT_EFFICIENCY", "Prediction", "predict",
           "rank", "best", "candidate_configs", "wave_factor", "blocks_per_sm", "estimated_registers",
           "efficiency_keys", "efficiency", "default_efficiency", "peak_tflops", "launch_grid", "scale", "unit", "groups_fit",
           "MEMORY_EFFICIENCY", "TERMS", "skinny_fits", "rows_fit"]
