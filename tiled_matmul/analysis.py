"""The tiling model: what a strategy's tiles do to global-memory traffic, occupancy and the roofline.

:func:`explain` works without a GPU (registers then come from an offline ``ptxas`` report, and the
device limits are the H100 stand-in of :mod:`tiled_matmul.device`). With a GPU it also times the
kernel and puts the measured time beside a roofline bound.

Traffic model (elements are ``itemsize`` bytes: 4 for float32, 8 for float64):

* ``naive_bytes``  = M·N·2K·itemsize: every output reads its whole row of A and column of B.
* ``tiled_bytes``  = what *this config* reads from global memory, from
  :meth:`Config.global_reads`. For a staged block tile of bm × bn with depth tile_k over a grid of
  gx × gy blocks and ⌈K/tile_k⌉ steps that is gx·gy·steps·(bm·tile_k + tile_k·bn) elements, which
  for square tiles T is the seed's blocks_m·blocks_n·blocks_k·2·T². Register blocking changes the
  traffic only through the block tile (bm, bn, tile_k): registers reuse data that already came
  from shared memory, so they do not add global reads.
* ``min_bytes``    = (M·K + K·N)·itemsize: each input read exactly once.
* ``output_bytes`` = M·N·itemsize, reported separately (every strategy writes C once).
* ``padding_bytes`` = the reads and writes of copies a launch makes first where rows of A or B are
  not 16-byte multiples (:meth:`Config.padding_bytes`: the TMA rungs, mma_half_split_k), plain
  operands at 16-byte-aligned addresses assumed; 0 elsewhere.
* ``reduction``    = naive_bytes / tiled_bytes.

Example (no GPU needed)::

    >>> from tiled_matmul.analysis import explain
    >>> m = explain("smem_tiled", (1024, 1024, 1024), tile=32, registers=32)
    >>> m["naive_bytes"], m["tiled_bytes"], m["min_bytes"], m["reduction"]
    (8589934592, 268435456, 8388608, 32.0)
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

from . import costmodel, dispatch, registry
from . import precision as _precision
from .compile import get_kernel
from .configs import Config
from .dtypes import as_dtype
from .device import DeviceLimits, device_limits, gpu_available
from .measure import L2Flusher, make_inputs, parse_shape, strategy_row, time_fn, time_validated, validate
from .ptxas import nvcc_path, ptxas_report
from .tiling import occupancy, traffic

#: FP32 FMA units per SM used for the peak rate (SMs × 128 × 2 FLOP × clock).
FP32_LANES_PER_SM = 128
#: Keys the ``--json`` output is guaranteed to have.
REQUIRED_KEYS = (
    "naive_bytes", "tiled_bytes", "min_bytes", "output_bytes", "reduction", "intensity",
    "threads_per_block", "smem_bytes", "occupancy",
)


def peak_fp32_tflops(limits: DeviceLimits) -> "float | None":
    """SMs × 128 FP32 lanes × 2 FLOP × clock, in TFLOP/s (None when the clock is unknown)."""
    clock = limits.clock_khz or _clock_khz_fallback(limits)
    if not clock:
        return None
    return limits.sm_count * FP32_LANES_PER_SM * 2 * clock * 1e3 / 1e12


#: dense float16/bfloat16 tensor-core FLOP per SM per clock with FP32 accumulation, by compute
#: capability (A100: 312 TF/s on 108 SMs at 1410 MHz; H100: 989.4 TF/s on 132 SMs at 1830 MHz)
HALF_TC_FLOP_PER_SM_CLOCK = {"80": 2048, "90": 4096}
#: the clock (kHz) NVIDIA rates Hopper's tensor-core peak at: its SMs run tensor-core work at up to
#: 1830 MHz, below the 1980 MHz boost the FP32 peak assumes
HOPPER_TC_CLOCK_KHZ = 1_830_000


def peak_half_tflops(limits: DeviceLimits) -> "float | None":
    """The dense float16/bfloat16 tensor-core peak, in TFLOP/s: SMs × FLOP per SM per clock
    (:data:`HALF_TC_FLOP_PER_SM_CLOCK`) × clock (for sm_90 at most :data:`HOPPER_TC_CLOCK_KHZ`):
    989.4 on an H100 SXM. None for GPUs not in the table or of unknown clock."""
    rate = HALF_TC_FLOP_PER_SM_CLOCK.get(str(limits.compute_capability))
    clock = limits.clock_khz or _clock_khz_fallback(limits)
    if rate is None or not clock:
        return None
    if limits.hopper:
        clock = min(clock, HOPPER_TC_CLOCK_KHZ)
    return limits.sm_count * rate * clock * 1e3 / 1e12


def _clock_khz_fallback(limits: DeviceLimits) -> int:
    """The SM clock from cudaDevAttrClockRate when the device properties lack it (CUDA 13)."""
    if not limits.is_real:
        return 0
    try:
        import cupy

        return int(cupy.cuda.runtime.deviceGetAttribute(13, cupy.cuda.Device().id))  # cudaDevAttrClockRate
    except Exception:
        return 0


@functools.lru_cache(maxsize=None)
def measured_bandwidth_gbs(device: int = 0, nbytes: int = 512 * 1024 * 1024) -> float:
    """Device-memory bandwidth in GB/s, measured with a device-to-device copy (read + write)."""
    import cupy

    with cupy.cuda.Device(device):
        src = cupy.ones(nbytes // 4, dtype=cupy.float32)
        dst = cupy.empty_like(src)
        t = time_fn(lambda i: cupy.copyto(dst, src), repeat=10, warmup=2)
        del src, dst
    return 2 * nbytes / (t.median_ms * 1e-3) / 1e9


def _registers(strategy: str, cfg: Config, dtype: str, limits: DeviceLimits, gpu: bool) -> tuple["int | None", str]:
    if gpu:
        return get_kernel(strategy, cfg, dtype).num_regs, "compiled kernel (cupy num_regs)"
    if nvcc_path() is None:
        return None, "unknown (no GPU and nvcc not on PATH)"
    try:
        arch = cfg.NVRTC_ARCH or limits.arch  # wgmma builds for sm_90a only
        rep = ptxas_report(strategy, cfg, dtype, arch=arch)
    except (RuntimeError, OSError) as exc:
        return None, f"unknown (ptxas failed: {str(exc).splitlines()[0]})"
    return rep.registers, f"ptxas report ({arch}, no GPU)"


def _measure(strategy: str, cfg: Config, M: int, N: int, K: int, dtype: str, repeat: int) -> tuple["float | None", str]:
    """Median kernel time in ms after validating one result, or (None, why)."""
    row = strategy_row("explain", strategy, cfg)
    sets = make_inputs((M, N, K), dtype)
    v = validate(row, sets)
    if v.rejected is not None:
        return None, v.rejected.message
    rec = time_validated(row, v, sets, L2Flusher(), repeat=repeat, budget_s=float("inf"), warmup=2)
    if not rec.ok:
        return None, rec.message
    return rec.median_ms, f"median of {rec.repeats} runs, CUDA events, L2 flushed"


def _config_for(strategy: str, M: int, N: int, K: int, dtype: Any, precision: "str | None",
                device: "int | DeviceLimits | None", params: dict) -> tuple[registry.Strategy, Config, Any, "dict | None"]:
    """(strategy entry, config, dtype, auto's choice or None) that :func:`explain` models: the named
    strategy's config in the mode `precision` asks for, or, for ``"auto"``, the choice of
    :func:`tiled_matmul.dispatch.choose` for the shape under the request."""
    if strategy == "auto":
        if params:
            raise TypeError(f"strategy='auto' picks its own parameters; got {sorted(params)}")
        dt = as_dtype("float32" if dtype is None else dtype)
        request = _precision.resolve(precision, dt)
        choice = dispatch.choose(M, N, K, dt, device, precision=request)
        entry = registry.get(choice.strategy)
        auto = {"strategy": choice.strategy, "params": dict(choice.params), "source": choice.source,
                "bucket": choice.bucket, "request": request, "mode": dispatch.get_mode(),
                "db_entry": choice.entry}
        if choice.transposed is not None:
            auto["transposed"] = {"strategy": choice.transposed.strategy, "params": dict(choice.transposed.params)}
        if choice.moved_from is not None:
            auto["moved_from"] = {"strategy": choice.moved_from[0], "params": dict(choice.moved_from[1])}
        return entry, entry.make_config(**choice.params), dt, auto
    entry = registry.get(strategy)
    dt = entry.default_dtype if dtype is None else as_dtype(dtype)
    cfg = entry.make_config(**params)
    if precision is not None and _precision.check(precision, dt) != "auto":
        cfg = cfg.with_precision(precision)
    return entry, cfg, dt, None


#: how each (A column-major, B column-major) pair is written by a caller
LAYOUT_NAMES = {(False, False): "a @ b", (True, False): "a.T @ b", (False, True): "a @ b.T", (True, True): "a.T @ b.T"}


def layouts_note(cfg: Config) -> str:
    """One sentence on which operand layouts `cfg` reads in place and which it has copied."""
    layouts = cfg.layouts()
    if not layouts:
        return ("operands: plain row-major only; transposed (.T, Fortran order) and sliced operands are "
                "copied to row-major first (a.T @ b.T excepted: computed as (B^T A^T)^T, in place)")
    read = ", ".join(LAYOUT_NAMES[p] for p in LAYOUT_NAMES if p in layouts)
    copied = [LAYOUT_NAMES[p] for p in LAYOUT_NAMES if p not in layouts]
    text = (f"operands: {read} read in place, each row- or column-major as given, with its leading dimension "
            "(slices with a unit inner stride too)")
    if copied:
        what = "B" if (True, False) in layouts else "A"
        text += (f"; {', '.join(copied)}: the column-major {what} is copied to row-major first (this rung "
                 f"streams {what} along its rows)")
    return text + "; other strides are copied first"


def explain(strategy: str, shape: "Sequence[int] | str | int", *, dtype=None,
            registers: "int | None" = None, measure: "bool | None" = None, repeat: int = 10,
            device: "int | DeviceLimits | None" = None, precision: "str | None" = None,
            candidates: int = 10, **params: int) -> dict[str, Any]:
    """The tiling model of `strategy` (config = its default updated by `params`) at `shape`.

    Returns a plain, JSON-serialisable dict: global-memory traffic (``naive_bytes``,
    ``tiled_bytes``, ``min_bytes``, ``output_bytes``, ``reduction``), ``intensity`` (FLOP per byte
    of this config's traffic), the reuse factor, ``threads_per_block``, ``smem_bytes``, resident
    blocks per SM limited by threads / shared memory / registers, theoretical ``occupancy``, and the
    roofline (FP32 peak = SMs × 128 × 2 × clock). With a GPU and ``measure`` (default: when a GPU
    is present) it also holds ``measured_ms`` beside ``roofline_ms``; ``bandwidth_gbs`` is measured.

    `dtype` is float32, or the strategy's own where it computes only float64 (dmma). `precision`
    ("ieee", "tf32x3", "tf32"; None or "auto" keeps the strategy's own) models the strategy's config
    computing in that mode (ValueError naming its modes where it has no such mode).
    ``strategy="auto"`` models the kernel ``matmul(strategy="auto", precision=...)`` picks for the
    shape (the process default's request when `precision` is None); the result's ``auto`` holds
    that choice (strategy, params, source, bucket, request, dispatch mode), and ``candidates`` the
    cost model's ranking (:func:`ranked_candidates`: the `candidates` fastest predicted, and auto's
    pick, with predicted time, TF/s, bound, efficiency, and a measured time where the tuning
    database has one for this exact shape, or, with `measure` on a GPU, a fresh one). `registers`
    overrides the per-thread register count (otherwise: the compiled kernel's with a GPU, the
    offline ptxas report without one). Raises ValueError for an unknown strategy, a bad
    shape or an invalid config, TypeError for unknown or non-int parameters.

    >>> explain("smem_tiled", (1024, 1024, 1024), tile=32)["reduction"]  # doctest: +SKIP
    32.0
    """
    M, N, K = parse_shape(shape)
    entry, cfg, dt, auto = _config_for(strategy, M, N, K, dtype, precision, device, params)
    gpu = gpu_available() and not (isinstance(device, DeviceLimits) and not device.is_real)
    limits = device_limits(device)
    cfg.validate(limits, dt)
    if registers is not None and (isinstance(registers, bool) or not isinstance(registers, int) or registers < 1):
        raise ValueError(f"registers must be a positive int per thread; got {registers!r}")
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive int; got {repeat!r}")

    out: dict[str, Any] = {
        "strategy": entry.name,
        "params": cfg.params(),
        "precision": cfg.precision,
        "auto": auto,
        "shape": [M, N, K],
        "dtype": dt,
        "device": limits.name,
        "device_is_real": limits.is_real,
    }
    try:
        out.update(traffic(cfg, M, N, K, dt, limits))
    except NotImplementedError:
        raise ValueError(f"strategy {entry.name!r} has no traffic model (its config lacks global_reads)") from None
    gx, gy, gz = cfg.grid(M, N)
    bm, bn = cfg.tile_mn
    blocks = gx * gy * gz
    out.update(
        tile_mn=[bm, bn],
        tile_k=cfg.tile_k,
        grid=[gx, gy, gz],
        blocks=blocks,
        threads_per_block=cfg.threads,
        outputs_per_thread=bm * bn / cfg.threads,
        smem_bytes=cfg.smem_bytes(dt),
    )
    if registers is None:
        registers, source = _registers(entry.name, cfg, dt, limits, gpu)
    else:
        source = "given"
    out["registers"] = registers
    out["registers_source"] = source
    occ = occupancy(cfg.threads, out["smem_bytes"], registers, limits)
    out.update(occ)
    resident = occ["blocks_per_sm"] * limits.sm_count
    out["waves"] = blocks / resident if resident else None

    out["layouts"] = [LAYOUT_NAMES[p] for p in LAYOUT_NAMES if p in cfg.layouts()]
    notes: list[str] = [layouts_note(cfg)]
    if not limits.is_real:
        notes.append(f"no GPU: device limits are the stand-in {limits.name}")
    half_simt = dt.half and costmodel.unit(cfg, dt) == "fp32"  # the half GEMV rungs: FP32 FMAs
    peak = peak_fp32_tflops(limits) if dt == "float32" or half_simt else peak_half_tflops(limits) if dt.half else None
    if half_simt:
        notes.append(f"{dt} values are widened to float and multiplied on the FP32 units: peak is the FP32 rate "
                     "(a memory-bound rung: its time is the operand it streams)")
    elif dt.half:
        notes.append(f"{dt} multiplies on the tensor cores: peak is the dense 16-bit tensor-core rate "
                     "(SMs x FLOP per SM per clock x clock; 989.4 TFLOP/s on an H100 SXM); mma.sync reaches only "
                     "part of it on Hopper, whose full rate needs wgmma" if peak else
                     f"no dense {dt} tensor-core peak known for {limits.name}")
    elif dt == "float64":
        # the cost model's float64 rates: the FP64 tensor cores (dmma's rungs) or the FP64 SIMT
        # units, at the H100 SXM's datasheet peaks scaled by SMs x clock
        unit = costmodel.unit(cfg, dt)
        peak = costmodel.peak_tflops(cfg, dt, limits)
        notes.append(f"float64 peak: {'FP64 tensor cores' if unit == 'fp64_tc' else 'FP64 units'} "
                     f"({costmodel.PEAKS[unit]:g} TFLOP/s on an H100 SXM, scaled by SMs x clock)")
    elif dt != "float32":
        notes.append("peak rate modelled for float32 only (SMs x 128 x 2 x clock)")
    elif cfg.TENSOR_CORES:
        passes = _precision.PASSES[cfg.precision]
        notes.append(f"{entry.name} multiplies on TF32 tensor cores ({cfg.precision}: {passes} TF32 "
                     f"MMA{'s' if passes > 1 else ''} per product), not FP32 FMA units: "
                     "the FP32 peak and roofline do not bound it")
    if auto is not None:
        notes.insert(0, f"auto under precision {auto['request']!r} picks {entry.name} "
                        f"({auto['source']}, bucket {auto['bucket']})")
        if "moved_from" in auto:
            f = auto["moved_from"]
            was = registry.get(f["strategy"]).make_config(**f["params"]).tag()
            notes.insert(1, f"the x·B rule for 17-64 rows (dispatch.xb_choice) runs this in place of "
                            f"{f['strategy']} {was}, the fallback's pick")
        if "transposed" in auto:
            t = auto["transposed"]
            notes.insert(1, f"a plain 2-D call of this shape runs as its transpose, C^T = B^T A^T on {t['strategy']} "
                            f"{t['params']} (both operands read in place column-major, C^T copied into C); "
                            f"the model below is the pick that batched, epilogue and other-layout calls run")
    out["peak_tflops"] = peak
    out["peak_basis"] = (f"SMs × {FP32_LANES_PER_SM} × 2 × clock" if dt == "float32"
                         else "16-bit tensor cores: SMs × FLOP/clock × clock" if dt.half
                         else "the cost model's FP64 rate, scaled by SMs × clock" if dt == "float64"
                         else "–")
    out["compute_bound_ms"] = out["flops"] / (peak * 1e12) * 1e3 if peak else None
    bw = None
    if gpu:
        import cupy

        bw = measured_bandwidth_gbs(cupy.cuda.Device().id)
    out["bandwidth_gbs"] = bw
    if bw:
        mem_min = (out["min_bytes"] + out["output_bytes"]) / (bw * 1e9) * 1e3
        mem_tiled = (out["tiled_bytes"] + out["output_bytes"]) / (bw * 1e9) * 1e3
        comp = out["compute_bound_ms"] or 0.0
        out["roofline_ms"] = max(comp, mem_min)
        out["roofline_tiled_ms"] = max(comp, mem_tiled)
    else:
        out["roofline_ms"] = out["compute_bound_ms"]
        out["roofline_tiled_ms"] = None
        if not gpu:
            notes.append("bandwidth not measured (no GPU): roofline_ms is the compute bound only")
    out["measured_ms"] = None
    out["measured_tflops"] = None
    out["pct_of_roofline"] = None
    if measure is None:
        measure = gpu
    if measure:
        if not gpu:
            raise ValueError("measure=True needs a CUDA device and none is available")
        ms, how = _measure(entry.name, cfg, M, N, K, dt, repeat)
        notes.append(f"measured: {how}")
        if ms is not None:
            out["measured_ms"] = ms
            out["measured_tflops"] = out["flops"] / (ms * 1e-3) / 1e12
            if out["roofline_ms"]:
                out["pct_of_roofline"] = 100.0 * out["roofline_ms"] / ms
    if auto is not None:
        out["candidates"] = ranked_candidates(M, N, K, dt, auto, cfg, limits, top=candidates,
                                              measure=bool(measure) and gpu, repeat=repeat)
        db = auto.pop("db_entry", None)
        if any(c["measured_source"] == "tuning database" for c in out["candidates"]):
            notes.append(f"measured_ms from the {auto['source']} entry for this shape "
                         f"({db.get('tuned_at', 'undated') if db else ''})")
    out["notes"] = notes
    return out


def ranked_candidates(M: int, N: int, K: int, dt: str, auto: dict, picked: Config, limits: DeviceLimits,
                      top: int = 10, measure: bool = False, repeat: int = 10) -> list[dict]:
    """The cost model's ranking for the shape (:func:`tiled_matmul.costmodel.rank`, with the
    tuner's measured efficiencies): the `top` fastest predicted candidates, plus auto's pick if it
    is not among them, each a plain dict (strategy, params, precision, predicted_ms, tflops, bound,
    efficiency, its source, the model's rank, whether auto picks it, and measured_ms: the tuning
    database's time where its entry was tuned on this exact shape, or, with `measure`, a fresh
    timing of the first three and of the pick)."""
    ranked = costmodel.rank(M, N, K, dt, auto["request"], limits, dispatch.measured_efficiencies(limits))
    db = auto.get("db_entry")
    db_key = None
    if db and list(db.get("shape", [])) == [M, N, K] and db.get("median_ms"):
        db_key = (db["strategy"], tuple(sorted(registry.get(db["strategy"]).make_config(**db["params"]).params().items())))
    pick_key = (picked.STRATEGY, tuple(sorted(picked.params().items())))
    rows = []
    for i, p in enumerate(ranked):
        key = (p.strategy, tuple(sorted(p.params.items())))
        if i >= top and key != pick_key:
            continue
        row = {"rank": i + 1, "strategy": p.strategy, "params": dict(p.params), "precision": p.precision,
               "predicted_ms": p.ms, "tflops": p.tflops, "bound": p.bound, "efficiency": p.efficiency,
               "efficiency_source": p.efficiency_source, "wave_factor": p.wave_factor, "launches": p.launches,
               "picked": key == pick_key, "measured_ms": None, "measured_source": None}
        if key == db_key:
            row["measured_ms"], row["measured_source"] = float(db["median_ms"]), "tuning database"
        if measure and (i < 3 or row["picked"]):
            cfg = registry.get(p.strategy).make_config(**p.params)
            ms, _ = _measure(p.strategy, cfg, M, N, K, dt, repeat)
            if ms is not None:
                row["measured_ms"], row["measured_source"] = ms, "measured now"
        rows.append(row)
    if not any(r["picked"] for r in rows):  # a pick the model does not weigh (a user strategy)
        p = costmodel.predict(picked, M, N, K, dt, limits, dispatch.measured_efficiencies(limits))
        rows.append({"rank": None, "strategy": p.strategy, "params": dict(p.params), "precision": p.precision,
                     "predicted_ms": p.ms, "tflops": p.tflops, "bound": p.bound, "efficiency": p.efficiency,
                     "efficiency_source": p.efficiency_source, "wave_factor": p.wave_factor,
                     "launches": p.launches, "picked": True, "measured_ms": None, "measured_source": None})
    return rows


def candidates_table(m: dict[str, Any]):
    """A rich Table of the ranked candidates of an ``explain(strategy="auto")`` result."""
    from rich.table import Table

    M, N, K = m["shape"]
    a = m["auto"]
    t = Table(title=f"cost model at {M}×{N}×{K}, {m['dtype']}, request {a['request']}: candidates by predicted "
                    f"time (dispatch mode {a['mode']}; auto's pick ◀ came from {a['source']})",
              title_justify="left")
    for col, just in (("#", "right"), ("strategy", "left"), ("config", "left"), ("mode", "left"),
                      ("predicted ms", "right"), ("TF/s", "right"), ("bound", "left"), ("efficiency", "right"),
                      ("measured ms", "right"), ("", "left")):
        t.add_column(col, justify=just)
    for r in m["candidates"]:
        default = registry.get(r["strategy"]).default.params()
        own = " ".join(f"{k}={v}" for k, v in r["params"].items() if default.get(k) != v) or "(default)"
        src = {"default": "", "measured (config)": " m", "measured (strategy)": " ms"}.get(r["efficiency_source"], " m")
        measured = "–" if r["measured_ms"] is None else f"{r['measured_ms']:.4f}" + (
            " (db)" if r["measured_source"] == "tuning database" else "")
        t.add_row("–" if r["rank"] is None else str(r["rank"]), r["strategy"], own, r["precision"],
                  f"{r['predicted_ms']:.4f}", f"{r['tflops']:.1f}", r["bound"], f"{r['efficiency']:.2f}{src}",
                  measured, "◀ auto" if r["picked"] else "")
    t.caption = ("predicted = launches + reduction + rounds + waves × max(compute / efficiency, memory / efficiency); "
                 "efficiency m: measured by the tuner for this config, ms: for its strategy, else the default")
    return t


def explain_table(m: dict[str, Any]):
    """A rich Table of an :func:`explain` result: each quantity, its value and what it means."""
    from rich.table import Table

    M, N, K = m["shape"]
    def spelled(params: dict) -> str:
        return " ".join(f"{k}={v}" for k, v in params.items())

    p = spelled(m["params"])
    pick = f"auto (precision {m['auto']['request']}) → " if m.get("auto") else ""
    if m.get("auto") and "transposed" in m["auto"]:
        t = m["auto"]["transposed"]
        pick += f"plain calls: C^T = B^T A^T on {t['strategy']} ({spelled(t['params'])}); batched, epilogue, other layouts: "
    prec = f", {m['precision']}" if m.get("precision") else ""
    t = Table(title=f"{pick}{m['strategy']} ({p}) at {M}×{N}×{K}, {m['dtype']}{prec} — {m['device']}", title_justify="left",
              show_header=True)
    t.add_column("quantity")
    t.add_column("value", justify="right")
    t.add_column("meaning")

    def bytes_row(key: str, meaning: str) -> None:
        t.add_row(key, f"{m[key]:,}", meaning)

    bytes_row("naive_bytes", "A+B reads if every output read its row and column (M·N·2K)")
    bytes_row("tiled_bytes", "A+B reads of this config (its tiles, padded grid included)")
    bytes_row("min_bytes", "A+B reads if each input were read once (M·K+K·N)")
    bytes_row("output_bytes", "C written once (M·N)")
    if m.get("padding_bytes"):
        bytes_row("padding_bytes", "copies into rows padded to 16 bytes before the launch (reads + writes)")
    t.add_row("reduction", f"{m['reduction']:.2f}×", "naive_bytes / tiled_bytes")
    t.add_row("traffic_over_min", f"{m['traffic_over_min']:.2f}×", "tiled_bytes / min_bytes")
    t.add_row("intensity", f"{m['intensity']:.2f}", "FLOP per byte of this config's traffic (reads, C write, workspace, padding)")
    t.add_row("reuse_factor", f"{m['reuse_factor']:.2f}", "multiply-adds per element fetched from global memory")
    t.add_section()
    t.add_row("tile (bm×bn, k)", f"{m['tile_mn'][0]}×{m['tile_mn'][1]}, {m['tile_k']}", "C tile per block, K step")
    t.add_row("grid / blocks", f"{tuple(m['grid'])} / {m['blocks']:,}", "")
    t.add_row("threads_per_block", str(m["threads_per_block"]), f"{m['outputs_per_thread']:g} outputs per thread")
    t.add_row("smem_bytes", f"{m['smem_bytes']:,}", "shared memory per block")
    t.add_row("registers", "–" if m["registers"] is None else str(m["registers"]), m["registers_source"])
    regs = m["blocks_per_sm_regs"]
    t.add_row("blocks/SM", str(m["blocks_per_sm"]),
              f"by threads {m['blocks_per_sm_threads']}, by smem {m['blocks_per_sm_smem']}, "
              f"by registers {'–' if regs is None else regs}, slots {m['blocks_per_sm_max']}")
    t.add_row("occupancy", f"{100 * m['occupancy']:.1f}%", f"theoretical; limited by {m['occupancy_limiter']}")
    t.add_row("waves", "–" if m["waves"] is None else f"{m['waves']:.2f}", "blocks / (resident blocks × SMs)")
    t.add_section()
    t.add_row("peak", "–" if m["peak_tflops"] is None else f"{m['peak_tflops']:.1f} TFLOP/s",
              m.get("peak_basis", f"SMs × {FP32_LANES_PER_SM} × 2 × clock"))
    t.add_row("bandwidth", "–" if m["bandwidth_gbs"] is None else f"{m['bandwidth_gbs']:.0f} GB/s", "measured copy")
    t.add_row("roofline", "–" if m["roofline_ms"] is None else f"{m['roofline_ms']:.4f} ms",
              "max(compute, min traffic / bandwidth)")
    if m["measured_ms"] is not None:
        t.add_row("measured", f"{m['measured_ms']:.4f} ms", f"{m['measured_tflops']:.2f} TFLOP/s, "
                  f"{m['pct_of_roofline']:.1f}% of the roofline bound" if m["pct_of_roofline"] else "")
    if m.get("candidates"):
        from rich.console import Group

        return Group(t, candidates_table(m))
    return t


__all__ = ["explain", "explain_table", "candidates_table", "ranked_candidates", "layouts_note", "traffic", "occupancy",
           "peak_fp32_tflops", "peak_half_tflops", "measured_bandwidth_gbs",
           "REQUIRED_KEYS"]
