"""The autotuner: try every config of every tunable strategy on one shape, keep the fastest correct one.

For an M x N x K product of `dtype`, :func:`tune`

1. enumerates the search space (default config included) of each tunable strategy of the
   registry (``Strategy.tunable``) in the precision modes the request allows for the shape
   (:func:`tiled_matmul.precision.modes_for`: tensor-core configs take the mode's ``passes``, FFMA
   configs only "ieee"), keeping only configs whose ``validate()`` passes for the device and dtype;
2. measures each candidate with :mod:`tiled_matmul.measure` on one set of fresh inputs: it is run
   once into a NaN-poisoned output and checked against the float64 reference; a candidate that
   fails the check (``failed``) or cannot compile or run (``error``) is recorded and never timed;
3. a candidate whose validated call took over `prune` times the best median so far (and over
   :data:`PRUNE_FLOOR_MS`: below that, one call's time is mostly host work) is recorded as
   ``pruned`` and not timed further; the others are timed (CUDA events, L2 flushed before every
   repeat, median). What is timed is the compiled kernel launched on the checked device arrays
   (split-K's second kernel included), so Python-side argument checks do not blur the ranking of
   small shapes; that launch is validated too, and the public ``k(a, b, out=c)`` is timed instead
   where it is unavailable (each record's ``timed`` says which);
4. records, for every timed candidate, the efficiency its time shows against the cost model's
   ideal (:meth:`tiled_matmul.costmodel.Prediction.efficiency_of`: the bounding term's time at
   peak over the measured time less the launches), keyed per (term, strategy, dtype, precision
   mode, config) and per (term, strategy, dtype, mode);
5. where `auto` computes the shape as its transpose (an A·x product,
   :func:`tiled_matmul.dispatch.transposed_choice`), times that run too (:attr:`TuneResult.transposed`):
   a database entry would replace it, so none is saved where it beats every candidate;
6. returns a :class:`TuneResult` (best strategy and params, its time, every candidate as a
   :class:`tiled_matmul.measure.Record`, the efficiencies) and, unless ``save=False``, stores the
   best in the tuning database under the shape's bucket for the precision request
   (:func:`tiled_matmul.tunedb.bucket`), where ``strategy="auto"`` with that request finds it, and
   the efficiencies beside the entries, where the cost model finds them.

Command line: ``tiled-matmul tune --sizes 4096 3001x2999x3007 --dtype float32 --precision auto,tf32``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

from . import api, costmodel, registry, report, tunedb
from . import precision as _precision
from .configs import Config
from .device import gpu_available
from .dtypes import as_dtype
from .operands import launch_flags
from .measure import (OK, PRUNED, L2Flusher, Record, Row, cublas_row, make_inputs, measure, precisions_arg, pruned,
                      shape_arg, strategy_row, time_validated, tolerance_for, validate)

#: The ``study`` of every record the tuner makes.
TUNE = "tune"


@dataclass
class TuneResult:
    """What :func:`tune` found for one shape."""

    shape: tuple[int, int, int]
    dtype: str
    device: str
    cc: str
    bucket: str
    best: "Record | None"
    candidates: list[Record] = field(default_factory=list)
    cublas_ms: "float | None" = None
    seconds: float = 0.0
    db_path: "str | None" = None
    #: the precision request tuned for (the bucket's); the best's own mode is ``best.precision``
    precision: str = "auto"
    #: cost-model efficiency key -> efficiency the candidates' times show (:func:`efficiency_samples`)
    efficiency: dict = field(default_factory=dict)
    #: `auto`'s transposed run of the shape (C^T = B^T A^T, then C^T copied into C), timed where
    #: auto computes the shape that way (its strategy and params are the inner kernel's); else None
    transposed: "Record | None" = None

    @property
    def transposed_wins(self) -> bool:
        """Whether auto's transposed run beat every candidate (then :func:`tune` saves nothing)."""
        t = self.transposed
        return (t is not None and t.status == OK and t.median_ms is not None
                and (self.best is None or t.median_ms < self.best.median_ms))

    @property
    def strategy(self) -> "str | None":
        return self.best.strategy if self.best else None

    @property
    def params(self) -> dict:
        return dict(self.best.params) if self.best else {}

    @property
    def vs_cublas(self) -> "float | None":
        """cuBLAS time / best time: > 1 means faster than cuBLAS."""
        if self.best and self.cublas_ms and self.best.median_ms:
            return self.cublas_ms / self.best.median_ms
        return None

    def as_dict(self) -> dict:
        def record(r: Record) -> dict:
            return {**r.as_dict(), "params": r.params}

        d = asdict(self)
        d["best"] = None if self.best is None else record(self.best)
        d["candidates"] = [record(c) for c in self.candidates]
        d["transposed"] = None if self.transposed is None else record(self.transposed)
        d["vs_cublas"] = self.vs_cublas
        return d

    def best_efficiency(self) -> "float | None":
        """The efficiency the best candidate's time shows (its own config key), or None."""
        if self.best is None:
            return None
        for term in costmodel.TERMS:
            cfg = registry.get(self.best.strategy).make_config(**self.best.params)
            key = costmodel.efficiency_keys(cfg, self.dtype, term)[0]
            if key in self.efficiency:
                return round(self.efficiency[key], 4)
        return None

    def entry(self) -> dict:
        """The database entry recorded for this result."""
        b = self.best
        assert b is not None
        M, N, K = self.shape
        return {
            "strategy": b.strategy, "params": dict(b.params), "median_ms": round(b.median_ms, 5),
            "min_ms": round(b.min_ms, 5), "iqr_ms": round(b.iqr_ms, 5), "repeats": b.repeats,
            "tflops": round(b.tflops, 3), "rel_err": b.rel_err, "shape": [M, N, K], "dtype": self.dtype,
            "request": self.precision, "precision": b.precision,
            "cublas_ms": None if self.cublas_ms is None else round(self.cublas_ms, 5),
            "efficiency": self.best_efficiency(),
            "candidates": sum(c.status in (OK, PRUNED) for c in self.candidates),
            "tuned_at": tunedb.timestamp(),
        }


