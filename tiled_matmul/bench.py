"""The benchmark behind ``tiled-matmul bench``: the strategy ladder against cuBLAS, and a tile-size study.

:func:`run` returns a :class:`BenchResult` of :class:`tiled_matmul.measure.Record` rows; the
terminal tables, the JSON/CSV files (:mod:`tiled_matmul.report`) and the PNG plots
(:mod:`tiled_matmul.plots`) are all made from those same records.

Every row is measured by :mod:`tiled_matmul.measure`: at each size every row is validated (a
NaN-poisoned output checked against a float64 reference) before any row is timed, a row that
fails is reported (``status="failed"``) and never timed, and the timed calls are CUDA-event
medians with the L2 flushed before each repeat and the input set rotated where one fits in L2.

**Time budget**: a row runs ``repeat`` timed calls (default 10) unless that would exceed
``row_budget_s`` (default 1 s): then it runs ``budget / probe`` calls, but at least ``min_repeat``
(3). This keeps naive at 4096³ (well over 100 ms per call) to a handful of calls.

Small sizes: each timed call goes through the public :class:`tiled_matmul.MatmulKernel` path
(operand checks, then the launch). Where the kernel is shorter than that host work, the row
measures the launch path, not the kernel.

**Precision** (:mod:`tiled_matmul.precision`): the ladder runs once per precision request of
`precision` (default: the process default, ``"auto"`` unless set). Each request is a block of
rows at each size: the named strategies computing a mode the request allows (tensor-core rungs
take the request's mode, ``passes=1`` for ``"tf32"``; a strategy that cannot compute it is a
``skipped`` row saying why), ``auto`` under the request, and the request's cuBLAS reference. Every
row records the mode it computes in (``precision``) and the request (``request``); % cuBLAS is
against the reference of the same request.

cuBLAS is ``cupy.matmul`` with CuPy's float32 compute type set explicitly (whatever ``CUPY_TF32``
says): TF32 *off* (plain FP32) for the ``ieee``, ``tf32x3`` and ``auto`` requests, TF32 on
(``cuBLAS TF32``, validated at a TF32 tolerance) for ``tf32``. ``tf32=True`` adds a ``cuBLAS
TF32`` row to the other requests' blocks too.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Iterable, Sequence

from . import device, dispatch, registry
from . import precision as _precision
from .compile import get_kernel
from .configs import Config
from .dtypes import DType, as_dtype
from .measure import (AUTO, CUBLAS, CUBLAS_TF32, DEFAULT_BUDGET_S, DEFAULT_REPEAT, MIN_REPEAT,
                      L2Flusher, Record, Row, Shape, auto_row, bf16_cublas, cublas_compute_type, cublas_row,
                      make_inputs, n_input_sets, parse_precisions, parse_shape, parse_shapes, shape_label, skipped_row, strategy_row,
                      time_validated, validate)

#: The ladder's default sizes: five cubes and one ragged shape.
DEFAULT_SIZES: tuple[Shape, ...] = ((256,) * 3, (512,) * 3, (1024,) * 3, (2048,) * 3, (4096,) * 3, (3000, 2000, 1000))
#: ``--quick`` sizes.
QUICK_SIZES: tuple[Shape, ...] = ((256,) * 3, (512,) * 3, (1024,) * 3, (1000, 700, 300))
#: Strategies whose search spaces make up the tile-size study (those registered are used).
TILE_STUDY_STRATEGIES: tuple[str, ...] = ("smem_tiled", "rect_tiled")
DEFAULT_TILE_SIZE: Shape = (2048,) * 3
QUICK_TILE_SIZE: Shape = (1024,) * 3
QUICK_REPEAT = 5
LADDER, TILES = "ladder", "tiles"


class NoGPUError(RuntimeError):
    """Raised by :func:`run` where CuPy sees no CUDA device."""


@dataclass
class BenchResult:
    """What :func:`run` returns: run metadata and every record, ladder first then the tile study."""

    meta: dict[str, Any]
    records: list[Record] = field(default_factory=list)

    def ladder(self) -> list[Record]:
        return [r for r in self.records if r.study == LADDER]

    def tiles(self) -> list[Record]:
        return [r for r in self.records if r.study == TILES]

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta, "records": [r.as_dict() for r in self.records]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "BenchResult":
        names = {f.name for f in fields(Record)}
        return cls(dict(data.get("meta", {})), [Record(**{k: v for k, v in r.items() if k in names})
                                                 for r in data.get("records", [])])


def resolve_strategies(names: "Iterable[str] | str | None") -> list[str]:
    """Strategy names to benchmark: every registered one in registry order, then ``auto``, when
    `names` is None (or "all")."""
    if names is None or names == "all":
        return [*registry.STRATEGIES, AUTO]
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    names = list(names)
    if not names:
        raise ValueError(f"no strategies given; registered strategies: {', '.join(registry.STRATEGIES)}, {AUTO}")
    return [n if n == AUTO else registry.get(n).name for n in names]


#: the precision requests of a run (see :func:`tiled_matmul.measure.parse_precisions`)
resolve_precisions = parse_precisions


def reference_name(request: str) -> str:
    """The cuBLAS row a request is compared with: TF32 cuBLAS for "tf32", FP32 (TF32 off) otherwise."""
    return CUBLAS_TF32 if request == "tf32" else CUBLAS


def parse_dtypes(dtypes: Any) -> list[DType]:
    """Element types of a run, in order without repeats: a dtype-like, a list of them, or text
    like ``"float16,bfloat16,float32"``. TypeError (from :func:`tiled_matmul.dtypes.as_dtype`)
    naming the allowed ones for anything else.

    >>> parse_dtypes("float16, bfloat16,float32")
    [DType('float16'), DType('bfloat16'), DType('float32')]
    """
    if isinstance(dtypes, str):
        dtypes = [d.strip() for d in dtypes.split(",") if d.strip()]
    elif not isinstance(dtypes, (list, tuple)):
        dtypes = [dtypes]
    out = list(dict.fromkeys(as_dtype(d) for d in dtypes))
    if not out:
        raise ValueError("no dtype given")
    return out


def request_rows(study: str, names: Sequence[str], dt: DType, request: str, tf32: bool = False) -> list[Row]:
    """The rows of one precision request: each named strategy's default config computing a mode
    `request` allows (a ``skipped`` row, saying why, where it computes none), ``auto`` under the
    request, then the request's cuBLAS reference (and, with `tf32`, a TF32 cuBLAS row too).
    Strategies that do not compute `dt` or cannot run on this GPU are left out. No GPU needed."""
    rows: list[Row] = []
    for name in names:
        if name == AUTO:
            rows.append(auto_row(study, request))
            continue
        entry = registry.get(name)
        if not (entry.supports(dt) and entry.runs_on()):
            continue
        cfg = entry.default
        if request == "auto":  # each strategy computes in its own (default) mode
            rows.append(strategy_row(study, entry.name, cfg, request))
        elif request in type(cfg).PRECISIONS:
            rows.append(strategy_row(study, entry.name, cfg.with_precision(request), request))
        else:
            rows.append(skipped_row(study, entry.name, cfg, request,
                                    f"{entry.name} computes precision {' or '.join(type(cfg).PRECISIONS)} only, "
                                    f"not {request!r}"))
    rows.append(cublas_row(study, tf32=request == "tf32", request=request, dtype=dt))
    if tf32 and request != "tf32":
        rows.append(cublas_row(study, tf32=True, request=request))
    return rows


def auto_mode(M: int, N: int, K: int, dtype: Any, request: str) -> str:
    """The precision mode ``matmul(strategy="auto", precision=request)`` computes an M x N x K
    product in (its choice's config's mode; no GPU needed)."""
    choice = dispatch.choose(M, N, K, dtype, precision=_precision.resolve(request or None, dtype))
    return registry.get(choice.strategy).make_config(**choice.params).precision


def _derive(records: Sequence[Record]) -> None:
    """Fill % of cuBLAS (against the cuBLAS reference of the record's precision request) and
    speedup vs naive within each (study, shape) group."""
    groups: dict[tuple, list[Record]] = {}
    for r in records:
        groups.setdefault((r.study, r.shape, r.dtype), []).append(r)
    for group in groups.values():
        naive = next((r.median_ms for r in group if r.strategy == "naive" and r.ok), None)
        for r in group:
            if not r.ok:
                continue
            ref_name = reference_name(r.request)
            ref = next((x.median_ms for x in group if x.request == r.request and x.strategy == ref_name and x.ok),
                       None)
            r.pct_cublas = 100.0 * ref / r.median_ms if ref else None
            r.speedup_vs_naive = naive / r.median_ms if naive else None


def _precompile(rows: Sequence[Row], dtype: str) -> None:
    """Compile every kernel the run needs, in parallel (NVRTC runs outside the GIL); errors are
    left for the row's validation to report."""
    import cupy

    dev = cupy.cuda.Device().id
    todo = {(r.strategy, r.config) for r in rows if r.config is not None and not r.skip}
    if not todo:
        return

    def one(item):
        try:
            get_kernel(item[0], item[1], dtype, dev)
        except Exception:
            pass

    with ThreadPoolExecutor(max_workers=min(8, len(todo))) as pool:
        list(pool.map(one, sorted(todo, key=lambda x: (x[0], x[1].tag()))))


def _label(row: Row, requests: Sequence[str]) -> str:
    """A row's progress label, naming its precision request where the run has several."""
    return f"[{row.request}] {row.label}" if len(requests) > 1 and row.request else row.label


def tile_study_configs(names: Sequence[str] = TILE_STUDY_STRATEGIES) -> list[tuple[str, Config]]:
    """Default plus search-space configs (deduplicated) of the registered tile-study strategies."""
    out: list[tuple[str, Config]] = []
    for name in names:
        entry = registry.STRATEGIES.get(name)
        if entry is None:
            continue
        out.extend((name, c) for c in sorted(entry.configs, key=lambda c: (c.threads, tuple(c.params().values()))))
    return out


def _check_positive_int(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int; got {value!r}")


def run(strategies: "Sequence[str] | str | None" = None, sizes: "Sequence[Shape] | str | None" = None,
        dtype: Any = "float32", repeat: "int | None" = None, quick: bool = False, tf32: bool = False,
        tile_study: bool = True, tile_size: "Shape | str | int | None" = None,
        row_budget_s: float = DEFAULT_BUDGET_S, min_repeat: int = MIN_REPEAT,
        progress: "Callable[[int, int, str], None] | None" = None, extra_rows: Sequence[Row] = (),
        precision: "Sequence[str] | str | None" = None) -> BenchResult:
    """Benchmark the ladder (each strategy's default config plus cuBLAS at each size) and the tile
    study; return every row as a :class:`tiled_matmul.measure.Record`.

    `strategies`: names (default: every registered strategy). `sizes`: shapes or text like
    ``"1024,3000x2000x1000"`` (default :data:`DEFAULT_SIZES`, or :data:`QUICK_SIZES` with `quick`).
    `dtype`: one element type or several (``"float16,bfloat16,float32"``, :func:`parse_dtypes`):
    at each size, a ladder block per dtype (the strategies that compute it) with that dtype's
    cuBLAS row, each measured in this run; the tile study runs in the first float32/float64 one.
    `repeat`: timed calls per row (default 10; 5 with `quick`), reduced for slow rows to fit
    `row_budget_s` (never below `min_repeat`). `precision`: the precision request(s) to run, a
    block of ladder rows each (names or text like ``"ieee,tf32x3,tf32"``; default the process
    default, see :func:`tiled_matmul.get_precision`). `tf32` adds a TF32 cuBLAS row to every
    block. `progress` is called as ``progress(done, total, label)`` before each row. `extra_rows`
    are appended to the ladder (each must be a :class:`tiled_matmul.measure.Row`).

    Raises :class:`NoGPUError` without a CUDA device, ValueError/TypeError for bad arguments.
    """
    names = resolve_strategies(strategies)
    shapes = list(QUICK_SIZES if quick else DEFAULT_SIZES) if sizes is None else parse_shapes(sizes)
    if not shapes:
        raise ValueError("no sizes to benchmark")
    dts = parse_dtypes(dtype)
    # a request named for the run applies to every dtype (float64 and 16-bit ones take auto and
    # ieee only: ValueError otherwise); the process default only where the dtype takes it
    per_dt = {d: resolve_precisions(precision, d) if precision is not None else [_precision.resolve(None, d)]
              for d in dts}
    requests = list(dict.fromkeys(r for rs in per_dt.values() for r in rs))
    if repeat is None:
        repeat = QUICK_REPEAT if quick else DEFAULT_REPEAT
    _check_positive_int("repeat", repeat)
    _check_positive_int("min_repeat", min_repeat)
    if not row_budget_s > 0:
        raise ValueError(f"row_budget_s must be > 0; got {row_budget_s!r}")
    if tf32 and "float32" not in dts:
        raise ValueError("--tf32 compares against TF32 cuBLAS, which applies to float32 only")
    for r in extra_rows:
        if not isinstance(r, Row):
            raise TypeError(f"extra_rows must hold bench.Row objects; got {type(r).__name__}")
    study_shape = parse_shape(tile_size) if tile_size is not None else (QUICK_TILE_SIZE if quick else DEFAULT_TILE_SIZE)
    if not device.gpu_available():  # looked up per call, so tests can hide the GPU
        raise NoGPUError("no CUDA GPU available (cupy.is_available() is False); "
                         "`tiled-matmul explain`, `list` and `source` work without one")

    import cupy

    t_start = time.perf_counter()
    limits = device.device_limits()
    ladder_rows = {d: [row for req in per_dt[d]
                       for row in request_rows(LADDER, names, d, req, tf32 and d == "float32")] for d in dts}
    ladder_rows[dts[0]].extend(extra_rows)
    tile_rows: list[Row] = []
    study_dt = next((d for d in dts if d in ("float32", "float64")), None)
    if tile_study and study_dt is not None:
        tile_rows = [strategy_row(TILES, n, c) for n, c in tile_study_configs()]
        if tile_rows:
            tile_rows.append(cublas_row(TILES))
    for d in dts:
        _precompile(ladder_rows[d] + (tile_rows if d == study_dt else []), d)
    t_compiled = time.perf_counter()

    flusher = L2Flusher(limits.l2_bytes)
    # (shape, dtype, rows) groups in order: the ladder of each dtype at each size, then the tile study.
    groups: list[tuple[Shape, DType, list[Row]]] = [(shape, d, ladder_rows[d]) for shape in shapes for d in dts]
    if tile_rows:
        groups.append((study_shape, study_dt, tile_rows))
    total = 2 * sum(len(rows) for _, _, rows in groups)  # a validation and a timing step per row
    step = 0
    records: list[Record] = []
    sets: list = []
    with cublas_compute_type("fp32") as compute_type:
        for shape, dt, rows in groups:
            sets = []
            cupy.get_default_memory_pool().free_all_blocks()
            M, N, K = shape
            set_bytes = (M * K + K * N + M * N) * dt.itemsize
            sets = make_inputs(shape, dt, n_input_sets(set_bytes, limits.l2_bytes))
            # Every row of the group is validated before any of them is timed.
            checked = []
            for row in rows:
                if progress is not None:
                    progress(step, total, f"check {shape_label(shape)} {_label(row, requests)}")
                step += 1
                checked.append(validate(row, sets))
            for row, v in zip(rows, checked):
                if progress is not None:
                    progress(step, total, f"time {shape_label(shape)} {_label(row, requests)}")
                step += 1
                records.append(time_validated(row, v, sets, flusher, repeat=repeat, budget_s=row_budget_s,
                                              min_repeat=min_repeat))
        if progress is not None:
            progress(total, total, "done")
    del sets, flusher
    cupy.get_default_memory_pool().free_all_blocks()
    for r in records:
        if r.strategy == AUTO and not r.precision:
            r.precision = auto_mode(r.M, r.N, r.K, r.dtype, r.request)
    _derive(records)
    bf16 = f"; bfloat16: {bf16_cublas()}" if "bfloat16" in dts else ""

    meta = {
        "device": limits.name,
        "sm_count": limits.sm_count,
        "l2_bytes": limits.l2_bytes,
        "cupy": cupy.__version__,
        "cuda_runtime": cupy.cuda.runtime.runtimeGetVersion(),
        "dtype": ",".join(dts),
        "strategies": names,
        "sizes": [list(s) for s in shapes],
        "tile_size": list(study_shape) if tile_rows else None,
        "repeat": repeat,
        "min_repeat": min_repeat,
        "row_budget_s": row_budget_s,
        "precision": requests,
        "tf32": ("off" if "tf32" not in requests else "on for precision tf32, else off") if "float32" in dts
                else f"n/a ({', '.join(dts)})",
        "tf32_row": bool(tf32),
        "cublas": f"cupy.matmul, compute type {compute_type}" + (
            (", TF32 off" + ("; TF32 for precision tf32" if "tf32" in requests else "")) if "float32" in dts else "")
        + ("; float16 with FP32 compute" if "float16" in dts else "") + bf16,
        "CUPY_TF32_env": os.environ.get("CUPY_TF32", ""),
        "timing": "CUDA events; warm-up; median and IQR over repeats; L2 flushed before each repeat "
                  f"({2 * limits.l2_bytes // (1 << 20)} MiB write); inputs rotated when a set fits in L2",
        "compile_s": round(t_compiled - t_start, 3),
        "wall_s": round(time.perf_counter() - t_start, 3),
    }
    return BenchResult(meta, records)


__all__ = ["run", "BenchResult", "NoGPUError", "resolve_strategies", "resolve_precisions", "parse_dtypes",
           "request_rows", "reference_name", "auto_mode", "tile_study_configs", "DEFAULT_SIZES", "QUICK_SIZES",
           "LADDER", "TILES"]