def search_space(strategies: "Iterable[str] | None" = None, dtype="float32", device: Any = None,
                 modes: "Sequence[str] | None" = None) -> list[tuple[registry.Strategy, Config]]:
    """(strategy, config) pairs to try: each tunable strategy's default and search space, in each
    precision mode of `modes` the strategy computes (tensor-core configs ``.with_precision(mode)``;
    default: the configs as they are), valid for `device` and `dtype`, without duplicates. Naming a
    non-tunable strategy is allowed."""
    if strategies is None:
        entries = [s for s in registry.STRATEGIES.values() if s.tunable]
    else:
        if isinstance(strategies, str):
            strategies = [strategies]
        entries = [registry.get(s) for s in strategies]
    out = []
    for entry in entries:
        configs = entry.configs if modes is None else [
            cfg.with_precision(m) for m in modes for cfg in entry.configs if m in type(cfg).PRECISIONS]
        out.extend((entry, cfg) for cfg in dict.fromkeys(configs) if cfg.is_valid(device, dtype))
    return out


#: the cost model's fastest predicted candidates :func:`candidates` adds to the search space: the
#: model also weighs split counts outside the search spaces (costmodel.SPLITS) and the heuristic's
#: pick, and a tuned entry overrides the model, so the tuner times what the model would run and an
#: entry is never one the model's own pick beats in the same run (float64 256x256x131072: the
#: tuner's best search-space split ran 0.42 ms where the model's split of 32 ran 0.38)
MODEL_PICKS = 3


def candidates(M: int, N: int, K: int, dtype="float32", strategies: "Iterable[str] | None" = None,
               device: Any = None, modes: "Sequence[str] | None" = None,
               precision: str = "auto") -> list[tuple[registry.Strategy, Config]]:
    """What :func:`tune` times for a shape: :func:`search_space`, then the cost model's
    MODEL_PICKS fastest predicted candidates (of `strategies`, in `modes`, under the request
    `precision`) that it lacks, each also with its tile cut to the output as `auto` runs it
    (:func:`tiled_matmul.dispatch.narrowed`), and the pick `auto` makes where no database entry
    serves the shape (:func:`tiled_matmul.dispatch.fallback_choice`), so an entry the tuner saves
    was timed against it."""
    from .dispatch import fallback_choice, measured_efficiencies, narrowed

    if isinstance(strategies, str):
        strategies = [strategies]
    space = search_space(strategies, dtype, device, modes)
    have = {(e.name, c) for e, c in space}
    names = None if strategies is None else [registry.get(s).name for s in strategies]
    try:
        ranked = costmodel.rank(M, N, K, dtype, precision, device, measured_efficiencies(device), names)
    except ValueError:  # a request the model does not weigh for this dtype: the search space alone
        return space
    # the model's picks as it ranks them, and as `auto` runs them (the tile cut to the output)
    picks = [(p.strategy, params) for p in ranked[:MODEL_PICKS]
             for params in (p.params, narrowed(p.strategy, dict(p.params), M, device))]
    auto = fallback_choice(M, N, K, dtype, device, precision)
    if names is None or registry.get(auto.strategy).name in names:
        picks.append((auto.strategy, auto.params))
    for name, params in picks:
        entry = registry.get(name)
        cfg = entry.make_config(**params)
        if (modes is None or cfg.precision in modes) and (entry.name, cfg) not in have and cfg.is_valid(device, dtype):
            space.append((entry, cfg))
            have.add((entry.name, cfg))
    return space


def tune(M: int, N: int, K: int, dtype="float32", strategies: "Iterable[str] | None" = None, *,
         repeat: int = 10, warmup: int = 2, budget_ms: float = 400.0, prune: float = 3.0,
         cublas: bool = True, save: bool = True, db_path: Any = None, device: "int | None" = None,
         progress: bool = True, seed: "int | None" = None, precision: "str | None" = None) -> TuneResult:
    """Find the fastest correct (strategy, params) for an M x N x K product of `dtype` under the
    precision request `precision` (None: the process default; see :mod:`tiled_matmul.precision`).

    The candidates are the configs computing a mode the request allows for the shape
    (:func:`tiled_matmul.precision.modes_for`; "auto" allows tf32x3 from K = TF32X3_MIN_K, else
    ieee only): the search spaces and the cost model's fastest predictions (:func:`candidates`). `strategies` limits the search (default: every tunable strategy). Each survivor of
    the check is timed over at most `repeat` L2-flushed calls after `warmup`, fewer when a call is
    long (about `budget_ms` of timed work per candidate, never under 3). `cublas` also measures
    ``cupy.matmul`` for scale (TF32 on for a "tf32" request, else FP32 with TF32 off). With `save`,
    the best goes into the tuning database at `db_path` (default
    :func:`tiled_matmul.tunedb.user_db_path`) under ``tunedb.bucket(M, N, K, dtype, precision)``; a
    database that cannot be written only warns.

    Raises RuntimeError without a CUDA device (CuPy missing included); ValueError for a precision
    `dtype` does not take (float64: "auto" or "ieee") or when no named strategy computes a mode
    the request allows.

    >>> r = tune(2048, 2048, 2048)                 # doctest: +SKIP
    >>> r.strategy, r.params, r.best.median_ms     # doctest: +SKIP
    """
    M, N, K = (int(x) for x in (M, N, K))
    if min(M, N, K) < 1:
        raise ValueError(f"tune needs M, N, K >= 1; got {M}x{N}x{K}")
    dt = as_dtype(dtype)
    request = _precision.resolve(precision, dt)
    modes = _precision.modes_for(request, dt, K)
    if strategies is not None and not search_space(strategies, dt, None, modes):  # no GPU needed to tell
        raise _no_candidates(dt, request, modes, K, strategies)
    if not gpu_available():  # before anything imports CuPy, which may be missing
        raise RuntimeError("tune needs a CUDA device and none is available (cupy.is_available() is False)")
    import cupy

    dev = cupy.cuda.runtime.getDevice() if device is None else int(device)
    t_start = time.perf_counter()
    plan = dict(repeat=repeat, budget_s=budget_ms / 1e3, warmup=warmup)
    with cupy.cuda.Device(dev):
        ident = tunedb.device_id(dev)
        space = candidates(M, N, K, dt, strategies, dev, modes, request)
        if not space:
            raise _no_candidates(dt, request, modes, K, strategies)
        sets = make_inputs((M, N, K), dt, seed=seed)
        flush = L2Flusher()
        result = TuneResult((M, N, K), dt, ident.name, ident.cc, tunedb.bucket(M, N, K, dt, request), None,
                            precision=request)
        if cublas:
            result.cublas_ms = measure(cublas_row(TUNE, tf32=request == "tf32", request=request, dtype=dt), sets,
                                       flush, **plan).median_ms
        bar = report.Progress(f"tune {M}x{N}x{K} {dt}", transient=False) if progress else None
        best: "Record | None" = None
        try:
            for i, (entry, cfg) in enumerate(space):
                if bar is not None:
                    done = f" · best {best.median_ms:.3f} ms" if best else ""
                    bar(i, len(space), f"{entry.name} {cfg.tag()}"[:60] + done)
                rec = measure_candidate(entry.name, cfg, sets, flush, best, prune, plan, request)
                result.candidates.append(rec)
                if rec.ok and (best is None or rec.median_ms < best.median_ms):
                    best = rec
            # auto's own kernel for the shape: a TransposedKernel where it runs the shape as its
            # transpose (dispatch.transposed_choice)
            auto = api.kernel("auto", precision=request).kernel_for(M, N, K, dt, dev)
            if isinstance(auto, api.TransposedKernel):
                result.transposed = measure(transposed_row(auto, request), sets, flush, **plan)
            if bar is not None:
                bar(len(space), len(space), f"best {best.label() if best else '-'}")
        finally:
            if bar is not None:
                bar.close()
        del sets, flush
    result.best = best
    result.efficiency = efficiency_samples(result.candidates, (M, N, K), dt, dev)
    result.seconds = time.perf_counter() - t_start
    if best is None:
        warnings.warn(f"tune {M}x{N}x{K} {dt}: no candidate passed the check; nothing saved "
                      f"({'; '.join(c.label() + ': ' + c.status + ' ' + c.message for c in result.candidates)[:800]})",
                      RuntimeWarning, stacklevel=2)
        return result
    if save and result.transposed_wins:
        warnings.warn(f"tune {M}x{N}x{K} {dt}: auto's transposed run ({result.transposed.label()}, "
                      f"{result.transposed.median_ms:.3f} ms) beat every candidate (best {best.label()}, "
                      f"{best.median_ms:.3f} ms); nothing saved, since an entry would replace that run",
                      RuntimeWarning, stacklevel=2)
    elif save:
        try:
            path = tunedb.save_entries({result.bucket: result.entry()}, ident, db_path, efficiency=result.efficiency)
            result.db_path = str(path)
        except OSError as exc:
            warnings.warn(f"tune: could not save to the tuning database ({exc}); result not persisted",
                          RuntimeWarning, stacklevel=2)
    return result


def transposed_row(k: "api.TransposedKernel", request: str = "") -> Row:
    """A row running `auto`'s transposed computation `k` of an A·x product (what
    ``api.kernel("auto").kernel_for`` gives for it) as a plain 2-D call of the shape runs it; its
    strategy and config are the inner kernel's (:attr:`TuneResult.transposed` says what it is)."""
    cfg = k.inner.config
    return Row(TUNE, k.inner.strategy.name, lambda a, b, c: k(a, b, out=c), cfg,
               tol=tolerance_for(cfg.precision), precision=cfg.precision, request=request)


def efficiency_samples(records: Iterable[Record], shape: tuple[int, int, int], dtype: Any,
                       device: Any = None) -> dict[str, float]:
    """Cost-model efficiency key -> the efficiency the timed `records` show at `shape`: each
    timed candidate's under its config key, and per strategy family the geometric mean of its
    configs' (records too short to say, :meth:`Prediction.efficiency_of`, are left out)."""
    import math

    M, N, K = shape
    out: dict[str, float] = {}
    family: dict[str, list[float]] = {}
    for rec in records:
        if rec.status != OK or not rec.median_ms:
            continue
        try:
            cfg = registry.get(rec.strategy).make_config(**rec.params)
            shown = costmodel.predict(cfg, M, N, K, dtype, device).efficiency_of(rec.median_ms)
        except (ValueError, TypeError, NotImplementedError):
            continue
        if shown is None:
            continue
        term, eff = shown
        key, fam = costmodel.efficiency_keys(cfg, dtype, term)
        out[key] = round(eff, 4)
        family.setdefault(fam, []).append(eff)
    for fam, effs in family.items():
        out[fam] = round(math.exp(sum(map(math.log, effs)) / len(effs)), 4)
    return out


def _no_candidates(dt: str, request: str, modes: Sequence[str], K: int, strategies: Any) -> ValueError:
    return ValueError(f"no valid config to tune for {dt} under precision {request!r} (modes "
                      f"{', '.join(modes)} at K={K}) among strategies {strategies!r}")


#: a first call shorter than this is never pruned on its time: one unflushed call of a few tens
#: of microseconds is mostly the host's launch work (a split-K product's two launches and its
#: workspace: 60-90 us against 13 us for an unsplit kernel whose timed median is 1.3x slower,
#: H100, 256^3-512^3), and timing such a candidate in full costs milliseconds
PRUNE_FLOOR_MS = 1.0


def should_prune(probe_ms: float, best: "Record | None", prune: float) -> bool:
    """Whether a candidate whose validated first call took `probe_ms` is dropped untimed: over
    `prune` times the best median so far, and over :data:`PRUNE_FLOOR_MS`."""
    return best is not None and probe_ms > max(prune * best.median_ms, PRUNE_FLOOR_MS)


def measure_candidate(name: str, cfg: Config, sets, flush, best: "Record | None" = None, prune: float = 3.0,
                      plan: "dict | None" = None, request: str = "") -> Record:
    """Validate one candidate (at the tolerance of the mode it computes in), then (unless its
    first call took over `prune` times `best`'s median) time it as the tuner does: its bare launch
    where that passes the check too, else its public call. `plan`: repeat, budget_s and warmup."""
    plan = plan or dict(repeat=10, budget_s=0.4, warmup=2)
    row = strategy_row(TUNE, name, cfg, request)
    v = validate(row, sets)
    if v.rejected is not None:
        return v.rejected
    launch = _launch_row(row, sets)
    if launch is not None:
        v_launch = validate(launch, sets)
        if v_launch.rejected is None:
            row, v = launch, v_launch
    if should_prune(v.probe_ms, best, prune):
        return pruned(row, v, sets, f"first call {v.probe_ms:.3g} ms > {prune:g} x best {best.median_ms:.3g} ms")
    return time_validated(row, v, sets, flush, **plan)


def _launch_row(row: Row, sets) -> "Row | None":
    """`row`'s compiled kernel launched directly on the input set's device arrays: what
    ``MatmulKernel`` ends in after its Python-side checks, which at small sizes (tens of µs) would
    otherwise leak into the CUDA-event time and blur the ranking. None when unavailable."""
    a, b, c = sets[0]
    M, K = a.shape
    N = b.shape[1]
    try:
        import cupy

        k = api.kernel(row.strategy, **row.config.params())
        dt = as_dtype(a.dtype)
        compiled = k.compiled(dt, a.data.device_id)
        launch = k.config.launch
        stream = cupy.cuda.get_current_stream

        def run(a, b, c):
            flags = launch_flags(a.data.ptr, b.data.ptr, c.data.ptr, K, N, dt.itemsize)
            launch(compiled, a, b, c, M, N, K, flags, stream())
    except Exception:
        return None
    return dataclasses.replace(row, call=run, timed="launch")


def tune_many(sizes: Iterable[tuple[int, int, int]], dtype="float32", strategies=None, **kwargs) -> list[TuneResult]:
    """:func:`tune` for each (M, N, K) of `sizes`, in order."""
    return [tune(M, N, K, dtype, strategies, **kwargs) for M, N, K in sizes]


# ---------------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------------
def _strategy_list(text: str) -> list[str]:
    names = [s for s in text.replace(" ", ",").split(",") if s]
    for n in names:
        if n not in registry.STRATEGIES:
            raise argparse.ArgumentTypeError(f"unknown strategy {n!r}; registered: {', '.join(registry.STRATEGIES)}")
    return names


def add_arguments(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the `tune` options to `p` (shared by ``tiled-matmul tune`` and ``python -m tiled_matmul.tuner``)."""
    p.add_argument("--sizes", "-s", nargs="+", type=shape_arg, required=True, metavar="SIZE",
                   help="shapes to tune: N (for N^3) or MxNxK, e.g. 4096 3001x2999x3007")
    p.add_argument("--dtype", "-d", nargs="+", default=["float32"],
                   choices=["float32", "float64", "float16", "bfloat16"], help="dtype(s) to tune (default float32)")
    p.add_argument("--strategies", type=_strategy_list, default=None, metavar="A,B",
                   help="comma-separated strategies to search (default: every tunable one)")
    p.add_argument("--precision", type=precisions_arg, default=None, metavar="P,Q",
                   help=f"precision request(s) to tune for, comma-separated, each one of "
                        f"{', '.join(_precision.REQUESTS)} (default: the process default, "
                        f"{_precision.ENV} or auto); float64 takes auto or ieee")
    p.add_argument("--repeat", type=int, default=10, help="most timed repeats per candidate (default 10)")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls before timing (default 2)")
    p.add_argument("--budget-ms", type=float, default=400.0,
                   help="timed work per candidate; long calls get fewer repeats, never under 3 (default 400)")
    p.add_argument("--db", default=None, metavar="PATH",
                   help=f"tuning database to write (default ${tunedb.ENV_VAR} or the user cache)")
    p.add_argument("--no-save", action="store_true", help="do not write the tuning database")
    p.add_argument("--no-cublas", action="store_true", help="do not time cupy.matmul for comparison")
    p.add_argument("--json", default=None, metavar="PATH", help="also write every result, all candidates, as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return p


def add_subcommand(subparsers) -> argparse.ArgumentParser:
    """Register ``tune`` on an argparse subparsers object; the handler is set as `func`."""
    p = subparsers.add_parser("tune", help="autotune shapes and store the best configs for strategy='auto'",
                              description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.set_defaults(func=run_cli)
    return p


def run_cli(args: argparse.Namespace) -> int:
    """Run a parsed ``tune`` command; prints a summary table; returns the exit status."""
    requests = getattr(args, "precision", None) or [_precision.get_precision()]
    for dt in args.dtype:  # every (dtype, request) pair is checked before anything is tuned
        for request in requests:
            _precision.check(request, dt)
    results: list[TuneResult] = []
    for dt in args.dtype:
        for request in requests:
            for M, N, K in args.sizes:
                results.append(tune(M, N, K, dt, args.strategies, repeat=args.repeat, warmup=args.warmup,
                                    budget_ms=args.budget_ms, cublas=not args.no_cublas, save=not args.no_save,
                                    db_path=args.db, progress=not args.quiet, precision=request))
    print_summary(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([r.as_dict() for r in results], f, indent=1)
    saved = {r.db_path for r in results if r.db_path}
    for path in sorted(saved):
        print(f"saved to {path}")
    return 0 if all(r.best is not None for r in results) else 1


def print_summary(results: Sequence[TuneResult]) -> None:
    rows = []
    for r in results:
        b = r.best
        ok = sum(c.status in (OK, PRUNED) for c in r.candidates)
        rows.append([
            "x".join(map(str, r.shape)), r.dtype, r.precision, r.bucket.split("/", 1)[1],
            b.strategy if b else "-", b.precision if b else "-",
            ", ".join(f"{k}={v}" for k, v in b.params.items()) if b else "-",
            f"{b.median_ms:.3f}" if b else "-", f"{b.tflops:.1f}" if b else "-",
            f"{r.cublas_ms:.3f}" if r.cublas_ms else "-", f"{r.vs_cublas:.2f}" if r.vs_cublas else "-",
            f"{ok}/{len(r.candidates)}",
        ])
    head = ["shape", "dtype", "request", "bucket", "best", "mode", "params", "ms", "TFLOP/s", "cuBLAS ms", "xcuBLAS",
            "ok"]
    from rich.table import Table

    t = Table(*head, title="tiled-matmul tune")
    for row in rows:
        t.add_row(*row)
    report.console().print(t)
    for r in results:
        tr = r.transposed
        if tr is not None:
            how = (f"{tr.median_ms:.3f} ms, {'faster than' if r.transposed_wins else 'not faster than'} the best"
                   if tr.status == OK else f"{tr.status}: {tr.message}")
            note = "; nothing saved" if r.transposed_wins and r.db_path is None else ""
            report.console().print(f"{'x'.join(map(str, r.shape))} {r.dtype}: auto runs it as its transpose "
                                   f"({tr.label()}): {how}{note}")


def main(argv: "Sequence[str] | None" = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tiled_matmul.tuner", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return run_cli(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
